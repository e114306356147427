@doc-000 @doc-002 @app-rules
Feature: El final de la partida / La fine della partita
  «La partida se gana en cuanto se retiran las 28 cartas de la pirámide, aunque queden cartas en el
  mazo o en el descarte. La aplicación solo declara el bloqueo, «No hay más movimientos posibles»,
  cuando el mazo y el descarte están vacíos y no se puede jugar ninguna pareja ni ningún rey.
  Mientras quede alguna carta que robar o reciclar, la partida continúa, aunque ya no se pueda
  retirar nada […] En ese caso, hay que iniciar una nueva partida.»

  @rule-win
  Scenario: The game is won as soon as the 28 pyramid cards are removed, cards left in stock and waste
    Given the easy deal
    When I play "KC AC+QC 2C+JC 3C+TC 4C+9C 5C+8C 6C+7C KD AD+QD 2D+JD 3D+TD 4D+9D 5D+8D KH 6D+7D"
    Then the game is playing
    When I play "KS"
    Then the game is won
    And the events include "won"
    And 0 cards are left in the pyramid
    And the stock has 23 cards
    And the waste has 1 cards
    And the score is 280

  @rule-win
  Scenario: A won game is over
    Given the easy deal
    When I play "KC AC+QC 2C+JC 3C+TC 4C+9C 5C+8C 6C+7C KD AD+QD 2D+JD 3D+TD 4D+9D 5D+8D KH 6D+7D KS"
    And I try "draw"
    Then the move is refused with "game_over"
    And there are no legal moves

  @rule-blocked @lang-es
  Scenario: Blocked, «No hay más movimientos posibles», once stock and waste are empty and nothing can be played
    Given the draining deal
    And the player's language is "es"
    When I play "QC+AC draw QD+AD draw QH+AH draw QS+AS draw JC+2C draw JD+2D draw JH+2H draw JS+2S"
    And I play "draw TC+3C draw TD+3D draw TH+3H draw TS+3S draw 9C+4C draw 9D+4D draw 9H+4H draw 9S+4S"
    And I play "draw 8C+5C draw 8D+5D 6S+7S draw 8H+5H draw 8S+5S draw KC draw KD draw KH draw"
    Then the game is playing
    And the stock has 0 cards
    When I play "KS"
    Then the game is blocked
    And the events include "blocked"
    And the feedback is "blocked"
    And the message is "No hay más movimientos posibles"
    And 6 cards are left in the pyramid
    And the legal moves are "undo"

  @rule-blocked @lang-it
  Scenario: Bloccata, «Nessuna mossa più possibile»
    Given the draining deal
    And the player's language is "it"
    When I play "QC+AC draw QD+AD draw QH+AH draw QS+AS draw JC+2C draw JD+2D draw JH+2H draw JS+2S"
    And I play "draw TC+3C draw TD+3D draw TH+3H draw TS+3S draw 9C+4C draw 9D+4D draw 9H+4H draw 9S+4S"
    And I play "draw 8C+5C draw 8D+5D 6S+7S draw 8H+5H draw 8S+5S draw KC draw KD draw KH draw KS"
    Then the game is blocked
    And the message is "Nessuna mossa più possibile"

  @rule-blocked @lang-en @lang-fr
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

  @rule-goes-on
  Scenario: While a card is left to draw or recycle the game goes on, though nothing can be removed
    Given the stuck deal
    When I play "KS QC+AC draw QD+AD draw QS+AS draw JC+2C draw JD+2D draw JH+2H draw JS+2S"
    And I play "draw TC+3C draw TD+3D draw TH+3H draw TS+3S draw 9C+4C draw 9D+4D draw 9H+4H draw 9S+4S"
    And I play "draw 8C+5C draw 8D+5D 6S+7S draw 8H+5H draw 8S+5S draw KC draw KD draw KH draw draw"
    Then the legal moves are "recycle undo"
    And the game is playing
    When I play "recycle draw draw recycle draw draw recycle"
    Then the game is playing
    And the events do not include "blocked"

  @rule-new-game
  Scenario: Then a new game is started
    Given the stuck deal
    When I play "KS QC+AC"
    And I start a new game
    Then 28 cards are left in the pyramid
    And the move counter is 0
    And the score is 0
