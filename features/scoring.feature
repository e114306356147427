@app-rules
Feature: La puntuación / Il punteggio
  «La puntuación empieza en 0. Cada carta retirada de la pirámide da 10 puntos: una pareja de dos
  cartas de la pirámide vale 20, una pareja con el descarte 10 y un rey de la pirámide 10. Una
  carta tomada del descarte no da puntos. Robar y reciclar no cuestan puntos. Por tanto, una
  partida ganada siempre vale 280 puntos; el cronómetro y el número de movimientos (retiradas,
  robos y reciclajes) sirven para desempatar entre partidas en las estadísticas.»

  @doc-000 @doc-002 @sentence-42 @rule-scoring
  Scenario Outline: The score starts at 0: <deal>
    Given the <deal> deal
    Then the score is 0
    And the move counter is 0

    Examples:
      | deal      |
      | documents |
      | easy      |

  @doc-000 @doc-002 @sentence-43 @rule-scoring
  Scenario Outline: A pair of two pyramid cards is worth 20: <how>
    Given the documents deal
    When I play "KD <moves>"
    Then the last move removed "TC 3S"
    And the removal scored 20 points
    And the score is 30

    Examples:
      | how            | moves         |
      | by a pair move | TC+3S         |
      | by taps        | tap:3S tap:TC |

  @doc-000 @doc-002 @sentence-43 @sentence-44 @rule-scoring
  Scenario Outline: A pair with the waste is worth 10: <how>
    Given the documents deal
    When I play "KD draw draw <moves>"
    Then the last move removed "3C TC"
    And the removal scored 10 points
    And the score is 20

    Examples:
      | how                       | moves         |
      | by a pair move            | 3C+TC         |
      | tapping the waste first   | tap:3C tap:TC |
      | tapping the pyramid first | tap:TC tap:3C |

  @doc-000 @doc-002 @sentence-43 @rule-scoring
  Scenario Outline: A King of the pyramid is worth 10: <how>
    Given the documents deal
    When I play "TC+3S <moves>"
    Then the last move removed "KD"
    And the removal scored 10 points
    And the score is 30

    Examples:
      | how                     | moves         |
      | by a King move          | KD            |
      | by a tap                | tap:KD        |
      | by a tap, with a card selected | tap:7S tap:KD |

  @doc-000 @doc-002 @sentence-44 @rule-scoring
  Scenario Outline: A card taken from the waste gives no points: a King of the waste is worth 0, <how>
    Given the draining deal
    When I play "QC+AC"
    And I play "draw" 20 times
    Then the waste top is "KC"
    When I play "<moves>"
    Then the last move removed "KC"
    And the removal scored 0 points
    And the score is 10

    Examples:
      | how         | moves  |
      | by a move   | KC     |
      | by a tap    | tap:KC |

  @doc-000 @doc-002 @sentence-45 @rule-scoring
  Scenario Outline: Drawing costs no points: <how>
    Given the documents deal
    When I play "KD"
    And I note the game
    And I play "<draw>" 23 times
    Then the score is what it was when noted

    Examples:
      | how       | draw      |
      | by moves  | draw      |
      | by taps   | tap:stock |

  @doc-000 @doc-002 @sentence-45 @rule-scoring
  Scenario Outline: Recycling costs no points: <how>
    Given the documents deal
    When I play "KD"
    And I play "draw" 23 times
    And I play "<recycle>"
    Then the score did not change

    Examples:
      | how       | recycle   |
      | by a move | recycle   |
      | by a tap  | tap:stock |

  @doc-000 @doc-002 @sentence-46 @rule-scoring
  Scenario Outline: A won game is always worth 280 points: 10 for each of the 28 pyramid cards, <how>
    Given the easy deal
    When I play "<moves>"
    Then the game is won
    And the score is 280
    And the move counter is <count>

    Examples:
      | how                            | moves                                                                                   | count |
      | without the waste              | KC AC+QC 2C+JC 3C+TC 4C+9C 5C+8C 6C+7C KD AD+QD 2D+JD 3D+TD 4D+9D 5D+8D KH 6D+7D KS    | 16    |
      | with pairs from the waste       | KC AH+QC 2C+JC 3C+TC draw draw draw draw draw draw draw draw draw draw draw QH+AC 4C+9C 5C+8C 6C+7C KD AD+QD 2D+JD 3D+TD 4D+9D 5D+8D KH 6D+7D KS | 28    |

  @doc-000 @doc-002 @sentence-46 @rule-move-counter
  Scenario Outline: The move counter counts removals, draws and recycles: <how>
    Given the documents deal
    When I play "<removals>"
    Then the move counter is 2
    When I play "<draw>" 23 times
    Then the move counter is 25
    When I play "<recycle>"
    Then the move counter is 26

    Examples:
      | how      | removals             | draw      | recycle   |
      | by moves | KD TC+3S             | draw      | recycle   |
      | by taps  | tap:KD tap:TC tap:3S | tap:stock | tap:stock |

  @doc-000 @doc-002 @sentence-46 @rule-move-counter
  Scenario Outline: Taps that remove nothing are not moves: <taps>
    Given the documents deal
    When I play "<taps>"
    Then the move counter is 0

    Examples:
      | taps                        |
      | tap:7C                      |
      | tap:7C tap:7C               |
      | tap:7C tap:7S               |
      | tap:QC                      |
      | tap:7C tap:QC               |
