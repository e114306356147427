@doc-003 @variant-apophis
Feature: Apophis (003): three waste piles, the player choosing each card's pile
  «Apophis: Tres pilas de descarte en fila; las cartas del mazo pueden colocarse en cualquiera de
  las tres pilas, y la carta superior de cualquiera de ellas puede emparejarse.» The option
  `waste_piles` 3 (code letter `A`); the preset `apophis` (`AT2`) plays it on the traditional
  24-card stock with relaxed victory and three passes, as PySolFC's Apophis. A draw names its pile
  (`draw@2`); by taps, a tap on the stock turns its card up, in hand, and a tap on a pile puts it
  there (`tap:stock tap:waste2`). The piles go back to the stock pile 1 first, each from its bottom
  card. «Mazo contra descarte» does not compose with it: the card drawn goes beside the card it
  would pair with. `@s003-N` names the sentence of 003 a scenario guards (docs/conformance-traceability.md).

  @s003-69
  Scenario Outline: A card drawn goes onto the pile the player chooses: <how>
    Given the three_drawn deal under the preset "apophis"
    When I play "<moves>"
    Then the waste piles, from their tops, are "<one>", "<two>" and "<three>"
    And the last move's events are "drawn 6D onto <pile>"
    And the stock has 23 cards
    And the move counter is 1
    And the score is 0
    And no card is selected

    Examples:
      | how                                   | moves                  | one | two | three | pile   |
      | onto pile 1, by a draw                | draw@1                 | 6D  | -   | -     | waste1 |
      | onto pile 2, by a draw                | draw@2                 | -   | 6D  | -     | waste2 |
      | onto pile 3, by a draw                | draw@3                 | -   | -   | 6D    | waste3 |
      | onto pile 2, by taps                  | tap:stock tap:waste2   | -   | 6D  | -     | waste2 |
      | onto pile 3, by taps                  | tap:stock tap:waste3   | -   | -   | 6D    | waste3 |
      | onto pile 2, by a draw with it in hand | tap:stock draw@2      | -   | 6D  | -     | waste2 |

  @s003-69
  Scenario: By taps, a tap on the stock turns its card up, in hand, and moves nothing yet
    Given the three_drawn deal under the preset "apophis"
    When I play "tap:stock"
    Then the selected card is "6D"
    And the last move's events are "selected 6D"
    And the stock has 24 cards
    And the waste piles, from their tops, are "-", "-" and "-"
    And the move counter is 0

  @s003-69
  Scenario Outline: The card in hand goes back to the stock: <how>
    Given the three_drawn deal under the preset "apophis"
    When I play "tap:stock <tap>"
    Then <selection>
    And the last move's events are "<events>"
    And the stock has 24 cards
    And the waste piles, from their tops, are "-", "-" and "-"

    Examples:
      | how                                            | tap       | selection                  | events        |
      | tapping the stock again                        | tap:stock | no card is selected        | deselected 6D |
      | tapping a free pyramid card, which is selected | tap:7C    | the selected card is "7C"  | selected 7C   |

  @s003-69
  Scenario Outline: A tap on a covered card with a card in hand does nothing; the card stays in hand: <card>
    Given the three_drawn deal under the preset "apophis"
    When I play "tap:stock"
    And I try "tap:<card>"
    Then nothing changes
    And the selected card is "6D"

    Examples:
      | card |
      | QC   |
      | JD   |

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
    Then the last move removed "5C 8C"
    And the removal scored 0 points
    And the waste piles, from their tops, are "2D 6D", "9D" and "3C"

    Examples:
      | how          | moves         |
      | by a pair    | 8C+5C         |
      | by taps      | tap:5C tap:8C |

  @api @s003-69 @s003-27
  Scenario: The legal moves offer the tops of two piles that pair
    Given the three_drawn deal under the preset "apophis"
    When I play "draw@1 draw@2 draw@3 draw@1 draw@2 draw@3"
    Then the legal moves include "5C+8C"

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
  Scenario Outline: Undo of a pair puts its cards back on their piles: <how>
    Given the three_drawn deal under the preset "apophis"
    When I play "<draws> <pair> undo"
    Then the waste piles, from their tops, are "<one>", "<two>" and "<three>"
    And 28 cards are left in the pyramid

    Examples:
      | how                                   | draws                                      | pair  | one   | two   | three |
      | the tops of piles 2 and 3             | draw@1 draw@2 draw@3 draw@1 draw@2 draw@3  | 8C+5C | 2D 6D | 5C 9D | 8C 3C |
      | the top of pile 1 and a pyramid card  | draw@1 draw@2 draw@3                       | 6D+7C | 6D    | 9D    | 3C    |
      | the top of pile 2 and a pyramid card  | draw@1 draw@2 draw@3                       | 9D+4H | 6D    | 9D    | 3C    |
      | the top of pile 3 and a pyramid card  | draw@1 draw@2 draw@3                       | 3C+TC | 6D    | 9D    | 3C    |

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

  @s003-69 @s003-16 @s003-59 @variant-strict-win
  Scenario Outline: Strict victory needs the three piles empty too, not only the stock and pile 1: strict_win <strict>
    Given the easy deal under the rules:
      | option        | value    |
      | strict_win    | <strict> |
      | initial_waste | false    |
      | waste_piles   | 3        |
    When I play "draw@2" 24 times
    And I play "KC AC+QC 2C+JC 3C+TC 4C+9C 5C+8C 6C+7C KD AD+QD 2D+JD 3D+TD 4D+9D 5D+8D KH 6D+7D KS"
    Then 0 cards are left in the pyramid
    And the stock has 0 cards
    And the game is <status>

    Examples:
      | strict | status  |
      | true   | playing |
      | false  | won     |

  @s003-69 @s003-55 @variant-strict-win
  Scenario Outline: Strict victory with unlimited recycling: over once no card left to draw can pair, though two piles let any two of them meet, strict_win <strict>
    Given the three_piles_end deal under the rules:
      | option        | value    |
      | strict_win    | <strict> |
      | initial_waste | false    |
      | waste_piles   | 3        |
    When I play "KC KD KH KS draw@1 QC+AC draw@1 QD+AD draw@1 QH+AH draw@1 QS+AS draw@1 8C+5C draw@1 8D+5D draw@1 8H+5H draw@1 8S+5S"
    And I play "draw@1 7C+6C draw@1 7D+6D draw@1 7H+6H draw@1 7S+6S draw@1 JH+2H draw@1 JS+2S"
    And I play "draw@1 draw@2 3H+TH draw@1 draw@2 3S+TS draw@1 draw@2 4H+9H"
    Then the stock, from its top, is "4S 9S 4C 4D"
    And the game is playing
    When I play "draw@1 draw@2 4S+9S"
    Then the stock, from its top, is "4C 4D"
    And the game is <status>

    Examples:
      | strict | status  |
      | true   | blocked |
      | false  | playing |

  @s003-69 @s003-55 @variant-strict-win
  Scenario Outline: Strict victory with unlimited recycling: a card left to draw that pairs with a free pyramid card keeps the game going, strict_win <strict>
    Given the three_piles_free deal under the rules:
      | option        | value    |
      | strict_win    | <strict> |
      | initial_waste | false    |
      | waste_piles   | 3        |
    When I play "KC KD KH KS draw@1 QC+AC draw@1 QD+AD draw@1 QH+AH draw@1 QS+AS draw@1 8C+5C draw@1 8D+5D draw@1 8H+5H draw@1 8S+5S"
    And I play "draw@1 7C+6C draw@1 7D+6D draw@1 7H+6H draw@1 7S+6S draw@1 JH+2H draw@1 JS+2S"
    And I play "draw@1 draw@2 3H+TH draw@1 draw@2 3S+TS draw@1 draw@2 4H+9H"
    Then the stock, from its top, is "4S 3D 4C 4D"
    And the game is playing
    When I play "draw@3 4S+9S"
    Then the game is <status>

    Examples:
      | strict | status  |
      | true   | blocked |
      | false  | playing |

  @s003-69 @s003-55 @variant-strict-win
  Scenario: Strict victory with unlimited recycling: the last two cards to draw pair with each other, from two piles, so the game goes on
    Given the three_piles_last_pair deal under the rules:
      | option        | value |
      | strict_win    | true  |
      | initial_waste | false |
      | waste_piles   | 3     |
    When I play "KC KD KH KS draw@1 QC+AC draw@1 QD+AD draw@1 QH+AH draw@1 QS+AS draw@1 8D+5D draw@1 8H+5H draw@1 8S+5S"
    And I play "draw@1 7C+6C draw@1 7D+6D draw@1 7H+6H draw@1 7S+6S draw@1 JH+2H draw@1 JS+2S draw@1 TH+3H"
    And I play "draw@1 draw@2 3S+TS draw@1 draw@2 4C+9C draw@1 draw@2 4D+9D draw@1 draw@2 4H+9H"
    Then the stock, from its top, is "4S 9S"
    And the game is playing
    When I play "draw@1 draw@2 4S+9S"
    Then the game is blocked

  @api @s003-69
  Scenario Outline: A forged state under Apophis is refused: <what>
    Given the three_drawn deal under the preset "apophis"
    When I play "draw@1 draw@2 draw@3"
    And I send the game back with "<field>" set to <value> to play "draw@1"
    Then the request is refused with status 422 and "invalid_state"

    Examples:
      | what                                   | field    | value              |
      | a card moved from pile 2 to pile 3     | piles    | [[], ["3C", "9D"]] |
      | pile 3's card put back on the stock    | piles[1] | []                 |

  @api @s003-69
  Scenario: A forged state under Apophis without its piles is refused, naming the piles
    Given the three_drawn deal under the preset "apophis"
    When I play "draw@1 draw@2 draw@3"
    And I send the game back without "piles" to play "draw@1"
    Then the request is refused with status 422 and "invalid_state"
    And the reason given for "state.piles" is "missing_field"

  @api @s003-69
  Scenario: The legal moves under Apophis: every removal, then a draw onto each pile
    Given the three_drawn deal under the preset "apophis"
    When I play "draw@1 draw@2 draw@3"
    Then the legal moves are "KD 3C+TC 3H+TC 3S+TC 6D+7C 6D+7S 9D+4H draw@1 draw@2 draw@3 undo"

  @api @s003-69
  Scenario Outline: The undo history writes the pile of a draw and what each pile gave back to a recycle: <how>
    Given the three_drawn deal under the preset "apophis"
    When I play "<moves>"
    Then the last action of the undo history is "<action>"

    Examples:
      | how       | moves                                                                                                                                                                | action         |
      | a draw    | draw@2                                                                                                                                                               | draw@2         |
      | a recycle | draw@1 draw@2 draw@3 draw@1 draw@2 draw@3 draw@3 draw@3 draw@3 draw@3 draw@3 draw@3 draw@3 draw@3 draw@3 draw@3 draw@3 draw@3 draw@3 draw@3 draw@3 draw@3 draw@3 draw@3 recycle | recycle:2/2/20 |

  @api @s003-69
  Scenario: A replay of taps onto the piles is the game played by moves
    Given the three_drawn deal under the preset "apophis"
    When I replay "tap:stock tap:waste2 tap:stock tap:waste3 tap:4H tap:9D" from the deal
    Then the replay is valid: 6 moves, 10 points, "playing"

  @api @s003-69
  Scenario Outline: The board described with its three waste piles: <language>
    Given the three_drawn deal under the preset "apophis"
    When I play "draw@1 draw@3"
    Then the description in "<language>" begins "<text>"

    Examples:
      | language | text                                                                                          |
      | es       | Mazo: 22 cartas; descarte 1: 6 de diamantes; descarte 2: vacío; descarte 3: 9 de diamantes. Fila 1: jota de diamantes |
      | it       | Mazzo di pesca: 22 carte; scarti 1: 6 di quadri; scarti 2: vuoto; scarti 3: 9 di quadri. Fila 1: fante di quadri |
      | en       | Stock: 22 cards; waste 1: 6 of diamonds; waste 2: empty; waste 3: 9 of diamonds. Row 1: jack of diamonds |
      | fr       | Talon : 22 cartes ; défausse 1 : 6 de carreau ; défausse 2 : vide ; défausse 3 : 9 de carreau. Rangée 1 : valet de carreau |

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

  @api @s003-69
  Scenario: Three waste piles do not compose with «mazo contra descarte»: no such rule set
    When I deal a new game under the rules:
      | option                 | value |
      | waste_piles            | 3     |
      | drawn_pairs_with_waste | true  |
    Then the request is refused with status 422 and "invalid_rules"
    And the message is "Invalid rules option: drawn_pairs_with_waste"

  @api @s003-69
  Scenario: A forged state under Apophis with «mazo contra descarte» is refused: no such rule set, blamed on that option
    Given the three_drawn deal under the preset "apophis"
    When I play "draw@1"
    And I send the game back with "rules.drawn_pairs_with_waste" set to true to play "draw@2"
    Then the request is refused with status 422 and "invalid_state"
    And the reason given for "state.rules.drawn_pairs_with_waste" is "rules"

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
    And the reason given for "code" is "rules"

  @api @codes @s003-69
  Scenario: A code naming three waste piles with «mazo contra descarte» names no rule set: its message names the segment and the letters
    When I deal the code "PYR1-ADT-AAAAAAA"
    Then the request is refused with status 422 and "invalid_code"
    And the message is "Unknown rules “ADT”: N, or the letters A C D E K P S T U W in that order then a recycle limit"
