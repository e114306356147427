@app-rules
Feature: El final de la partida / La fine della partita
  «La partida se gana en cuanto se retiran las 28 cartas de la pirámide, aunque queden cartas en el
  mazo o en el descarte. La aplicación solo declara el bloqueo, «No hay más movimientos posibles»,
  cuando el mazo y el descarte están vacíos y no se puede jugar ninguna pareja ni ningún rey.
  Mientras quede alguna carta que robar o reciclar, la partida continúa, aunque ya no se pueda
  retirar nada […] En ese caso, hay que iniciar una nueva partida.»

  @doc-000 @doc-002 @sentence-7 @sentence-37 @rule-win
  Scenario Outline: The game is won as soon as the 28 pyramid cards are removed, cards left in stock and waste: <how>
    Given the easy deal
    When I play "<moves>"
    Then the game is playing
    And 1 cards are left in the pyramid
    When I play "<last>"
    Then the game is won
    And the events include "won"
    And the last move removed "KS"
    And the removal scored 10 points
    And 0 cards are left in the pyramid
    And the stock has 23 cards
    And the waste has 1 cards
    And the score is 280

    Examples:
      | how      | moves                                                                                                                                                                              | last   |
      | by moves | KC AC+QC 2C+JC 3C+TC 4C+9C 5C+8C 6C+7C KD AD+QD 2D+JD 3D+TD 4D+9D 5D+8D KH 6D+7D                                                                                                  | KS     |
      | by taps  | tap:KC tap:AC tap:QC tap:2C tap:JC tap:3C tap:TC tap:4C tap:9C tap:5C tap:8C tap:6C tap:7C tap:KD tap:AD tap:QD tap:2D tap:JD tap:3D tap:TD tap:4D tap:9D tap:5D tap:8D tap:KH tap:6D tap:7D | tap:KS |

  @doc-000 @doc-002 @sentence-7 @sentence-37 @rule-win
  Scenario: With stock and waste empty and the King at the top the last card left, the game is not yet won: it is when the King goes
    Given the peak_king deal
    When I play "KC QC+AC draw QD+AD draw QH+AH draw QS+AS draw JC+2C draw JD+2D"
    And I play "draw JH+2H draw JS+2S draw TC+3C draw TD+3D draw TH+3H draw TS+3S"
    And I play "draw 9C+4C draw 9D+4D draw 9H+4H draw 9S+4S draw 8C+5C"
    And I play "draw 8D+5D draw 8H+5H draw 8S+5S draw 7C+6C draw 7D+6D draw 7H+6H draw 7S+6S KH KD"
    Then the stock has 0 cards
    And the waste is empty
    And 1 cards are left in the pyramid
    And the game is playing
    When I play "KS"
    Then 0 cards are left in the pyramid
    And the game is won

  @doc-000 @doc-002 @sentence-37 @rule-win
  Scenario Outline: The game is won by a pair with the waste as well: the last card need not be a King, <how>
    Given the clearing deal
    When I play "QC+AC draw QD+AD draw QH+AH draw QS+AS draw JC+2C draw JD+2D draw JH+2H draw JS+2S"
    And I play "draw TC+3C draw TD+3D draw TH+3H draw TS+3S draw 9C+4C draw 9D+4D draw 9H+4H draw 9S+4S"
    And I play "draw 8C+5C draw 8D+5D 6S+7S draw 8H+5H draw 8S+5S KC KD draw KH draw KS draw 6H+7D 7C+6D draw"
    Then 1 cards are left in the pyramid
    And the game is playing
    When I play "<last>"
    Then the game is won
    And the last move's events are "removed <removed>, won"
    And the score is 280

    Examples:
      | how            | last          | removed |
      | by a pair move | 7H+6C         | 6C 7H   |
      | by taps        | tap:6C tap:7H | 6C 7H   |

  @doc-000 @doc-002 @sentence-37 @rule-win
  Scenario Outline: A won game is over: <move> is refused
    Given the easy deal
    When I play "KC AC+QC 2C+JC 3C+TC 4C+9C 5C+8C 6C+7C KD AD+QD 2D+JD 3D+TD 4D+9D 5D+8D KH 6D+7D KS"
    And I try "<move>"
    Then the move is refused with "game_over"

    Examples:
      | move      |
      | draw      |
      | tap:stock |
      | tap:AH    |

  @pyramide-choice @rule-win
  Scenario: A won game cannot be undone
    Given the easy deal
    When I play "KC AC+QC 2C+JC 3C+TC 4C+9C 5C+8C 6C+7C KD AD+QD 2D+JD 3D+TD 4D+9D 5D+8D KH 6D+7D KS"
    And I try "undo"
    Then the move is refused with "game_over"

  @api @rule-win
  Scenario: A won game has no legal moves
    Given the easy deal
    When I play "KC AC+QC 2C+JC 3C+TC 4C+9C 5C+8C 6C+7C KD AD+QD 2D+JD 3D+TD 4D+9D 5D+8D KH 6D+7D KS"
    Then there are no legal moves

  @pyramide-choice @rule-win
  Scenario Outline: The move that wins puts down the card in hand: nothing is selected in a won game, <how>
    Given the easy deal
    When I play "KC AC+QC 2C+JC 3C+TC 4C+9C 5C+8C 6C+7C KD AD+QD 2D+JD 3D+TD 4D+9D 5D+8D KH 6D+7D tap:AH"
    Then the selected card is "AH"
    When I play "<last>"
    Then the game is won
    And no card is selected

    Examples:
      | how            | last   |
      | by a King move | KS     |
      | by a tap       | tap:KS |

  @doc-000 @doc-002 @sentence-38 @rule-blocked @lang-es
  Scenario Outline: Blocked, «No hay más movimientos posibles», once stock and waste are empty and nothing can be played: <how>, error help <help>
    Given the draining deal with error help <help>
    And the player's language is "es"
    When I play "QC+AC draw QD+AD draw QH+AH draw QS+AS draw JC+2C draw JD+2D draw JH+2H draw JS+2S"
    And I play "draw TC+3C draw TD+3D draw TH+3H draw TS+3S draw 9C+4C draw 9D+4D draw 9H+4H draw 9S+4S"
    And I play "draw 8C+5C draw 8D+5D 6S+7S draw 8H+5H draw 8S+5S draw KC draw KD draw KH draw"
    Then the game is playing
    And the stock has 0 cards
    When I play "<last>"
    Then the game is blocked
    And the waste is empty
    And the events include "blocked"
    And the feedback is "blocked"
    And the message is "No hay más movimientos posibles"
    And 6 cards are left in the pyramid

    Examples:
      | how                | last   | help |
      | by a King move     | KS     | on   |
      | by a tap           | tap:KS | on   |
      | by a tap           | tap:KS | off  |

  @doc-000 @doc-002 @sentence-38 @rule-blocked
  Scenario Outline: With stock and waste empty the game goes on while a pair is left; the last pair blocks it: <how>
    Given the draining deal
    When I play "QC+AC draw QD+AD draw QH+AH draw QS+AS draw JC+2C draw JD+2D draw JH+2H draw JS+2S"
    And I play "draw TC+3C draw TD+3D draw TH+3H draw TS+3S draw 9C+4C draw 9D+4D draw 9H+4H draw 9S+4S"
    And I play "draw 8C+5C draw 8D+5D draw 8H+5H draw 8S+5S draw KC draw KD draw KH draw KS"
    Then the stock has 0 cards
    And the waste is empty
    And the game is playing
    And the events do not include "blocked"
    When I play "<last>"
    Then the last move removed "6S 7S"
    And the removal scored 20 points
    And the game is blocked
    And the feedback is "blocked"

    Examples:
      | how            | last          |
      | by a pair move | 6S+7S         |
      | by taps        | tap:7S tap:6S |

  @doc-000 @doc-002 @sentence-38 @rule-blocked @lang-it
  Scenario: Bloccata, «Nessuna mossa più possibile»
    Given the draining deal
    And the player's language is "it"
    When I play "QC+AC draw QD+AD draw QH+AH draw QS+AS draw JC+2C draw JD+2D draw JH+2H draw JS+2S"
    And I play "draw TC+3C draw TD+3D draw TH+3H draw TS+3S draw 9C+4C draw 9D+4D draw 9H+4H draw 9S+4S"
    And I play "draw 8C+5C draw 8D+5D 6S+7S draw 8H+5H draw 8S+5S draw KC draw KD draw KH draw KS"
    Then the game is blocked
    And the message is "Nessuna mossa più possibile"

  @doc-000 @doc-002 @sentence-38 @rule-blocked @lang-en @lang-fr
  Scenario Outline: The blocked message in <language>
    Given the draining deal
    And the player's language is "<language>"
    When I play "QC+AC draw QD+AD draw QH+AH draw QS+AS draw JC+2C draw JD+2D draw JH+2H draw JS+2S"
    And I play "draw TC+3C draw TD+3D draw TH+3H draw TS+3S draw 9C+4C draw 9D+4D draw 9H+4H draw 9S+4S"
    And I play "draw 8C+5C draw 8D+5D 6S+7S draw 8H+5H draw 8S+5S draw KC draw KD draw KH draw KS"
    Then the message is "<message>"

    Examples:
      | language | message                  |
      | en       | No more moves possible   |
      | fr       | Plus aucun coup possible |

  @doc-000 @doc-002 @sentence-38 @rule-blocked
  Scenario Outline: A blocked game takes no more moves: <move> is refused
    Given the draining deal
    When I play "QC+AC draw QD+AD draw QH+AH draw QS+AS draw JC+2C draw JD+2D draw JH+2H draw JS+2S"
    And I play "draw TC+3C draw TD+3D draw TH+3H draw TS+3S draw 9C+4C draw 9D+4D draw 9H+4H draw 9S+4S"
    And I play "draw 8C+5C draw 8D+5D 6S+7S draw 8H+5H draw 8S+5S draw KC draw KD draw KH draw KS"
    And I try "<move>"
    Then the move is refused with "game_over"

    Examples:
      | move      |
      | tap:stock |
      | tap:7C    |

  @pyramide-choice @rule-blocked
  Scenario Outline: The move that blocks the game puts down the card in hand: nothing is selected in a blocked game, <how>
    Given the draining deal
    When I play "QC+AC draw QD+AD draw QH+AH draw QS+AS draw JC+2C draw JD+2D draw JH+2H draw JS+2S"
    And I play "draw TC+3C draw TD+3D draw TH+3H draw TS+3S draw 9C+4C draw 9D+4D draw 9H+4H draw 9S+4S"
    And I play "draw 8C+5C draw 8D+5D 6S+7S draw 8H+5H draw 8S+5S draw KC draw KD draw KH draw tap:6C"
    Then the selected card is "6C"
    When I play "<last>"
    Then the game is blocked
    And no card is selected

    Examples:
      | how                   | last   |
      | by a King move        | KS     |
      | by a tap on the King  | tap:KS |

  @pyramide-choice @rule-blocked
  Scenario: A blocked game may be undone, and goes on
    Given the draining deal
    When I play "QC+AC draw QD+AD draw QH+AH draw QS+AS draw JC+2C draw JD+2D draw JH+2H draw JS+2S"
    And I play "draw TC+3C draw TD+3D draw TH+3H draw TS+3S draw 9C+4C draw 9D+4D draw 9H+4H draw 9S+4S"
    And I play "draw 8C+5C draw 8D+5D 6S+7S draw 8H+5H draw 8S+5S draw KC draw KD draw KH draw KS"
    Then the game is blocked
    When I play "undo"
    Then the game is playing
    And the waste top is "KS"
    When I play "tap:KS"
    Then the game is blocked

  @api @rule-blocked
  Scenario: A blocked game's only legal move is undo
    Given the draining deal
    When I play "QC+AC draw QD+AD draw QH+AH draw QS+AS draw JC+2C draw JD+2D draw JH+2H draw JS+2S"
    And I play "draw TC+3C draw TD+3D draw TH+3H draw TS+3S draw 9C+4C draw 9D+4D draw 9H+4H draw 9S+4S"
    And I play "draw 8C+5C draw 8D+5D 6S+7S draw 8H+5H draw 8S+5S draw KC draw KD draw KH draw KS"
    Then the legal moves are "undo"

  @doc-000 @doc-002 @sentence-39 @rule-goes-on
  Scenario: While a card is left to draw the game goes on, though nothing can be removed, under any recycle limit
    Given the stuck deal
    When I play "KS QC+AC draw QD+AD draw QS+AS draw JC+2C draw JD+2D draw JH+2H draw JS+2S"
    And I play "draw TC+3C draw TD+3D draw TH+3H draw TS+3S draw 9C+4C draw 9D+4D draw 9H+4H draw 9S+4S"
    And I play "draw 8C+5C draw 8D+5D 6S+7S draw 8H+5H draw 8S+5S draw KC draw KD draw KH"
    Then the stock has 2 cards
    And the game is playing
    When I play "draw"
    Then the stock has 1 cards
    And the game is playing

  @doc-000 @doc-002 @sentence-39 @rule-goes-on
  Scenario Outline: While a card is left to draw or recycle the game goes on, though nothing can be removed: <how>
    Given the stuck deal
    When I play "KS QC+AC draw QD+AD draw QS+AS draw JC+2C draw JD+2D draw JH+2H draw JS+2S"
    And I play "draw TC+3C draw TD+3D draw TH+3H draw TS+3S draw 9C+4C draw 9D+4D draw 9H+4H draw 9S+4S"
    And I play "draw 8C+5C draw 8D+5D 6S+7S draw 8H+5H draw 8S+5S draw KC draw KD draw KH draw"
    Then the stock has 1 cards
    And the game is playing
    When I play "<draw>"
    Then the stock has 0 cards
    And the game is playing
    And the events do not include "blocked"
    And there is no feedback
    When I play "<recycle> <draw> <draw> <recycle> <draw> <draw> <recycle>"
    Then the game is playing
    And the events do not include "blocked"
    And the stock has 2 cards

    Examples:
      | how       | draw      | recycle   |
      | by moves  | draw      | recycle   |
      | by taps   | tap:stock | tap:stock |

  @api @rule-goes-on
  Scenario: With nothing to remove, the legal moves are to recycle and to undo
    Given the stuck deal
    When I play "KS QC+AC draw QD+AD draw QS+AS draw JC+2C draw JD+2D draw JH+2H draw JS+2S"
    And I play "draw TC+3C draw TD+3D draw TH+3H draw TS+3S draw 9C+4C draw 9D+4D draw 9H+4H draw 9S+4S"
    And I play "draw 8C+5C draw 8D+5D 6S+7S draw 8H+5H draw 8S+5S draw KC draw KD draw KH draw draw"
    Then the legal moves are "recycle undo"

  @doc-000 @doc-002 @sentence-40 @rule-new-game
  Scenario: Then a new game is started
    Given the stuck deal
    When I play "KS QC+AC"
    And I start a new game
    Then 28 cards are left in the pyramid
    And the move counter is 0
    And the score is 0
    And the game is playing
