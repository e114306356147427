@app-rules
Feature: A state no game can reach is refused
  Pyramide's API is stateless: each request carries the game, and the answer is the next game.
  A state that no game can reach (a score the cards do not give, a card where it was not dealt,
  a history that was never played) is refused with `422 invalid_state`, whatever move comes with
  it. The game below is the documents' deal after «KD», «TC+3S» and a draw: each example changes
  one thing in it.

  @api @rule-state
  Scenario: The game as returned is accepted
    Given the documents deal
    When I play "KD TC+3S draw"
    And I send the game back to play "draw"
    Then the waste top is "3C"

  @api @rule-state
  Scenario Outline: A forged state is refused: <what>
    Given the documents deal
    When I play "KD TC+3S draw"
    And I send the game back with "<field>" set to <value> to play "draw"
    Then the request is refused with status 422 and "invalid_state"

    Examples:
      | what                                        | field              | value                 |
      | a score the removed cards do not give       | score              | 40                    |
      | no score for removed cards                  | score              | 0                     |
      | fewer moves than the history holds          | moves              | 2                     |
      | a won game that is not won                  | status             | "won"                 |
      | a blocked game that is not blocked          | status             | "blocked"             |
      | a covered card selected                     | selected           | "QC"                  |
      | a waste card under the top selected         | selected           | "7D"                  |
      | a removed card back in its slot             | pyramid[6][5]      | "KD"                  |
      | a card in another card's slot               | pyramid[6][0]      | "3H"                  |
      | a card missing from the game                | pyramid[6][0]      | null                  |
      | the stock out of its dealt order            | stock[0]           | "4C"                  |
      | a waste card that was never drawn           | waste[1]           | "4C"                  |
      | the foundation out of the order played      | foundation         | ["TC", "3S", "KD"]    |
      | a history entry that never happened         | history[0]         | "KD@7.5"              |
      | a history pair that was never legal         | history[1]         | "TC@7.2+3H@7.3"       |
      | a history removal of three cards            | history[1]         | "KD@7.6+TC@7.2+3S@7.5" |
      | a history pair from one slot                | history[1]         | "TC@7.2+3S@7.2"       |
      | a history entry that is not an action       | history[1]         | "TC7.2+3S7.5"         |
      | a history that left out an action           | history            | ["TC@7.2+3S@7.5", "draw"] |
      | rules the code does not name                | rules.strict_win   | true                  |
      | more recycles than the rules allow          | rules.max_recycles | 0                     |
      | a code that names another deal              | code               | "PY1-N-AAAAAAS"       |
      | a code that names no deal                   | code               | "PY1-N-AAAA"          |
