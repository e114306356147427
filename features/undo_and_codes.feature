@app-rules
Feature: Deshacer y código de partida / Annullamento e codice della partita
  «El botón Deshacer permite deshacer las 100 últimas acciones: parejas, reyes, robos y
  reciclajes. Las cartas vuelven a su sitio y se restan los puntos del movimiento; el contador de
  movimientos, en cambio, no disminuye. Cada reparto tiene un código, que se muestra durante la
  partida, por ejemplo PY1-N-AAAAAAS. Al pegarlo en la ventana Nueva partida, se vuelven a repartir
  exactamente las mismas cartas.»

  @doc-000 @doc-002 @sentence-48 @sentence-49 @rule-undo
  Scenario: Undo puts the cards back and subtracts the points; the move counter does not go down
    Given the documents deal
    And I note the game
    When I play "KD TC+3S draw"
    Then the score is 30
    When I play "undo"
    Then the waste top is "7D"
    And the stock has 23 cards
    And the score is 30
    And the move counter is 3
    When I play "undo"
    Then the score is 10
    And 27 cards are left in the pyramid
    And the move counter is 3
    When I play "undo"
    Then the cards are where they were when noted
    And the score is 0
    And the move counter is 3
    And the events include "undone"

  @doc-000 @doc-002 @sentence-48 @sentence-49 @rule-undo
  Scenario Outline: Undo takes back <action>, and only it
    Given the <deal> deal
    When I play "<before>"
    And I note the game
    And I play "<move>"
    Then the score is <after>
    When I play "undo"
    Then the cards are where they were when noted
    And the score is <score>
    And the move counter is <moves>
    And the events include "undone"

    Examples:
      | action                        | deal      | before        | move      | after | score | moves |
      | a pair of the pyramid         | documents | KD            | TC+3S     | 30    | 10    | 2     |
      | a pair of the pyramid, tapped | documents | KD tap:3S     | tap:TC    | 30    | 10    | 2     |
      | a pair with the waste         | easy      | KC            | AH+QC     | 20    | 10    | 2     |
      | a pair with the waste, tapped | easy      | KC tap:QC     | tap:AH    | 20    | 10    | 2     |
      | a King of the pyramid         | documents | TC+3S         | KD        | 30    | 20    | 2     |
      | a King of the pyramid, tapped | documents | TC+3S tap:7C  | tap:KD    | 30    | 20    | 2     |
      | a King of the waste           | draining  | QC+AC draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw | KC | 10 | 10 | 22 |
      | a King of the waste, tapped   | draining  | QC+AC draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw | tap:KC | 10 | 10 | 22 |
      | a draw                        | documents | KD            | draw      | 10    | 10    | 2     |
      | a draw, tapped                | documents | KD            | tap:stock | 10    | 10    | 2     |

  @doc-000 @doc-002 @sentence-48 @sentence-49 @rule-undo
  Scenario Outline: Undo takes back a recycle: the waste comes back in its order, <how>
    Given the documents deal
    When I play "draw draw 3C+TC"
    And I play "draw" 21 times
    And I note the game
    And I play "<recycle>"
    Then the waste is empty
    When I play "undo"
    Then the cards are where they were when noted
    And the waste's top cards are "9S 6S 5S 4S"
    And the move counter is 25
    When I play "<recycle> draw"
    Then the waste top is "7D"

    Examples:
      | how          | recycle   |
      | by a recycle | recycle   |
      | by a tap     | tap:stock |

  @doc-000 @doc-002 @sentence-48 @rule-undo
  Scenario: Undo takes back pairs, Kings, draws and recycles, one after the other
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

  @doc-000 @doc-002 @sentence-48 @rule-undo
  Scenario: Undo reaches back exactly 100 actions: the 100th undo takes back the first of them
    Given the documents deal
    And I note the game
    When I play "KD"
    And I play "draw" 23 times
    And I play "recycle"
    And I play "draw" 24 times
    And I play "recycle"
    And I play "draw" 24 times
    And I play "recycle"
    And I play "draw" 24 times
    And I play "recycle"
    Then the move counter is 100
    When I play "undo" 99 times
    Then the score is 10
    And the stock has 23 cards
    When I play "undo"
    Then the cards are where they were when noted
    And the score is 0
    And the move counter is 100
    When I try "undo"
    Then the move is refused with "nothing_to_undo"

  @doc-000 @doc-002 @sentence-48 @rule-undo
  Scenario: Undo reaches back the last 100 actions and no further: the 101st is refused
    Given the documents deal
    When I play "KD TC+3S"
    And I note the game
    And I play "draw" 23 times
    And I play "recycle"
    And I play "draw" 24 times
    And I play "recycle"
    And I play "draw" 24 times
    And I play "recycle"
    And I play "draw" 24 times
    And I play "tap:stock tap:stock"
    Then the move counter is 102
    When I play "undo" 100 times
    Then the cards are where they were when noted
    And the score is 30
    And 25 cards are left in the pyramid
    And the move counter is 102
    When I try "undo"
    Then the move is refused with "nothing_to_undo"

  @api @rule-undo
  Scenario: Nothing to undo at the start of a game
    Given the documents deal
    When I try "undo"
    Then the move is refused with "nothing_to_undo"

  @pyramide-choice @rule-undo
  Scenario: Undo drops the selection
    Given the documents deal
    When I play "KD tap:7C undo"
    Then no card is selected
    And 28 cards are left in the pyramid

  @doc-000 @doc-002 @sentence-50 @rule-code
  Scenario: Every deal has a code, shown during the game
    Given the documents deal
    And I note the game
    When I play "KD draw tap:7C undo"
    Then the game's code is the one noted

  @codes @rule-code
  Scenario: The documents' example code PY1-N-AAAAAAS is shown during the game
    Given a new game from the code "PY1-N-AAAAAAS"
    When I play "draw"
    Then the game's code is "PY1-N-AAAAAAS"

  @codes @rule-code
  Scenario: Pasting the code deals exactly the same cards again
    Given a new game from the code "PY1-N-AAAAAAS"
    When I deal the code "PY1-N-AAAAAAS" again
    Then the same cards are dealt

  @doc-000 @doc-002 @sentence-51 @rule-code
  Scenario: A random game's code deals it again
    Given a new game under the rules:
      | option | value |
      | strict_win | false |
    When I deal the game's own code again
    Then the same cards are dealt

  @doc-000 @doc-002 @sentence-51 @rule-code
  Scenario: An explicit deal is given a code that deals it again
    Given the documents deal
    When I play "KD draw"
    And I deal the game's own code again
    Then the same cards are dealt as at the start

  @codes @rule-code
  Scenario Outline: A code that names no deal is refused: <code>
    When I deal the code "<code>"
    Then the request is refused with status 422 and "invalid_code"

    Examples:
      | code           |
      | PY1-N-AAAAAA   |
      | PY2-N-AAAAAAS  |
      | PY1-X-AAAAAAS  |
      | PY1-N-AAAAAA1  |
