@app-rules
Feature: La preparación / La preparazione
  «Una pirámide de 28 cartas visibles, un descarte y 23 cartas en el mazo.»
  «Se juega con una baraja de 52 cartas, sin comodines. La aplicación coloca 28 cartas en una
  pirámide de 7 filas […] Todas están boca arriba. Cada carta está parcialmente cubierta por dos
  cartas de la fila de debajo. La aplicación da la vuelta a una carta y la coloca en el descarte,
  y pone las 23 cartas restantes en el mazo, boca abajo.»

  @doc-000 @doc-002 @sentence-3 @sentence-9 @sentence-10 @sentence-13 @rule-setup
  Scenario: A new game is 28 cards in 7 rows, one card on the waste and 23 in the stock
    Given the documents deal
    Then the pyramid rows have 1, 2, 3, 4, 5, 6 and 7 cards
    And 28 cards are left in the pyramid
    And the waste has 1 cards
    And the stock has 23 cards
    And the 52 cards are all there, each once
    And the game is playing

  @doc-000 @doc-002 @sentence-14 @sentence-15 @rule-setup
  Scenario: The documents' deal PY1-N-AAAAAAS by its layout: 23 cards in the stock, the 7♦ on the waste, the rows as written
    Given the documents deal
    Then the stock has 23 cards
    And the waste, from its top, is "7D"
    And the pyramid, from its top row, is "JD / 6C 7H / AS 4D QS / 5H 3D 6H 8S / KH KC AD KS 9C / QC 2C 8D TD TS JS / 7C TC 3H 4H 3S KD 7S"

  @doc-000 @doc-002 @sentence-9 @rule-setup
  Scenario: A random deal is the 52 cards, each once
    Given a new game
    Then the 52 cards are all there, each once

  @doc-000 @doc-002 @sentence-10 @rule-setup
  Scenario: A random deal has a pyramid of 7 rows: 1 card at the top, then 2, 3…
    Given a new game
    Then the pyramid rows have 1, 2, 3, 4, 5, 6 and 7 cards

  @doc-000 @doc-002 @sentence-13 @rule-setup
  Scenario: A random deal turns one card onto the waste and leaves 23 in the stock
    Given a new game
    Then the waste has 1 cards
    And the stock has 23 cards

  @doc-000 @doc-002 @api @sentence-9 @rule-setup
  Scenario Outline: A layout that is not the 52 cards, each once, is not a deal: <what>
    When I deal the documents deal <change>
    Then the request is refused with status 422 and "invalid_layout"
    And the reason given for "layout" is "<reason>"

    Examples:
      | what                            | change                            | reason    |
      | a card twice, all 52 there      | with "7D" added to the stock      | duplicate |
      | a card missing (51 cards)       | without the stock's last card     | missing   |

  @doc-000 @doc-002 @api @sentence-10 @sentence-12 @rule-setup
  Scenario: A layout whose rows are not 1 to 7 cards is not a deal, though it has 28 pyramid cards
    When I deal the documents deal with the last card of row 7 moved to row 6
    Then the request is refused with status 422 and "invalid_layout"
    And the reason given for "layout.pyramid" is "pyramid"

  @doc-000 @doc-002 @api @sentence-3 @sentence-13 @rule-setup
  Scenario: Under the app's rules a layout without a card on the waste is not a deal
    When I deal the documents deal with its waste card put on the stock
    Then the request is refused with status 422 and "invalid_layout"
    And the reason given for "layout.waste" is "waste"

  @doc-000 @doc-002 @sentence-12 @rule-covering
  Scenario: Each card is covered by the two cards of the row below it
    Given the documents deal
    When I play "KD"
    Then the free pyramid cards are "7C TC 3H 4H 3S 7S"
    When I play "TC+3S"
    Then the free pyramid cards are "7C 3H 4H TS 7S"

  @doc-000 @doc-002 @api @sentence-11 @sentence-14 @sentence-15 @rule-describe @lang-es
  Scenario: The documents' deal described in Spanish, to the letter
    Given the documents deal
    Then the description in "es" is:
      """
      Mazo: 23 cartas; descarte: 7 de diamantes. Fila 1: jota de diamantes; fila 2: 6 de tréboles, 7 de corazones; fila 3: as de picas, 4 de diamantes, reina de picas; fila 4: 5 de corazones, 3 de diamantes, 6 de corazones, 8 de picas; fila 5: rey de corazones, rey de tréboles, as de diamantes, rey de picas, 9 de tréboles; fila 6: reina de tréboles, 2 de tréboles, 8 de diamantes, 10 de diamantes, 10 de picas, jota de picas; fila 7: 7 de tréboles, 10 de tréboles, 3 de corazones, 4 de corazones, 3 de picas, rey de diamantes, 7 de picas.
      """

  @doc-000 @doc-002 @api @sentence-14 @sentence-15 @rule-describe @lang-it
  Scenario: The documents' deal described in Italian, to the letter
    Given the documents deal
    Then the description in "it" is:
      """
      Mazzo di pesca: 23 carte; scarti: 7 di quadri. Fila 1: fante di quadri; fila 2: 6 di fiori, 7 di cuori; fila 3: asso di picche, 4 di quadri, donna di picche; fila 4: 5 di cuori, 3 di quadri, 6 di cuori, 8 di picche; fila 5: re di cuori, re di fiori, asso di quadri, re di picche, 9 di fiori; fila 6: donna di fiori, 2 di fiori, 8 di quadri, 10 di quadri, 10 di picche, fante di picche; fila 7: 7 di fiori, 10 di fiori, 3 di cuori, 4 di cuori, 3 di picche, re di quadri, 7 di picche.
      """

  @doc-000 @doc-002 @api @sentence-14 @sentence-15 @rule-describe @lang-en @lang-fr
  Scenario: The documents' deal described in English and French
    Given the documents deal
    Then the description in "en" is:
      """
      Stock: 23 cards; waste: 7 of diamonds. Row 1: jack of diamonds; row 2: 6 of clubs, 7 of hearts; row 3: ace of spades, 4 of diamonds, queen of spades; row 4: 5 of hearts, 3 of diamonds, 6 of hearts, 8 of spades; row 5: king of hearts, king of clubs, ace of diamonds, king of spades, 9 of clubs; row 6: queen of clubs, 2 of clubs, 8 of diamonds, 10 of diamonds, 10 of spades, jack of spades; row 7: 7 of clubs, 10 of clubs, 3 of hearts, 4 of hearts, 3 of spades, king of diamonds, 7 of spades.
      """
    And the description in "fr" is:
      """
      Talon : 23 cartes ; défausse : 7 de carreau. Rangée 1 : valet de carreau ; rangée 2 : 6 de trèfle, 7 de cœur ; rangée 3 : as de pique, 4 de carreau, dame de pique ; rangée 4 : 5 de cœur, 3 de carreau, 6 de cœur, 8 de pique ; rangée 5 : roi de cœur, roi de trèfle, as de carreau, roi de pique, 9 de trèfle ; rangée 6 : dame de trèfle, 2 de trèfle, 8 de carreau, 10 de carreau, 10 de pique, valet de pique ; rangée 7 : 7 de trèfle, 10 de trèfle, 3 de cœur, 4 de cœur, 3 de pique, roi de carreau, 7 de pique.
      """

  @pyramide-choice @api @rule-describe
  Scenario: An empty waste and an empty row are said to be empty
    Given the easy deal
    When I play "KC AC+QC 2C+JC 3C+TC"
    And I play "draw" 23 times
    And I play "recycle"
    Then the description in "es" is:
      """
      Mazo: 24 cartas; descarte: vacío. Fila 1: rey de picas; fila 2: 6 de diamantes, 7 de diamantes; fila 3: 5 de diamantes, 8 de diamantes, rey de corazones; fila 4: 3 de diamantes, 10 de diamantes, 4 de diamantes, 9 de diamantes; fila 5: rey de diamantes, as de diamantes, reina de diamantes, 2 de diamantes, jota de diamantes; fila 6: 4 de tréboles, 9 de tréboles, 5 de tréboles, 8 de tréboles, 6 de tréboles, 7 de tréboles; fila 7: vacía.
      """

  @doc-000 @doc-002 @api @sentence-14 @rule-describe @lang-es
  Scenario: The description names the waste's top card only
    Given the documents deal
    When I play "draw"
    Then the description in "es" is:
      """
      Mazo: 22 cartas; descarte: as de tréboles. Fila 1: jota de diamantes; fila 2: 6 de tréboles, 7 de corazones; fila 3: as de picas, 4 de diamantes, reina de picas; fila 4: 5 de corazones, 3 de diamantes, 6 de corazones, 8 de picas; fila 5: rey de corazones, rey de tréboles, as de diamantes, rey de picas, 9 de tréboles; fila 6: reina de tréboles, 2 de tréboles, 8 de diamantes, 10 de diamantes, 10 de picas, jota de picas; fila 7: 7 de tréboles, 10 de tréboles, 3 de corazones, 4 de corazones, 3 de picas, rey de diamantes, 7 de picas.
      """

  @pyramide-choice @api @rule-describe @lang-es @lang-it
  Scenario: One card left in the stock is said in the singular
    Given the documents deal
    When I play "draw" 22 times
    Then the description in "es" begins "Mazo: 1 carta; descarte: 6 de picas. Fila 1:"
    And the description in "it" begins "Mazzo di pesca: 1 carta; scarti: 6 di picche. Fila 1:"

  @pyramide-choice @api @rule-describe @lang-it @lang-en @lang-fr
  Scenario: An empty waste and an empty row in Italian, English and French
    Given the easy deal
    When I play "KC AC+QC 2C+JC 3C+TC"
    And I play "draw" 23 times
    And I play "recycle"
    Then the description in "it" is:
      """
      Mazzo di pesca: 24 carte; scarti: vuoto. Fila 1: re di picche; fila 2: 6 di quadri, 7 di quadri; fila 3: 5 di quadri, 8 di quadri, re di cuori; fila 4: 3 di quadri, 10 di quadri, 4 di quadri, 9 di quadri; fila 5: re di quadri, asso di quadri, donna di quadri, 2 di quadri, fante di quadri; fila 6: 4 di fiori, 9 di fiori, 5 di fiori, 8 di fiori, 6 di fiori, 7 di fiori; fila 7: vuota.
      """
    And the description in "en" is:
      """
      Stock: 24 cards; waste: empty. Row 1: king of spades; row 2: 6 of diamonds, 7 of diamonds; row 3: 5 of diamonds, 8 of diamonds, king of hearts; row 4: 3 of diamonds, 10 of diamonds, 4 of diamonds, 9 of diamonds; row 5: king of diamonds, ace of diamonds, queen of diamonds, 2 of diamonds, jack of diamonds; row 6: 4 of clubs, 9 of clubs, 5 of clubs, 8 of clubs, 6 of clubs, 7 of clubs; row 7: empty.
      """
    And the description in "fr" is:
      """
      Talon : 24 cartes ; défausse : vide. Rangée 1 : roi de pique ; rangée 2 : 6 de carreau, 7 de carreau ; rangée 3 : 5 de carreau, 8 de carreau, roi de cœur ; rangée 4 : 3 de carreau, 10 de carreau, 4 de carreau, 9 de carreau ; rangée 5 : roi de carreau, as de carreau, dame de carreau, 2 de carreau, valet de carreau ; rangée 6 : 4 de trèfle, 9 de trèfle, 5 de trèfle, 8 de trèfle, 6 de trèfle, 7 de trèfle ; rangée 7 : vide.
      """
