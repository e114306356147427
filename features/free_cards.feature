@doc-000 @doc-002 @app-rules
Feature: Las cartas libres / Le carte libere
  «Una carta de la pirámide está libre cuando se han retirado las dos cartas que la cubren. Al
  empezar, solo lo están las 7 cartas de la fila inferior. La carta superior del descarte también
  está libre; las demás cartas del descarte deben esperar. Tocar una carta cubierta, como el D♣ de
  la fila 6 al empezar, no hace nada; con la ayuda para errores activada, la aplicación muestra
  «Esta carta está bloqueada por otra».»

  Background:
    Given the documents deal

  @rule-free-cards
  Scenario: At the start only the 7 cards of the bottom row are free
    Then the free pyramid cards are "7C TC 3H 4H 3S KD 7S"

  @rule-free-cards
  Scenario: A card is free once both cards covering it are removed
    When I play "KD"
    Then the free pyramid cards are "7C TC 3H 4H 3S 7S"
    When I play "TC+3S"
    Then the free pyramid cards are "7C 3H 4H TS 7S"

  @rule-free-cards
  Scenario: A covered card cannot be paired
    When I try "QC+AS"
    Then the move is refused with "card_blocked"

  @rule-waste-top
  Scenario: The top card of the waste is free, the others wait
    When I play "draw"
    Then the waste top is "AC"
    When I try "7D+6H"
    Then the move is refused with "card_not_free"

  @rule-blocked-card @lang-es
  Scenario: Tapping a covered card does nothing; with error help it says why (es)
    Given the player's language is "es"
    When I try "tap:QC"
    Then nothing changes
    And the feedback is "card_blocked"
    And the message is "Esta carta está bloqueada por otra"
    And the reply is in "es"

  @rule-blocked-card @lang-it
  Scenario: Tapping a covered card does nothing; with error help it says why (it)
    Given the player's language is "it"
    When I try "tap:QC"
    Then nothing changes
    And the message is "Questa carta è bloccata da un’altra"

  @rule-blocked-card @lang-en @lang-fr
  Scenario Outline: Tapping a covered card says why in <language>
    Given the player's language is "<language>"
    When I try "tap:QC"
    Then nothing changes
    And the feedback is "card_blocked"
    And the message is "<message>"

    Examples:
      | language | message                               |
      | en       | This card is blocked by another one   |
      | fr       | Cette carte est bloquée par une autre |

  @rule-blocked-card
  Scenario: Without error help, tapping a covered card does nothing and says nothing
    Given the documents deal with error help off
    When I try "tap:QC"
    Then nothing changes
    And there is no feedback
