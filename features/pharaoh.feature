@doc-003 @variant-pharaoh
Feature: Pharaoh / Triangle (003): a 10-row pyramid dealt from two decks
  «Pharaoh / Triangle: Reparte un diseño triangular más grande (a menudo 10 filas) para una partida
  más larga y difícil.» The option `rows` 10 (code letter `P`); the preset `pharaoh` (`P`) plays it
  under the app's rules otherwise. Ten rows hold 55 cards, more than one deck: the game is dealt
  from two 52-card decks (104 cards: 55 in the pyramid, 1 on the waste, 48 in the stock). A card's
  second copy is a card of its own, its code ending in 2 (`7D2`), so that a move names one copy.
  Two copies never pair (13 is odd): a pair is two cards summing 13, whichever deck they come
  from. With the Spanish deck (pairs summing 12) the two copies of a 6 do pair, as any two 6s. Each pyramid card removed is worth 10 points: a won game, 550. `@s003-N` names the
  sentence of 003 a scenario guards (docs/conformance-traceability.md).

  @s003-71 @codes
  Scenario Outline: A game is dealt in 10 rows from two decks: <how>
    Given <given>
    Then the pyramid rows have 1 to 10 cards
    And the stock has 48 cards
    And the waste has 1 cards
    And the 104 cards of two decks are all there, each once

    Examples:
      | how                       | given                                            |
      | a new game, by its code   | a new game from the code "PYR1-P-AAAAAAA"        |
      | a layout                  | the pharaoh_easy deal under the preset "pharaoh" |

  @s003-71
  Scenario: A new game under the option deals 10 rows
    When I deal a new game under the rules:
      | option | value |
      | rows   | 10    |
    Then the pyramid rows have 1 to 10 cards
    And the stock has 48 cards
    And the 104 cards of two decks are all there, each once

  @s003-71
  Scenario: At the deal only the bottom row, row 10, is free
    Given the pharaoh_easy deal under the preset "pharaoh"
    Then the free pyramid cards are "7D 6C2 7D2 6S AC QC2 AC2 QD2 2C2 JC2"

  @s003-71
  Scenario: A pair move with a card of row 7, still covered by row 8, is refused
    Given the pharaoh_easy deal under the preset "pharaoh"
    When I try "TD+3S"
    Then the move is refused with "card_blocked"

  @s003-71
  Scenario Outline: A tap on a card of row 7, still covered by row 8, removes nothing, error help <help>
    Given the pharaoh_easy deal under the preset "pharaoh" with error help <help>
    When I play "tap:3S tap:TD"
    Then the feedback code is <feedback>
    And the selected card is "3S"
    And 55 cards are left in the pyramid
    And the move counter is 0

    Examples:
      | help | feedback     |
      | on   | card_blocked |
      | off  | none         |

  @s003-71
  Scenario Outline: A pair names one copy of a card; the other copy stays: <how>
    Given the pharaoh_easy deal under the preset "pharaoh"
    When I play "<moves>"
    Then the last move removed "<pair>"
    And the removal scored 20 points
    And the free pyramid cards are "<free>"

    Examples:
      | how                               | moves           | pair    | free                               |
      | the first 7♦, by a pair move      | 7D+6C2          | 7D 6C2  | KC2 7D2 6S AC QC2 AC2 QD2 2C2 JC2  |
      | the first 7♦, by taps             | tap:7D tap:6C2  | 7D 6C2  | KC2 7D2 6S AC QC2 AC2 QD2 2C2 JC2  |
      | the second 7♦, by a pair move     | 7D2+6C2         | 7D2 6C2 | AD2 7D 6S AC QC2 AC2 QD2 2C2 JC2   |
      | the second 7♦, by taps            | tap:6C2 tap:7D2 | 7D2 6C2 | AD2 7D 6S AC QC2 AC2 QD2 2C2 JC2   |
      | the second A♣, by a pair move     | AC2+QD2         | AC2 QD2 | TC 7D 6C2 7D2 6S AC QC2 2C2 JC2    |

  @api @s003-71
  Scenario Outline: A second copy named with 10 for T: <how>
    Given the pharaoh_easy deal under the preset "pharaoh"
    When I play "draw" 13 times
    And I play "<taps>"
    Then the selected card is "TC2"

    Examples:
      | how            | taps      |
      | 10C2           | tap:10C2  |
      | TC2            | tap:TC2   |

  @s003-71
  Scenario Outline: Two copies of a card never pair (13 is odd): <pair>
    Given the pharaoh_easy deal under the preset "pharaoh"
    When I try "<pair>"
    Then the move is refused with "sum_not_13"

    Examples:
      | pair    |
      | 7D+7D2  |
      | AC+AC2  |

  @s003-71
  Scenario: Two copies never pair by taps either: the second stays selected
    Given the pharaoh_easy deal under the preset "pharaoh"
    When I play "tap:AC tap:AC2"
    Then the feedback is "sum_not_13"
    And the selected card is "AC2"
    And 55 cards are left in the pyramid

  @s003-71
  Scenario Outline: The waste card pairs with a card of row 10 once uncovered, for 10 points: <how>
    Given the pharaoh_easy deal under the preset "pharaoh"
    When I play "7D+6C2 7D2+6S AC+QC2 AC2+QD2 2C2+JC2 <moves>"
    Then the last move removed "3S TC"
    And the removal scored 10 points

    Examples:
      | how            | moves         |
      | by a pair move | 3S+TC         |
      | by taps        | tap:3S tap:TC |

  @s003-71
  Scenario Outline: Pharaoh played to a win: 30 moves, 550 points, <how>
    Given the pharaoh_easy deal under the preset "pharaoh"
    When I play "<moves>"
    Then the game is won
    And the score is 550
    And the move counter is 30
    And 0 cards are left in the pyramid
    And the stock has 48 cards

    Examples:
      | how      | moves |
      | by moves | 7D+6C2 7D2+6S AC+QC2 AC2+QD2 2C2+JC2 KC2 AD2+QC 2C+JC 3C+TC 4C+9C 5C+8C 6C+7C2 AD+QD 2D+JD KD 3D+TD 4D+9D 5D+8D 6D+7C AH+QH 2H+JH KH 3H+TH 4H+9H 5H+8H 6H+7H KS AS+QS 2S+JS KC |
      | by taps  | tap:7D tap:6C2 tap:7D2 tap:6S tap:AC tap:QC2 tap:AC2 tap:QD2 tap:2C2 tap:JC2 tap:KC2 tap:AD2 tap:QC tap:2C tap:JC tap:3C tap:TC tap:4C tap:9C tap:5C tap:8C tap:6C tap:7C2 tap:AD tap:QD tap:2D tap:JD tap:KD tap:3D tap:TD tap:4D tap:9D tap:5D tap:8D tap:6D tap:7C tap:AH tap:QH tap:2H tap:JH tap:KH tap:3H tap:TH tap:4H tap:9H tap:5H tap:8H tap:6H tap:7H tap:KS tap:AS tap:QS tap:2S tap:JS tap:KC |

  @s003-71
  Scenario: One pair short of the win, the game goes on
    Given the pharaoh_easy deal under the preset "pharaoh"
    When I play "7D+6C2 7D2+6S AC+QC2 AC2+QD2 2C2+JC2 KC2 AD2+QC 2C+JC 3C+TC 4C+9C 5C+8C 6C+7C2 AD+QD 2D+JD KD 3D+TD 4D+9D 5D+8D 6D+7C AH+QH 2H+JH KH 3H+TH 4H+9H 5H+8H 6H+7H KS AS+QS"
    Then the game is playing
    And the score is 520
    And 3 cards are left in the pyramid

  @api @s003-71
  Scenario: The legal moves at the deal: the pairs of row 10, each copy by its code, and a draw
    Given the pharaoh_easy deal under the preset "pharaoh"
    Then the legal moves are "7D+6C2 7D+6S 6C2+7D2 6S+7D2 AC+QC2 AC+QD2 AC2+QC2 AC2+QD2 2C2+JC2 draw"

  @api @s003-71
  Scenario Outline: The board described in 10 rows: <language>
    Given the pharaoh_easy deal under the preset "pharaoh"
    When I play "7D+6C2 7D2+6S AC+QC2 AC2+QD2"
    Then the description in "<language>" begins "<text>"

    Examples:
      | language | text |
      | es       | Mazo: 48 cartas; descarte: 3 de picas. Fila 1: rey de tréboles; fila 2: 2 de picas, jota de picas |
      | en       | Stock: 48 cards; waste: 3 of spades. Row 1: king of clubs; row 2: 2 of spades, jack of spades |

  @api @s003-71
  Scenario: The last rows described: both copies by the same name, row 10 with what is left
    Given the pharaoh_easy deal under the preset "pharaoh"
    When I play "7D+6C2 AC+QC2"
    Then the description in "en" is:
      """
      Stock: 48 cards; waste: 3 of spades. Row 1: king of clubs; row 2: 2 of spades, jack of spades; row 3: king of spades, ace of spades, queen of spades; row 4: 5 of hearts, 8 of hearts, 6 of hearts, 7 of hearts; row 5: king of hearts, 3 of hearts, 10 of hearts, 4 of hearts, 9 of hearts; row 6: 6 of diamonds, 7 of clubs, ace of hearts, queen of hearts, 2 of hearts, jack of hearts; row 7: king of diamonds, 3 of diamonds, 10 of diamonds, 4 of diamonds, 9 of diamonds, 5 of diamonds, 8 of diamonds; row 8: 5 of clubs, 8 of clubs, 6 of clubs, 7 of clubs, ace of diamonds, queen of diamonds, 2 of diamonds, jack of diamonds; row 9: king of clubs, ace of diamonds, queen of clubs, 2 of clubs, jack of clubs, 3 of clubs, 10 of clubs, 4 of clubs, 9 of clubs; row 10: 7 of diamonds, 6 of spades, ace of clubs, queen of diamonds, 2 of clubs, jack of clubs.
      """

  @api @s003-71
  Scenario: The preset pharaoh is listed with its rules
    Then the preset "pharaoh" has the rules:
      | option                 | value |
      | strict_win             | false |
      | max_recycles           | null  |
      | drawn_pairs_with_waste | false |
      | pair_with_covering     | false |
      | initial_waste          | true  |
      | rows                   | 10    |

  @api @codes @s003-71
  Scenario: A code names the 10 rows by its letter P
    When I deal the code "PYR1-P-AAAAAAA"
    Then the game's rules are:
      | option                 | value |
      | strict_win             | false |
      | max_recycles           | null  |
      | drawn_pairs_with_waste | false |
      | pair_with_covering     | false |
      | initial_waste          | true  |
      | rows                   | 10    |
    And the pyramid rows have 1 to 10 cards

  @api @codes @s003-71
  Scenario: A Pharaoh layout's code deals the same cards again
    Given the pharaoh_easy deal under the preset "pharaoh"
    When I deal the game's own code again
    Then the same cards are dealt

  @api @s003-71
  Scenario Outline: A layout that is not a Pharaoh deal is refused: <what>
    When I deal the <deal> deal under the preset "<preset>"
    Then the request is refused with status 422 and "invalid_layout"
    And the reason given for "layout.pyramid" is "pyramid"

    Examples:
      | what                                     | deal         | preset   |
      | the app's 7 rows under Pharaoh           | documents    | pharaoh  |
      | a Pharaoh deal under the app's 7 rows    | pharaoh_easy | pyramide |

  @api @s003-71
  Scenario: A layout deals a card's first copy before its second
    When I deal the pharaoh_easy deal under the preset "pharaoh" with "7D" and "7D2" swapped
    Then the request is refused with status 422 and "invalid_layout"
    And the reason given for "layout" is "copies"

  @s003-71 @s003-72 @variant-spanish
  Scenario Outline: With the Spanish deck, the two copies of a 6 pair (6 + 6 = 12): <how>
    Given the spanish_pharaoh deal under the rules:
      | option | value     |
      | rows   | 10        |
      | deck   | "spanish" |
    When I play "<moves>"
    Then the last move removed "6OR 6OR2"
    And the removal scored 20 points
    And 53 cards are left in the pyramid

    Examples:
      | how            | moves             |
      | by a pair move | 6OR+6OR2          |
      | by taps        | tap:6OR2 tap:6OR  |

  @s003-71 @s003-72 @variant-spanish
  Scenario: With the Spanish deck, the two copies of a 5 do not pair (5 + 5 = 10)
    Given the spanish_pharaoh deal under the rules:
      | option | value     |
      | rows   | 10        |
      | deck   | "spanish" |
    When I try "5ES+5ES2"
    Then the move is refused with "sum_not_12"

  @s003-71 @s003-72 @variant-spanish @codes
  Scenario: Pharaoh with the Spanish deck is dealt from two Spanish decks
    When I deal the code "PYR1-EP-AAAAAAA"
    Then the pyramid rows have 1 to 10 cards
    And the stock has 40 cards
    And the waste has 1 cards
    And the 96 cards of two Spanish decks are all there, each once

  @s003-71
  Scenario Outline: A move naming a copy not in play is refused, though the other copy is in play: <move>
    Given the pharaoh_easy deal under the preset "pharaoh"
    When I play "7D+6C2 7D2+6S AC+QC2 AC2+QD2 2C2+JC2"
    And I try "<move>"
    Then the move is refused with "card_not_free"

    Examples:
      | move    |
      | 3S2+TC  |
      | tap:3S2 |

  @s003-71
  Scenario Outline: Undo puts each copy back in its own place: <moves>
    Given the pharaoh_easy deal under the preset "pharaoh"
    And I note the game
    When I play "<moves> undo"
    Then the cards are where they were when noted
    And the free pyramid cards are "7D 6C2 7D2 6S AC QC2 AC2 QD2 2C2 JC2"

    Examples:
      | moves           |
      | 7D2+6C2         |
      | tap:6C2 tap:7D2 |

  @s003-71
  Scenario: The last card of row 9 stays covered while the last card of row 10 covers it
    Given the pharaoh_easy deal under the preset "pharaoh"
    When I play "draw" 11 times
    And I play "2C2+JD2"
    Then the last move removed "2C2 JD2"
    And the removal scored 10 points
    And the free pyramid cards are "7D 6C2 7D2 6S AC QC2 AC2 QD2 JC2"

  @s003-71
  Scenario: With no recycle left and the stock drawn out, the game goes on while a pair of row 10 is left
    Given the pharaoh_easy deal under the rules:
      | option       | value |
      | rows         | 10    |
      | max_recycles | 0     |
    When I play "draw" 48 times
    And I play "KS2 KH2 KD2"
    Then the game is playing
    And the events do not include "blocked"

  @api @s003-71
  Scenario Outline: A layout deals a card's first copy before its second in the waste and the stock too: <first> and <second>
    When I deal the pharaoh_easy deal under the preset "pharaoh" with "<first>" and "<second>" swapped
    Then the request is refused with status 422 and "invalid_layout"
    And the reason given for "layout" is "copies"

    Examples:
      | first | second |
      | TS    | TS2    |
      | 3S    | 3S2    |

  @api @s003-71
  Scenario: A layout naming one copy twice is refused, not read as the card's two copies
    When I deal the pharaoh_easy deal under the preset "pharaoh" with "TS2" written "TS"
    Then the request is refused with status 422 and "invalid_layout"
    And the reason given for "layout" is "duplicate"

  @codes @s003-71
  Scenario: A Pharaoh code deals the cards its specification gives: the 104 cards shuffled as one deck
    When I deal the code "PYR1-P-AAAAAAA"
    Then the cards dealt, the pyramid row by row, then the waste, then the stock from its top, are "3H KS 2C 2S 8S 3S JS 4S 2H 8D 9C 5H 4H 8S2 7D AD KC JS2 TC AS KD 2C2 7H 8H 7C TC2 QS KC2 JC TD QD KH AS2 2H2 3S2 KD2 AD2 9D 8H2 3D QD2 2S2 3C 5S 4D 2D 6D AH 9H 3H2 AC JH 8C AH2 5C AC2 6S 3C2 3D2 TS TS2 9S 6D2 5D 4C 4S2 JD 7C2 8D2 7H2 TD2 5C2 5D2 4D2 6S2 JC2 6C 9C2 KS2 9D2 QC 5S2 QH 7S 9H2 QC2 9S2 6C2 QH2 JH2 2D2 QS2 TH 8C2 4C2 6H 7D2 TH2 7S2 KH2 5H2 4H2 6H2 JD2"
