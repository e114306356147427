"""The rule set: the Pyramide app's choices, and the documented variants as options that compose.

«Las decisiones de la app y la regla tradicional» (000) lists the app's choices; each option below
switches one of them to the variant «la bibliografía también menciona»:

====================================  ===========================================  ======
option                                the variant                                  letter
====================================  ===========================================  ======
``pair_with_covering=True``           «carta y carta que la cubre»                 ``C``
``drawn_pairs_with_waste=True``       «mazo contra descarte»                       ``D``
``strict_win=True``                   «victoria estricta»                          ``S``
``initial_waste=False``               the traditional 24-card stock (003)          ``T``
``unlimited_undo=True``               «deshacer ilimitados», each undo a move (004)  ``U``
``notify_unwinnable=True``            «te notificará si ya no hay posibilidad de      ``W``
                                      ganar» (004)
``draw_count=3``                      Tut's Tomb: «Se roban tres cartas a la vez del  ``K``
                                      mazo en lugar de una» (003)
``waste_piles=3``                     Apophis: «Tres pilas de descarte en fila» (003)  ``A``
``rows=10``                           Pharaoh: «Reparte un diseño triangular más      ``P``
                                      grande (a menudo 10 filas)» (003), two decks
``deck="spanish"``                    «Pirámide española»: «mazo español de 48        ``E``
                                      cartas [...] las parejas suman 12» (003)
``max_recycles=n``                    «pasadas limitadas» (n recycles, n+1 passes)  digits
====================================  ===========================================  ======

A rule set is named in a deal code by its letters in alphabetical order then the recycle limit
(``DST0`` is the traditional strict game); the app's rules, with no variant, are ``N``.
``to_json`` always writes the first five options and a later one only when it is not its default,
so that the JSON of the rule sets that existed before it is unchanged, byte for byte.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ._cards import DECKS, Card
from ._errors import InvalidCodeError, PyramideError

#: Each option and how a deal code's rules segment writes it.
VARIANT_LETTERS = {
    "waste_piles": "A",
    "pair_with_covering": "C",
    "drawn_pairs_with_waste": "D",
    "strict_win": "S",
    "initial_waste": "T",
    "unlimited_undo": "U",
    "notify_unwinnable": "W",
    "draw_count": "K",
    "deck": "E",
    "rows": "P",
    "max_recycles": "0-9999",
}
#: The variant letters of a rules segment, in the order a segment writes them (its messages list them).
SEGMENT_LETTERS = " ".join(sorted(letter for letter in VARIANT_LETTERS.values() if letter.isalpha()))
_SEGMENT = re.compile(r"^(?:N|(A?)(C?)(D?)(E?)(K?)(P?)(S?)(T?)(U?)(W?)(0|[1-9][0-9]{0,3})?)$")
#: How many cards a draw may turn: one (the app, 000/002), or three (Tut's Tomb, 003).
DRAW_COUNTS = (1, 3)
#: How many waste piles there are: one (the app), or three (Apophis, 003).
WASTE_PILES = (1, 3)
#: How many rows the pyramid has: the app's 7, or Pharaoh's 10 (003).
ROW_COUNTS = (7, 10)
#: A recycle limit above this is refused (a code segment holds at most four digits).
MAX_RECYCLE_LIMIT = 9999


@dataclass(frozen=True, slots=True)
class Rules:
    """One rule set. The defaults are the Pyramide app's rules (000/002)."""

    #: «Victoria: basta con vaciar la pirámide, sin agotar el mazo»; True: stock and waste too.
    strict_win: bool = False
    #: «Reciclaje ilimitado» is None; a number limits how often the waste goes back to the stock.
    max_recycles: int | None = None
    #: «la carta robada no se empareja con la carta del descarte que cubre» is False; True lets «la
    #: carta que se acaba de robar» (the card just drawn, until another is drawn onto it) pair with
    #: the waste card it covers.
    drawn_pairs_with_waste: bool = False
    #: «una carta nunca se empareja con otra que todavía la cubre» is False; True lets a card pair
    #: with the single card still covering it.
    pair_with_covering: bool = False
    #: «da la vuelta a una carta y la coloca en el descarte» (23-card stock) is True; False deals
    #: the traditional 24-card stock with an empty waste.
    initial_waste: bool = True
    #: «El botón Deshacer permite deshacer las 100 últimas acciones [...]; el contador de
    #: movimientos, en cambio, no disminuye» is False; True is the 004 app's «Puedes deshacer tantas
    #: veces como quieras [...] cada deshacer cuenta como un nuevo movimiento».
    unlimited_undo: bool = False
    #: The 004 app's «El juego te notificará si ya no hay posibilidad de ganar el juego»: each move's
    #: answer says whether a win is still possible (the solver, within a bounded search).
    notify_unwinnable: bool = False
    #: «Robar del mazo: [...] voltee boca arriba la carta superior del mazo» is 1; Tut's Tomb's «Se
    #: roban tres cartas a la vez del mazo en lugar de una» (003) is 3.
    draw_count: int = 1
    #: One waste pile is 1; Apophis's «Tres pilas de descarte en fila; las cartas del mazo pueden
    #: colocarse en cualquiera de las tres pilas, y la carta superior de cualquiera de ellas puede
    #: emparejarse» (003) is 3.
    waste_piles: int = 1
    #: «Una pirámide de 28 cartas [...] de 7 filas» is 7; Pharaoh's «diseño triangular más grande (a
    #: menudo 10 filas)» (003) is 10: 55 cards, dealt from two decks.
    rows: int = 7
    #: «Se juega con una baraja de 52 cartas» is ``"french"``; the «Pirámide española»'s «mazo español
    #: de 48 cartas», pairs summing 12, is ``"spanish"`` (003).
    deck: str = "french"

    def __post_init__(self) -> None:
        for name in (
            "strict_win", "drawn_pairs_with_waste", "pair_with_covering", "initial_waste", "unlimited_undo",
            "notify_unwinnable",
        ):  # fmt: skip
            if not isinstance(getattr(self, name), bool):
                raise PyramideError("invalid_rules", field=f"rules.{name}", option=name)
        limit = self.max_recycles
        if limit is not None and (
            isinstance(limit, bool) or not isinstance(limit, int) or not 0 <= limit <= MAX_RECYCLE_LIMIT
        ):
            raise PyramideError("invalid_rules", field="rules.max_recycles", option="max_recycles")
        if isinstance(self.draw_count, bool) or self.draw_count not in DRAW_COUNTS:
            raise PyramideError("invalid_rules", field="rules.draw_count", option="draw_count")
        if isinstance(self.waste_piles, bool) or self.waste_piles not in WASTE_PILES:
            raise PyramideError("invalid_rules", field="rules.waste_piles", option="waste_piles")
        if isinstance(self.rows, bool) or self.rows not in ROW_COUNTS:
            raise PyramideError("invalid_rules", field="rules.rows", option="rows")
        if not isinstance(self.deck, str) or self.deck not in DECKS:
            raise PyramideError("invalid_rules", field="rules.deck", option="deck")
        if self.waste_piles > 1 and self.drawn_pairs_with_waste:
            # With three piles the card drawn goes beside the card it would pair with, not onto it:
            # «mazo contra descarte» has nothing left to allow (docs/rules.md).
            raise PyramideError("invalid_rules", field="rules.drawn_pairs_with_waste", option="drawn_pairs_with_waste")

    @property
    def stock_size(self) -> int:
        return stock_size(self)

    @property
    def cards(self) -> tuple[Card, ...]:
        """Every card dealt: each card of the deck, once or, under two decks, twice (copy 1 first)."""
        return DECKS[self.deck].cards(self.copies)

    @property
    def copies(self) -> int:
        return deck_copies(self)

    @property
    def slots(self) -> int:
        """How many cards the pyramid holds: 28 in 7 rows, 55 in 10."""
        return self.rows * (self.rows + 1) // 2

    @property
    def letters(self) -> str:
        """The rule-set segment of a deal code: ``N``, or variant letters then the recycle limit."""
        return rules_letters(self)

    @classmethod
    def from_letters(cls, segment: str) -> Rules:
        match = _SEGMENT.match(segment)
        if match is None or not segment:
            raise InvalidCodeError("rules", segment=segment[:16], letters=SEGMENT_LETTERS)
        if segment == "N":
            return cls()
        apophis, covering, drawn, spanish, three, pharaoh, strict, traditional, undo, notify, limit = match.groups()
        try:
            return cls(
                strict_win=bool(strict),
                max_recycles=None if limit is None else int(limit),
                drawn_pairs_with_waste=bool(drawn),
                pair_with_covering=bool(covering),
                initial_waste=not traditional,
                unlimited_undo=bool(undo),
                notify_unwinnable=bool(notify),
                draw_count=3 if three else 1,
                waste_piles=3 if apophis else 1,
                rows=10 if pharaoh else 7,
                deck="spanish" if spanish else "french",
            )
        except PyramideError:  # letters that do not compose (AD): no rule set
            raise InvalidCodeError("rules", segment=segment[:16], letters=SEGMENT_LETTERS) from None

    @classmethod
    def preset(cls, name: object) -> Rules:
        """A named rule set of :data:`PRESETS`, its name exactly (``"tuts-tomb"``), as the API takes
        it; any other is ``unknown_rules``, whose message lists every name."""
        if isinstance(name, str) and name in PRESETS:
            return PRESETS[name]
        # (a deal code's rules segment is not a name here: the message offers the names alone)
        raise PyramideError("unknown_rules", detail="preset", field="rules", name=str(name)[:32], presets=", ".join(PRESETS))

    @classmethod
    def named(cls, text: str) -> Rules:
        """A preset's name (``traditional``), or a deal code's rules segment (``DST0``)."""
        if text.strip().lower() in PRESETS:
            return PRESETS[text.strip().lower()]
        try:
            return cls.from_letters(text.strip().upper())
        except InvalidCodeError:
            raise _unknown(text) from None

    def to_json(self) -> dict:
        data = {name: getattr(self, name) for name in _OPTION_NAMES[:_ALWAYS_WRITTEN]}
        data.update(
            (name, getattr(self, name))
            for name in _OPTION_NAMES[_ALWAYS_WRITTEN:]
            if getattr(self, name) != _DEFAULTS[name]
        )
        return data

    @classmethod
    def from_json(cls, data: object) -> Rules:
        if not isinstance(data, dict):
            raise PyramideError("invalid_rules", field="rules", option="rules")
        unknown = set(data) - set(cls.__dataclass_fields__)
        if unknown:
            raise PyramideError("invalid_rules", field=f"rules.{sorted(unknown)[0]}", option=sorted(unknown)[0])
        for name in ("max_recycles", "draw_count", "waste_piles", "rows"):  # the options that are numbers
            if name in data:
                data = {**data, name: whole_number(data[name])}
        return cls(**data)


def _unknown(name: object) -> PyramideError:
    return PyramideError(
        "unknown_rules", field="rules", name=str(name)[:32], presets=", ".join(PRESETS), letters=SEGMENT_LETTERS
    )


_OPTION_NAMES = tuple(Rules.__dataclass_fields__)
_DEFAULTS = {name: field.default for name, field in Rules.__dataclass_fields__.items()}
#: The options every rule set's JSON writes; those after them are written only when on.
_ALWAYS_WRITTEN = 5


# Plain functions behind the properties above, so that mutation testing reaches them (mutmut does
# not mutate decorated functions).
def deck_copies(rules: Rules) -> int:
    """One deck, or two when the pyramid alone takes as many cards as one deck holds, or more:
    Pharaoh's 55 cards need two 52-card decks (docs/rules.md)."""
    return 1 if rules.slots < len(DECKS[rules.deck]) else 2


def stock_size(rules: Rules) -> int:
    """«23 cartas» in the stock with one card turned onto the waste; the traditional 24 without.
    What the pyramid and the waste leave of the deck (or decks) otherwise."""
    return len(rules.cards) - rules.slots - (1 if rules.initial_waste else 0)


def rules_letters(rules: Rules) -> str:
    """Each option that is not the app's, by its letter in alphabetical order, then the limit."""
    letters = (
        ("A", rules.waste_piles == 3),
        ("C", rules.pair_with_covering),
        ("D", rules.drawn_pairs_with_waste),
        ("E", rules.deck == "spanish"),
        ("K", rules.draw_count == 3),
        ("P", rules.rows == 10),
        ("S", rules.strict_win),
        ("T", not rules.initial_waste),
        ("U", rules.unlimited_undo),
        ("W", rules.notify_unwinnable),
    )
    text = "".join(letter for letter, on in letters if on)
    if rules.max_recycles is not None:
        text += str(rules.max_recycles)
    return text or "N"


def whole_number(value: object) -> object:
    """JSON has one number type: 2.0 read from JSON is the integer 2."""
    return int(value) if isinstance(value, float) and value.is_integer() else value


#: The rule sets with a name, as ``GET /v1/rules`` lists them.
PRESETS: dict[str, Rules] = {
    "pyramide": Rules(),
    "strict": Rules(strict_win=True),
    "traditional": Rules(strict_win=True, max_recycles=0, drawn_pairs_with_waste=True, initial_waste=False),
    "relaxed-one-pass": Rules(max_recycles=0, drawn_pairs_with_waste=True, initial_waste=False),
    "relaxed-three-passes": Rules(max_recycles=2, drawn_pairs_with_waste=True, initial_waste=False),
    # 004: «En esta versión, puedes restablecer el stock tantas veces como quieras»; a 24-card
    # stock and nothing on the waste at the deal; unlimited undo, each undo a move; the game says
    # when no win is left.
    "unlimited-undo": Rules(initial_waste=False, unlimited_undo=True, notify_unwinnable=True),
    # 003's Tut's Tomb / King Tut: «Se roban tres cartas a la vez del mazo en lugar de una; se forman
    # parejas de suma 13 a medida que aparecen», on the traditional deal and pairing (a 24-card
    # stock, the card just drawn pairs with the waste card beneath it), relaxed victory, and
    # unlimited passes as in PySolFC's King Tut.
    "tuts-tomb": Rules(drawn_pairs_with_waste=True, initial_waste=False, draw_count=3),
    # 003's Apophis: «Tres pilas de descarte en fila; las cartas del mazo pueden colocarse en
    # cualquiera de las tres pilas, y la carta superior de cualquiera de ellas puede emparejarse»,
    # on the traditional 24-card stock, relaxed victory, and three passes as in PySolFC's Apophis.
    "apophis": Rules(initial_waste=False, waste_piles=3, max_recycles=2),
    # 003's Pharaoh / Triangle: «Reparte un diseño triangular más grande (a menudo 10 filas) para una
    # partida más larga y difícil»: 10 rows, 55 cards, two decks; the app's rules otherwise.
    "pharaoh": Rules(rows=10),
    # 003's «Pirámide española»: «Usa un mazo español de 48 cartas [...]; los valores de las parejas
    # suman 12 en lugar de 13 y los Reyes siguen retirándose solos»; the app's rules otherwise.
    "spanish": Rules(deck="spanish"),
}
