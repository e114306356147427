@doc-003 @variant-apophis
Feature: Apophis (003): three waste piles, the player choosing each card's pile
  «Apophis: Tres pilas de descarte en fila; las cartas del mazo pueden colocarse en cualquiera de
  las tres pilas, y la carta superior de cualquiera de ellas puede emparejarse.» The option
  `waste_piles` 3 (code letter `A`); the preset `apophis` (`AT2`) plays it on the traditional
  24-card stock with relaxed victory and three passes, as PySolFC's Apophis. A draw names its pile
  (`draw@2`); by taps, a tap on the stock turns its card up, in hand, and a tap on a pile puts it
  there (`tap:stock tap:waste2`). The piles go back to the stock pile 1 first, each from its bottom
  card. «Mazo contra descarte» does not compose with it: the card drawn goes beside the card it
  would pair with. `@s003-N` names the sentence of 003 a scenario guards (docs/conformance.md).

  @s003-69
  Scenario Outline: A card drawn goes onto the pile the player chooses: <how>
    Given the three_drawn deal under the preset "apophis"
    When I play "<moves>"
    Then the waste piles, from their tops, are "<one>", "<two>" and "<three>"
    And the stock has 23 cards
    And the move counter is 1
    And the score is 0

    Examples:
      | how                      | moves                  | one | two | three |
      | onto pile 1, by a draw   | draw@1                 | 6D  | -   | -     |
      | onto pile 2, by a draw   | draw@2                 | -   | 6D  | -     |
      | onto pile 3, by a draw   | draw@3                 | -   | -   | 6D    |
      | onto pile 2, by taps     | tap:stock tap:waste2   | -   | 6D  | -     |
      | onto pile 3, by taps     | tap:stock tap:waste3   | -   | -   | 6D    |

  @s003-69
  Scenario: By taps, a tap on the stock turns its card up, in hand, and moves nothing yet
    Given the three_drawn deal under the preset "apophis"
    When I play "tap:stock"
    Then the selected card is "6D"
    And the stock has 24 cards
    And the waste piles, from their tops, are "-", "-" and "-"
    And the move counter is 0

  @s003-69
  Scenario Outline: The card in hand goes back to the stock: <how>
    Given the three_drawn deal under the preset "apophis"
    When I play "tap:stock <tap>"
    Then <selection>
    And the stock has 24 cards
    And the waste piles, from their tops, are "-", "-" and "-"

    Examples:
      | how                                            | tap       | selection                  |
      | tapping the stock again                        | tap:stock | no card is selected        |
      | tapping a free pyramid card, which is selected | tap:7C    | the selected card is "7C"  |

  @s003-69
  Scenario: A tap on a covered card with a card in hand does nothing; the card stays in hand
    Given the three_drawn deal under the preset "apophis"
    When I play "tap:stock"
    And I try "tap:QC"
    Then nothing changes
    And the selected card is "6D"

  @s003-69
  Scenario Outline: A tap on a pile with no card in hand does nothing: <pile>
    Given the three_drawn deal under the preset "apophis"
    When I play "draw@1"
    And I try "tap:<pile>"
    Then nothing changes

    Examples:
      | pile   |
      | waste1 |
      | waste2 |

  @s003-69 @s003-27
  Scenario Outline: The top card of any pile may pair: <how>
    Given the three_drawn deal under the preset "apophis"
    When I play "draw@1 draw@2 draw@3"
    Then the waste piles, from their tops, are "6D", "9D" and "3C"
    When I play "<moves>"
    Then the waste piles, from their tops, are "-", "-" and "-"
    And the score is 30
    And 25 cards are left in the pyramid

    Examples:
      | how           | moves                                      |
      | by pair moves | 9D+4H 3C+TC 6D+7C                          |
      | by taps       | tap:4H tap:9D tap:3C tap:TC tap:7C tap:6D  |

  @s003-69 @s003-27
  Scenario Outline: The tops of two piles may pair with each other: <how>
    Given the three_drawn deal under the preset "apophis"
    When I play "draw@1 draw@2 draw@3 draw@1 draw@2 draw@3"
    Then the waste piles, from their tops, are "2D 6D", "5C 9D" and "8C 3C"
    When I play "<moves>"
    Then the last move removed "5C 8C" for 0 points
    And the waste piles, from their tops, are "2D 6D", "9D" and "3C"

    Examples:
      | how          | moves         |
      | by a pair    | 8C+5C         |
      | by taps      | tap:5C tap:8C |

  @s003-69 @s003-27 @s003-57
  Scenario Outline: A card beneath the top of its pile is not in play: <how>
    Given the three_drawn deal under the preset "apophis"
    When I try "<draws> <move>"
    Then the move is refused with "card_not_free"

    Examples:
      | how                                              | draws         | move          |
      | the card under pile 1's top, by a pair move      | draw@1 draw@1 | 6D+7C         |
      | the card under pile 1's top, by taps             | draw@1 draw@1 | tap:7C tap:6D |
      | the card under pile 2's top, by a pair move      | draw@2 draw@2 | 6D+7C         |
      | the card under pile 3's top, by taps             | draw@3 draw@3 | tap:7C tap:6D |

  @s003-69
  Scenario Outline: Undo of a draw puts the card back on the stock, from the pile it went to: <how>
    Given the three_drawn deal under the preset "apophis"
    When I play "draw@1 <draw> undo"
    Then the waste piles, from their tops, are "6D", "-" and "-"
    And the stock, from its top, is "9D 3C 2D 5C 8C 7D AC 4C JC 5D QD AH 2H 8H 9H TH JH QH 2S 4S 5S 6S 9S"

    Examples:
      | how              | draw                 |
      | drawn by a draw  | draw@3               |
      | drawn by taps    | tap:stock tap:waste3 |

  @s003-69
  Scenario Outline: The piles go back to the stock pile 1 first, each from its bottom card: <how>
    Given the three_drawn deal under the preset "apophis"
    When I play "draw@1 draw@2 draw@3 draw@1 draw@2"
    And I play "draw@3" 19 times
    Then the waste piles, from their tops, are "2D 6D", "5C 9D" and "9S 6S 5S 4S 2S QH JH TH 9H 8H 2H AH QD 5D JC 4C AC 7D 8C 3C"
    When I play "<recycle>"
    Then the stock, from its top, is "6D 2D 9D 5C 3C 8C 7D AC 4C JC 5D QD AH 2H 8H 9H TH JH QH 2S 4S 5S 6S 9S"
    And the waste piles, from their tops, are "-", "-" and "-"
    When I play "undo"
    Then the waste piles, from their tops, are "2D 6D", "5C 9D" and "9S 6S 5S 4S 2S QH JH TH 9H 8H 2H AH QD 5D JC 4C AC 7D 8C 3C"
    And the stock has 0 cards

    Examples:
      | how          | recycle   |
      | by a recycle | recycle   |
      | by a tap     | tap:stock |

  @s003-69
  Scenario: Three passes: the piles go back to the stock twice, not a third time
    Given the three_drawn deal under the preset "apophis"
    When I play "draw@1" 24 times
    And I play "recycle"
    And I play "draw@2" 24 times
    And I play "recycle"
    And I play "draw@3" 24 times
    And I try "recycle"
    Then the move is refused with "no_recycles_left"

  @api @s003-69
  Scenario: Under Apophis a draw names its pile
    Given the three_drawn deal under the preset "apophis"
    When I try "draw"
    Then the move is refused with "pile_required"

  @api @s003-69
  Scenario Outline: Under the app's rules, with one waste, a move names no pile: <move>
    Given the documents deal
    When I try "<move>"
    Then the move is refused with "no_such_pile"

    Examples:
      | move       |
      | draw@2     |
      | tap:waste2 |

  @api @s003-69
  Scenario: The preset apophis is listed with its rules
    Then the preset "apophis" has the rules:
      | option                 | value |
      | strict_win             | false |
      | max_recycles           | 2     |
      | drawn_pairs_with_waste | false |
      | pair_with_covering     | false |
      | initial_waste          | false |
      | waste_piles            | 3     |

  @api @codes @s003-69
  Scenario: A code names the three waste piles by its letter A, and not with «mazo contra descarte»
    When I deal the code "PYR1-AT2-AAAAAAA"
    Then the game's rules are:
      | option                 | value |
      | strict_win             | false |
      | max_recycles           | 2     |
      | drawn_pairs_with_waste | false |
      | pair_with_covering     | false |
      | initial_waste          | false |
      | waste_piles            | 3     |
    When I deal the code "PYR1-ADT-AAAAAAA"
    Then the request is refused with status 422 and "invalid_code"
