@doc-003 @variant-spanish
Feature: The Spanish pyramid (003): the Spanish deck, pairs summing 12, the rey alone
  «Pirámide española: Usa un mazo español de 48 cartas (sin 8s, 9s ni Dieces); los valores de las
  parejas suman 12 en lugar de 13 y los Reyes siguen retirándose solos.» The option `deck`
  `spanish` (code letter `E`); the preset `spanish` (`E`) plays it under the app's rules otherwise.
  A Spanish deck of 48 cards has 1 to 9, sota, caballo and rey in four suits (docs/rules.md says
  why 48, not 40): the sota is worth 10, the caballo 11, the rey 12. Codes: rank `123456789SCR`
  then suit `OR` (oros), `CO` (copas), `ES` (espadas), `BA` (bastos): `SOR` is the sota de oros.
  The pairs are 1 + caballo, 2 + sota, 3 + 9, 4 + 8, 5 + 7 and 6 + 6. `@s003-N` names the
  sentence of 003 a scenario guards (docs/conformance-traceability.md).

  @s003-72 @codes
  Scenario Outline: A game is dealt from the 48 cards of the Spanish deck: <how>
    Given <given>
    Then the pyramid rows have 1, 2, 3, 4, 5, 6 and 7 cards
    And the stock has 19 cards
    And the waste has 1 cards
    And the 48 cards of the Spanish deck are all there, each once

    Examples:
      | how                       | given                                      |
      | a new game, by its preset | a new game from the code "PYR1-E-AAAAAAA"  |
      | a layout                  | the spanish_easy deal under the preset "spanish" |

  @s003-72
  Scenario: A new game under the option deals the Spanish deck
    When I deal a new game under the rules:
      | option | value     |
      | deck   | "spanish" |
    Then the stock has 19 cards
    And the 48 cards of the Spanish deck are all there, each once

  @s003-72
  Scenario Outline: Two free cards summing 12 are removed together: <pair>, <how>
    Given the spanish_easy deal under the preset "spanish"
    When I play "<moves>"
    Then the last move removed "<pair>"
    And the removal scored <points> points
    And the move counter is <counter>
    And no card is selected

    Examples:
      | pair    | how                                 | moves                                      | points | counter |
      | 1BA CBA | 1 + caballo, by a pair move         | 1BA+CBA                                    | 20     | 1       |
      | 1BA CBA | 1 + caballo, by taps                | tap:CBA tap:1BA                            | 20     | 1       |
      | 2BA SBA | 2 + sota, by a pair move            | 2BA+SBA                                    | 20     | 1       |
      | 2BA SBA | 2 + sota, by taps                   | tap:2BA tap:SBA                            | 20     | 1       |
      | 6BA 6CO | 6 + 6, by a pair move               | 6BA+6CO                                    | 20     | 1       |
      | 6BA 6CO | 6 + 6, by taps                      | tap:6CO tap:6BA                            | 20     | 1       |
      | 1CO CBA | the waste's 1 + caballo, by a move  | 1CO+CBA                                    | 10     | 1       |
      | 1CO CBA | the waste's 1 + caballo, by taps    | tap:1CO tap:CBA                            | 10     | 1       |
      | 3BA 9BA | 3 + 9, by a pair move               | RBA 1BA+CBA 2BA+SBA 6BA+6CO 3BA+9BA        | 20     | 5       |
      | 3BA 9BA | 3 + 9, by taps                      | RBA 1BA+CBA 2BA+SBA 6BA+6CO tap:9BA tap:3BA | 20    | 5       |
      | 4BA 8BA | 4 + 8, by a pair move               | RBA 1BA+CBA 2BA+SBA 6BA+6CO 4BA+8BA        | 20     | 5       |
      | 5BA 7BA | 5 + 7, by taps                      | RBA 1BA+CBA 2BA+SBA 6BA+6CO tap:5BA tap:7BA | 20    | 5       |

  @s003-72
  Scenario Outline: Cards summing 13 are not a pair in the Spanish deck: <pair>
    Given the spanish_easy deal under the preset "spanish"
    When I try "<pair>"
    Then the move is refused with "sum_not_12"

    Examples:
      | pair    |
      | 2BA+CBA |
      | 1BA+RBA |
      | 1BA+SBA |

  @s003-72
  Scenario Outline: Cards not summing 12 are not a pair by taps either, error help <help>: <first> then <second>
    Given the spanish_easy deal under the preset "spanish" with error help <help>
    When I play "tap:<first> tap:<second>"
    Then the feedback is "sum_not_12"
    And the selected card is "<second>"
    And 28 cards are left in the pyramid
    And the last move's events are "selected <second>"
    And the move counter is 0

    Examples:
      | help | first | second |
      | on   | 2BA   | CBA    |
      | on   | SBA   | 1CO    |
      | off  | CBA   | 2BA    |
      | off  | 1BA   | SBA    |

  @s003-72 @lang-es @lang-it @lang-en @lang-fr
  Scenario Outline: The sum message says 12 in <language>
    Given the spanish_easy deal under the preset "spanish"
    And the player's language is "<language>"
    When I play "tap:2BA tap:CBA"
    Then the message is "<message>"
    And the selected card is "CBA"

    Examples:
      | language | message                          |
      | es       | La suma debe ser igual a 12      |
      | it       | La somma deve essere uguale a 12 |
      | en       | The sum must equal 12            |
      | fr       | La somme doit être égale à 12    |

  @s003-72
  Scenario: The second card stays selected: a third tap pairs it
    Given the spanish_easy deal under the preset "spanish"
    When I play "tap:2BA tap:CBA"
    Then the feedback is "sum_not_12"
    When I play "tap:1BA"
    Then the last move removed "1BA CBA"
    And the removal scored 20 points
    And no card is selected

  @s003-72
  Scenario Outline: The rey goes alone, for 10 points: <how>
    Given the spanish_easy deal under the preset "spanish"
    When I play "<moves>"
    Then the last move removed "RBA"
    And the removal scored 10 points
    And 27 cards are left in the pyramid
    And the move counter is 1
    And no card is selected

    Examples:
      | how                                | moves           |
      | by a King move                     | RBA             |
      | by one tap                         | tap:RBA         |
      | by one tap, another card selected  | tap:1BA tap:RBA |
      | by one tap, the waste selected     | tap:1CO tap:RBA |

  @s003-72
  Scenario Outline: Only the rey goes alone: <card> is not worth 12 by itself
    Given the spanish_easy deal under the preset "spanish"
    When I try "<card>"
    Then the move is refused with "not_a_king"

    Examples:
      | card |
      | CBA  |
      | SBA  |
      | 1CO  |

  @s003-72
  Scenario: A tap on the caballo selects it, as any card that is not a rey
    Given the spanish_easy deal under the preset "spanish"
    When I play "tap:CBA"
    Then the selected card is "CBA"
    And the last move's events are "selected CBA"
    And 28 cards are left in the pyramid

  @s003-72
  Scenario Outline: A card of the French deck is not in a Spanish game: <move>
    Given the spanish_easy deal under the preset "spanish"
    When I try "<move>"
    Then the move is refused with "card_not_free"

    Examples:
      | move  |
      | KS    |
      | 2C+JC |

  @s003-72
  Scenario Outline: The Spanish pyramid played to a win: 16 moves, 280 points, <how>
    Given the spanish_easy deal under the preset "spanish"
    When I play "<moves>"
    Then the game is won
    And the score is 280
    And the move counter is 16
    And 0 cards are left in the pyramid

    Examples:
      | how     | moves |
      | by moves | RBA 1BA+CBA 2BA+SBA 6BA+6CO 3BA+9BA 4BA+8BA 5BA+7BA ROR 1OR+COR 2OR+SOR 3OR+9OR 4OR+8OR 5OR+7OR RCO 6OR+6ES RES |
      | by taps  | tap:RBA tap:CBA tap:1BA tap:SBA tap:2BA tap:6CO tap:6BA tap:9BA tap:3BA tap:8BA tap:4BA tap:7BA tap:5BA tap:ROR tap:COR tap:1OR tap:SOR tap:2OR tap:9OR tap:3OR tap:8OR tap:4OR tap:7OR tap:5OR tap:RCO tap:6ES tap:6OR tap:RES |

  @s003-72
  Scenario: Undo of a pair summing 12 puts the cards back and takes back its points
    Given the spanish_easy deal under the preset "spanish"
    When I play "RBA 1BA+CBA undo"
    Then the undo took back 20 points
    And the score is 10
    And 27 cards are left in the pyramid
    And the free pyramid cards are "1BA CBA 6BA 6CO 2BA SBA"

  @api @s003-72
  Scenario: The legal moves at the deal: the rey, the pairs summing 12, a draw
    Given the spanish_easy deal under the preset "spanish"
    Then the legal moves are "RBA 1BA+CBA 1CO+CBA 6CO+6BA 2BA+SBA draw"

  @api @s003-72
  Scenario: The sota, the caballo and the bastos by name
    Given the spanish_easy deal under the preset "spanish"
    When I play "RBA 1BA+CBA 2BA+SBA 6BA+6CO 3BA+9BA 4BA+8BA 5BA+7BA ROR"
    Then the description in "es" begins "Mazo: 19 cartas; descarte: as de copas. Fila 1: rey de espadas; fila 2: 6 de oros, 6 de espadas; fila 3: 5 de oros, 7 de oros, rey de copas; fila 4: 3 de oros, 9 de oros, 4 de oros, 8 de oros; fila 5: as de oros, caballo de oros, 2 de oros, sota de oros; fila 6: vacía"

  @api @s003-72
  Scenario: The preset spanish is listed with its rules
    Then the preset "spanish" has the rules:
      | option                 | value     |
      | strict_win             | false     |
      | max_recycles           | null      |
      | drawn_pairs_with_waste | false     |
      | pair_with_covering     | false     |
      | initial_waste          | true      |
      | deck                   | "spanish" |

  @api @codes @s003-72
  Scenario: A code names the Spanish deck by its letter E
    When I deal the code "PYR1-E-AAAAAAA"
    Then the game's rules are:
      | option                 | value     |
      | strict_win             | false     |
      | max_recycles           | null      |
      | drawn_pairs_with_waste | false     |
      | pair_with_covering     | false     |
      | initial_waste          | true      |
      | deck                   | "spanish" |
    And the 48 cards of the Spanish deck are all there, each once

  @api @codes @s003-72
  Scenario: A Spanish layout's code deals the same cards again
    Given the spanish_easy deal under the preset "spanish"
    When I deal the game's own code again
    Then the same cards are dealt

  @api @s003-72
  Scenario Outline: A layout of the other deck is no deal: <what>
    When I deal the <deal> deal under the preset "<preset>"
    Then the request is refused with status 422 and "invalid_layout"
    And the reason given for "layout" is "not_in_deck"

    Examples:
      | what                                      | deal         | preset  |
      | the French documents' deal, Spanish rules | documents    | spanish |
      | a Spanish deal under the app's rules      | spanish_easy | pyramide |

  @api @s003-72
  Scenario Outline: A Spanish layout with a card more is no deal: <card>
    When I deal the spanish_easy deal under the preset "spanish" with "<card>" added to the stock
    Then the request is refused with status 422 and "invalid_layout"
    And the reason given for "layout" is "<reason>"

    Examples:
      | card | reason      |
      | 7D   | not_in_deck |
      | 7CO2 | not_in_deck |
      | 7CO  | duplicate   |

  @s003-72
  Scenario Outline: A rey on the waste goes alone too, for no points: <how>
    When I deal the spanish_easy deal under the preset "spanish" with "1CO" and "RBA" swapped
    And I play "<moves>"
    Then the last move removed "RBA"
    And the removal scored 0 points
    And the waste is empty
    And no card is selected

    Examples:
      | how            | moves   |
      | by a King move | RBA     |
      | by one tap     | tap:RBA |

  @api @s003-72 @lang-es
  Scenario: A pair move not summing 12 is refused with the message saying 12
    Given the spanish_easy deal under the preset "spanish"
    And the player's language is "es"
    When I try "2BA+CBA"
    Then the move is refused with "sum_not_12"
    And the message is "La suma debe ser igual a 12"

  @api @s003-72
  Scenario Outline: The whole board described with the Spanish deck's names: <language>
    Given the spanish_easy deal under the preset "spanish"
    Then the description in "<language>" begins "<text>"

    Examples:
      | language | text |
      | es       | Mazo: 19 cartas; descarte: as de copas. Fila 1: rey de espadas; fila 2: 6 de oros, 6 de espadas; fila 3: 5 de oros, 7 de oros, rey de copas; fila 4: 3 de oros, 9 de oros, 4 de oros, 8 de oros; fila 5: rey de oros, as de oros, caballo de oros, 2 de oros, sota de oros; fila 6: 3 de bastos, 9 de bastos, 4 de bastos, 8 de bastos, 5 de bastos, 7 de bastos; fila 7: rey de bastos, as de bastos, caballo de bastos, 6 de bastos, 6 de copas, 2 de bastos, sota de bastos. |
      | en       | Stock: 19 cards; waste: ace of cups. Row 1: king of swords; row 2: 6 of coins, 6 of swords; row 3: 5 of coins, 7 of coins, king of cups; row 4: 3 of coins, 9 of coins, 4 of coins, 8 of coins; row 5: king of coins, ace of coins, knight of coins, 2 of coins, knave of coins; row 6: 3 of batons, 9 of batons, 4 of batons, 8 of batons, 5 of batons, 7 of batons; row 7: king of batons, ace of batons, knight of batons, 6 of batons, 6 of cups, 2 of batons, knave of batons. |
      | it       | Mazzo di pesca: 19 carte; scarti: asso di coppe. Fila 1: re di spade; fila 2: 6 di denari, 6 di spade; fila 3: 5 di denari, 7 di denari, re di coppe; fila 4: 3 di denari, 9 di denari, 4 di denari, 8 di denari; fila 5: re di denari, asso di denari, cavallo di denari, 2 di denari, fante di denari; fila 6: 3 di bastoni, 9 di bastoni, 4 di bastoni, 8 di bastoni, 5 di bastoni, 7 di bastoni; fila 7: re di bastoni, asso di bastoni, cavallo di bastoni, 6 di bastoni, 6 di coppe, 2 di bastoni, fante di bastoni. |
      | fr       | Talon : 19 cartes ; défausse : as de coupes. Rangée 1 : roi d’épées ; rangée 2 : 6 de deniers, 6 d’épées ; rangée 3 : 5 de deniers, 7 de deniers, roi de coupes ; rangée 4 : 3 de deniers, 9 de deniers, 4 de deniers, 8 de deniers ; rangée 5 : roi de deniers, as de deniers, cavalier de deniers, 2 de deniers, valet de deniers ; rangée 6 : 3 de bâtons, 9 de bâtons, 4 de bâtons, 8 de bâtons, 5 de bâtons, 7 de bâtons ; rangée 7 : roi de bâtons, as de bâtons, cavalier de bâtons, 6 de bâtons, 6 de coupes, 2 de bâtons, valet de bâtons. |

  @codes @s003-72
  Scenario: A Spanish code deals the cards its specification gives: oros 1…R, copas, espadas, bastos, shuffled
    When I deal the code "PYR1-E-AAAAAAA"
    Then the cards dealt, the pyramid row by row, then the waste, then the stock from its top, are "7BA 9ES ROR 2ES 5CO SES 5OR 8CO CCO 3ES 6ES RES 6OR 3BA SOR 1OR CES 3OR 2CO 3CO 7ES 8BA 1BA 2OR 9CO 8OR 4ES 2BA RCO CBA 1CO 6CO 4OR 1ES 5BA 7CO 5ES 9BA SBA 4CO COR SCO 9OR 7OR 8ES 6BA 4BA RBA"

  @s003-72
  Scenario: With no recycle left and the stock drawn out, the game goes on while 6 + 6 is left
    Given the spanish_easy deal under the rules:
      | option       | value     |
      | deck         | "spanish" |
      | max_recycles | 0         |
    When I play "RBA 1BA+CBA 2BA+SBA 3BA+9BA ROR"
    And I play "draw" 19 times
    Then the game is playing
    And the events do not include "blocked"

  @codes @s003-72 @s003-69 @s003-55 @variant-apophis @variant-strict-win
  Scenario: Strict victory under Apophis with the Spanish deck: a lone 6 left to draw does not pair with itself, so the game is over
    Given a new game from the code "PYR1-AEST-CPYFRJS"
    When I play "3CO+9BA draw@1 draw@1 draw@2 2OR+SCO 9OR+3BA draw@2 draw@2 7OR+5ES draw@3 1OR+CBA RES 5CO+7BA draw@1 draw@1 draw@2 draw@3 RCO draw@2 4CO+8CO RBA draw@3 draw@2 1CO+CCO 6OR+6ES draw@3 2CO+SES draw@3 draw@1 draw@2 draw@1 3ES+9ES draw@2 7CO+5BA draw@1"
    Then the game is playing
    When I play "2BA+SBA"
    Then the waste piles, from their tops, are "6BA 4BA", "9CO" and "1ES 1BA"
    And the game is blocked
    And the events include "blocked"
