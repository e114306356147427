"""Deal codes: «Cada reparto tiene un código [...] por ejemplo PY1-N-AAAAAAS. Al pegarlo en la ventana
Nueva partida, se vuelven a repartir exactamente las mismas cartas.»

``docs/deal-codes.md`` is the specification; this module is its reference implementation.

- ``PYR1-<rules>-<seed>``: seven letters A–Z, a base-26 number (``A`` = 0, most significant first);
  the deck is shuffled by Fisher–Yates driven by SHA-256 in counter mode.
- ``PYR1-<rules>-<layout>``: 48 letters, a base-26 number: the rank of the dealt sequence of the 52
  cards among all 52! orders (Lehmer code), so that any deal at all can be named.
- ``PY1-…`` is the Pyramide app's own format, whose generator is unpublished: its seed codes are
  refused with ``app_code`` (never another deal), but for ``PY1-N-AAAAAAS``, the documents' deal,
  whose layout they show; a ``PY1-<rules>-<48 letters>`` code, which only this project ever
  issued, is read as the ``PYR1`` code with the same letters.
"""

from __future__ import annotations

import hashlib
import secrets

from ._cards import DECK, Card
from ._documents import DOCUMENTS_LAYOUT
from ._errors import AppCodeError, InvalidCodeError
from ._layout import Layout
from ._rules import Rules

#: The prefix of the codes this project issues.
PREFIX = "PYR1"
#: The prefix of the Pyramide app's codes.
APP_PREFIX = "PY1"
#: The key of the seeds' random stream: this project's codes were written ``PY1-…`` until the
#: app's codes were told apart; the key kept it, so that ``PYR1-<rules>-<seed>`` deals what
#: ``PY1-<rules>-<seed>`` dealt here before.
STREAM_KEY = "PY1"
#: The app's codes whose deal is known: the one the documents show with its layout (its stock, which
#: they do not show, is the 23 remaining cards in canonical order: ``_documents.py``).
APP_DEALS: dict[str, Layout] = {"PY1-N-AAAAAAS": DOCUMENTS_LAYOUT}
SEED_LETTERS = 7
LAYOUT_LETTERS = 48
SEED_SPACE = 26**SEED_LETTERS
_FACTORIAL_52 = 1
for _n in range(2, 53):
    _FACTORIAL_52 *= _n


def _to_letters(number: int, width: int) -> str:
    letters = []
    for _ in range(width):
        number, digit = divmod(number, 26)
        letters.append(chr(ord("A") + digit))
    return "".join(reversed(letters))


def _from_letters(text: str) -> int:
    number = 0
    for char in text:
        number = number * 26 + ord(char) - ord("A")
    return number


class _Sha256Stream:
    """32-bit words from SHA-256(key ‖ counter), counter a 4-byte big-endian number from 0."""

    def __init__(self, key: bytes) -> None:
        self._key = key
        self._counter = 0
        self._words: list[int] = []

    def next_word(self) -> int:
        if not self._words:
            block = hashlib.sha256(self._key + self._counter.to_bytes(4, "big")).digest()
            self._counter += 1
            self._words = [int.from_bytes(block[i : i + 4], "big") for i in range(28, -1, -4)]
        return self._words.pop()

    def below(self, bound: int) -> int:
        """An unbiased integer in [0, bound): reject words at or above the largest multiple."""
        limit = 2**32 - (2**32 % bound)
        while True:
            word = self.next_word()
            if word < limit:
                return word % bound


def shuffled_deck(seed: str) -> tuple[Card, ...]:
    """The deck dealt by the seven seed letters: Fisher–Yates from the last position down."""
    stream = _Sha256Stream(f"{STREAM_KEY}:{seed}".encode("ascii"))
    deck = list(DECK)
    for i in range(len(deck) - 1, 0, -1):
        j = stream.below(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return tuple(deck)


def _layout_number(deck: tuple[Card, ...]) -> int:
    remaining = [card.index for card in DECK]
    number = 0
    for position, card in enumerate(deck):
        k = remaining.index(card.index)
        del remaining[k]
        number = number * (len(DECK) - position) + k
    return number


def _deck_from_number(number: int) -> tuple[Card, ...]:
    digits = []
    for base in range(1, len(DECK) + 1):  # the last position has base 1, the first base 52
        number, digit = divmod(number, base)
        digits.append(digit)
    remaining = list(DECK)
    return tuple(remaining.pop(k) for k in reversed(digits))


def seed_code(rules: Rules, seed: int) -> str:
    return f"{PREFIX}-{rules.letters}-{_to_letters(seed, SEED_LETTERS)}"


def random_code(rules: Rules) -> str:
    return seed_code(rules, secrets.randbelow(SEED_SPACE))


def layout_code(rules: Rules, layout: Layout) -> str:
    return f"{PREFIX}-{rules.letters}-{_to_letters(_layout_number(layout.deck), LAYOUT_LETTERS)}"


def normalize_code(code: object) -> str:
    if not isinstance(code, str):
        raise InvalidCodeError("format", text="")
    return code.strip().upper()


def parse_code(code: object) -> tuple[Rules, Layout, str]:
    """The rules and the deal a code names, and the code in canonical form."""
    text = normalize_code(code)
    parts = text.split("-")
    if len(parts) != 3:
        raise InvalidCodeError("format", text=text[:80])
    prefix, segment, deal = parts
    if prefix not in (PREFIX, APP_PREFIX):
        raise InvalidCodeError("prefix", prefix=prefix[:16])
    rules = Rules.from_letters(segment)
    if not (deal.isascii() and deal.isalpha()):
        raise InvalidCodeError("letters", deal=deal[:80])
    if len(deal) == SEED_LETTERS:
        if prefix == APP_PREFIX:
            return _app_deal(rules, segment, deal)
        deck = shuffled_deck(deal)
    elif len(deal) == LAYOUT_LETTERS:  # under either prefix: PY1-…-<48 letters> was only ever ours
        number = _from_letters(deal)
        if number >= _FACTORIAL_52:
            raise InvalidCodeError("layout_range", deal=deal)
        deck = _deck_from_number(number)
    else:
        raise InvalidCodeError("length", length=len(deal))
    return rules, Layout.from_deck(deck, rules), f"{PREFIX}-{segment}-{deal}"


def _app_deal(rules: Rules, segment: str, deal: str) -> tuple[Rules, Layout, str]:
    """An app seed code: the deal the documents show for it, or ``app_code``, never another deal."""
    code = f"{APP_PREFIX}-{segment}-{deal}"
    layout = APP_DEALS.get(code)
    if layout is None:
        raise AppCodeError(app_code=code, ours=f"{PREFIX}-{segment}-{deal}")
    return rules, layout, code
