@app-rules
Feature: A state no game can reach is refused, and a game is verified by replaying it
  Pyramide's API is stateless: each request carries the game, and the answer is the next game.
  Only the deal, the options and the log of every action are taken from a state; the rest is
  derived by replaying the log (docs/security.md). A state that no game can reach (a score the
  cards do not give, a card where it was not dealt, a log or history that was never played) is
  refused with `422 invalid_state`, whatever move comes with it. The game below is the documents'
  deal after «KD», «TC+3S» and a draw: each example changes one thing in it.

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
      | a history emptied                           | history            | []                    |
      | the move counter lowered to 0               | moves              | 0                     |
      | recycles claimed                            | recycles           | 1                     |
      | the log emptied, the position kept          | log                | ""                    |
      | an action left out of the log               | log                | "KD draw"             |
      | the log's actions reordered                 | log                | "TC+3S KD draw"       |
      | an undo added to the log                    | log                | "KD TC+3S draw undo"  |
      | a log move the rules refuse                 | log                | "KD TC+3S JC+2D"      |
      | a log pair out of the deck order            | log                | "KD 3S+TC draw"       |
      | rules the code does not name                | rules.strict_win   | true                  |
      | more recycles than the rules allow          | rules.max_recycles | 0                     |
      | a code that names another deal              | code               | "PYR1-N-AAAAAAS"      |
      | a code that names no deal                   | code               | "PYR1-N-AAAA"         |
      | Apophis's waste piles under one waste       | piles              | [[], []]              |
      | Apophis's waste piles under one waste       | piles              | [["4C"], []]          |

  @api @rule-replay
  Scenario: A won game is verified by replaying its moves from the deal
    Given the easy deal
    When I replay "KC AC+QC 2C+JC 3C+TC 4C+9C 5C+8C 6C+7C KD AD+QD 2D+JD 3D+TD 4D+9D 5D+8D KH 6D+7D KS" from the deal
    Then the replay is valid: 16 moves, 280 points, "won"

  @api @rule-replay
  Scenario: The replay names the first move the rules refuse, and the score up to it
    Given the documents deal
    When I replay "KD TC+3S draw JC+2D KS" from the deal
    Then the replay refuses move 4 with "card_not_free" after 30 points

  @api @rule-replay
  Scenario Outline: A replay refuses a move at the rule it breaks: <what>
    Given the documents deal
    When I replay "<moves>" from the deal
    Then the replay refuses move <number> with "<code>" after <points> points

    Examples:
      | what                                 | moves              | number | code          | points |
      | a covered card                       | KD TD+3H           | 2      | card_blocked  | 10     |
      | two cards not summing 13             | KD 3H+4H           | 2      | sum_not_13    | 10     |
      | a King move of a card not a King     | 7S                 | 1      | not_a_king    | 0      |
      | a recycle before the stock is empty  | KD TC+3S recycle   | 3      | stock_not_empty | 30   |
      | an undo with nothing to undo         | undo               | 1      | nothing_to_undo | 0    |

  @api @rule-replay
  Scenario: A game's log, taps and undos included, replays to that game
    Given the documents deal
    When I play "KD tap:3S tap:TC draw undo tap:stock tap:7C tap:7C"
    And I replay the game's log from its deal
    Then the replay is valid: 5 moves, 30 points, "playing"
    And the replay leads to the game
