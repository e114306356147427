@doc-000 @doc-002 @app-rules
Feature: El mazo y el descarte / Il tallone e gli scarti
  «Se puede tocar el mazo en cualquier momento para pasar su carta superior al descarte, boca
  arriba. La carta superior del descarte se empareja con una carta libre de la pirámide, o se
  retira sola si es un rey. Cuando el mazo está vacío, al tocarlo se recicla el descarte: todas sus
  cartas vuelven al mazo, en el mismo orden y sin límite de pasadas. En la aplicación, la carta
  robada no se empareja con la carta del descarte que cubre: solo cuenta la carta superior.»

  @rule-draw
  Scenario: Tapping the stock turns its top card onto the waste
    Given the documents deal
    When I play "tap:stock"
    Then the waste top is "AC"
    And the waste has 2 cards
    And the stock has 22 cards
    And the events include "drawn"

  @rule-draw
  Scenario: The stock can be tapped at any moment, a card selected or not
    Given the documents deal
    When I play "KD tap:7C tap:stock"
    Then the waste top is "AC"
    And the selected card is "7C"
    When I play "draw draw"
    Then the waste top is "4C"

  @rule-waste-pairs
  Scenario: The waste top pairs with a free pyramid card
    Given the easy deal
    When I play "tap:AH tap:QC"
    Then the last move removed "AH QC" for 10 points
    And the waste has 0 cards

  @rule-recycle
  Scenario: Tapping the empty stock recycles the waste, in the same order
    Given the documents deal
    When I play "draw" 23 times
    Then the stock has 0 cards
    When I play "tap:stock"
    Then the stock holds the waste's cards in the same order
    And the stock has 24 cards
    And the events include "recycled"
    And the stock, from its top, is "7D AC 3C 4C 5C 8C JC 2D 5D 6D 9D QD AH 2H 8H 9H TH JH QH 2S 4S 5S 6S 9S"

  @rule-recycle
  Scenario: The waste can be recycled without limit
    Given the documents deal
    When I play "draw" 23 times
    And I play "recycle"
    And I play "draw" 24 times
    And I play "recycle"
    And I play "draw" 24 times
    And I play "recycle"
    And I play "draw" 24 times
    And I play "tap:stock"
    Then the stock holds the waste's cards in the same order
    And the game is playing

  @rule-recycle
  Scenario: Recycling needs an empty stock
    Given the documents deal
    When I try "recycle"
    Then the move is refused with "stock_not_empty"

  @rule-draw
  Scenario: Drawing needs a card in the stock
    Given the documents deal
    When I play "draw" 23 times
    And I try "draw"
    Then the move is refused with "stock_empty"

  @rule-waste-top
  Scenario: The drawn card does not pair with the waste card it covers: only the top card counts
    Given the stuck deal
    When I play "KS QC+AC draw QD+AD draw QS+AS"
    And I play "draw" 21 times
    Then the waste top is "QH"
    When I try "QH+AH"
    Then the move is refused with "card_not_free"
    When I try "tap:AH"
    Then the move is refused with "card_not_free"
