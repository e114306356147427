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
  Scenario Outline: A forged state is refused, naming the field: <what>
    Given the documents deal
    When I play "KD TC+3S draw"
    And I send the game back with "<field>" set to <value> to play "draw"
    Then the request is refused with status 422 and "invalid_state"
    And the reason given for "<named>" is "<reason>"

    Examples:
      | what                                        | field              | value                 | reason         | named          |
      | a score the removed cards do not give       | score              | 40                    | not_derived    | state.score    |
      | no score for removed cards                  | score              | 0                     | not_derived    | state.score    |
      | fewer moves than the history holds          | moves              | 2                     | not_derived    | state.moves    |
      | a won game that is not won                  | status             | "won"                 | not_derived    | state.status   |
      | a blocked game that is not blocked          | status             | "blocked"             | not_derived    | state.status   |
      | a covered card selected                     | selected           | "QC"                  | selected       | state.selected |
      | a waste card under the top selected         | selected           | "7D"                  | selected       | state.selected |
      | a ten selected written 10, not as the game writes it | selected  | "10D"                 | card           | state.selected |
      | a removed card back in its slot             | pyramid[6][5]      | "KD"                  | not_derived    | state.pyramid  |
      | a card in another card's slot               | pyramid[6][0]      | "3H"                  | not_derived    | state.pyramid  |
      | a card missing from the game                | pyramid[6][0]      | null                  | not_derived    | state.pyramid  |
      | the stock out of its dealt order            | stock[0]           | "4C"                  | not_derived    | state.stock    |
      | a waste card that was never drawn           | waste[1]           | "4C"                  | not_derived    | state.waste    |
      | the foundation out of the order played      | foundation         | ["TC", "3S", "KD"]    | not_derived    | state.foundation |
      | a history entry that never happened         | history[0]         | "KD@7.5"              | not_derived    | state.history  |
      | a history pair that was never legal         | history[1]         | "TC@7.2+3H@7.3"       | not_derived    | state.history  |
      | a history removal of three cards            | history[1]         | "KD@7.6+TC@7.2+3S@7.5" | not_derived   | state.history  |
      | a history pair from one slot                | history[1]         | "TC@7.2+3S@7.2"       | not_derived    | state.history  |
      | a history entry that is not an action       | history[1]         | "TC7.2+3S7.5"         | not_derived    | state.history  |
      | a history that left out an action           | history            | ["TC@7.2+3S@7.5", "draw"] | not_derived | state.history |
      | a history emptied                           | history            | []                    | not_derived    | state.history  |
      | the move counter lowered to 0               | moves              | 0                     | not_derived    | state.moves    |
      | recycles claimed                            | recycles           | 1                     | not_derived    | state.recycles |
      | rules the code does not name                | rules.strict_win   | true                  | rules_mismatch | state.rules    |
      | more recycles than the rules allow          | rules.max_recycles | 0                     | rules_mismatch | state.rules    |
      | a code that names no deal                   | code               | "PYR1-N-AAAA"         | code           | state.code     |
      | a code not written as the game writes it    | code               | "pyr1-n-lgfbveiareufyoagoyqhhxedbldnshtxqtvlzpwkgfnxloaa" | code | state.code |
      | Apophis's waste piles under one waste       | piles              | [[], []]              | shape          | state.piles    |
      | Apophis's waste piles under one waste       | piles              | [["4C"], []]          | shape          | state.piles    |

  @api @rule-state
  Scenario Outline: A log that does not lead to the game is refused: <what>
    Given the documents deal
    When I play "KD TC+3S draw"
    And I send the game back with "log" set to <value> to play "draw"
    Then the request is refused with status 422 and "invalid_state"
    And the reason given is "not_derived"

    Examples:
      | what                                        | value                 |
      | the log emptied, the position kept          | ""                    |
      | an action left out of the log               | "KD draw"             |
      | the log's actions reordered                 | "TC+3S KD draw"       |
      | an undo added to the log                    | "KD TC+3S draw undo"  |

  @api @rule-state
  Scenario Outline: A log is refused at the first action the rules refuse, naming the rule: <what>
    Given the documents deal
    When I play "KD TC+3S draw"
    And I send the game back with "<field>" set to <value> to play "draw"
    Then the request is refused with status 422 and "invalid_state"
    And the reason given for the log's action at index <index> is the rule "<rule>"
    And the refusal names the log's action "<action>"

    Examples:
      | what                                        | field | value              | index | rule          | action |
      | a log move the rules refuse                 | log   | "KD TC+3S JC+2D"   | 2     | card_not_free | JC+2D  |
      | a code that names another deal              | code  | "PYR1-N-AAAAAAS"   | 1     | card_blocked  | TC+3S  |

  @api @rule-state
  Scenario Outline: A log entry not written as the server writes it is refused at its index: <what>
    Given the documents deal
    When I play "KD TC+3S draw"
    And I send the game back with "log" set to <value> to play "draw"
    Then the request is refused with status 422 and "invalid_state"
    And the reason given for the log's action at index <index> is "log_entry"
    And the refusal names the log's action "<action>"

    Examples:
      | what                                        | value              | index | action |
      | a log pair out of the deck order            | "KD 3S+TC draw"    | 1     | 3S+TC  |
      | a ten written 10                            | "KD 10C+3S draw"   | 1     | 10C+3S |
      | a card in lower case                        | "kd TC+3S draw"    | 0     | kd     |
      | a move in upper case                        | "KD TC+3S DRAW"    | 2     | DRAW   |
      | an undo history's entry for a King          | "KD@7.6 TC+3S draw" | 0    | KD@7.6 |

  @api @rule-state
  Scenario: A log with two spaces between actions is refused at the empty entry between them
    Given the documents deal
    When I play "KD TC+3S draw"
    And I send the game back with "log" set to "KD TC+3S  draw" to play "draw"
    Then the request is refused with status 422 and "invalid_state"
    And the reason given for the log's action at index 2 is "log_entry"

  @api @rule-state
  Scenario Outline: A finished game has nothing selected: a <status> game sent back with a card selected is refused
    Given the <deal> deal
    When I play "<moves>"
    Then the game is <status>
    And no card is selected
    When I send the game back with "selected" set to "<card>" to play "<move>"
    Then the request is refused with status 422 and "invalid_state"
    And the reason given for "state.selected" is "selected_over"

    Examples:
      | status  | deal     | moves                                                                                                                                                        | card | move |
      | won     | easy     | KC AC+QC 2C+JC 3C+TC 4C+9C 5C+8C 6C+7C KD AD+QD 2D+JD 3D+TD 4D+9D 5D+8D KH 6D+7D KS                                                                          | AH   | undo |
      | blocked | draining | QC+AC draw QD+AD draw QH+AH draw QS+AS draw JC+2C draw JD+2D draw JH+2H draw JS+2S draw TC+3C draw TD+3D draw TH+3H draw TS+3S draw 9C+4C draw 9D+4D draw 9H+4H draw 9S+4S draw 8C+5C draw 8D+5D 6S+7S draw 8H+5H draw 8S+5S draw KC draw KD draw KH draw KS | 6C   | undo |

  @api @rule-state
  Scenario: The log holds at most 10,000 actions: the move that would make it 10,001 is refused
    Given the documents deal
    When I replay "draw undo" 4999 times over from the deal
    And I send the replayed game back to play "draw"
    And I play "undo"
    And I try "draw"
    Then the request is refused with status 422 and "log_full"

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
