"""The deal the rule documents play, transcribed.

«En el reparto PY1-N-AAAAAAS, el primer movimiento retira el R♦ de la fila inferior y el segundo la
pareja 10♣ + 3♠.» The documents show its pyramid and waste card but not the order of its 23-card
stock, and do not publish the generator behind the app's codes. So this is the deal the app's code
``PY1-N-AAAAAAS`` deals here (``_codes.APP_DEALS``), its stock being the 23 remaining cards in
canonical order (our choice, stated in ``docs/deal-codes.md``); every other app code is refused.
"""

from __future__ import annotations

from ._cards import DECK, Card
from ._layout import Layout

_PYRAMID_ROWS = (
    "JD",
    "6C 7H",
    "AS 4D QS",
    "5H 3D 6H 8S",
    "KH KC AD KS 9C",
    "QC 2C 8D TD TS JS",
    "7C TC 3H 4H 3S KD 7S",
)
_WASTE = "7D"

_pyramid = tuple(Card.parse(code) for row in _PYRAMID_ROWS for code in row.split())
_waste = (Card.parse(_WASTE),)
#: The documents' deal of «PY1-N-AAAAAAS» under the app's rules.
DOCUMENTS_LAYOUT = Layout(
    pyramid=_pyramid,
    waste=_waste,
    stock=tuple(card for card in DECK if card not in _pyramid and card not in _waste),
)
