Feature: Las decisiones de la app y las variantes / Le scelte dell'app e le varianti
  «Pyramide no tiene un reglamento oficial. Con respecto a las reglas descritas en las fuentes, la
  aplicación adopta algunas opciones […] La bibliografía también menciona variantes: victoria
  estricta […]; pasadas limitadas […]; mazo contra descarte […]; carta y carta que la cubre […].»
  The app's four choices are checked under its own rules; each variant under its rule option, on
  and off.

  # -- Victory -------------------------------------------------------------------------------------

  @doc-000 @doc-002 @sentence-55 @app-rules @rule-app-choices
  Scenario: The app's choice of victory: clearing the pyramid is enough, the stock need not be exhausted
    Given the easy deal
    When I play "KC AC+QC 2C+JC 3C+TC 4C+9C 5C+8C 6C+7C KD AD+QD 2D+JD 3D+TD 4D+9D 5D+8D KH 6D+7D KS"
    Then the game is won
    And the stock has 23 cards

  @doc-000 @doc-002 @doc-003 @sentence-59 @variant-strict-win
  Scenario Outline: Strict victory: the stock and the waste must be cleared too; with cards left that can never go, the game is over, <how>
    Given the easy deal with "strict_win" set to true
    When I play "<moves>"
    Then 0 cards are left in the pyramid
    And the game is blocked
    And the events do not include "won"
    And the events include "blocked"
    And the feedback is "blocked"
    And the stock has 23 cards

    Examples:
      | how      | moves |
      | by moves | KC AC+QC 2C+JC 3C+TC 4C+9C 5C+8C 6C+7C KD AD+QD 2D+JD 3D+TD 4D+9D 5D+8D KH 6D+7D KS |
      | by taps  | tap:KC tap:AC tap:QC tap:2C tap:JC tap:3C tap:TC tap:4C tap:9C tap:5C tap:8C tap:6C tap:7C tap:KD tap:AD tap:QD tap:2D tap:JD tap:3D tap:TD tap:4D tap:9D tap:5D tap:8D tap:KH tap:6D tap:7D tap:KS |

  @doc-000 @doc-002 @doc-003 @sentence-59 @variant-strict-win @variant-drawn-pairs-with-waste
  Scenario: Strict victory with the pyramid cleared goes on while a card drawn can still pair with the card beneath it
    Given the easy deal under the rules:
      | option                 | value |
      | strict_win             | true  |
      | drawn_pairs_with_waste | true  |
    When I play "KC AC+QC 2C+JC 3C+TC 4C+9C 5C+8C 6C+7C KD AD+QD 2D+JD 3D+TD 4D+9D 5D+8D KH 6D+7D KS"
    Then 0 cards are left in the pyramid
    And the game is playing
    When I play "draw draw draw draw draw draw 7H+6H"
    Then the last move removed "6H 7H"
    And the removal scored 0 points

  @doc-000 @doc-002 @doc-003 @sentence-59 @variant-strict-win @s003-55
  Scenario Outline: Strict victory with unlimited recycling: once no card can ever be removed, the game is over, <how>
    Given the stuck deal with "strict_win" set to true
    When I play "KS QC+AC draw QD+AD draw QS+AS draw JC+2C draw JD+2D draw JH+2H draw JS+2S"
    And I play "draw TC+3C draw TD+3D draw TH+3H draw TS+3S draw 9C+4C draw 9D+4D draw 9H+4H draw 9S+4S"
    And I play "draw 8C+5C draw 8D+5D 6S+7S draw 8H+5H draw 8S+5S draw KC draw KD draw"
    Then the game is playing
    When I play "<king>"
    Then the game is blocked
    And the events include "blocked"
    And the feedback is "blocked"
    And the stock has 2 cards
    When I try "draw"
    Then the move is refused with "game_over"

    Examples:
      | how       | king   |
      | by a move | KH     |
      | by a tap  | tap:KH |

  @api @variant-strict-win
  Scenario: Strict victory with unlimited recycling: a game over with cards left to draw offers only undo
    Given the stuck deal with "strict_win" set to true
    When I play "KS QC+AC draw QD+AD draw QS+AS draw JC+2C draw JD+2D draw JH+2H draw JS+2S"
    And I play "draw TC+3C draw TD+3D draw TH+3H draw TS+3S draw 9C+4C draw 9D+4D draw 9H+4H draw 9S+4S"
    And I play "draw 8C+5C draw 8D+5D 6S+7S draw 8H+5H draw 8S+5S draw KC draw KD draw KH"
    Then the legal moves are "undo"

  @doc-000 @doc-002 @doc-003 @sentence-59 @s003-55 @variant-strict-win @variant-drawn-pairs-with-waste
  Scenario Outline: Strict victory with unlimited recycling: a deal where no card can ever be removed is over at once, strict_win <strict>, stock against waste <drawn>
    Given the dead_start deal under the rules:
      | option                 | value    |
      | strict_win             | <strict> |
      | drawn_pairs_with_waste | <drawn>  |
    Then the game is <status>

    Examples:
      | strict | drawn | status  |
      | true   | false | blocked |
      | false  | false | playing |
      | true   | true  | playing |

  @doc-000 @doc-002 @doc-003 @sentence-59 @s003-55 @variant-strict-win
  Scenario: Strict victory with unlimited recycling: the stock run out, nothing to remove now, a card deep in the waste will pair after a recycle: the game goes on
    Given the clearing deal with "strict_win" set to true
    When I play "draw" 23 times
    Then the stock has 0 cards
    And the game is playing
    When I play "recycle draw QC+AC"
    Then the last move removed "AC QC"
    And the removal scored 10 points

  @api @variant-strict-win
  Scenario: Strict victory with unlimited recycling: a deal over at once offers no move at all
    Given the dead_start deal with "strict_win" set to true
    Then there are no legal moves

  @doc-000 @doc-002 @doc-003 @sentence-59 @variant-drawn-pairs-with-waste @variant-strict-win
  Scenario: Stock against waste: removing the top card of the pyramid does not end «la carta que se acaba de robar»
    Given the fifteen_drawn deal under the rules:
      | option                 | value |
      | strict_win             | true  |
      | drawn_pairs_with_waste | true  |
    When I play "KS AC+QC 2C+JC 3C+TC 4C+9C 5C+8C 6C+7C AD+QD 2D+JD 3D+TD 4D+9D 5D+8D 6D+7D AH+QH draw KH"
    Then 0 cards are left in the pyramid
    And the game is playing
    When I play "JH+2H"
    Then the last move removed "JH 2H"
    And the removal scored 0 points

  @api @variant-pair-with-covering
  Scenario: Card and covering card: the legal moves offer a covering pair wherever it is in the pyramid
    Given the covering_late deal with "pair_with_covering" set to true
    When I play "AC+QC KH"
    Then the legal moves are "KD QD+AH 6D+7D draw undo"

  @doc-000 @doc-002 @doc-003 @sentence-59 @variant-strict-win @variant-drawn-pairs-with-waste
  Scenario: Strict victory with unlimited recycling and stock against waste: the last two cards still pair when one is drawn onto the other
    Given the stuck deal under the rules:
      | option                 | value |
      | strict_win             | true  |
      | drawn_pairs_with_waste | true  |
    When I play "KS QC+AC draw QD+AD draw QS+AS draw JC+2C draw JD+2D draw JH+2H draw JS+2S"
    And I play "draw TC+3C draw TD+3D draw TH+3H draw TS+3S draw 9C+4C draw 9D+4D draw 9H+4H draw 9S+4S"
    And I play "draw 8C+5C draw 8D+5D 6S+7S draw 8H+5H draw 8S+5S draw KC draw KD draw KH"
    Then the game is playing
    When I play "draw draw QH+AH"
    Then the last move removed "AH QH"
    And the removal scored 0 points

  @doc-000 @doc-002 @doc-003 @sentence-59 @variant-strict-win @s003-16 @s003-55 @s003-59 @s003-61 @s003-67
  Scenario Outline: Strict victory once the pyramid, the stock and the waste are all cleared, strict_win <strict>, <how>
    Given the clearing deal with "strict_win" set to <strict>
    When I play "QC+AC draw QD+AD draw QH+AH draw QS+AS draw JC+2C draw JD+2D draw JH+2H draw JS+2S"
    And I play "draw TC+3C draw TD+3D draw TH+3H draw TS+3S draw 9C+4C draw 9D+4D draw 9H+4H draw 9S+4S"
    And I play "draw 8C+5C draw 8D+5D 6S+7S draw 8H+5H draw 8S+5S KC KD draw KH draw KS draw 6H+7D 7C+6D draw"
    Then 1 cards are left in the pyramid
    And the game is playing
    When I play "<last>"
    Then the game is won
    And the stock has 0 cards
    And the waste has 0 cards

    Examples:
      | strict | how            | last          |
      | true   | by a pair move | 7H+6C         |
      | true   | by taps        | tap:7H tap:6C |
      | false  | by a pair move | 7H+6C         |

  @doc-000 @doc-002 @doc-003 @sentence-59 @variant-strict-win @variant-limited-passes @s003-52 @s003-63 @s003-89
  Scenario: Strict victory in one pass: the pyramid cleared, the stock run out, the waste left: blocked, not won
    Given the easy deal under the rules:
      | option       | value |
      | strict_win   | true  |
      | max_recycles | 0     |
    When I play "KC AC+QC 2C+JC 3C+TC 4C+9C 5C+8C 6C+7C KD AD+QD 2D+JD 3D+TD 4D+9D 5D+8D KH 6D+7D KS"
    Then the game is playing
    When I play "draw" 22 times
    Then the game is playing
    When I play "draw"
    Then the game is blocked
    And the events do not include "won"

  # -- Recycling -----------------------------------------------------------------------------------

  @doc-000 @doc-002 @sentence-56 @app-rules @rule-app-choices
  Scenario Outline: The app's unlimited recycling, <how>
    Given the documents deal
    When I play "draw" 23 times
    And I play "<recycle>"
    And I play "draw" 24 times
    And I play "<recycle>"
    And I play "draw" 24 times
    And I play "<recycle>"
    Then the game is playing
    And the stock has 24 cards

    Examples:
      | how       | recycle   |
      | by moves  | recycle   |
      | by taps   | tap:stock |

  @doc-000 @doc-002 @doc-003 @sentence-59 @variant-limited-passes @s003-52 @s003-53 @s003-68 @s003-89
  Scenario Outline: Limited passes: <limit> recycles, and not one more, <how>
    Given the documents deal with "max_recycles" set to <limit>
    When I play "draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw"
    And I play "<recycles>"
    Then the stock has 0 cards
    And the waste has 24 cards
    And the game is playing
    When I try "recycle"
    Then the move is refused with "no_recycles_left"
    And the refused move left the game as it was

    Examples:
      | limit | how      | recycles |
      | 0     | -        | KD       |
      | 1     | by move  | KD recycle draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw |
      | 1     | by tap   | KD tap:stock draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw tap:stock |
      | 2     | by moves | KD recycle draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw recycle draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw |
      | 2     | by taps  | KD tap:stock draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw tap:stock tap:stock draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw tap:stock tap:stock |

  @doc-000 @doc-002 @doc-003 @sentence-59 @variant-limited-passes @s003-52 @s003-53 @s003-68 @s003-89
  Scenario Outline: Limited passes: the recycle after the last one the limit allows is refused, whatever the limit: <limit>
    Given the documents deal with "max_recycles" set to <limit>
    When I go through the stock as many times as the rules allow
    Then the stock has 0 cards
    And the game is playing
    When I try "recycle"
    Then the move is refused with "no_recycles_left"
    And the refused move left the game as it was

    Examples:
      | limit |
      | 0     |
      | 3     |

  @doc-000 @doc-002 @doc-003 @sentence-59 @variant-limited-passes @s003-52 @s003-53
  Scenario Outline: Limited passes: past the last recycle, a tap on the empty stock does nothing, <limit> recycles
    Given the documents deal with "max_recycles" set to <limit>
    When I play "draw" 23 times
    And I play "<recycles>"
    And I try "tap:stock"
    Then nothing changes
    And the feedback is "no_recycles_left"

    Examples:
      | limit | recycles |
      | 0     | KD       |
      | 1     | KD tap:stock draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw tap:stock |

  @api @variant-limited-passes
  Scenario: Limited passes: a recycle past the limit is refused, naming the move
    Given the documents deal with "max_recycles" set to 0
    When I play "draw" 23 times
    And I try "recycle"
    Then the move is refused with "no_recycles_left"
    And the refusal names the field "move"

  @api @variant-limited-passes
  Scenario: Limited passes: a limit written with a decimal point, 1.0, is the whole number 1 (JSON has one number type)
    When I deal a new game under the rules:
      | option       | value |
      | max_recycles | 1.0   |
    Then the game's rules are:
      | option                 | value |
      | strict_win             | false |
      | max_recycles           | 1     |
      | drawn_pairs_with_waste | false |
      | pair_with_covering     | false |
      | initial_waste          | true  |
    And the game's code begins "PYR1-1-"

  @api
  Scenario Outline: Rules no game has are refused before any deal: <what>
    When I deal a new game with "<option>" set to <value>
    Then the request is refused with status 400 and "invalid_rules"
    And the refusal names the field "rules.<option>"

    Examples:
      | what                               | option         | value    |
      | an option the rules do not have    | no_such_option | true     |
      | a flag that is not true or false   | strict_win     | 1        |
      | a negative recycle limit           | max_recycles   | -1       |
      | a recycle limit past four digits   | max_recycles   | 10000    |
      | a recycle limit that is not whole  | max_recycles   | 2.5      |
      | a draw of two cards                | draw_count     | 2        |
      | two waste piles                    | waste_piles    | 2        |
      | rows other than 7 or 10            | rows           | 8        |
      | a deck the rules do not have       | deck           | "german" |

  @api @rule-state
  Scenario Outline: A forged state whose rules no game has is refused: <what>
    Given the documents deal
    When I play "KD"
    And I send the game back with "rules.<option>" set to <value> to play "draw"
    Then the request is refused with status 400 and "invalid_state"
    And the refusal names the field "state.rules.<option>"

    Examples:
      | what                               | option         | value    |
      | an option the rules do not have    | no_such_option | true     |
      | a flag that is not true or false   | strict_win     | 1        |
      | a negative recycle limit           | max_recycles   | -1       |
      | rows other than 7 or 10            | rows           | 8        |

  @doc-000 @doc-002 @doc-003 @sentence-59 @variant-limited-passes
  Scenario Outline: Limited passes: undoing a recycle gives it back, <how>
    Given the documents deal with "max_recycles" set to 1
    When I play "draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw <recycle>"
    And I play "undo"
    Then the stock has 0 cards
    When I play "<recycle>"
    Then the stock has 24 cards

    Examples:
      | how      | recycle   |
      | by move  | recycle   |
      | by tap   | tap:stock |

  @doc-000 @doc-002 @doc-003 @sentence-59 @variant-limited-passes @s003-55 @s003-63
  Scenario Outline: Limited passes: with no recycle left and nothing to remove, the game is blocked, <how>
    Given the stuck deal with "max_recycles" set to <limit>
    When I play "KS QC+AC draw QD+AD draw QS+AS draw JC+2C draw JD+2D draw JH+2H draw JS+2S"
    And I play "draw TC+3C draw TD+3D draw TH+3H draw TS+3S draw 9C+4C draw 9D+4D draw 9H+4H draw 9S+4S"
    And I play "draw 8C+5C draw 8D+5D 6S+7S draw 8H+5H draw 8S+5S draw KC draw KD draw KH"
    And I play "<passes>"
    Then the game is playing
    When I play "<draw>"
    Then the game is blocked
    And the feedback is "blocked"
    And the stock has 0 cards

    Examples:
      | limit | how                         | passes                         | draw      |
      | 0     | the last draw by move        | draw                                    | draw      |
      | 0     | the last draw by tap         | tap:stock                               | tap:stock |
      | 1     | after a second pass, by move | draw draw recycle draw                  | draw      |
      | 1     | after a second pass, by tap  | tap:stock tap:stock tap:stock tap:stock | tap:stock |

  @pyramide-choice @variant-limited-passes
  Scenario Outline: Limited passes: the draw that blocks the game puts down the card in hand, <how>
    Given the stuck deal with "max_recycles" set to 0
    When I play "KS QC+AC draw QD+AD draw QS+AS draw JC+2C draw JD+2D draw JH+2H draw JS+2S"
    And I play "draw TC+3C draw TD+3D draw TH+3H draw TS+3S draw 9C+4C draw 9D+4D draw 9H+4H draw 9S+4S"
    And I play "draw 8C+5C draw 8D+5D 6S+7S draw 8H+5H draw 8S+5S draw KC draw KD draw KH draw tap:6C"
    Then the selected card is "6C"
    When I play "<draw>"
    Then the game is blocked
    And no card is selected

    Examples:
      | how          | draw      |
      | by move      | draw      |
      | by a tap     | tap:stock |

  # -- The waste -----------------------------------------------------------------------------------

  @doc-000 @doc-002 @sentence-57 @app-rules @rule-app-choices
  Scenario Outline: The app's single waste card in play: the drawn card does not pair with the card it covers, <how>
    Given the stuck deal
    When I play "KS QC+AC draw QD+AD draw QS+AS"
    And I play "draw" 21 times
    And I try "<moves>"
    Then the move is refused with "card_not_free"

    Examples:
      | how           | moves         |
      | by a move     | QH+AH         |
      | by taps       | tap:QH tap:AH |

  @doc-000 @doc-002 @doc-003 @sentence-59 @variant-drawn-pairs-with-waste @s003-46
  Scenario Outline: Stock against waste: the card just drawn may pair with the waste card it covers, <how>
    Given the stuck deal with "drawn_pairs_with_waste" set to true
    When I play "KS QC+AC draw QD+AD draw QS+AS"
    And I play "draw" 21 times
    And I play "<moves>"
    Then the last move removed "QH AH"
    And the removal scored 0 points
    And the waste top is "KH"
    And the move counter is 28

    Examples:
      | how                   | moves         |
      | by a move             | QH+AH         |
      | by a move, other order| AH+QH         |
      | by taps               | tap:QH tap:AH |

  @doc-000 @doc-002 @doc-003 @sentence-59 @variant-drawn-pairs-with-waste @variant-limited-passes @s003-46
  Scenario Outline: Stock against waste: the last card drawn, no recycle left, still pairs with the card it covers, so the game goes on, <how>
    Given the drawn_last deal under the rules:
      | option                 | value |
      | drawn_pairs_with_waste | true  |
      | max_recycles           | 0     |
    When I play "KS QC+AC draw QD+AD draw QS+AS draw JC+2C draw JD+2D draw JH+2H draw JS+2S"
    And I play "draw TC+3C draw TD+3D draw TH+3H draw TS+3S draw 9C+4C draw 9D+4D draw 9H+4H draw 9S+4S"
    And I play "draw 8C+5C draw 8D+5D 6S+7S draw 8H+5H draw 8S+5S draw KC draw KD draw draw KH"
    And I play "<draw>"
    Then the stock has 0 cards
    And the game is playing
    When I play "<pair>"
    Then the last move removed "QH AH"

    Examples:
      | how       | draw      | pair          |
      | by moves  | draw      | QH+AH         |
      | by taps   | tap:stock | tap:QH tap:AH |

  @doc-000 @doc-002 @doc-003 @sentence-59 @variant-drawn-pairs-with-waste @s003-46
  Scenario Outline: Stock against waste: the card just drawn and the waste card it covers go only if they sum 13, <how>
    Given the stuck deal with "drawn_pairs_with_waste" set to true
    When I play "KS QC+AC draw QD+AD draw QS+AS draw draw"
    Then the waste's top cards are "JD JC"
    When I try "<moves>"
    Then the move is refused with "<reason>"

    Examples:
      | how                   | moves         | reason        |
      | by a move             | JD+JC         | sum_not_13    |
      | by a move, other order| JC+JD         | sum_not_13    |

  @api @variant-drawn-pairs-with-waste
  Scenario: Stock against waste: the legal moves offer the card just drawn with the card it covers only if they sum 13
    Given the stuck deal with "drawn_pairs_with_waste" set to true
    When I play "KS QC+AC draw QD+AD draw QS+AS draw draw"
    Then the legal moves do not include "JD+JC"

  @doc-000 @doc-002 @doc-003 @sentence-59 @variant-drawn-pairs-with-waste
  Scenario: Stock against waste: a removal within the pyramid does not end «la carta que se acaba de robar»
    Given the stuck deal with "drawn_pairs_with_waste" set to true
    When I play "KS QC+AC draw QD+AD draw QS+AS draw JC+2C draw JD+2D draw JH+2H draw JS+2S"
    And I play "draw TC+3C draw TD+3D draw TH+3H draw TS+3S draw 9C+4C draw 9D+4D draw 9H+4H draw 9S+4S"
    And I play "draw 8C+5C draw 8D+5D draw 8H+5H draw 8S+5S draw KC draw KD draw KH draw draw"
    And I play "6S+7S QH+AH"
    Then the last move removed "QH AH"
    And the removal scored 0 points

  @doc-000 @doc-002 @doc-003 @sentence-59 @variant-drawn-pairs-with-waste
  Scenario Outline: Stock against waste: once another card has been drawn onto it, a card is no longer the card just drawn, <how>
    Given the lapsed deal with "drawn_pairs_with_waste" set to true
    When I play "KS QC+AC draw QD+AD draw QS+AS"
    And I play "draw" 20 times
    Then "QH+AH" may be played
    When I play "draw KC"
    Then the waste's top cards are "QH AH"
    When I try "<moves>"
    Then the move is refused with "card_not_free"

    Examples:
      | how       | moves         |
      | by a move | QH+AH         |
      | by taps   | tap:QH tap:AH |

  # -- Covering cards ------------------------------------------------------------------------------

  @doc-000 @doc-002 @sentence-58 @app-rules @rule-app-choices
  Scenario Outline: The app's choice: a card never pairs with a card still covering it, <how>
    Given the documents deal
    When I try "KD <moves>"
    Then the move is refused with "card_blocked"

    Examples:
      | how                    | moves |
      | by a move              | TS+3S |
      | by a move, other order | 3S+TS |

  @doc-000 @doc-002 @sentence-58 @app-rules @rule-app-choices
  Scenario: The app's choice: tapping a card then the card it covers does nothing
    Given the documents deal
    When I try "KD tap:3S tap:TS"
    Then nothing changes
    And the feedback is "card_blocked"
    And the selected card is "3S"

  @doc-000 @doc-002 @doc-003 @sentence-59 @variant-pair-with-covering
  Scenario Outline: Card and covering card: a card may pair with the single card still covering it, <how>
    Given the documents deal with "pair_with_covering" set to true
    When I play "KD <moves>"
    Then the last move removed "TS 3S"
    And the removal scored 20 points
    And 25 cards are left in the pyramid

    Examples:
      | how                    | moves         |
      | by a move              | TS+3S         |
      | by a move, other order | 3S+TS         |
      | by taps                | tap:3S tap:TS |

  @doc-000 @doc-002 @doc-003 @sentence-59 @variant-pair-with-covering
  Scenario Outline: Card and covering card: not while a second card still covers it, <how>
    Given the documents deal with "pair_with_covering" set to true
    When I try "<moves>"
    Then the move is refused with "card_blocked"

    Examples:
      | how                                                    | moves |
      | by a move                                              | TS+3S |
      | by a move, other order                                 | 3S+TS |
      | by a move, the partner its right cover, the left there | TD+3S |
      | by a move, other order, the partner its right cover    | 3S+TD |

  @doc-000 @doc-002 @doc-003 @sentence-59 @variant-pair-with-covering
  Scenario Outline: Card and covering card: by taps, not while a second card still covers it, <how>
    Given the documents deal with "pair_with_covering" set to true
    When I try "<taps>"
    Then nothing changes
    And the feedback is "card_blocked"

    Examples:
      | how                                         | taps          |
      | the partner its left cover, the right there | tap:3S tap:TS |
      | the partner its right cover, the left there | tap:3S tap:TD |

  @doc-000 @doc-002 @doc-003 @sentence-59 @variant-pair-with-covering
  Scenario Outline: Card and covering card: not with a single cover that is itself covered, <how>
    Given the covered_cover deal with "pair_with_covering" set to true
    When I play "3C+TC KC"
    And I try "<moves>"
    Then the move is refused with "card_blocked"

    Examples:
      | how                    | moves |
      | by a move              | AD+QD |
      | by a move, other order | QD+AD |

  @doc-000 @doc-002 @doc-003 @sentence-59 @variant-pair-with-covering
  Scenario Outline: Card and covering card: not with a single cover that is itself covered, by taps: <moves>
    Given the covered_cover deal with "pair_with_covering" set to true
    When I play "3C+TC KC"
    And I try "<moves>"
    Then nothing changes
    And the feedback is "card_blocked"

    Examples:
      | moves  |
      | tap:QD |
      | tap:AD |

  @doc-000 @doc-002 @doc-003 @sentence-59 @variant-drawn-pairs-with-waste
  Scenario Outline: Stock against waste: the first card drawn pairs with the card dealt onto the waste, <how>
    Given the dealt_draw deal with "drawn_pairs_with_waste" set to true
    When I play "draw <moves>"
    Then the last move removed "AC QD"
    And the removal scored 0 points
    And the waste is empty

    Examples:
      | how                    | moves         |
      | by a move              | AC+QD         |
      | by a move, other order | QD+AC         |
      | by taps                | tap:AC tap:QD |

  @doc-000 @doc-002 @sentence-57 @app-rules @rule-app-choices
  Scenario Outline: The app's single waste card in play: the first card drawn does not pair with the card dealt onto the waste, <how>
    Given the dealt_draw deal
    When I play "draw"
    And I try "<moves>"
    Then the move is refused with "card_not_free"

    Examples:
      | how                    | moves |
      | by a move              | AC+QD |
      | by a move, other order | QD+AC |

  # -- The deal ------------------------------------------------------------------------------------

  @doc-003 @variant-traditional-stock @s003-24 @s003-85
  Scenario Outline: The traditional deal: a 24-card stock and no card on the waste, <how>
    Given the documents deal with "initial_waste" set to false
    Then the waste has 0 cards
    And the stock has 24 cards
    And the score is 0
    And the move counter is 0
    And the stock, from its top, is "7D AC 3C 4C 5C 8C JC 2D 5D 6D 9D QD AH 2H 8H 9H TH JH QH 2S 4S 5S 6S 9S"
    When I play "<draw>"
    Then the waste top is "7D"
    And the stock has 23 cards

    Examples:
      | how     | draw      |
      | by move | draw      |
      | by tap  | tap:stock |

  @doc-000 @doc-002 @sentence-3 @sentence-13 @app-rules @rule-setup
  Scenario: The app's deal: one card on the waste, 23 in the stock
    Given the documents deal with "initial_waste" set to true
    Then the waste has 1 cards
    And the stock has 23 cards
    And the waste top is "7D"

  @doc-000 @doc-002 @doc-003 @sentence-59 @variant-strict-win
  Scenario Outline: Strict victory by a King of the waste, once the pyramid is cleared: <how>
    Given the clearing_king deal with "strict_win" set to true
    When I play "QC+AC draw QD+AD draw QH+AH draw QS+AS draw JC+2C draw JD+2D draw JH+2H draw JS+2S"
    And I play "draw TC+3C draw TD+3D draw TH+3H draw TS+3S draw 9C+4C draw 9D+4D draw 9H+4H draw 9S+4S"
    And I play "draw 8C+5C draw 8D+5D 6S+7S draw 8H+5H draw 8S+5S KC KD draw KH draw 6H+7D 7C+6D draw 7H+6C"
    Then 0 cards are left in the pyramid
    And the game is playing
    When I play "draw <king>"
    Then the game is won
    And the events include "won"
    And the score is 280

    Examples:
      | how            | king   |
      | by a King move | KS     |
      | by a tap       | tap:KS |

  @doc-000 @doc-002 @doc-003 @sentence-48 @sentence-49 @sentence-59 @variant-drawn-pairs-with-waste @rule-undo
  Scenario: Stock against waste: undoing the pair puts both cards back on the waste, in their order
    Given the stuck deal with "drawn_pairs_with_waste" set to true
    When I play "KS QC+AC draw QD+AD draw QS+AS"
    And I play "draw" 21 times
    And I play "QH+AH undo"
    Then the waste's top cards are "QH AH KH"
    And the stock has 0 cards

  @api @doc-003 @variant-traditional-stock @variant-strict-win @variant-limited-passes @variant-drawn-pairs-with-waste
  Scenario: The traditional game is a preset: a 24-card stock, one pass, the card just drawn pairs with the waste top, strict victory
    Then the preset "traditional" has the rules:
      | option                 | value |
      | strict_win             | true  |
      | max_recycles           | 0     |
      | drawn_pairs_with_waste | true  |
      | pair_with_covering     | false |
      | initial_waste          | false |

  @api @doc-003 @variant-traditional-stock @variant-strict-win @variant-limited-passes @variant-drawn-pairs-with-waste
  Scenario: The traditional game dealt by its preset's name: its rules, a 24-card stock and no card on the waste
    When I deal a new game under the preset named "traditional"
    Then the game's rules are:
      | option                 | value |
      | strict_win             | true  |
      | max_recycles           | 0     |
      | drawn_pairs_with_waste | true  |
      | pair_with_covering     | false |
      | initial_waste          | false |
    And the waste has 0 cards
    And the stock has 24 cards

  @api
  Scenario Outline: A preset is named exactly as GET /v1/rules lists it: "<name>" is no preset
    When I deal a new game under the preset named "<name>"
    Then the request is refused with status 400 and "unknown_rules"
    And the reason given for "rules" is "preset"
    And the message is "Unknown rules “<name>”: the name of a preset (pyramide, strict, traditional, relaxed-one-pass, relaxed-three-passes, unlimited-undo, tuts-tomb, apophis, pharaoh, spanish), or the rules as an object"

    Examples:
      | name         |
      | tradicional  |
      | Traditional  |
      | relaxed      |
      | DST0         |

  @doc-003 @variant-traditional-stock @s003-24 @s003-85
  Scenario: A random traditional deal: 24 cards in the stock and none on the waste
    Given a new game under the rules:
      | option        | value |
      | initial_waste | false |
    Then the waste has 0 cards
    And the stock has 24 cards
    And the 52 cards are all there, each once

  @doc-000 @doc-002 @doc-003 @sentence-38 @sentence-59 @variant-drawn-pairs-with-waste @variant-limited-passes
  Scenario Outline: Stock against waste: the card just drawn and the card beneath it are a move left, so the game is not blocked: <how>
    Given the stuck deal under the rules:
      | option                 | value |
      | drawn_pairs_with_waste | true  |
      | max_recycles           | 0     |
    When I play "KS QC+AC draw QD+AD draw QS+AS draw JC+2C draw JD+2D draw JH+2H draw JS+2S"
    And I play "draw TC+3C draw TD+3D draw TH+3H draw TS+3S draw 9C+4C draw 9D+4D draw 9H+4H draw 9S+4S"
    And I play "draw 8C+5C draw 8D+5D 6S+7S draw 8H+5H draw 8S+5S draw KC draw KD draw KH draw"
    And I play "<draw>"
    Then the stock has 0 cards
    And the game is playing
    And the events do not include "blocked"
    When I play "<pair>"
    Then the last move removed "QH AH"
    And the removal scored 0 points
    And the game is blocked

    Examples:
      | how     | draw      | pair          |
      | by moves | draw     | QH+AH         |
      | by taps  | tap:stock | tap:QH tap:AH |

  @api @variant-drawn-pairs-with-waste
  Scenario Outline: Stock against waste: the legal moves offer the card just drawn with the card beneath it, <value>
    Given the stuck deal with "drawn_pairs_with_waste" set to <value>
    When I play "KS QC+AC draw QD+AD draw QS+AS"
    And I play "draw" 21 times
    Then the legal moves <offer> "QH+AH"

    Examples:
      | value | offer          |
      | true  | include        |
      | false | do not include |

  @api @variant-pair-with-covering
  Scenario Outline: Card and covering card: the legal moves offer a card with its single covering card, <value>
    Given the documents deal with "pair_with_covering" set to <value>
    When I play "KD"
    Then the legal moves <offer> "TS+3S"

    Examples:
      | value | offer          |
      | true  | include        |
      | false | do not include |

  @api @variant-drawn-pairs-with-waste @variant-traditional-stock
  Scenario: Stock against waste with a single card on the waste: nothing beneath it to pair with
    Given the documents deal under the rules:
      | option                 | value |
      | drawn_pairs_with_waste | true  |
      | initial_waste          | false |
    When I play "draw"
    Then the waste has 1 cards
    And the legal moves are "KD TC+3H TC+3S draw undo"

  @doc-000 @doc-002 @doc-003 @sentence-38 @sentence-59 @variant-limited-passes
  Scenario Outline: Limited passes: the stock run out with no recycle left, a King on the waste is still a move, <how>
    Given the draining deal with "max_recycles" set to 0
    When I play "QC+AC draw QD+AD draw QH+AH draw QS+AS draw JC+2C draw JD+2D draw JH+2H draw JS+2S"
    And I play "draw TC+3C draw TD+3D draw TH+3H draw TS+3S draw 9C+4C draw 9D+4D draw 9H+4H draw 9S+4S"
    And I play "draw 8C+5C draw 8D+5D 6S+7S draw 8H+5H draw 8S+5S draw KC draw KD draw KH draw"
    Then the stock has 0 cards
    And the waste top is "KS"
    And the game is playing
    When I play "<king>"
    Then the game is blocked

    Examples:
      | how            | king   |
      | by a King move | KS     |
      | by a tap       | tap:KS |

  @doc-000 @doc-002 @doc-003 @sentence-59 @variant-pair-with-covering
  Scenario Outline: Card and covering card: a card with one cover left pairs only with that cover, <how>
    Given the documents deal with "pair_with_covering" set to true
    When I try "KD <moves>"
    Then the move is refused with "card_blocked"

    Examples:
      | how                    | moves |
      | by a move              | TS+3H |
      | by a move, other order | 3H+TS |

  @doc-000 @doc-002 @doc-003 @sentence-59 @variant-pair-with-covering
  Scenario: Card and covering card: by taps, a card with one cover left pairs only with that cover
    Given the documents deal with "pair_with_covering" set to true
    When I try "KD tap:3H tap:TS"
    Then nothing changes
    And the feedback is "card_blocked"
    And the selected card is "3H"

  @doc-000 @doc-002 @doc-003 @sentence-59 @variant-drawn-pairs-with-waste
  Scenario Outline: Stock against waste after a recycle: the card just drawn pairs with the card beneath it, <how>
    Given the documents deal with "drawn_pairs_with_waste" set to true
    When I play "draw" 23 times
    And I play "recycle"
    And I play "draw" 13 times
    Then the waste's top cards are "AH QD"
    When I play "<moves>"
    Then the last move removed "AH QD"
    And the removal scored 0 points

    Examples:
      | how       | moves         |
      | by a move | AH+QD         |
      | by taps   | tap:AH tap:QD |
