"""The moves of a position, written once: which moves exist is :meth:`Deal.steps`, what each does
:meth:`Deal.after` (both: :meth:`Deal.moves`). The engine's legal moves and ``play``'s decisions,
and the general search's children all come from it, and the pyramid's part of it (its free cards and
the pairs within it, :meth:`Deal.pyramid_moves`) is the fast searches' too (``_solver/model.py``:
their waste's part is written for their own encoding, for speed, and checked against
:meth:`Deal.steps` move by move).

A position is what the next moves depend on, in a compact form: the pyramid as a bit mask of its
slots, the stock (top first) and each waste pile (top last) as tuples of pile-card numbers (the
dealt waste card, then the stock from its top: :attr:`Deal.pile_cards`), the recycles used, and
whether the waste top is the card just drawn and pairs with the card beneath it («mazo contra
descarte»). A step is ``("king", card)``, ``("pair", card, card)``, ``("draw", pile)`` or
``("recycle",)``, a card being ``("slot", n)`` or ``("pile", n)``.

The rules each move follows are those of ``_play.py``, which quotes them: a free card
(:func:`_play.is_free`), a King alone, two cards summing 13, the waste top (the top of each of
Apophis's three piles), «mazo contra descarte», «una carta puede emparejarse con la única carta que
todavía la cubre», the draw and the recycle with their limits. ``_play.py`` keeps the reasons a
move is refused; which moves exist is decided here.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache
from typing import TYPE_CHECKING, Union, cast

from ._cards import Card
from ._codes import parse_code
from ._moves import WASTE_PILE_NAMES, Move
from ._rules import Rules

if TYPE_CHECKING:
    from ._layout import Layout
    from ._state import GameState

#: A card of a position: ("slot", n) in the pyramid, or ("pile", n) among the pile cards.
Where = tuple[str, int]
#: ("king", card), ("pair", card, card), ("draw", pile number) or ("recycle",).
Step = Union[tuple[str, Where, Where], tuple[str, Where], tuple[str, int], tuple[str]]
#: (pyramid mask, stock, waste piles, recycles used, the top just drawn pairs with the card beneath)
Position = tuple[int, tuple[int, ...], tuple[tuple[int, ...], ...], int, bool]
#: Within the pyramid: (slot, slot, pyramid after).
PyramidPair = tuple[int, int, int]


class Deal:
    """One deal's tables under its rules: the values of the pyramid's slots and of the pile cards,
    which slots cover which, and the moves between positions."""

    def __init__(self, rules: Rules, layout: Layout) -> None:
        shape = rules.shape
        self.rules = rules
        self.slots = shape.slots
        self.pair_sum = shape.pair_sum
        #: «El rey vale 13 por sí solo»: the value removed alone
        self.lone = shape.lone_rank
        self.limit = rules.max_recycles
        self.draw_count = rules.draw_count
        self.several = rules.waste_piles > 1
        self.drawn_pairs = rules.drawn_pairs_with_waste
        self.covering = rules.pair_with_covering
        self.slot_cards: tuple[Card, ...] = layout.pyramid
        self.slot_bits = [1 << slot for slot in range(self.slots)]
        #: every card of the deal by number: the pile cards first (the dealt waste card, then the
        #: stock from its top), then the pyramid's, which reach the stock or a waste pile only in
        #: positions set up by hand (tests), never in play
        self.pile_cards: tuple[Card, ...] = layout.waste + layout.stock + layout.pyramid
        self.values = [card.value for card in self.slot_cards]
        self.pile_values = [card.value for card in self.pile_cards]
        self.number = {card: i for i, card in enumerate(self.pile_cards)}
        self.slot_of = {card: slot for slot, card in enumerate(self.slot_cards)}
        #: the slots covering each slot directly, as a mask
        self.cover_mask = [sum(1 << other for other in covers) for covers in shape.covered_by]
        self._pyramid_cache: dict[int, tuple[list[int], list[PyramidPair]]] = {}

    # -- the position ----------------------------------------------------------------------------
    def encode(self, state: GameState, piles: tuple[tuple[Card, ...], ...], just_drawn: bool, *, steps_only: bool = False) -> Position:
        """The position of ``state``, its waste ``piles`` and whether the top ``just_drawn`` pairs
        with the card beneath it given (``_play`` says both, by the rules' sentences).
        ``steps_only``: only the cards :meth:`steps` reads (the stock's top, each pile's top two),
        enough to say which moves exist, not where they lead (:meth:`after`)."""
        pyramid = 0
        for bit, card, dealt in zip(self.slot_bits, state.pyramid, self.slot_cards):
            if card is dealt:
                pyramid |= bit
            elif card is not None:
                raise KeyError(card)  # not this deal's card there: a position set up by hand
        number, stock = self.number, state.stock
        if steps_only:
            top = (number[stock[0]],) if stock else ()
            return (pyramid, top, tuple([tuple([number[card] for card in pile[-2:]]) for pile in piles]), state.recycles, just_drawn)
        return (pyramid, tuple([number[card] for card in stock]), tuple([tuple([number[card] for card in pile]) for pile in piles]), state.recycles, just_drawn)

    @classmethod
    def of_position(cls, state: GameState) -> Deal:
        """The tables of a position set up by hand (tests do: any card anywhere), from its own
        cards: each pyramid card in its slot, then every other card of the rules' deck. An empty
        slot is given a card no slot holds (its dealt card, unless moved by hand to another slot),
        so that each card names one slot (``slot_of``)."""
        from ._layout import Layout

        present = set(state.pyramid)
        unused = (card for card in state.layout.pyramid if card not in present)  # (never fewer than the empty slots)
        slot_cards = tuple(card if card is not None else next(unused) for card in state.pyramid)
        placed = set(slot_cards)
        return cls(state.rules, Layout(slot_cards, (), tuple(card for card in state.rules.cards if card not in placed)))

    def card(self, where: Where) -> Card:
        kind, n = where
        return self.slot_cards[n] if kind == "slot" else self.pile_cards[n]

    def move(self, step: Step) -> Move:
        """The engine's move for a step."""
        if len(step) == 3:  # a pair
            return Move.pair(self.card(step[1]), self.card(step[2]))
        if len(step) == 2:
            where = step[1]
            if isinstance(where, tuple):  # a King
                return Move.king(self.card(where))
            return Move.draw(WASTE_PILE_NAMES[where] if self.several else None)
        return Move.recycle()

    # -- the pyramid -----------------------------------------------------------------------------
    def pyramid_moves(self, pyramid: int) -> tuple[list[int], list[PyramidPair]]:
        """The free slots («una carta de la pirámide está libre cuando se han retirado las dos cartas
        que la cubren»), and the pairs within the pyramid as (slot, slot, pyramid after): two free
        cards summing 13, then, where the rules allow it, a card and «la única carta que todavía la
        cubre». Kept per pyramid (``pyramid_moves_of`` computes them, kept by a caller with a
        cache of its own)."""
        found = self._pyramid_cache.get(pyramid)
        if found is None:
            found = self._pyramid_cache[pyramid] = self.pyramid_moves_of(pyramid)
        return found

    def pyramid_moves_of(self, pyramid: int) -> tuple[list[int], list[PyramidPair]]:
        """``pyramid_moves``, not kept."""
        values, total, cover_mask = self.values, self.pair_sum, self.cover_mask
        free = [slot for slot in range(self.slots) if pyramid >> slot & 1 and not pyramid & cover_mask[slot]]
        pairs = [
            (a, b, pyramid & ~(1 << a | 1 << b))
            for i, a in enumerate(free)
            for b in free[i + 1 :]
            if values[a] + values[b] == total
        ]
        if self.covering:
            for slot in range(self.slots):
                covers = pyramid & cover_mask[slot]
                if pyramid >> slot & 1 and covers and covers & (covers - 1) == 0:  # a single card covers it
                    cover = covers.bit_length() - 1
                    if not pyramid & cover_mask[cover] and values[slot] + values[cover] == total:
                        pairs.append((slot, cover, pyramid & ~(1 << slot | 1 << cover)))
        return free, pairs

    # -- the moves -------------------------------------------------------------------------------
    def steps(self, position: Position, *, search: bool = False, every_king: bool = False) -> Iterator[Step]:
        """Every move the rules allow: the Kings (the pyramid's, then each waste top's), the pairs
        within the pyramid, each waste top with a free pyramid card, two waste tops (Apophis), the
        card just drawn with the card beneath it («mazo contra descarte»), then a draw (onto each
        waste pile under Apophis) or, the stock empty, a recycle while any are left.

        ``search``: the searches' reductions, each proved never to lose a win (docs/solver.md): a
        free pyramid King goes at once and alone; a King on a waste top goes at once when the stock
        can no longer be regrouped by it (one card a draw, or no recycle left) unless
        ``every_king``; a draw goes onto an empty pile first."""
        pyramid, stock, piles, recycles, just_drawn = position
        values, pile_values, total, lone = self.values, self.pile_values, self.pair_sum, self.lone
        free, pairs = self.pyramid_moves(pyramid)
        for slot in free:
            if values[slot] == lone:
                yield ("king", ("slot", slot))
                if search:
                    return
        may_recycle = self.limit is None or recycles < self.limit
        regroup = self.draw_count > 1 and may_recycle
        tops = [pile[-1] for pile in piles if pile]
        for card in tops:
            if pile_values[card] == lone:
                yield ("king", ("pile", card))
                if search and not (regroup or every_king):
                    return
        for a, b, _ in pairs:
            yield ("pair", ("slot", a), ("slot", b))
        for card in tops:
            partner = total - pile_values[card]
            for slot in free:
                if values[slot] == partner:
                    yield ("pair", ("slot", slot), ("pile", card))
        if self.several:
            for n, a in enumerate(tops):
                for b in tops[n + 1 :]:
                    if pile_values[a] + pile_values[b] == total:
                        yield ("pair", ("pile", a), ("pile", b))
        elif just_drawn:
            waste = piles[0]
            if len(waste) > 1 and pile_values[waste[-1]] + pile_values[waste[-2]] == total:
                yield ("pair", ("pile", waste[-2]), ("pile", waste[-1]))
        if stock:
            for i in self.draw_order(piles) if search else range(len(piles)):
                yield ("draw", i)
        elif may_recycle and any(piles):
            yield ("recycle",)

    def after(self, position: Position, step: Step) -> Position:
        """The position ``step`` leads to: the cards it removes gone (a waste top taken off its
        pile), the stock's top card (three under Tut's Tomb) drawn onto a waste pile, or the waste
        piles turned back into the stock, pile 1 first, each from its bottom card."""
        pyramid, stock, piles, recycles, just_drawn = position
        kind = step[0]
        if kind == "draw":
            i = cast(tuple[str, int], step)[1]
            drawn = stock[: self.draw_count]
            onto = piles[:i] + (piles[i] + drawn,) + piles[i + 1 :]
            return (pyramid, stock[self.draw_count :], onto, recycles, self.drawn_pairs)
        if kind == "recycle":
            restocked = tuple(card for pile in piles for card in pile)
            return (pyramid, restocked, ((),) * len(piles), recycles + 1, False)
        if len(step) == 2:  # a King
            where, n = cast(tuple[str, Where], step)[1]
            if where == "slot":
                return (pyramid & ~(1 << n), stock, piles, recycles, just_drawn)
            return (pyramid, stock, _take_card(piles, n), recycles, False)
        _, (first, a), (second, b) = cast(tuple[str, Where, Where], step)
        if second == "slot":  # two pyramid cards
            return (pyramid & ~(1 << a | 1 << b), stock, piles, recycles, just_drawn)
        if first == "slot":  # a pyramid card and a waste top
            return (pyramid & ~(1 << a), stock, _take_card(piles, b), recycles, False)
        # two waste tops, or the card just drawn (b) and the card beneath it (a): b first
        return (pyramid, stock, _take_card(_take_card(piles, b), a), recycles, False)

    def moves(self, position: Position, *, search: bool = False, every_king: bool = False) -> Iterator[tuple[Step, Position]]:
        """(step, position after) for every move the rules allow (:meth:`steps`, :meth:`after`)."""
        for step in self.steps(position, search=search, every_king=every_king):
            yield step, self.after(position, step)

    def draw_order(self, piles: tuple[tuple[int, ...], ...]) -> list[int]:
        """The piles a draw may go to: an empty one first (under Apophis)."""
        if not self.several:
            return [0]
        return sorted(range(len(piles)), key=lambda i: (len(piles[i]) > 0, i))


def _take_card(piles: tuple[tuple[int, ...], ...], card: int) -> tuple[tuple[int, ...], ...]:
    """The piles with ``card``, a pile's top, taken off it."""
    for i in range(len(piles)):
        if piles[i] and piles[i][-1] == card:
            return _take(piles, i)
    raise ValueError(card)  # (not a top: no step takes it)


def _take(piles: tuple[tuple[int, ...], ...], i: int) -> tuple[tuple[int, ...], ...]:
    """The piles with pile ``i``'s top card taken off."""
    return piles[:i] + (piles[i][:-1],) + piles[i + 1 :]


@lru_cache(maxsize=256)
def deal_of(code: str) -> Deal:
    """The tables of the deal a code names (a game's, ``GameState.code``), kept for the next move."""
    rules, layout, _ = parse_code(code)
    return Deal(rules, layout)
