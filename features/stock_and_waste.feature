@app-rules
Feature: El mazo y el descarte / Il tallone e gli scarti
  «Se puede tocar el mazo en cualquier momento para pasar su carta superior al descarte, boca
  arriba. La carta superior del descarte se empareja con una carta libre de la pirámide, o se
  retira sola si es un rey. Cuando el mazo está vacío, al tocarlo se recicla el descarte: todas sus
  cartas vuelven al mazo, en el mismo orden y sin límite de pasadas. En la aplicación, la carta
  robada no se empareja con la carta del descarte que cubre: solo cuenta la carta superior.»

  @doc-000 @doc-002 @sentence-32 @rule-draw
  Scenario Outline: Tapping the stock turns its top card onto the waste: <how>
    Given the documents deal
    When I play "<moves>"
    Then the waste, from its top, is "3C AC 7D"
    And the stock has 21 cards
    And the stock, from its top, is "4C 5C 8C JC 2D 5D 6D 9D QD AH 2H 8H 9H TH JH QH 2S 4S 5S 6S 9S"
    And the last move's events are "drawn 3C"
    And the move counter is 2

    Examples:
      | how              | moves               |
      | by draw moves    | draw draw           |
      | by tapping       | tap:stock tap:stock |

  @doc-000 @doc-002 @sentence-32 @rule-draw
  Scenario Outline: The stock can be tapped at any moment: <selection>
    Given the documents deal
    When I play "<moves> tap:stock"
    Then the waste top is "AC"
    And the selected card is "<selected>"
    When I play "draw"
    Then the waste top is "3C"
    And the selected card is "<selected>"

    Examples:
      | selection                      | moves                | selected |
      | a pyramid card selected        | tap:7C               | 7C       |
      | after a refused pair           | tap:7C tap:7S        | 7S       |
      | after a removal                | KD tap:TC            | TC       |

  @doc-000 @doc-002 @sentence-32 @rule-draw
  Scenario Outline: The last card of the stock: <how>
    Given the documents deal
    When I play "draw" 22 times
    Then the stock, from its top, is "9S"
    When I play "<move>"
    Then the waste top is "9S"
    And the stock has 0 cards
    And the waste has 24 cards
    And the game is playing

    Examples:
      | how        | move      |
      | drawn      | draw      |
      | tapped     | tap:stock |

  @api @rule-draw
  Scenario: A draw move needs a card in the stock
    Given the documents deal
    When I play "draw" 23 times
    And I try "draw"
    Then the move is refused with "stock_empty"

  @doc-000 @doc-002 @sentence-5 @sentence-33 @rule-waste-pairs
  Scenario Outline: The waste top pairs with a free pyramid card: <how>
    Given the easy deal
    When I play "<moves>"
    Then the last move removed "AH QC"
    And the removal scored 10 points
    And the waste has 0 cards
    And 27 cards are left in the pyramid

    Examples:
      | how                       | moves         |
      | by a pair move            | AH+QC         |
      | tapping the waste first   | tap:AH tap:QC |
      | tapping the pyramid first | tap:QC tap:AH |

  @doc-000 @doc-002 @sentence-33 @rule-waste-pairs
  Scenario: Once the waste top is paired, the card beneath it is the waste top
    Given the documents deal
    When I play "draw draw 3C+TC"
    Then the waste top is "AC"
    When I play "draw"
    Then the waste, from its top, is "4C AC 7D"

  @doc-000 @doc-002 @sentence-34 @rule-recycle
  Scenario Outline: Tapping the empty stock recycles the waste, in the same order: <how>
    Given the documents deal
    When I play "draw" 23 times
    Then the stock has 0 cards
    When I play "<recycle>"
    Then the stock holds the waste's cards in the same order
    And the stock has 24 cards
    And the waste is empty
    And the last move's events are "recycled 7D AC 3C 4C 5C 8C JC 2D 5D 6D 9D QD AH 2H 8H 9H TH JH QH 2S 4S 5S 6S 9S"
    And the stock, from its top, is "7D AC 3C 4C 5C 8C JC 2D 5D 6D 9D QD AH 2H 8H 9H TH JH QH 2S 4S 5S 6S 9S"
    When I play "draw draw"
    Then the waste, from its top, is "AC 7D"
    And the move counter is 26

    Examples:
      | how            | recycle   |
      | by tapping     | tap:stock |
      | by a recycle   | recycle   |

  @doc-000 @doc-002 @sentence-34 @rule-recycle
  Scenario: Recycling after removals from the waste keeps the order of the cards left
    Given the documents deal
    When I play "draw draw 3C+TC"
    And I play "draw" 21 times
    And I play "tap:stock"
    Then the stock, from its top, is "7D AC 4C 5C 8C JC 2D 5D 6D 9D QD AH 2H 8H 9H TH JH QH 2S 4S 5S 6S 9S"

  @doc-000 @doc-002 @sentence-6 @sentence-34 @rule-recycle
  Scenario Outline: The waste can be recycled without limit, <how>
    Given the documents deal
    When I play "draw" 23 times
    And I play "<recycle>"
    And I play "draw" 24 times
    And I play "<recycle>"
    And I play "draw" 24 times
    And I play "<recycle>"
    And I play "draw" 24 times
    And I play "<recycle>"
    And I play "draw" 24 times
    And I play "<recycle>"
    Then the stock holds the waste's cards in the same order
    And the game is playing

    Examples:
      | how       | recycle   |
      | by moves  | recycle   |
      | by taps   | tap:stock |

  @doc-000 @doc-002 @sentence-34 @rule-recycle
  Scenario: A recycle while cards are left in the stock is refused, the stock keeping them
    Given the documents deal
    When I try "draw recycle"
    Then the move is refused and the game is as it was
    And the stock has 22 cards

  @doc-000 @doc-002 @sentence-32 @rule-draw
  Scenario: A draw from an empty stock is refused, the waste keeping its cards
    Given the documents deal
    When I play "draw" 23 times
    Then the stock has 0 cards
    When I try "draw"
    Then the move is refused and the game is as it was
    And the waste has 24 cards

  @api @rule-recycle
  Scenario: A recycle move needs an empty stock
    Given the documents deal
    When I try "draw recycle"
    Then the move is refused with "stock_not_empty"
    And the refusal names the field "move"

  @api @rule-recycle
  Scenario: A recycle move needs cards in the waste
    Given the draining deal
    When I play "QC+AC draw QD+AD draw QH+AH draw QS+AS draw JC+2C draw JD+2D draw JH+2H draw JS+2S"
    And I play "draw TC+3C draw TD+3D draw TH+3H draw TS+3S draw 9C+4C draw 9D+4D draw 9H+4H draw 9S+4S"
    And I play "draw 8C+5C draw 8D+5D draw 8H+5H draw 8S+5S draw KC draw KD draw KH draw KS"
    Then the stock has 0 cards
    And the waste is empty
    And the game is playing
    When I try "recycle"
    Then the move is refused with "waste_empty"
    And the refusal names the field "move"
    When I try "draw"
    Then the move is refused with "stock_empty"
    And the refusal names the field "move"

  @doc-000 @doc-002 @sentence-34 @rule-recycle
  Scenario: A recycle with the stock and the waste both empty is refused, the game as it was
    Given the draining deal
    When I play "QC+AC draw QD+AD draw QH+AH draw QS+AS draw JC+2C draw JD+2D draw JH+2H draw JS+2S"
    And I play "draw TC+3C draw TD+3D draw TH+3H draw TS+3S draw 9C+4C draw 9D+4D draw 9H+4H draw 9S+4S"
    And I play "draw 8C+5C draw 8D+5D draw 8H+5H draw 8S+5S draw KC draw KD draw KH draw KS"
    And I try "recycle"
    Then the move is refused and the game is as it was
    And the stock has 0 cards

  @pyramide-choice @rule-recycle
  Scenario: Tapping the stock when both stock and waste are empty does nothing and says so
    Given the draining deal
    When I play "QC+AC draw QD+AD draw QH+AH draw QS+AS draw JC+2C draw JD+2D draw JH+2H draw JS+2S"
    And I play "draw TC+3C draw TD+3D draw TH+3H draw TS+3S draw 9C+4C draw 9D+4D draw 9H+4H draw 9S+4S"
    And I play "draw 8C+5C draw 8D+5D draw 8H+5H draw 8S+5S draw KC draw KD draw KH draw KS"
    Then the stock has 0 cards
    And the waste is empty
    And the game is playing
    When I try "tap:stock"
    Then nothing changes
    And the feedback is "stock_empty"

  @doc-000 @doc-002 @sentence-35 @rule-waste-top
  Scenario Outline: The drawn card does not pair with the waste card it covers: <how>
    Given the stuck deal
    When I play "KS QC+AC draw QD+AD draw QS+AS"
    And I play "draw" 21 times
    Then the waste's top cards are "QH AH KH"
    When I try "<moves>"
    Then the move is refused with "card_not_free"

    Examples:
      | how                          | moves          |
      | by a pair move               | QH+AH          |
      | by a pair move, other order  | AH+QH          |
      | tapping the covered card     | tap:AH         |
      | tapping the drawn card first | tap:QH tap:AH  |

  @pyramide-choice @rule-draw
  Scenario Outline: A draw that covers the selected waste top drops the selection: <how>
    Given the documents deal
    When I play "tap:7D <draw>"
    Then no card is selected
    And the waste top is "AC"

    Examples:
      | how       | draw      |
      | by a draw | draw      |
      | by a tap  | tap:stock |

  @api @rule-waste-pairs
  Scenario: The legal moves: every King and pair that may be removed, the waste top included, then the stock
    Given the easy deal
    Then the legal moves are "KC AC+QC 2C+JC 3C+TC AH+QC draw"

  @api @rule-waste-pairs
  Scenario: The legal moves with a King on the waste top: the King, and every other move still
    Given the stuck deal
    When I play "KS QC+AC draw QD+AD draw QS+AS draw JC+2C draw JD+2D draw JH+2H draw JS+2S"
    And I play "draw TC+3C draw TD+3D draw TH+3H draw TS+3S draw 9C+4C draw 9D+4D draw 9H+4H draw 9S+4S"
    And I play "draw 8C+5C draw 8D+5D draw 8H+5H draw 8S+5S draw"
    Then the waste top is "KC"
    And the legal moves are "KC 6C+7S 6S+7S draw undo"

  @api @rule-recycle @variant-limited-passes
  Scenario Outline: The legal moves offer a recycle only while one is left: max_recycles <limit>
    Given the documents deal with "max_recycles" set to <limit>
    When I play "draw" 23 times
    Then the legal moves <offer> "recycle"

    Examples:
      | limit | offer            |
      | 0     | do not include   |
      | 1     | include          |

  @doc-000 @doc-002 @sentence-34 @rule-recycle
  Scenario Outline: A waste of a single card is recycled too: <how>
    Given the draining deal
    When I play "QC+AC draw QD+AD draw QH+AH draw QS+AS draw JC+2C draw JD+2D draw JH+2H draw JS+2S"
    And I play "draw TC+3C draw TD+3D draw TH+3H draw TS+3S draw 9C+4C draw 9D+4D draw 9H+4H draw 9S+4S"
    And I play "draw 8C+5C draw 8D+5D 6S+7S draw 8H+5H draw 8S+5S draw KC draw KD draw KH draw"
    Then the stock has 0 cards
    And the waste, from its top, is "KS"
    When I play "<recycle>"
    Then the stock, from its top, is "KS"
    And the waste is empty
    When I play "draw"
    Then the waste top is "KS"

    Examples:
      | how          | recycle   |
      | by a recycle | recycle   |
      | by a tap     | tap:stock |

  @api @rule-free-cards
  Scenario Outline: A tap on a card out of play is refused: <where>
    Given the documents deal
    When I try "<moves>"
    Then the move is refused with "card_not_free"

    Examples:
      | where               | moves            |
      | a removed card      | KD tap:KD        |
      | a card of the stock | tap:AC           |
