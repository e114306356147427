Feature: Las decisiones de la app y las variantes / Le scelte dell'app e le varianti
  «Pyramide no tiene un reglamento oficial. Con respecto a las reglas descritas en las fuentes, la
  aplicación adopta algunas opciones […] La bibliografía también menciona variantes: victoria
  estricta […]; pasadas limitadas […]; mazo contra descarte […]; carta y carta que la cubre […].»
  The app's four choices are checked under its own rules; each variant under its rule option.

  @doc-000 @doc-002 @app-rules @rule-app-choices
  Scenario: The app's choice of victory: clearing the pyramid is enough, the stock need not be exhausted
    Given the easy deal
    When I play "KC AC+QC 2C+JC 3C+TC 4C+9C 5C+8C 6C+7C KD AD+QD 2D+JD 3D+TD 4D+9D 5D+8D KH 6D+7D KS"
    Then the game is won
    And the stock has 23 cards

  @doc-000 @doc-002 @doc-003 @variant-strict-win
  Scenario: Strict victory: the stock and the waste must be cleared too
    Given the easy deal under the rules:
      | option     | value |
      | strict_win | true  |
    When I play "KC AC+QC 2C+JC 3C+TC 4C+9C 5C+8C 6C+7C KD AD+QD 2D+JD 3D+TD 4D+9D 5D+8D KH 6D+7D KS"
    Then 0 cards are left in the pyramid
    And the game is playing
    And the events do not include "won"

  @doc-000 @doc-002 @doc-003 @variant-strict-win
  Scenario: Strict victory once the pyramid, the stock and the waste are all cleared
    Given the clearing deal under the rules:
      | option     | value |
      | strict_win | true  |
    When I play "QC+AC draw QD+AD draw QH+AH draw QS+AS draw JC+2C draw JD+2D draw JH+2H draw JS+2S"
    And I play "draw TC+3C draw TD+3D draw TH+3H draw TS+3S draw 9C+4C draw 9D+4D draw 9H+4H draw 9S+4S"
    And I play "draw 8C+5C draw 8D+5D 6S+7S draw 8H+5H draw 8S+5S KC KD draw KH draw KS draw 6H+7D 7C+6D draw"
    Then 1 cards are left in the pyramid
    And the game is playing
    When I play "7H+6C"
    Then the game is won
    And the stock has 0 cards
    And the waste has 0 cards

  @doc-000 @doc-002 @app-rules @rule-app-choices
  Scenario: The app's unlimited recycling
    Given the documents deal
    When I play "draw" 23 times
    And I play "recycle"
    And I play "draw" 24 times
    And I play "recycle"
    Then the game is playing

  @doc-000 @doc-002 @doc-003 @variant-limited-passes
  Scenario: Limited passes: none
    Given the documents deal under the rules:
      | option       | value |
      | max_recycles | 0     |
    When I play "draw" 23 times
    And I try "recycle"
    Then the move is refused with "no_recycles_left"
    When I try "tap:stock"
    Then nothing changes
    And the feedback is "no_recycles_left"

  @doc-000 @doc-002 @doc-003 @variant-limited-passes
  Scenario: Limited passes: one recycle
    Given the documents deal under the rules:
      | option       | value |
      | max_recycles | 1     |
    When I play "draw" 23 times
    And I play "recycle"
    And I play "draw" 24 times
    And I try "recycle"
    Then the move is refused with "no_recycles_left"

  @doc-000 @doc-002 @doc-003 @variant-limited-passes
  Scenario: Limited passes: with no recycle left and nothing to remove, the game is blocked
    Given the stuck deal under the rules:
      | option       | value |
      | max_recycles | 0     |
    When I play "KS QC+AC draw QD+AD draw QS+AS draw JC+2C draw JD+2D draw JH+2H draw JS+2S"
    And I play "draw TC+3C draw TD+3D draw TH+3H draw TS+3S draw 9C+4C draw 9D+4D draw 9H+4H draw 9S+4S"
    And I play "draw 8C+5C draw 8D+5D 6S+7S draw 8H+5H draw 8S+5S draw KC draw KD draw KH draw"
    Then the game is playing
    When I play "draw"
    Then the game is blocked
    And the feedback is "blocked"

  @doc-000 @doc-002 @app-rules @rule-app-choices
  Scenario: The app's single waste card in play: the drawn card does not pair with the card it covers
    Given the stuck deal
    When I play "KS QC+AC draw QD+AD draw QS+AS"
    And I play "draw" 21 times
    Then the legal moves do not include "QH+AH"

  @doc-000 @doc-002 @doc-003 @variant-drawn-pairs-with-waste
  Scenario: Stock against waste: the card just drawn may pair with the waste card it covers
    Given the stuck deal under the rules:
      | option                 | value |
      | drawn_pairs_with_waste | true  |
    When I play "KS QC+AC draw QD+AD draw QS+AS"
    And I play "draw" 21 times
    Then the legal moves include "QH+AH"
    When I play "QH+AH"
    Then the last move removed "QH AH" for 0 points

  @doc-000 @doc-002 @doc-003 @variant-drawn-pairs-with-waste
  Scenario: Stock against waste: once another card has been drawn onto it, a card is no longer the card just drawn
    Given the lapsed deal under the rules:
      | option                 | value |
      | drawn_pairs_with_waste | true  |
    When I play "KS QC+AC draw QD+AD draw QS+AS"
    And I play "draw" 20 times
    Then the legal moves include "QH+AH"
    When I play "draw KC"
    Then the legal moves do not include "QH+AH"
    When I try "QH+AH"
    Then the move is refused with "card_not_free"

  @doc-000 @doc-002 @app-rules @rule-app-choices
  Scenario: The app's choice: a card never pairs with a card still covering it
    Given the documents deal
    When I play "KD"
    And I try "TS+3S"
    Then the move is refused with "card_blocked"

  @doc-000 @doc-002 @doc-003 @variant-pair-with-covering
  Scenario: Card and covering card: a card may pair with the single card still covering it
    Given the documents deal under the rules:
      | option             | value |
      | pair_with_covering | true  |
    When I try "TS+3S"
    Then the move is refused with "card_blocked"
    When I play "KD"
    Then the legal moves include "TS+3S"
    When I play "tap:3S tap:TS"
    Then the last move removed "TS 3S" for 20 points

  @doc-003 @variant-traditional-stock
  Scenario: The traditional deal: a 24-card stock and no card on the waste
    Given the documents deal under the rules:
      | option        | value |
      | initial_waste | false |
    Then the waste has 0 cards
    And the stock has 24 cards
    And the stock, from its top, is "7D AC 3C 4C 5C 8C JC 2D 5D 6D 9D QD AH 2H 8H 9H TH JH QH 2S 4S 5S 6S 9S"
    When I play "draw"
    Then the waste top is "7D"
