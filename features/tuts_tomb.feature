@doc-003 @variant-tuts-tomb
Feature: Tut's Tomb / King Tut (003): three cards drawn at a time
  «Tut's Tomb / King Tut: Se roban tres cartas a la vez del mazo en lugar de una; se forman parejas
  de suma 13 a medida que aparecen.» The option `draw_count` 3 (code letter `K`); the preset
  `tuts-tomb` (`DKT`) plays it on the traditional deal of 003 (a 24-card stock, the card just drawn
  pairs with the waste card beneath it), relaxed victory and unlimited passes. Of the three cards
  turned only the last, the waste top, is in play, as in PySolFC's King Tut and as 003's «Solo la
  carta superior de la pila de descarte está disponible para emparejar»: the cards beneath come
  into play as the ones above them are paired («a medida que aparecen»). `@s003-N` names the
  sentence of 003 a scenario guards (docs/conformance-traceability.md).

  @s003-70
  Scenario Outline: A draw turns the stock's top three cards onto the waste, the third on top: <how>
    Given the three_drawn deal under the preset "tuts-tomb"
    When I play "<draw>"
    Then the waste, from its top, is "3C 9D 6D"
    And the stock has 21 cards
    And the move counter is 1
    And the score is 0
    And the last move's events are "drawn 6D 9D 3C"

    Examples:
      | how       | draw      |
      | by a draw | draw      |
      | by a tap  | tap:stock |

  @s003-70
  Scenario Outline: Under the app's one-card draw, the same deal turns one card: <how>
    Given the three_drawn deal under the rules:
      | option        | value |
      | initial_waste | false |
    When I play "<draw>"
    Then the waste, from its top, is "6D"
    And the stock has 23 cards

    Examples:
      | how       | draw      |
      | by a draw | draw      |
      | by a tap  | tap:stock |

  @s003-70 @s003-27 @s003-57
  Scenario Outline: Only the top card of the three is in play; a card beneath it is not: <how>
    Given the three_drawn deal under the preset "tuts-tomb"
    When I try "draw <move>"
    Then the move is refused with "card_not_free"

    Examples:
      | how                                  | move     |
      | the middle card, by a pair move      | 9D+4H    |
      | the bottom card, by a pair move      | 6D+7C    |

  @s003-70 @s003-27 @s003-57
  Scenario Outline: A tap on a card beneath the waste top selects nothing: <how>
    Given the three_drawn deal under the preset "tuts-tomb"
    When I play "draw"
    And I try "<taps>"
    Then the move is refused with "card_not_free"

    Examples:
      | how                              | taps          |
      | the middle card, nothing selected        | tap:9D        |
      | the middle card, a pyramid card selected | tap:4H tap:9D |
      | the bottom card, a pyramid card selected | tap:7C tap:6D |

  @s003-70 @s003-27
  Scenario Outline: The cards beneath come into play as the ones above them are paired: <how>
    Given the three_drawn deal under the preset "tuts-tomb"
    When I play "draw <first>"
    Then the waste top is "9D"
    When I play "<second>"
    Then the waste top is "6D"
    When I play "<third>"
    Then the waste is empty
    And the score is 30
    And 25 cards are left in the pyramid

    Examples:
      | how           | first         | second        | third         |
      | by pair moves | 3C+TC         | 9D+4H         | 6D+7C         |
      | by taps       | tap:3C tap:TC | tap:4H tap:9D | tap:6D tap:7C |

  @s003-70 @s003-46
  Scenario Outline: The card just drawn pairs with the one beneath it, of the same three: drawn_pairs_with_waste true, <how>
    Given the three_drawn deal under the rules:
      | option                 | value |
      | draw_count             | 3     |
      | initial_waste          | false |
      | drawn_pairs_with_waste | true  |
    When I try "draw draw <move>"
    Then the last move removed "5C 8C"
    And the removal scored 0 points

    Examples:
      | how         | move          |
      | a pair move | 8C+5C         |
      | taps        | tap:8C tap:5C |

  @s003-70 @s003-46
  Scenario Outline: The card just drawn pairs with the one beneath it, of the same three: drawn_pairs_with_waste false, <how>
    Given the three_drawn deal under the rules:
      | option                 | value |
      | draw_count             | 3     |
      | initial_waste          | false |
      | drawn_pairs_with_waste | false |
    When I try "draw draw <move>"
    Then the move is refused with "card_not_free"

    Examples:
      | how         | move          |
      | a pair move | 8C+5C         |
      | taps        | tap:8C tap:5C |

  @s003-70
  Scenario Outline: Undo of a three-card draw puts the three back on the stock, in their order: <how>
    Given the three_drawn deal under the preset "tuts-tomb"
    And I note the game
    When I play "<draw> <draw> undo"
    Then the waste, from its top, is "3C 9D 6D"
    And the stock, from its top, is "2D 5C 8C 7D AC 4C JC 5D QD AH 2H 8H 9H TH JH QH 2S 4S 5S 6S 9S"
    When I play "undo"
    Then the waste is empty
    And the cards are where they were when noted

    Examples:
      | how                  | draw      |
      | drawn by a draw      | draw      |
      | drawn by a tap       | tap:stock |

  @s003-70
  Scenario Outline: The last draw of a pass turns the cards left, fewer than three: <how>
    Given the three_drawn deal under the preset "tuts-tomb"
    When I play "draw 3C+TC"
    And I play "draw" 7 times
    And I play "recycle"
    Then the stock has 23 cards
    When I play "draw" 7 times
    Then the stock has 2 cards
    When I play "<draw>"
    Then the stock has 0 cards
    And the waste, from its top, is "9S 6S 5S 4S 2S QH JH TH 9H 8H 2H AH QD 5D JC 4C AC 7D 8C 5C 2D 9D 6D"
    When I play "undo"
    Then the stock, from its top, is "6S 9S"

    Examples:
      | how       | draw      |
      | by a draw | draw      |
      | by a tap  | tap:stock |

  @s003-70
  Scenario Outline: The waste goes back to the stock as often as the player likes: <how>
    Given the three_drawn deal under the preset "tuts-tomb"
    When I play "draw" 8 times
    And I play "<recycle> draw draw draw draw draw draw draw draw <recycle> draw draw draw draw draw draw draw draw <recycle>"
    Then the stock has 24 cards
    And the move counter is 27
    And the stock, from its top, is "6D 9D 3C 2D 5C 8C 7D AC 4C JC 5D QD AH 2H 8H 9H TH JH QH 2S 4S 5S 6S 9S"

    Examples:
      | how          | recycle   |
      | by a recycle | recycle   |
      | by a tap     | tap:stock |

  @api @s003-70
  Scenario Outline: The undo history writes a draw by the cards it turned: <how>
    Given the three_drawn deal under the preset "tuts-tomb"
    When I play "<moves>"
    Then the last action of the undo history is "<action>"

    Examples:
      | how                           | moves                                                 | action |
      | three cards                   | draw                                                  | draw:3 |
      | the last two cards of a pass  | draw 3C+TC draw draw draw draw draw draw draw recycle draw draw draw draw draw draw draw draw | draw:2 |

  @api @s003-70
  Scenario: The preset tuts-tomb is listed with its rules
    Then the preset "tuts-tomb" has the rules:
      | option                 | value |
      | strict_win             | false |
      | max_recycles           | null  |
      | drawn_pairs_with_waste | true  |
      | pair_with_covering     | false |
      | initial_waste          | false |
      | draw_count             | 3     |

  @api @codes @s003-70
  Scenario: A code names the three-card draw by its letter K
    When I deal the code "PYR1-DKT-AAAAAAA"
    Then the game's rules are:
      | option                 | value |
      | strict_win             | false |
      | max_recycles           | null  |
      | drawn_pairs_with_waste | true  |
      | pair_with_covering     | false |
      | initial_waste          | false |
      | draw_count             | 3     |
    And the stock has 24 cards
