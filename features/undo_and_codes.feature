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
    And I play "undo"
    Then the waste top is "7D"
    And the stock has 23 cards
    And the undo took back the points that move scored
    And the move counter is 3
    When I play "undo"
    Then the undo took back the points that move scored
    And 27 cards are left in the pyramid
    And the move counter is 3
    When I play "undo"
    Then the cards are where they were when noted
    And the score is what it was when noted
    And the move counter is 3
    And the events include "undone"

  @doc-000 @doc-002 @sentence-48 @sentence-49 @rule-undo
  Scenario Outline: Undo takes back <action>, and only it
    Given the <deal> deal
    When I play "<before>"
    And I note the game
    And I play "<move>"
    And I play "undo"
    Then the cards are where they were when noted
    And the score is what it was when noted
    And the move counter is <moves>
    And the events include "undone"

    Examples:
      | action                        | deal      | before        | move      | moves |
      | a pair of the pyramid         | documents | KD            | TC+3S     | 2     |
      | a pair of the pyramid, tapped | documents | KD tap:3S     | tap:TC    | 2     |
      | a pair with the waste         | easy      | KC            | AH+QC     | 2     |
      | a pair with the waste, tapped | easy      | KC tap:QC     | tap:AH    | 2     |
      | a King of the pyramid         | documents | TC+3S         | KD        | 2     |
      | a King of the pyramid, tapped | documents | TC+3S tap:7C  | tap:KD    | 2     |
      | a King of the waste           | draining  | QC+AC draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw | KC | 22 |
      | a King of the waste, tapped   | draining  | QC+AC draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw | tap:KC | 22 |
      | a draw                        | documents | KD            | draw      | 2     |
      | a draw, tapped                | documents | KD            | tap:stock | 2     |

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
    And the score went down by 10
    When I play "undo"
    Then 28 cards are left in the pyramid
    And the score went down by 10
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
    Then the stock has 23 cards
    When I play "undo"
    Then the cards are where they were when noted
    And the score is what it was when noted
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
    And the score is what it was when noted
    And 25 cards are left in the pyramid
    And the move counter is 102
    When I try "undo"
    Then the move is refused with "nothing_to_undo"

  @doc-000 @doc-002 @sentence-48 @rule-undo
  Scenario: An undo at the start of a game, with no action to take back, is refused, the game as it was
    Given the documents deal
    When I try "undo"
    Then the move is refused and the game is as it was

  @api @rule-undo
  Scenario: Nothing to undo at the start of a game
    Given the documents deal
    When I try "undo"
    Then the move is refused with "nothing_to_undo"

  @api @rule-undo
  Scenario: Undo takes the cards back from the foundation, the last removed first
    Given the documents deal
    When I play "KD TC+3S"
    Then the foundation is "KD TC 3S"
    When I play "undo"
    Then the foundation is "KD"
    When I play "undo"
    Then the foundation is empty

  @doc-000 @doc-002 @sentence-48 @sentence-49 @rule-undo @variant-strict-win
  Scenario: Undo puts the top card of the pyramid back in its place
    Given the fifteen_drawn deal with "strict_win" set to true
    When I play "KS AC+QC 2C+JC 3C+TC 4C+9C 5C+8C 6C+7C AD+QD 2D+JD 3D+TD 4D+9D 5D+8D 6D+7D AH+QH draw KH"
    Then 0 cards are left in the pyramid
    When I play "undo"
    Then 1 cards are left in the pyramid
    And the free pyramid cards are "KH"
    And the waste top is "JH"
    And the undo took back the points that move scored

  @api @rule-undo
  Scenario Outline: The undo history says where each card came from, and undo names the action: <action>
    Given the documents deal
    When I play "<moves>"
    Then the last action of the undo history is "<action>"
    When I play "undo"
    Then the undone action is "<action>"
    And the undo took back <points> points

    Examples:
      | moves           | action        | points |
      | KD              | KD@7.6        | 10     |
      | KD TC+3S        | TC@7.2+3S@7.5 | 20     |
      | draw draw 3C+TC | 3C@W+TC@7.2   | 10     |
      | draw            | draw          | 0      |
      | draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw draw recycle | recycle | 0 |

  @api @rule-undo @variant-drawn-pairs-with-waste
  Scenario: The undo history writes the card beneath the waste top as W2
    Given the dealt_draw deal with "drawn_pairs_with_waste" set to true
    When I play "draw AC+QD"
    Then the last action of the undo history is "AC@W+QD@W2"
    When I play "undo"
    Then the undone action is "AC@W+QD@W2"
    And the waste top is "AC"

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
  Scenario: The documents' code PY1-N-AAAAAAS deals the documents' deal, where their two moves play
    Given the documents deal
    When I deal the code "PY1-N-AAAAAAS" again
    Then the same cards are dealt
    And the game's code is "PY1-N-AAAAAAS"
    When I play "KD TC+3S"
    Then the score is 30

  @codes @rule-code
  Scenario Outline: Pasting the code deals exactly the same cards again: <code>
    Given a new game from the code "<code>"
    When I deal the code "<code>" again
    Then the same cards are dealt

    Examples:
      | code           |
      | PY1-N-AAAAAAS  |
      | PYR1-N-AAAAAAS |

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
    (The last example is 52! in base 26, one past the last full-layout code, ZHMEDIR…ZIQHZZZZ, which
    deals the 52 cards in reverse order below.)
    When I deal the code "<code>"
    Then the request is refused with status 422 and "invalid_code"
    And the reason given for "code" is "<reason>"

    Examples:
      | code           | reason       |
      | PYR1-NAAAAAAS  | format       |
      | PYR1-N-AAAAAAS-A | format     |
      | PYR1-N-AAAAAA  | length       |
      | PY1-N-AAAAAA   | length       |
      | PY2-N-AAAAAAS  | prefix       |
      | PYR2-N-AAAAAAS | prefix       |
      | PYR1-X-AAAAAAS | rules        |
      | PY1-X-AAAAAAS  | rules        |
      | PYR1-N-AAAAAA1 | letters      |
      | PYR1-10000-AAAAAAS | rules    |
      | PYR1-N-ZHMEDIRAFWRLDAFOVSIGBJJLWCJVLOUXWNPDRDURZIQIAAAA | layout_range |

  @codes @rule-code @variant-limited-passes
  Scenario: A code's recycle limit takes up to four digits: 9999 deals, and the game's code says it again
    When I deal the code "PYR1-9999-AAAAAAA"
    Then the game's code begins "PYR1-9999-"

  @api @codes @rule-code
  Scenario Outline: A code whose rules segment names no rule set is refused, its message naming the segment and the letters: <code>
    (The message is Pyramide's, listing every letter of its variants: `@api`.)
    When I deal the code "<code>"
    Then the request is refused with status 422 and "invalid_code"
    And the message is "Unknown rules “<segment>”: N, or the letters A C D E K P S T U W in that order then a recycle limit"

    Examples:
      | code             | segment |
      | PYR1-X-AAAAAAS   | X       |
      | PYR1-TS-AAAAAAS  | TS      |
      | PYR1-S01-AAAAAAS | S01     |

  @codes @rule-code
  Scenario Outline: An app code whose deal cannot be reproduced is refused, never dealt as another deal: <code>
    When I deal the code "<code>"
    Then the request is refused with status 422 and "app_code"

    Examples:
      | code             |
      | PY1-N-AAAAAAJ    |
      | PY1-N-AAAAAHW    |
      | PY1-S-AAAAAAS    |
      | PY1-DST0-QWERTYU |
      | py1-n-aaaaaaj    |

  @codes @rule-code
  Scenario Outline: A code deals the cards its specification gives: <code>
    When I deal the code "<code>"
    Then the cards dealt, the pyramid row by row, then the waste, then the stock from its top, are "<deck>"

    Examples:
      | code | deck |
      | PYR1-N-AAAAAAA | KC 8D TD 6H AD 9H 5H TS QC 4S KD 8H 4H JH 4D JC 6S 5C 8S 7H KH 3S 2H 2S 8C 9C TC 7S AH 4C 3C 5D AC 9D AS 6C 6D 3H 2C 2D 9S KS QH JS QD TH 7D QS 3D 5S 7C JD |
      | PYR1-N-ZZZZZZZ | 2S 4C 6D AD 5S AH 2H TD QS 8C AS 3S 6C 2C 2D 3D QD TS 9S 9C KS JS 7D 4H 7H 4S 7S JC JH JD AC 9H TH 5D TC 8D 6S KC 4D KH 3C 5H 6H KD 8H 5C 7C QC QH 8S 3H 9D |
      | PYR1-DST0-AAAAAAS | KH AS 8C 8D TC 3H 3S 4H AD 9H 8S 7H JC 7S QH 5S TS 5H 9C 6D JS 5C 6S KC QC KD AH 2H JH TH 8H 6C 3C 7D QD 2D 4C 9S 4D AC 3D QS 2S TD 6H 9D 2C 5D KS 7C 4S JD |
      | PYR1-CDST2-QWERTYU | 8D 6D 9S KD 7C 3S 3D 5S KH TS 3H JH 6C JD 9H 2D 4C AH KC TD 2S 5C JS 3C 4H TC 2H QH JC QC 7D 7S 8C 6S 2C 7H 9D AD AS 6H 8S AC 9C KS QS 4D 5D 4S TH 5H 8H QD |
      | PYR1-N-ZHMEDIRAFWRLDAFOVSIGBJJLWCJVLOUXWNPDRDURZIQHZZZZ | KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S AS KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H AH KD QD JD TD 9D 8D 7D 6D 5D 4D 3D 2D AD KC QC JC TC 9C 8C 7C 6C 5C 4C 3C 2C AC |
      | PY1-N-AAAAAAS | JD 6C 7H AS 4D QS 5H 3D 6H 8S KH KC AD KS 9C QC 2C 8D TD TS JS 7C TC 3H 4H 3S KD 7S 7D AC 3C 4C 5C 8C JC 2D 5D 6D 9D QD AH 2H 8H 9H TH JH QH 2S 4S 5S 6S 9S |

  @api @codes @rule-code
  Scenario Outline: A PySolFC game number deals what PySolFC's Pyramid deals for it: <code>
    (`PYSOLFC-<rules>-<n>`, Pyramide's API: Microsoft's generator below 32000, Mersenne Twister
    from 32000 on, up to 20 digits, under any rules of PySolFC's shape; the cards are those
    pysol-cards deals, `tests/engine/test_pysolfc.py`.)
    When I deal the code "<code>"
    Then the cards dealt, the pyramid row by row, then the waste, then the stock from its top, are "<deck>"
    And the game's code is "<code>"

    Examples:
      | code | deck |
      | PYSOLFC-DS2-1 | JD 2D 9H JC 5D 7H 7C 5H KD KC 9S 5S AD QC KH 3H 2S KS 9D QD JS AS AH 3C 4C 5C TS QH 4H AC 4D 7S 3S TD 4S TH 8H 2C JH 7D 6D 8S 8D QS 6C 3D 8C TC 6S 9C 2H 6H |
      | PYSOLFC-DS2-1234 | 4C 3D 3S TC 5C KH AH 8C 3C 5D TD 7H KD 2D QC TH JS 2C 7C JC 8D 9H 9D 6D 7S 9S KC AC JH 7D KS 8H AS 2S 4S AD 6H 4H 4D QH 8S 6C 9C 2H 5S QS JD TS QD 6S 5H 3H |
      | PYSOLFC-D2-31999 | JD JH AD QH KH 6S 6D JC AC TH AS 8H 9D 2H 8D 6H AH 7H 7C 5D 7S 6C QC JS 9C 3D 5C 4C 2S 8S 3C 7D 5H 8C 4H TD TS 3H 4S KC TC 4D 9S 2C KD 9H KS 5S QS 2D QD 3S |
      | PYSOLFC-DS2-32000 | 7S 4D JS 8D 6D 3H 3D TH JC 3C 2C 5S 9D AC 9C 2S 4H 6S 8S 9S TS 9H KD QD 6H 7D 5H QS AD QH TC 4C AH JD 4S JH TD 3S 7H 8C 6C 2H 2D 5D KS QC KH 5C 7C 8H KC AS |
      | PYSOLFC-N-99999999999999999999 | KS JC TD 5C 2S 2C 3S 9D 4H 7S 4D 2H 8D 4C 3D QH 5S 5H 8H 9S 8C 9H 7C AC 6D KD KC QC 4S 3H 6H TC JS AD QS AH 7D QD 8S 5D TH AS 9C 7H 3C JH JD 6S 2D 6C KH TS |

  @api @codes @rule-code
  Scenario: A PySolFC game number is read as PySolFC shows it, 20 digits, and written without its leading zeros
    Given a new game from the code "PYSOLFC-DS2-1234"
    When I deal the code "PySolFC-DS2-00000000000000001234" again
    Then the same cards are dealt
    And the game's code is "PYSOLFC-DS2-1234"

  @api @codes @rule-code
  Scenario Outline: A PySolFC code that names no PySolFC deal is refused: <code>
    When I deal the code "<code>"
    Then the request is refused with status 422 and "invalid_code"
    And the reason given for "code" is "<reason>"

    Examples:
      | code                               | reason         |
      | PYSOLFC-DS2-0                      | pysolfc_number |
      | PYSOLFC-DS2-100000000000000000000  | pysolfc_number |
      | PYSOLFC-DS2-12A                    | pysolfc_number |
      | PYSOLFC-DS2-MS123                  | pysolfc_number |
      | PYSOLFC-T-5                        | pysolfc_rules  |
      | PYSOLFC-KT-5                       | pysolfc_rules  |
      | PYSOLFC-AT2-5                      | pysolfc_rules  |
      | PYSOLFC-E-5                        | pysolfc_rules  |
      | PYSOLFC-P-5                        | pysolfc_rules  |
      | PYSOLFC-X-5                        | rules          |

  @api @codes @rule-code
  Scenario Outline: A PySolFC code's refusal names the number or the rules: <code>
    When I deal the code "<code>"
    Then the request is refused with status 422 and "invalid_code"
    And the message is "<message>"

    Examples:
      | code          | message |
      | PYSOLFC-DS2-0 | PySolFC game number “0” is not a whole number from 1 to 99999999999999999999 |
      | PYSOLFC-T-5   | The rules “T” do not deal as PySolFC’s Pyramid does (a 52-card deck, 7 rows, one card turned onto one waste pile, drawing one card at a time): a PySolFC game number cannot be dealt under them |

  @codes @rule-code
  Scenario: An explicit deal's code is its full-layout code
    Given the documents deal
    Then the game's code is "PYR1-N-LGFBVEIAREUFYOAGOYQHHXEDBLDNSHTXQTVLZPWKGFNXLOAA"

  @codes @rule-code
  Scenario: An old full-layout code PY1-… still deals its cards, under its code PYR1-…
    Given the documents deal
    When I deal the code "PY1-N-LGFBVEIAREUFYOAGOYQHHXEDBLDNSHTXQTVLZPWKGFNXLOAA" again
    Then the same cards are dealt
    And the game's code is "PYR1-N-LGFBVEIAREUFYOAGOYQHHXEDBLDNSHTXQTVLZPWKGFNXLOAA"

  @api @rule-code
  Scenario: A code names its own rules: a code with rules is refused
    When I deal the code "PY1-N-AAAAAAS" under the rules:
      | option     | value |
      | strict_win | true  |
    Then the request is refused with status 422 and "conflicting_deal"
    And the refusal names the field "code"

  @codes @rule-code
  Scenario Outline: A deal's code names its rules: <option> <value> is "<letters>"
    Given the easy deal with "<option>" set to <value>
    Then the game's code begins "PYR1-<letters>-"

    Examples:
      | option                 | value | letters |
      | strict_win             | false | N       |
      | strict_win             | true  | S       |
      | pair_with_covering     | true  | C       |
      | drawn_pairs_with_waste | true  | D       |
      | initial_waste          | false | T       |
      | unlimited_undo         | true  | U       |
      | notify_unwinnable      | true  | W       |
      | max_recycles           | 0     | 0       |
      | max_recycles           | 12    | 12      |

  @codes @rule-code
  Scenario: A deal's code names its rules in order: the traditional game is "DST0"
    Given the easy deal under the rules:
      | option                 | value |
      | strict_win             | true  |
      | max_recycles           | 0     |
      | drawn_pairs_with_waste | true  |
      | initial_waste          | false |
    Then the game's code begins "PYR1-DST0-"

  @api @rule-code
  Scenario: The 004 app's rules are named by its code, and come back from it whole
    Given the easy deal under the preset "unlimited-undo"
    Then the game's code begins "PYR1-TUW-"
    And the game's rules are:
      | option                 | value |
      | strict_win             | false |
      | max_recycles           | null  |
      | drawn_pairs_with_waste | false |
      | pair_with_covering     | false |
      | initial_waste          | false |
      | unlimited_undo         | true  |
      | notify_unwinnable      | true  |
    When I play "draw"
    Then the game's rules are:
      | option                 | value |
      | strict_win             | false |
      | max_recycles           | null  |
      | drawn_pairs_with_waste | false |
      | pair_with_covering     | false |
      | initial_waste          | false |
      | unlimited_undo         | true  |
      | notify_unwinnable      | true  |

  @codes @rule-code
  Scenario: A pasted code is trimmed and read in any case
    When I deal the code " pyr1-dst0-aaaaaas "
    Then the game's code is "PYR1-DST0-AAAAAAS"
