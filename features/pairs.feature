@doc-000 @doc-002 @app-rules
Feature: Las parejas que suman 13 / Le coppie che sommano 13
  «Se toca una carta libre y luego otra: si sus valores suman 13, se retiran las dos. El as vale 1,
  la jota 11, la reina 12 y las demás cartas su número. Por tanto, las parejas posibles son:
  A + Q, 2 + J, 3 + 10, 4 + 9, 5 + 8, 6 + 7. El palo no importa.»

  @rule-pairs
  Scenario: Tapping one free card then another that sums 13 removes both
    Given the documents deal
    When I play "tap:TC"
    Then the selected card is "TC"
    When I play "tap:3S"
    Then the last move removed "TC 3S" for 20 points
    And no card is selected
    And 26 cards are left in the pyramid

  @rule-pairs
  Scenario: The six pairs: A + Q, 2 + J, 3 + 10, 4 + 9, 5 + 8, 6 + 7
    Given the easy deal
    Then the legal moves include "AC+QC"
    And the legal moves include "2C+JC"
    And the legal moves include "3C+TC"
    When I play "KC AC+QC 2C+JC 3C+TC"
    Then the legal moves are "4C+9C 5C+8C 6C+7C draw undo"

  @rule-pairs @rule-suit
  Scenario Outline: The pairs sum 13 whatever the suits: <first> + <second>
    Given the easy deal
    When I play "KC AC+QC 2C+JC 3C+TC 4C+9C 5C+8C 6C+7C"
    Then the free pyramid cards are "KD AD QD 2D JD"
    And the legal moves include "<first>+<second>"

    Examples:
      | first | second |
      | AD    | QD     |
      | 2D    | JD     |
      | AH    | QD     |

  @rule-pairs @rule-values
  Scenario: Every pair of the bottom row is by value: A+Q, 2+J, 3+10, K alone
    Given the easy deal
    Then the legal moves are "KC AC+QC 2C+JC 3C+TC AH+QC draw"

  @rule-values
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

  @rule-suit
  Scenario: The suit does not matter: the waste's ace of hearts pairs with the queen of clubs
    Given the easy deal
    When I play "AH+QC"
    Then the last move removed "AH QC" for 10 points

  @rule-sum-not-13 @lang-es
  Scenario: 7♣ and 7♠ do not sum 13: «La suma debe ser igual a 13», the second stays selected
    Given the documents deal
    And the player's language is "es"
    When I play "tap:7C tap:7S"
    Then the feedback is "sum_not_13"
    And the message is "La suma debe ser igual a 13"
    And the selected card is "7S"
    And 28 cards are left in the pyramid
    And the move counter is 0

  @rule-sum-not-13 @lang-it
  Scenario: 7♣ e 7♠ non sommano 13: «La somma deve essere uguale a 13»
    Given the documents deal
    And the player's language is "it"
    When I play "tap:7C tap:7S"
    Then the message is "La somma deve essere uguale a 13"
    And the selected card is "7S"

  @rule-sum-not-13 @lang-en @lang-fr
  Scenario Outline: The sum message in <language>
    Given the documents deal
    And the player's language is "<language>"
    When I play "tap:7C tap:7S"
    Then the message is "<message>"

    Examples:
      | language | message                       |
      | en       | The sum must equal 13         |
      | fr       | La somme doit être égale à 13 |

  @rule-sum-not-13
  Scenario: A pair move of two cards not summing 13 is refused
    Given the documents deal
    When I try "7C+7S"
    Then the move is refused with "sum_not_13"

  @rule-kings
  Scenario: A King of the pyramid goes with one tap
    Given the documents deal
    When I play "tap:KD"
    Then the last move removed "KD" for 10 points
    And 27 cards are left in the pyramid

  @rule-kings
  Scenario: A King on the waste goes with one tap, for no points
    Given the draining deal
    When I play "QC+AC"
    And I play "draw" 19 times
    And I play "tap:stock"
    Then the waste top is "KC"
    When I play "tap:KC"
    Then the last move removed "KC" for 0 points

  @rule-kings
  Scenario: A King is removed alone, never in a pair
    Given the documents deal
    When I try "KD+7S"
    Then the move is refused with "sum_not_13"
    When I try "7S"
    Then the move is refused with "not_a_king"

  @rule-documents-moves @lang-es @lang-it
  Scenario: PY1-N-AAAAAAS: first the K♦ of the bottom row, then the pair 10♣ + 3♠
    Given the documents deal
    When I play "KD"
    Then the last move removed "KD" for 10 points
    When I play "TC+3S"
    Then the last move removed "TC 3S" for 20 points
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
