@app-rules
Feature: Las parejas que suman 13 / Le coppie che sommano 13
  «Se toca una carta libre y luego otra: si sus valores suman 13, se retiran las dos. El as vale 1,
  la jota 11, la reina 12 y las demás cartas su número. Por tanto, las parejas posibles son:
  A + Q, 2 + J, 3 + 10, 4 + 9, 5 + 8, 6 + 7. El palo no importa.»

  @doc-000 @doc-002 @sentence-4 @sentence-22 @rule-pairs
  Scenario Outline: Two free cards summing 13 are removed together: <how>
    Given the documents deal
    When I play "<moves>"
    Then the last move removed "TC 3S"
    And the removal scored 20 points
    And 26 cards are left in the pyramid

    Examples:
      | how                      | moves         |
      | by a pair move           | TC+3S         |
      | by tapping one, then the other | tap:TC tap:3S |
      | by tapping in the other order  | tap:3S tap:TC |

  @doc-000 @doc-002 @api @sentence-28 @rule-pairs
  Scenario Outline: A ten may be named 10C, as the documents write 10♣ + 3♠: <how>
    Given the documents deal
    When I play "<moves>"
    Then the last move removed "TC 3S"
    And the removal scored 20 points
    And 26 cards are left in the pyramid

    Examples:
      | how             | moves           |
      | by a pair move  | 10C+3S          |
      | by taps         | tap:10C tap:3S  |

  @doc-000 @doc-002 @sentence-22 @rule-pairs
  Scenario: The first tap selects the card and removes nothing
    Given the documents deal
    When I play "tap:TC"
    Then the selected card is "TC"
    And the last move's events are "selected TC"
    And 28 cards are left in the pyramid
    And the move counter is 0

  @doc-000 @doc-002 @sentence-23 @sentence-24 @rule-pairs @rule-values
  Scenario Outline: The six pairs: <pair>, <how>
    Given the easy deal
    When I play "<moves>"
    Then the last move removed "<pair>"
    And the removal scored 20 points

    Examples:
      | pair  | how            | moves                              |
      | AC QC | by a pair move | KC AC+QC                           |
      | AC QC | by taps        | KC tap:QC tap:AC                   |
      | 2C JC | by a pair move | KC 2C+JC                           |
      | 2C JC | by taps        | KC tap:2C tap:JC                   |
      | 3C TC | by a pair move | KC 3C+TC                           |
      | 3C TC | by taps        | KC tap:TC tap:3C                   |
      | 4C 9C | by a pair move | KC AC+QC 2C+JC 3C+TC 4C+9C         |
      | 4C 9C | by taps        | KC AC+QC 2C+JC 3C+TC tap:9C tap:4C |
      | 5C 8C | by a pair move | KC AC+QC 2C+JC 3C+TC 5C+8C         |
      | 5C 8C | by taps        | KC AC+QC 2C+JC 3C+TC tap:5C tap:8C |
      | 6C 7C | by a pair move | KC AC+QC 2C+JC 3C+TC 6C+7C         |
      | 6C 7C | by taps        | KC AC+QC 2C+JC 3C+TC tap:7C tap:6C |

  @doc-000 @doc-002 @sentence-23 @rule-values
  Scenario Outline: Cards not summing 13 are not a pair: <pair>
    Given the easy deal
    When I try "<pair>"
    Then the move is refused with "sum_not_13"

    Examples:
      | pair  |
      | AC+JC |
      | 2C+QC |
      | 3C+JC |
      | TC+AC |
      | 2C+TC |
      | 3C+QC |
      | AC+2C |

  @doc-000 @doc-002 @sentence-23 @sentence-26 @rule-values @rule-sum-not-13
  Scenario Outline: Cards not summing 13 are not a pair by taps either: <first> then <second>
    Given the easy deal
    When I play "tap:<first> tap:<second>"
    Then the feedback is "sum_not_13"
    And the selected card is "<second>"
    And 28 cards are left in the pyramid
    And the last move's events are "selected <second>"
    And the events do not include "removed"

    Examples:
      | first | second |
      | AC    | JC     |
      | QC    | 2C     |
      | JC    | 3C     |
      | TC    | AC     |

  @doc-000 @doc-002 @sentence-25 @rule-suit
  Scenario Outline: The suit does not matter: <pair>, <how>
    Given the easy deal
    When I play "KC AC+QC 2C+JC 3C+TC 4C+9C 5C+8C 6C+7C <moves>"
    Then the last move removed "<pair>"
    And the removal scored <points> points

    Examples:
      | pair  | how            | moves         | points |
      | AH QD | by a pair move | AH+QD         | 10     |
      | AH QD | by taps        | tap:QD tap:AH | 10     |
      | AD QD | by a pair move | AD+QD         | 20     |
      | 2D JD | by taps        | tap:JD tap:2D | 20     |

  @doc-000 @doc-002 @sentence-25 @rule-suit
  Scenario: The suit does not matter: the waste's ace of hearts pairs with the queen of clubs
    Given the easy deal
    When I play "AH+QC"
    Then the last move removed "AH QC"
    And the removal scored 10 points

  @doc-000 @doc-002 @sentence-26 @rule-sum-not-13 @lang-es
  Scenario Outline: 7♣ and 7♠ do not sum 13: «La suma debe ser igual a 13», the second stays selected, error help <help>
    Given the documents deal with error help <help>
    And the player's language is "es"
    When I play "tap:7C tap:7S"
    Then the feedback is "sum_not_13"
    And the message is "La suma debe ser igual a 13"
    And the selected card is "7S"
    And 28 cards are left in the pyramid
    And the move counter is 0

    Examples:
      | help |
      | on   |
      | off  |

  @doc-000 @doc-002 @sentence-26 @rule-sum-not-13
  Scenario: The second card stays selected: a third tap pairs it
    Given the documents deal
    When I play "tap:7C tap:TC"
    Then the feedback is "sum_not_13"
    And the selected card is "TC"
    When I play "tap:3H"
    Then the last move removed "TC 3H"
    And the removal scored 20 points
    And no card is selected

  @doc-000 @doc-002 @sentence-26 @rule-sum-not-13 @lang-it
  Scenario: 7♣ e 7♠ non sommano 13: «La somma deve essere uguale a 13»
    Given the documents deal
    And the player's language is "it"
    When I play "tap:7C tap:7S"
    Then the message is "La somma deve essere uguale a 13"
    And the selected card is "7S"

  @doc-000 @doc-002 @sentence-26 @rule-sum-not-13 @lang-en @lang-fr
  Scenario Outline: The sum message in <language>
    Given the documents deal
    And the player's language is "<language>"
    When I play "tap:7C tap:7S"
    Then the message is "<message>"

    Examples:
      | language | message                       |
      | en       | The sum must equal 13         |
      | fr       | La somme doit être égale à 13 |

  @doc-000 @doc-002 @sentence-26 @rule-sum-not-13
  Scenario: A pair move of two cards not summing 13 is refused
    Given the documents deal
    When I try "7C+7S"
    Then the move is refused with "sum_not_13"

  @doc-000 @doc-002 @sentence-4 @sentence-27 @rule-kings
  Scenario Outline: A King of the pyramid goes alone, for 10 points: <how>
    Given the documents deal
    When I play "<moves>"
    Then the last move removed "KD"
    And the removal scored 10 points
    And 27 cards are left in the pyramid
    And the move counter is 1

    Examples:
      | how                              | moves         |
      | by a King move                   | KD            |
      | by one tap                       | tap:KD        |
      | by one tap, another card selected| tap:7C tap:KD |
      | by one tap, the waste selected   | tap:7D tap:KD |

  @doc-000 @doc-002 @sentence-27 @sentence-33 @rule-kings
  Scenario Outline: A King on the waste goes alone, for no points: <how>
    Given the draining deal
    When I play "QC+AC"
    And I play "draw" 20 times
    Then the waste top is "KC"
    When I play "<moves>"
    Then the last move removed "KC"
    And the removal scored 0 points
    And the waste top is "8S"
    And the score is 10

    Examples:
      | how                              | moves         |
      | by a King move                   | KC            |
      | by one tap                       | tap:KC        |
      | by one tap, another card selected| tap:AD tap:KC |

  @doc-000 @doc-002 @sentence-4 @sentence-27 @rule-kings
  Scenario: A King is removed alone, never with another card
    Given the documents deal
    When I try "KD+7S"
    Then the move is refused with "sum_not_13"
    When I play "tap:7S tap:KD"
    Then the last move removed "KD"
    And the removal scored 10 points
    And 27 cards are left in the pyramid

  @api @rule-kings
  Scenario: A King move names a King
    Given the documents deal
    When I try "7S"
    Then the move is refused with "not_a_king"

  @doc-000 @doc-002 @sentence-27 @rule-kings
  Scenario Outline: A covered King cannot be removed: <how>
    Given the documents deal with error help on
    When I try "<moves>"
    Then the move is refused with "card_blocked"

    Examples:
      | how            | moves |
      | by a King move | KS    |

  @doc-000 @doc-002 @sentence-20 @sentence-27 @rule-kings
  Scenario: A covered King tapped does nothing
    Given the documents deal
    When I try "tap:KS"
    Then nothing changes
    And the feedback is "card_blocked"

  @pyramide-choice @rule-kings
  Scenario: Tapping a King removes it and drops the selection
    Given the documents deal
    When I play "tap:7C tap:KD"
    Then the last move removed "KD"
    And the removal scored 10 points
    And no card is selected

  @pyramide-choice @rule-pairs
  Scenario: Tapping the selected card again deselects it
    Given the documents deal
    When I play "tap:7C tap:7C"
    Then no card is selected
    And the last move's events are "deselected 7C"
    When I play "tap:7D tap:7D"
    Then no card is selected
    And there is no feedback
    And the last move's events are "deselected 7D"
    And the move counter is 0
    When I play "tap:3S tap:TC"
    Then the last move removed "TC 3S"
    And the removal scored 20 points

  @doc-000 @doc-002 @sentence-28 @sentence-29 @sentence-30 @rule-documents-moves
  Scenario Outline: PY1-N-AAAAAAS by its layout: first the K♦ of the bottom row, then the pair 10♣ + 3♠, <how>
    Given the documents deal
    When I play "<king>"
    Then the last move removed "KD"
    When I play "<pair>"
    Then the last move removed "TC 3S"
    And the stock has 23 cards
    And the waste, from its top, is "7D"
    And the pyramid, from its top row, is "JD / 6C 7H / AS 4D QS / 5H 3D 6H 8S / KH KC AD KS 9C / QC 2C 8D TD TS JS / 7C - 3H 4H - - 7S"

    Examples:
      | how      | king   | pair          |
      | by moves | KD     | TC+3S         |
      | by taps  | tap:KD | tap:TC tap:3S |

  @doc-000 @doc-002 @api @sentence-28 @sentence-29 @sentence-30 @rule-documents-moves @lang-es @lang-it
  Scenario Outline: PY1-N-AAAAAAS: first the K♦ of the bottom row, then the pair 10♣ + 3♠, <how>
    Given the documents deal
    When I play "<king>"
    Then the last move removed "KD"
    And the removal scored 10 points
    When I play "<pair>"
    Then the last move removed "TC 3S"
    And the removal scored 20 points
    And the score is 30
    And the move counter is 2
    And the description in "es" is:
      """
      Mazo: 23 cartas; descarte: 7 de diamantes. Fila 1: jota de diamantes; fila 2: 6 de tréboles, 7 de corazones; fila 3: as de picas, 4 de diamantes, reina de picas; fila 4: 5 de corazones, 3 de diamantes, 6 de corazones, 8 de picas; fila 5: rey de corazones, rey de tréboles, as de diamantes, rey de picas, 9 de tréboles; fila 6: reina de tréboles, 2 de tréboles, 8 de diamantes, 10 de diamantes, 10 de picas, jota de picas; fila 7: 7 de tréboles, 3 de corazones, 4 de corazones, 7 de picas.
      """
    And the description in "it" is:
      """
      Mazzo di pesca: 23 carte; scarti: 7 di quadri. Fila 1: fante di quadri; fila 2: 6 di fiori, 7 di cuori; fila 3: asso di picche, 4 di quadri, donna di picche; fila 4: 5 di cuori, 3 di quadri, 6 di cuori, 8 di picche; fila 5: re di cuori, re di fiori, asso di quadri, re di picche, 9 di fiori; fila 6: donna di fiori, 2 di fiori, 8 di quadri, 10 di quadri, 10 di picche, fante di picche; fila 7: 7 di fiori, 3 di cuori, 4 di cuori, 7 di picche.
      """

    Examples:
      | how       | king   | pair          |
      | by moves  | KD     | TC+3S         |
      | by taps   | tap:KD | tap:TC tap:3S |

  @doc-000 @doc-002 @sentence-23 @sentence-27 @rule-kings @rule-values
  Scenario: Two Kings are not a pair: each goes alone
    Given the stuck deal
    When I play "draw" 19 times
    Then the waste top is "KC"
    When I try "KS+KC"
    Then the move is refused with "sum_not_13"
    When I play "tap:KS"
    Then the last move removed "KS"
    And the removal scored 10 points
    And the waste top is "KC"

  @pyramide-choice @rule-pairs
  Scenario: A pair move drops the selection of a card it removes
    Given the documents deal
    When I play "tap:TC TC+3S"
    Then no card is selected

  @api @rule-pairs
  Scenario: A pair move names two different cards
    Given the documents deal
    When I try "TC+TC"
    Then the request is refused with status 422 and "same_card"

  @pyramide-choice @rule-pairs
  Scenario Outline: A pair or King move keeps the selection of a card it does not remove: <move>
    Given the documents deal
    When I play "tap:7C <move>"
    Then the selected card is "7C"

    Examples:
      | move  |
      | TC+3S |
      | KD    |
