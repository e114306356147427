@doc-004 @variant-unlimited-undo
Feature: Another app's rules (004): unlimited undo, each undo a move; told when no win is left
  «En esta versión, puedes restablecer el stock tantas veces como quieras.» «Puedes deshacer tantas
  veces como quieras. El juego ofrece deshacer ilimitados. Sin embargo, cada deshacer cuenta como un
  nuevo movimiento, por lo que si intentas ganar el juego en el menor número de movimientos posible,
  debes tener cuidado con la cantidad de deshacer que usas.» «El juego te notificará si ya no hay
  posibilidad de ganar el juego.» The preset `unlimited-undo` (code letters `TUW`): a 24-card stock
  and nothing on the waste at the deal, unlimited recycling, unlimited undo, and the notice. The Pyramide app's own undo (the last 100 actions, undo not a move) is checked in
  undo_and_codes.feature.

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

  @solver
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

  @solver
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
