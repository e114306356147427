@solver
Feature: The solver: winnability, hints and the most removable cards
  «Mientras quede alguna carta que robar o reciclar, la partida continúa, aunque ya no se pueda
  retirar nada: es el caso del reparto PY1-N-AAAAAAJ, en el que nunca se pueden retirar más de 14
  cartas.» The documents do not show that deal's layout, and the app's generator is unpublished, so
  that code cannot be dealt here (docs/deal-codes.md); the solver found PYR1-N-AAAAAHW, where no
  line removes more than 14 pyramid cards. Tagged @solver: it needs POST /v1/solve and
  POST /v1/hint.

  @doc-000 @doc-002 @codes @sentence-39 @rule-goes-on
  Scenario: PYR1-N-AAAAAHW: no line removes more than 14 cards, and the game goes on
    Given a new game from the code "PYR1-N-AAAAAHW"
    When I ask the solver
    Then the deal is unwinnable and at most 14 pyramid cards can be removed
    When I follow the hints until there is none
    Then 14 cards are left in the pyramid
    And the game is playing
    And the legal moves remove no pyramid card

  @doc-000 @doc-002 @sentence-7 @rule-win
  Scenario: The documents' deal is winnable, and its winning line wins
    Given the documents deal
    When I ask the solver
    Then the deal is winnable
    When I play the solver's line
    Then the game is won
    And the score is 280
