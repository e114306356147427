@doc-000 @doc-002 @app-rules
Feature: Deshacer y código de partida / Annullamento e codice della partita
  «El botón Deshacer permite deshacer las 100 últimas acciones: parejas, reyes, robos y
  reciclajes. Las cartas vuelven a su sitio y se restan los puntos del movimiento; el contador de
  movimientos, en cambio, no disminuye. Cada reparto tiene un código, que se muestra durante la
  partida, por ejemplo PY1-N-AAAAAAS. Al pegarlo en la ventana Nueva partida, se vuelven a repartir
  exactamente las mismas cartas.»

  @rule-undo
  Scenario: Undo puts the cards back and subtracts the points; the move counter does not go down
    Given the documents deal
    And I note the game
    When I play "KD TC+3S draw"
    Then the score is 30
    When I play "undo"
    Then the waste top is "7D"
    And the score is 30
    When I play "undo"
    Then the score is 10
    When I play "undo"
    Then the cards are where they were when noted
    And the score is 0
    And the move counter is 3
    And the events include "undone"

  @rule-undo
  Scenario: Undo takes back pairs, Kings, draws and recycles
    Given the easy deal
    When I play "KC AH+QC draw"
    And I play "draw" 22 times
    And I note the game
    And I play "recycle"
    Then the stock has 23 cards
    When I play "undo"
    Then the cards are where they were when noted
    When I play "undo" 23 times
    Then the waste has 0 cards
    When I play "undo"
    Then the waste top is "AH"
    And the score is 10
    When I play "undo"
    Then 28 cards are left in the pyramid
    And the score is 0
    And the move counter is 26

  @rule-undo
  Scenario: Undo reaches back the last 100 actions and no further
    Given the documents deal
    When I play "draw" 23 times
    And I play "recycle"
    And I play "draw" 24 times
    And I play "recycle"
    And I play "draw" 24 times
    And I play "recycle"
    And I play "draw" 24 times
    And I play "recycle draw draw draw"
    Then the move counter is 102
    When I play "undo" 100 times
    Then the move counter is 102
    And the waste has 3 cards
    When I try "undo"
    Then the move is refused with "nothing_to_undo"

  @rule-code
  Scenario: Every deal has a code, shown during the game
    Given a new game from the code "PY1-N-AAAAAAS"
    When I play "draw"
    Then the game's code is "PY1-N-AAAAAAS"

  @rule-code
  Scenario: Pasting the code deals exactly the same cards again
    Given a new game from the code "PY1-N-AAAAAAS"
    When I deal the code "PY1-N-AAAAAAS" again
    Then the same cards are dealt

  @rule-code
  Scenario: A random game's code deals it again
    Given a new game under the rules:
      | option | value |
      | strict_win | false |
    When I deal the game's own code again
    Then the same cards are dealt

  @rule-code
  Scenario: An explicit deal is given a code that deals it again
    Given the documents deal
    When I deal the game's own code again
    Then the same cards are dealt

  @rule-code
  Scenario Outline: A code that names no deal is refused: <code>
    When I deal the code "<code>"
    Then the request is refused with status 422 and "invalid_code"

    Examples:
      | code           |
      | PY1-N-AAAAAA   |
      | PY2-N-AAAAAAS  |
      | PY1-X-AAAAAAS  |
      | PY1-N-AAAAAA1  |
