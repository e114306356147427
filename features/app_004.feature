@doc-004 @variant-unlimited-undo
Feature: Another app's rules (004): its deal, pairs, Kings, stock, unlimited undo, each undo a move, and the notice when no win is left
  «En esta versión, puedes restablecer el stock tantas veces como quieras.» «Puedes deshacer tantas
  veces como quieras. El juego ofrece deshacer ilimitados. Sin embargo, cada deshacer cuenta como un
  nuevo movimiento, por lo que si intentas ganar el juego en el menor número de movimientos posible,
  debes tener cuidado con la cantidad de deshacer que usas.» «El juego te notificará si ya no hay
  posibilidad de ganar el juego.» The preset `unlimited-undo` (code letters `TUW`): a 24-card stock
  and nothing on the waste at the deal, unlimited recycling, unlimited undo, and the notice. Its
  sentences about the deal, the pairs, the Kings and the stock are dealt under its deal alone
  (`initial_waste` false), not its undo or its notice, so that an engine without those is judged
  on them. The Pyramide app's own undo (the last 100 actions, undo not a move) is checked in
  undo_and_codes.feature. `@s004-N` names the sentence of 004 a scenario guards (docs/conformance-traceability.md).

  @s004-10 @s004-12 @s004-14
  Scenario: The deal: 28 cards in 7 rows, the reserve face down, nothing on the waste
    Given the easy deal with "initial_waste" set to false
    Then the pyramid rows have 1, 2, 3, 4, 5, 6 and 7 cards
    And the stock has 24 cards
    And the waste has 0 cards
    And the 52 cards are all there, each once

  @api @s004-10 @s004-14
  Scenario: Under the preset a layout with a card on the waste is not a deal
    When I deal the easy deal with its waste card under the preset "unlimited-undo"
    Then the request is refused with status 422 and "invalid_layout"
    And the reason given for "layout.waste" is "waste"

  @s004-11 @s004-19 @s004-20
  Scenario: At the start the bottom row is available, and a card is available once no card covers it
    Given the easy deal with "initial_waste" set to false
    Then the free pyramid cards are "KC AC QC 2C JC 3C TC"
    When I play "KC AC+QC"
    Then the free pyramid cards are "2C JC 3C TC 4C 9C"

  @s004-4 @s004-5 @s004-6 @s004-7 @s004-18 @s004-27 @s004-28 @s004-29 @s004-34
  Scenario Outline: Two available pyramid cards whose ranks sum 13 go to the foundation: <how>
    Given the easy deal with "initial_waste" set to false
    When I play "<moves>"
    Then the last move removed "<cards>"
    And the removal scored 20 points
    And 26 cards are left in the pyramid

    Examples:
      | how                       | moves         | cards |
      | an ace and a queen, moved | AC+QC         | AC QC |
      | an ace and a queen, taps  | tap:QC tap:AC | AC QC |
      | a 3 and a 10, taps        | tap:3C tap:TC | 3C TC |
      | a 2 and a jack, moved     | 2C+JC         | 2C JC |

  @s004-26 @s004-28 @s004-19
  Scenario Outline: A covered pyramid card does not pair: <how>
    Given the easy deal with "initial_waste" set to false
    When I play "draw" 9 times
    Then the waste top is "9H"
    When I try "<moves>"
    Then <outcome>

    Examples:
      | how      | moves         | outcome                                  |
      | by move  | 4C+9H         | the move is refused with "card_blocked" |
      | by taps  | tap:9H tap:4C | nothing changes                          |

  @s004-13 @s004-15 @s004-16 @s004-22 @s004-23 @s004-24 @s004-25
  Scenario Outline: The waste top pairs with an open pyramid card: <how>
    Given the easy deal with "initial_waste" set to false
    When I play "<draw>"
    Then the waste top is "AH"
    And the stock has 23 cards
    When I play "<pair>"
    Then the last move removed "AH QC"
    And the removal scored 10 points
    And the waste has 0 cards

    Examples:
      | how                             | draw      | pair          |
      | a tap on the stock, then taps   | tap:stock | tap:AH tap:QC |
      | a draw, then a pair move        | draw      | AH+QC         |

  @s004-33 @s004-35 @s004-36
  Scenario Outline: A King goes alone, with a single tap: <how>
    Given the easy deal with "initial_waste" set to false
    When I play "<moves>"
    Then the last move removed "KC"
    And the removal scored 10 points
    And the move counter is 1

    Examples:
      | how                       | moves         |
      | one tap                   | tap:KC        |
      | one tap, a card selected  | tap:AC tap:KC |
      | a King move               | KC            |

  @s004-30 @s004-31
  Scenario Outline: The stock is reset once it is empty, all its cards back: <how>
    Given the easy deal with "initial_waste" set to false
    When I try "recycle"
    Then the move is refused with "stock_not_empty"
    When I play "draw" 24 times
    And I play "<reset>"
    Then the stock has 24 cards
    And the stock, from its top, is "AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS"

    Examples:
      | how             | reset     |
      | a tap           | tap:stock |
      | a recycle move  | recycle   |

  @s004-4 @s004-41
  Scenario Outline: The game is won once the pyramid is cleared, cards left in the stock: <how>
    Given the easy deal with "initial_waste" set to false
    When I play "<moves>"
    Then the game is won
    And the stock has 24 cards
    And the events include "won"

    Examples:
      | how      | moves |
      | by moves | KC AC+QC 2C+JC 3C+TC 4C+9C 5C+8C 6C+7C KD AD+QD 2D+JD 3D+TD 4D+9D 5D+8D KH 6D+7D KS |
      | by taps  | tap:KC tap:AC tap:QC tap:2C tap:JC tap:3C tap:TC tap:4C tap:9C tap:5C tap:8C tap:6C tap:7C tap:KD tap:AD tap:QD tap:2D tap:JD tap:3D tap:TD tap:4D tap:9D tap:5D tap:8D tap:KH tap:6D tap:7D tap:KS |

  @s004-37 @s004-38 @s004-39
  Scenario Outline: Each undo counts as a new move, <action>
    Given the easy deal under the rules:
      | option         | value |
      | initial_waste  | false |
      | unlimited_undo | true  |
    When I play "<action>"
    Then the move counter is 1
    When I play "undo"
    Then the move counter is 2
    And the score is 0
    And the undo took back <points> points
    When I play "<action> undo"
    Then the move counter is 4

    Examples:
      | action    | points |
      | KC        | 10     |
      | tap:KC    | 10     |
      | draw      | 0      |
      | tap:stock | 0      |

  @s004-37 @s004-38
  Scenario: Undo as many times as you like: past the last 100 actions, back to the deal
    Given the easy deal under the rules:
      | option         | value |
      | initial_waste  | false |
      | unlimited_undo | true  |
    When I play "draw" 24 times
    And I play "recycle"
    And I play "draw" 24 times
    And I play "recycle"
    And I play "draw" 24 times
    And I play "recycle"
    And I play "draw" 24 times
    And I play "recycle"
    And I play "draw" 5 times
    Then the move counter is 105
    When I play "undo" 105 times
    Then the move counter is 210
    And the waste has 0 cards
    And the stock, from its top, is "AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS"
    When I try "undo"
    Then the move is refused with "nothing_to_undo"

  @api @s004-37 @s004-38
  Scenario: Undo as many times as you like, past 300 actions, in a game sent back and in a replay of its log
    (Pyramide's replay plays on the newest 100 to 300 actions of a long undo history, `docs/security.md`:
    the whole of it comes back.)
    Given the easy deal under the rules:
      | option         | value |
      | initial_waste  | false |
      | unlimited_undo | true  |
    When I replay "draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw recycle" 13 times over from the deal
    And I send the replayed game back to play "undo"
    And I play "undo" 249 times
    Then the move counter is 575
    And the waste has 0 cards
    And the stock has 24 cards
    When I replay the game's log from its deal
    Then the replay leads to the game
    When I play "undo" 75 times
    And I try "undo"
    Then the move is refused with "nothing_to_undo"
    And the move counter is 650
    And the stock, from its top, is "AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS"

  @api @s004-37 @s004-38
  Scenario: «Mazo contra descarte» under unlimited undo: a pair of the card just drawn, 200 undos back in a replay of more than 300 actions
    (The card drawn before two pyramid removals is further back than the newest actions the replay
    plays on: it still pairs with the waste card beneath it.)
    Given the easy deal under the rules:
      | option                 | value |
      | initial_waste          | false |
      | unlimited_undo         | true  |
      | drawn_pairs_with_waste | true  |
    When I play "KC AC+QC 2C+JC 3C+TC 4C+9C 5C+8C 6C+7C KD AD+QD 2D+JD 3D+TD 4D+9D 5D+8D"
    And I play "draw" 24 times
    And I play "recycle"
    And I play "draw" 24 times
    And I play "recycle"
    And I play "draw" 24 times
    And I play "recycle"
    And I play "draw" 13 times
    And I play "KH 6D+7D"
    And I play "draw" 11 times
    And I play "recycle"
    And I play "draw" 24 times
    And I play "recycle"
    And I play "draw" 24 times
    And I play "recycle"
    And I play "draw" 24 times
    And I play "recycle"
    And I play "draw" 24 times
    And I play "recycle"
    And I play "draw" 24 times
    And I play "recycle"
    And I play "draw" 24 times
    And I play "recycle"
    And I play "draw" 24 times
    And I play "recycle"
    And I play "draw" 24 times
    And I play "recycle"
    And I play "undo" 212 times
    Then the waste top is "AS"
    And the stock has 11 cards
    When I play "AS+QH"
    And I replay the game's log from its deal
    Then the replay leads to the game

  @api @s004-37 @s004-38
  Scenario: A replay refused after more than 300 actions under unlimited undo answers the game up to the refusal, its whole undo history kept
    Given the easy deal under the rules:
      | option         | value |
      | initial_waste  | false |
      | unlimited_undo | true  |
      | max_recycles   | 12    |
    When I replay "draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw recycle" 13 times over from the deal
    Then the replay refuses move 325 with "no_recycles_left" after 0 points
    When I send the replayed game back to play "undo"
    Then the move counter is 325
    And the waste has 23 cards

  @s004-32
  Scenario: Reset the stock as many times as you like
    Given the easy deal under the rules:
      | option         | value |
      | initial_waste  | false |
      | unlimited_undo | true  |
    When I play "draw" 24 times
    And I play "tap:stock"
    And I play "draw" 24 times
    And I play "recycle"
    And I play "draw" 24 times
    And I play "tap:stock"
    Then the stock has 24 cards
    And the waste has 0 cards
    And the game is playing

  @s004-45 @s004-46
  Scenario Outline: Each pair is one move and each King one move: a game without the stock, <how>
    Given the fifteen deal under the rules:
      | option         | value |
      | initial_waste  | false |
      | unlimited_undo | true  |
    When I play "<moves>"
    Then the game is won
    And the move counter is 15
    And the stock has 24 cards

    Examples:
      | how      | moves |
      | by moves | KS AC+QC 2C+JC 3C+TC 4C+9C 5C+8C 6C+7C AD+QD 2D+JD 3D+TD 4D+9D 5D+8D 6D+7D AH+QH KH |
      | by taps  | tap:KS tap:AC tap:QC tap:2C tap:JC tap:3C tap:TC tap:4C tap:9C tap:5C tap:8C tap:6C tap:7C tap:AD tap:QD tap:2D tap:JD tap:3D tap:TD tap:4D tap:9D tap:5D tap:8D tap:6D tap:7D tap:AH tap:QH tap:KH |

  @api
  Scenario: The other app's rules are a preset
    Then the preset "unlimited-undo" has the rules:
      | option                 | value |
      | strict_win             | false |
      | max_recycles           | null  |
      | drawn_pairs_with_waste | false |
      | pair_with_covering     | false |
      | initial_waste          | false |
      | unlimited_undo         | true  |
      | notify_unwinnable      | true  |

  @solver @s004-42 @s004-43
  Scenario Outline: The game says when no win is left: <how>
    Given the stuck deal under the rules:
      | option            | value |
      | initial_waste     | false |
      | unlimited_undo    | true  |
      | notify_unwinnable | true  |
    When I play "<move>"
    Then the events include "no_win_left"
    And the feedback is "no_win_left"
    And the game is playing

    Examples:
      | how          | move      |
      | by a draw    | draw      |
      | by a tap     | tap:stock |
      | by a King    | KS        |

  @solver @s004-43
  Scenario Outline: The game says nothing while a win is still possible, or when the notice is off: notify_unwinnable <notify>
    Given the <deal> deal under the rules:
      | option            | value    |
      | initial_waste     | false    |
      | unlimited_undo    | true     |
      | notify_unwinnable | <notify> |
    When I play "draw"
    Then the events do not include "no_win_left"
    And there is no feedback

    Examples:
      | deal  | notify |
      | easy  | true   |
      | stuck | false  |
