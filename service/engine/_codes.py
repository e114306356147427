"""Deal codes: «Cada reparto tiene un código [...] por ejemplo PY1-N-AAAAAAS. Al pegarlo en la ventana
Nueva partida, se vuelven a repartir exactamente las mismas cartas.»

``docs/deal-codes.md`` is the specification; this module is its reference implementation.

- ``PYR1-<rules>-<seed>``: seven letters A–Z, a base-26 number (``A`` = 0, most significant first);
  the deck is shuffled by Fisher–Yates driven by SHA-256 in counter mode.
- ``PYR1-<rules>-<layout>``: 48 letters, a base-26 number: the rank of the dealt sequence of the 52
  cards among all 52! orders (Lehmer code), so that any deal at all can be named. Under other
  decks the same rank over that deck's faces: 44 letters for the Spanish deck's 48!, 107 for the
  104! / 2⁵² orders of Pharaoh's two decks.
- ``PY1-…`` is the Pyramide app's own format, whose generator is unpublished: its seed codes are
  refused with ``app_code`` (never another deal), but for ``PY1-N-AAAAAAS``, the documents' deal,
  whose layout they show; a ``PY1-<rules>-<48 letters>`` code, which only this project ever
  issued, is read as the ``PYR1`` code with the same letters.
- ``PYSOLFC-<rules>-<n>``: PySolFC's game number ``n`` as PySolFC's Pyramid deals it (its random
  generators and shuffle re-implemented here), under rules whose deal has that shape.
"""

from __future__ import annotations

import hashlib
import math
import random
import secrets
from functools import lru_cache

from ._cards import DECK, DECKS, SECOND_COPY, Card
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
SEED_SPACE = 26**SEED_LETTERS
#: The prefix of PySolFC's deals by game number: ``PYSOLFC-<rules>-<n>``.
PYSOLFC_PREFIX = "PYSOLFC"
#: PySolFC's game numbers: 1 (its generator of small numbers refuses 0) up to 20 digits (it shows
#: them zero-padded to 20 digits; its random games are drawn below 10**20).
PYSOLFC_LAST = 10**20 - 1
#: Below this, PySolFC deals with Microsoft's FreeCell generator (LCRandom31), else Mersenne Twister.
PYSOLFC_MS_BELOW = 32000


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


def shuffled_deck(seed: str, rules: Rules | None = None) -> tuple[Card, ...]:
    """The deck dealt by the seven seed letters: Fisher–Yates from the last position down, over the
    rules' cards in canonical order (the app's 52 by default); of two copies, the one dealt first is
    then named copy 1."""
    stream = _Sha256Stream(f"{STREAM_KEY}:{seed}".encode("ascii"))
    deck = list(DECK if rules is None else rules.cards)
    for i in range(len(deck) - 1, 0, -1):
        j = stream.below(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return _copies_in_order(deck)


def _copies_in_order(deck: list[Card]) -> tuple[Card, ...]:
    """The same faces, each card's copy 1 dealt before its copy 2 (one deal, one code)."""
    seen: set[str] = set()
    dealt = []
    for card in deck:
        dealt.append(Card.parse(card.face + (SECOND_COPY if card.face in seen else "")))
        seen.add(card.face)
    return tuple(dealt)


@lru_cache(maxsize=64)
def layout_count(rules: Rules) -> int:
    """How many deals there are under ``rules``: 52! orders of the app's deck, 48! of the Spanish
    deck, 104! / 2⁵² of two decks (two copies of a card are the same face)."""
    return _arrangements([rules.copies] * len(_faces(rules)))


@lru_cache(maxsize=64)
def layout_letters(rules: Rules) -> int:
    """How many letters name any deal under ``rules``: 48 for the app's deck (26⁴⁸ > 52!), 44 for
    the Spanish deck, 107 for Pharaoh's two decks."""
    letters = 1
    while 26**letters < layout_count(rules):
        letters += 1
    return letters


def _faces(rules: Rules) -> tuple[Card, ...]:
    """Each card of the rules' deck once (copy 1), in canonical order: the alphabet of a layout number."""
    return DECKS[rules.deck].cards()


def _arrangements(counts: list[int]) -> int:
    """How many orders the cards left (``counts`` of each face) can be dealt in: n! / ∏ cᵢ!."""
    number = math.factorial(sum(counts))
    for count in counts:
        number //= math.factorial(count)
    return number


def _layout_number(deck: tuple[Card, ...], rules: Rules) -> int:
    """The rank of the dealt order among all orders of the deck's faces, in canonical order (for
    one deck, its Lehmer code)."""
    faces = _faces(rules)
    position = {card: i for i, card in enumerate(faces)}
    counts = [rules.copies] * len(faces)
    left = len(deck)
    total = _arrangements(counts)
    number = 0
    for card in deck:
        face = position[Card.parse(card.face)]
        before = sum(counts[:face])
        number += total * before // left
        total = total * counts[face] // left
        counts[face] -= 1
        left -= 1
    return number


def _deck_from_number(number: int, rules: Rules) -> tuple[Card, ...]:
    faces = _faces(rules)
    counts = [rules.copies] * len(faces)
    left = sum(counts)
    total = _arrangements(counts)
    dealt = []
    for _ in range(left):
        for face, count in enumerate(counts):
            block = total * count // left
            if number < block:
                break
            number -= block
        dealt.append(faces[face])
        total = block
        counts[face] -= 1
        left -= 1
    return _copies_in_order(dealt)


# -- PySolFC's deals by game number (docs/deal-codes.md, "PySolFC's game numbers") ----------------
def _pysolfc_shuffled(number: int) -> list[tuple[int, int]]:
    """PySolFC's shuffle of one 52-card deck for a game number, as (rank 0-12, suit in ``CSHD``)
    pairs, the card dealt first last (PySolFC adds the shuffled cards to the talon in order and
    deals from its top). Its deck is created suit by suit (clubs, spades, hearts, diamonds), ace to
    king. Numbers below 32000 shuffle with LCRandom31 (Microsoft FreeCell's generator) after
    ``ms_rearrange``; the others with MTRandom (Python's ``random.Random`` seeded with the number).
    Both then run Fisher–Yates from the last position down, j = randint(0, i)."""
    cards = [(rank, suit) for suit in range(4) for rank in range(13)]
    if number < PYSOLFC_MS_BELOW:
        cards = [cards[i + j] for i in range(13) for j in (0, 39, 26, 13)]  # ms_rearrange
        state = number

        def randint(low: int, high: int) -> int:
            nonlocal state
            state = (state * 214013 + 2531011) & (2**33 - 1)
            return low + ((state >> 16) & 0x7FFF) % (high + 1 - low)
    else:
        generator = random.Random(number)

        def randint(low: int, high: int) -> int:
            return low + int(generator.random() * (high + 1 - low))

    for i in range(len(cards) - 1, 0, -1):
        j = randint(0, i)
        cards[i], cards[j] = cards[j], cards[i]
    return cards


def pysolfc_deck(number: int) -> tuple[Card, ...]:
    """The cards PySolFC's Pyramid deals for game ``number``, in dealing order: the 28 of the
    pyramid row by row from the top, left to right, the one it turns onto the waste, then its
    talon from the top."""
    return tuple(Card.parse("A23456789TJQK"[rank] + "CSHD"[suit]) for rank, suit in reversed(_pysolfc_shuffled(number)))


def pysolfc_shaped(rules: Rules) -> bool:
    """Whether PySolFC's Pyramid deal fits the rules: one 52-card deck, 7 rows, one card turned onto
    a single waste pile, the rest a stock drawn one card at a time."""
    return (rules.deck, rules.rows, rules.initial_waste, rules.waste_piles, rules.draw_count) == ("french", 7, True, 1, 1)


def _pysolfc_deal(rules: Rules, segment: str, deal: str) -> tuple[Rules, Layout, str]:
    if not pysolfc_shaped(rules):
        raise InvalidCodeError("pysolfc_rules", segment=segment)
    if not (deal.isascii() and deal.isdigit() and 1 <= int(deal) <= PYSOLFC_LAST):
        raise InvalidCodeError("pysolfc_number", deal=deal[:80])
    number = int(deal)
    return rules, Layout.from_deck(pysolfc_deck(number), rules), f"{PYSOLFC_PREFIX}-{segment}-{number}"


def seed_code(rules: Rules, seed: int) -> str:
    return f"{PREFIX}-{rules.letters}-{_to_letters(seed, SEED_LETTERS)}"


def random_code(rules: Rules) -> str:
    return seed_code(rules, secrets.randbelow(SEED_SPACE))


def layout_code(rules: Rules, layout: Layout) -> str:
    return f"{PREFIX}-{rules.letters}-{_to_letters(_layout_number(layout.deck, rules), layout_letters(rules))}"


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
    if prefix not in (PREFIX, APP_PREFIX, PYSOLFC_PREFIX):
        raise InvalidCodeError("prefix", prefix=prefix[:16])
    rules = Rules.from_letters(segment)
    if prefix == PYSOLFC_PREFIX:
        return _pysolfc_deal(rules, segment, deal)
    if not (deal.isascii() and deal.isalpha()):
        raise InvalidCodeError("letters", deal=deal[:80])
    if len(deal) == SEED_LETTERS:
        if prefix == APP_PREFIX:
            return _app_deal(rules, segment, deal)
        deck = shuffled_deck(deal, rules)
    elif len(deal) == layout_letters(rules):  # under either prefix: PY1-…-<48 letters> was only ever ours
        number = _from_letters(deal)
        if number >= layout_count(rules):
            raise InvalidCodeError("layout_range", deal=deal[:80])
        deck = _deck_from_number(number, rules)
    else:
        raise InvalidCodeError("length", length=len(deal), layout=layout_letters(rules))
    return rules, Layout.from_deck(deck, rules), f"{PREFIX}-{segment}-{deal}"


def _app_deal(rules: Rules, segment: str, deal: str) -> tuple[Rules, Layout, str]:
    """An app seed code: the deal the documents show for it, or ``app_code``, never another deal."""
    code = f"{APP_PREFIX}-{segment}-{deal}"
    layout = APP_DEALS.get(code)
    if layout is None:
        raise AppCodeError(app_code=code, ours=f"{PREFIX}-{segment}-{deal}")
    return rules, layout, code
