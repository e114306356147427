@app-rules
Feature: Las cartas libres / Le carte libere
  «Una carta de la pirámide está libre cuando se han retirado las dos cartas que la cubren. Al
  empezar, solo lo están las 7 cartas de la fila inferior. La carta superior del descarte también
  está libre; las demás cartas del descarte deben esperar. Tocar una carta cubierta, como el D♣ de
  la fila 6 al empezar, no hace nada; con la ayuda para errores activada, la aplicación muestra
  «Esta carta está bloqueada por otra».»

  @doc-000 @doc-002 @sentence-18 @rule-free-cards
  Scenario: At the start only the 7 cards of the bottom row are free, by taps
    Given the documents deal
    Then the free pyramid cards are "7C TC 3H 4H 3S KD 7S"

  @doc-000 @doc-002 @sentence-18 @rule-free-cards
  Scenario: At the start only the 7 cards of the bottom row are free, by moves
    Given the documents deal
    Then the pyramid cards a move can take are "7C TC 3H 4H 3S KD 7S"

  @doc-000 @doc-002 @sentence-12 @sentence-17 @rule-free-cards
  Scenario: A card is free once both cards covering it are removed, not when one is, by moves
    Given the documents deal
    When I play "KD"
    Then the pyramid cards a move can take are "7C TC 3H 4H 3S 7S"
    When I play "TC+3S"
    Then the pyramid cards a move can take are "7C 3H 4H TS 7S"

  @doc-000 @doc-002 @sentence-17 @rule-free-cards
  Scenario: A card is free once both cards covering it are removed, not when one is
    Given the documents deal
    When I play "KD"
    Then the free pyramid cards are "7C TC 3H 4H 3S 7S"
    When I play "TC+3S"
    Then the free pyramid cards are "7C 3H 4H TS 7S"

  @doc-000 @doc-002 @sentence-17 @rule-free-cards
  Scenario Outline: A card with one covering card left cannot be paired: <how>
    Given the documents deal
    When I try "KD <moves>"
    Then the move is refused with "card_blocked"

    Examples:
      | how               | moves |
      | by a pair move    | TS+3H |
      | in the other order| 3H+TS |

  @doc-000 @doc-002 @sentence-17 @sentence-20 @rule-free-cards
  Scenario Outline: A card with one covering card left cannot be paired by taps, error help <help>
    Given the documents deal with error help <help>
    When I try "KD tap:3H tap:TS"
    Then nothing changes
    And the selected card is "3H"
    And the feedback code is <feedback>

    Examples:
      | help | feedback     |
      | on   | card_blocked |
      | off  | none         |

  @doc-000 @doc-002 @sentence-17 @rule-free-cards
  Scenario Outline: Once both covering cards are removed, the card pairs: <how>
    Given the documents deal
    When I play "KD TC+3S <moves>"
    Then the last move removed "TS 3H"
    And the removal scored 20 points
    And 23 cards are left in the pyramid

    Examples:
      | how                         | moves         |
      | by a pair move              | TS+3H         |
      | by tapping the freed card   | tap:TS tap:3H |
      | by tapping it second        | tap:3H tap:TS |

  @doc-000 @doc-002 @sentence-17 @rule-free-cards
  Scenario Outline: The top card of the pyramid with one of its two covers gone is not free: <how>
    Given the apex deal
    When I play "AC+QC 2C+JC 3C+TC 4C+9C 5C+8C KC 6C+7C AD+QD 2D+JD KD 3D+TD KH"
    And I try "<moves>"
    Then the move is refused with "card_blocked"
    And 7 cards are left in the pyramid

    Examples:
      | how                    | moves |
      | by a pair move         | 2H+JS |
      | in the other order     | JS+2H |

  @doc-000 @doc-002 @sentence-17 @sentence-20 @rule-free-cards
  Scenario Outline: The top card of the pyramid with one of its two covers gone is not free, by taps: <moves>
    Given the apex deal
    When I play "AC+QC 2C+JC 3C+TC 4C+9C 5C+8C KC 6C+7C AD+QD 2D+JD KD 3D+TD KH"
    And I try "<moves>"
    Then nothing changes
    And the feedback is "card_blocked"

    Examples:
      | moves         |
      | tap:2H        |
      | tap:JS tap:2H |

  @doc-000 @doc-002 @sentence-17 @rule-free-cards
  Scenario: A card covered by two cards cannot be paired, even with a free card that sums 13
    Given the documents deal
    When I try "TD+3H"
    Then the move is refused with "card_blocked"

  @doc-000 @doc-002 @sentence-5 @sentence-19 @rule-waste-top
  Scenario Outline: The top card of the waste is free: <how>
    Given the documents deal
    When I play "draw draw <moves>"
    Then the last move removed "3C TC"
    And the removal scored 10 points
    And the waste top is "AC"

    Examples:
      | how                          | moves         |
      | by a pair move               | 3C+TC         |
      | tapping the waste top first  | tap:3C tap:TC |
      | tapping the pyramid first    | tap:TC tap:3C |

  @doc-000 @doc-002 @sentence-19 @rule-waste-top
  Scenario Outline: The other cards of the waste wait: <how>
    Given the documents deal
    When I try "<moves>"
    Then the move is refused with "card_not_free"

    Examples:
      | how                                     | moves                          |
      | the second card, by a pair move         | draw draw draw 3C+TC           |
      | the third card, by a pair move          | draw draw draw draw 3C+TC      |
      | the second card, tapped                 | draw draw draw tap:3C          |
      | the second card, tapped after its pair  | draw draw draw tap:TC tap:3C   |
      | the third card, tapped                  | draw draw draw draw tap:3C     |

  @doc-000 @doc-002 @sentence-20 @rule-blocked-card
  Scenario Outline: A move with a covered card, as the Q♣ of row 6 at the start, is refused and changes nothing: <how>
    Given the documents deal
    When I try "<move>"
    Then the move is refused with "card_blocked"
    And the refused move left the game as it was

    Examples:
      | how                                   | move  |
      | the Q♣ of row 6 with the A♦ of row 5  | QC+AD |
      | the A♦ of row 5 with the Q♣ of row 6  | AD+QC |
      | the K♣ of row 5, a King alone         | KC    |

  @doc-000 @doc-002 @sentence-20 @rule-blocked-card @lang-es
  Scenario Outline: Tapping a covered card does nothing; with error help it says why (es), <selection>
    Given the documents deal
    And the player's language is "es"
    When I try "<taps>"
    Then nothing changes
    And the feedback is "card_blocked"
    And the message is "Esta carta está bloqueada por otra"

    Examples:
      | selection            | taps          |
      | nothing selected     | tap:QC        |
      | a card selected      | tap:7S tap:QC |
      | its pair selected    | tap:3H tap:TD |

  @doc-000 @doc-002 @sentence-20 @rule-blocked-card @lang-it
  Scenario: Tapping a covered card does nothing; with error help it says why (it)
    Given the documents deal
    And the player's language is "it"
    When I try "tap:QC"
    Then nothing changes
    And the message is "Questa carta è bloccata da un’altra"

  @doc-000 @doc-002 @sentence-20 @rule-blocked-card @lang-en @lang-fr
  Scenario Outline: Tapping a covered card says why in <language>
    Given the documents deal
    And the player's language is "<language>"
    When I try "tap:QC"
    Then nothing changes
    And the feedback is "card_blocked"
    And the message is "<message>"

    Examples:
      | language | message                               |
      | en       | This card is blocked by another one   |
      | fr       | Cette carte est bloquée par une autre |

  @doc-000 @doc-002 @sentence-20 @rule-blocked-card
  Scenario Outline: Without error help, tapping a covered card does nothing and says nothing, <selection>
    Given the documents deal with error help off
    When I try "<taps>"
    Then nothing changes
    And there is no feedback

    Examples:
      | selection                  | taps                      |
      | nothing selected           | tap:QC                    |
      | a card selected            | tap:7S tap:QC             |
      | after a draw               | draw tap:QC               |
      | after a removal and undo   | KD undo tap:QC            |
      | after a recycle            | draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw recycle tap:QC |

  @api @rule-blocked-card @lang-es @lang-it
  Scenario Outline: The answer says the language of its message: <language>
    Given the documents deal
    And the player's language is "<language>"
    When I try "tap:QC"
    Then the reply is in "<language>"

    Examples:
      | language |
      | es       |
      | it       |

  @doc-000 @doc-002 @sentence-17 @sentence-33 @rule-free-cards
  Scenario: The waste top does not pair with a covered pyramid card, by a pair move
    Given the documents deal
    When I try "7D+6H"
    Then the move is refused with "card_blocked"

  @doc-000 @doc-002 @sentence-17 @sentence-20 @sentence-33 @rule-free-cards
  Scenario Outline: The waste top does not pair with a covered pyramid card, by taps, error help <help>
    Given the documents deal with error help <help>
    When I try "tap:7D tap:6H"
    Then nothing changes
    And the selected card is "7D"
    And the feedback code is <feedback>

    Examples:
      | help | feedback     |
      | on   | card_blocked |
      | off  | none         |

  @doc-000 @doc-002 @sentence-17 @rule-free-cards
  Scenario: The top card of the pyramid waits for its two covering cards too, by a pair move
    Given the documents deal
    When I play "draw" 7 times
    Then the waste top is "2D"
    When I try "JD+2D"
    Then the move is refused with "card_blocked"

  @doc-000 @doc-002 @sentence-17 @sentence-20 @rule-free-cards
  Scenario: The top card of the pyramid waits for its two covering cards too, by taps
    Given the documents deal
    When I play "draw" 7 times
    And I try "tap:2D tap:JD"
    Then nothing changes
    And the feedback is "card_blocked"
    And the selected card is "2D"
