@doc-000 @doc-002 @app-rules
Feature: La puntuación / Il punteggio
  «La puntuación empieza en 0. Cada carta retirada de la pirámide da 10 puntos: una pareja de dos
  cartas de la pirámide vale 20, una pareja con el descarte 10 y un rey de la pirámide 10. Una
  carta tomada del descarte no da puntos. Robar y reciclar no cuestan puntos. Por tanto, una
  partida ganada siempre vale 280 puntos; el cronómetro y el número de movimientos (retiradas,
  robos y reciclajes) sirven para desempatar entre partidas en las estadísticas.»

  @rule-scoring
  Scenario: The score starts at 0
    Given the documents deal
    Then the score is 0

  @rule-scoring
  Scenario: A pair of two pyramid cards is worth 20
    Given the documents deal
    When I play "TC+3S"
    Then the last move removed "TC 3S" for 20 points
    And the score is 20

  @rule-scoring
  Scenario: A pair with the waste is worth 10
    Given the easy deal
    When I play "AH+QC"
    Then the last move removed "AH QC" for 10 points
    And the score is 10

  @rule-scoring
  Scenario: A King of the pyramid is worth 10
    Given the documents deal
    When I play "KD"
    Then the score is 10

  @rule-scoring
  Scenario: A card taken from the waste gives no points: a King of the waste is worth 0
    Given the draining deal
    When I play "QC+AC"
    And I play "draw" 20 times
    Then the waste top is "KC"
    When I play "KC"
    Then the last move removed "KC" for 0 points
    And the score is 10

  @rule-scoring
  Scenario: Drawing and recycling cost no points
    Given the documents deal
    When I play "KD"
    And I play "draw" 23 times
    And I play "recycle draw"
    Then the score is 10

  @rule-scoring
  Scenario: A won game is always worth 280 points: 10 for each of the 28 pyramid cards
    Given the easy deal
    When I play "KC AC+QC 2C+JC 3C+TC 4C+9C 5C+8C 6C+7C KD AD+QD 2D+JD 3D+TD 4D+9D 5D+8D KH 6D+7D KS"
    Then the game is won
    And the score is 280

  @rule-move-counter
  Scenario: The move counter counts removals, draws and recycles
    Given the documents deal
    When I play "KD TC+3S draw"
    Then the move counter is 3
    When I play "draw" 22 times
    And I play "recycle"
    Then the move counter is 26

  @rule-move-counter
  Scenario: Selecting, refused moves and taps that do nothing are not moves
    Given the documents deal
    When I play "tap:7C tap:7S tap:QC tap:7S"
    And I try "7C+7S"
    Then the move counter is 0
