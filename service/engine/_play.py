"""The rules of play: free cards, pairs, Kings, the stock and the waste, scoring, undo, the end.

Each rule of the documents is one function here, named after it and quoting it. ``play`` is the
only entry point: (state, move) → :class:`Turn` (the next state, what happened, the app's feedback),
or an :class:`IllegalMoveError`.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Iterable, Iterator, cast

from ._cards import Card, pairs
from ._errors import IllegalMoveError
from ._shape import COVERED_BY_SLOTS
from ._moves import PILE_TOPS, WASTE_PILE_NAMES, WASTE_SECOND, WASTE_TOP, Action, Move
from ._position import Deal, Position, Step, Where, deal_of
from ._status import BLOCKED, PLAYING, UNDO_LIMIT, WON

if TYPE_CHECKING:  # (the rules of play read a state, they never make one from a log: ``_state`` does)
    from ._state import GameState

# -- Events and feedback ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened: removed, drawn, recycled, undone, selected, deselected, won, blocked."""

    type: str
    cards: tuple[Card, ...] = ()
    points: int = 0
    action: str | None = None
    pile: str | None = None  # the waste pile a card was drawn onto (Apophis)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"type": self.type}
        if self.cards:
            data["cards"] = [card.code for card in self.cards]
        if self.pile is not None:
            data["pile"] = self.pile
        if self.type in ("removed", "undone"):
            data["points"] = self.points
        if self.action is not None:
            data["action"] = self.action
        return data


@dataclass(frozen=True, slots=True)
class Turn:
    """The result of a move: the next state, the events, and the message the app would show."""

    state: GameState
    events: tuple[Event, ...] = ()
    #: A message code (``card_blocked``, ``sum_not_13``, ``blocked``…) or None.
    feedback: str | None = None
    #: 004's outlook (``winnable``, ``unwinnable`` or ``unknown``) under rules that
    #: ``notify_unwinnable``, once asked (``foresee``); None otherwise.
    outlook: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The one JSON form of a turn, the API's ``POST /v1/moves`` answer: the state, the events,
        the outlook (only when there is one) and the feedback's code (the API adds its message in
        the player's language)."""
        data: dict[str, Any] = {"state": self.state.to_json(), "events": [event.to_json() for event in self.events]}
        if self.outlook is not None:
            data["outlook"] = self.outlook
        data["feedback"] = None if self.feedback is None else {"code": self.feedback}
        return data


# -- Free cards ------------------------------------------------------------------------------------


def is_free(pyramid: tuple[Card | None, ...], slot: int) -> bool:
    """«Una carta de la pirámide está libre cuando se han retirado las dos cartas que la cubren.»"""
    return pyramid[slot] is not None and all(pyramid[cover] is None for cover in COVERED_BY_SLOTS[len(pyramid)][slot])


#: Where the top card of each waste pile is (Apophis has three; the app one, the waste).
PILE_ORIGINS = (WASTE_TOP, *PILE_TOPS)


def waste_piles(state: GameState) -> tuple[tuple[Card, ...], ...]:
    """The waste, then Apophis's waste piles 2 and 3: «Tres pilas de descarte en fila» (003)."""
    return (state.waste, *state.piles)


def where(state: GameState, card: Card) -> int | None:
    """The pyramid slot of ``card``, WASTE_TOP, WASTE_SECOND, the top of Apophis's pile 2 or 3
    (PILE_TOPS), or None (stock, deeper in a waste pile, removed)."""
    try:
        return state.pyramid.index(card)
    except ValueError:
        pass
    waste = state.waste
    if waste and waste[-1] == card:
        return WASTE_TOP
    if len(waste) > 1 and waste[-2] == card:
        return WASTE_SECOND
    for origin, pile in zip(PILE_TOPS, state.piles):
        if pile and pile[-1] == card:
            return origin
    return None


def is_available(state: GameState, origin: int | None) -> bool:
    """«La carta superior del descarte también está libre; las demás cartas del descarte deben
    esperar.» A free pyramid card or the waste top; under Apophis «la carta superior de cualquiera
    de ellas puede emparejarse»: the top of each of the three piles."""
    return origin in PILE_ORIGINS or (origin is not None and origin >= 0 and is_free(state.pyramid, origin))


def in_hand(state: GameState, card: Card | None) -> bool:
    """Apophis, by taps: the stock's top card, turned up by a tap on the stock, waiting for a tap on
    the pile it goes to («las cartas del mazo pueden colocarse en cualquiera de las tres pilas»)."""
    return bool(state.piles) and bool(state.stock) and card is not None and state.stock[0] == card


def is_selectable(state: GameState, card: Card) -> bool:
    """A first tap selects a free card; a King never stays selected (one tap removes it). Under
    Apophis the stock's card in hand is selected too, until it is put on a pile."""
    if state.status != PLAYING:  # (a tap after the game's end is refused: nothing is selected)
        return False
    return in_hand(state, card) or (not card.is_king and is_available(state, where(state, card)))


def tap_order(state: GameState, move: Move) -> tuple[Card, ...]:
    """The cards of ``move`` in the order a player can tap them: a pair's card that a first tap
    selects before one it does not. Under «mazo contra descarte» the card beneath the waste top
    pairs with the top alone, tapped first («la carta que se acaba de robar puede emparejarse con
    la carta superior del descarte»); elsewhere both cards are free and the order is the move's."""
    if move.type == "pair" and not is_selectable(state, move.cards[0]) and is_selectable(state, move.cards[1]):
        return (move.cards[1], move.cards[0])
    return move.cards


def _only_cover(state: GameState, slot: int, cover: int | None) -> bool:
    """«Una carta puede emparejarse con la única carta que todavía la cubre» (a variant)."""
    pyramid, covers = state.pyramid, state.rules.shape.covered_by[slot]
    return (
        cover is not None
        and cover in covers
        and is_free(pyramid, cover)
        and all(pyramid[other] is None for other in covers if other != cover)
    )


def top_just_drawn(state: GameState) -> bool:
    """«Mazo contra descarte (la carta que se acaba de robar puede emparejarse con la carta superior
    del descarte)»: the waste top is the card just drawn while no waste card has left since the
    last draw (removals within the pyramid do not count). The dealt waste card was never drawn;
    when the history kept does not reach back to the last draw (only while checking an old
    history: live play keeps far more than the 18 pyramid removals there can be), it may have been."""
    for action in reversed(state.history):
        if action.type != "remove":
            return action.type == "draw"
        if any(origin < 0 for _, origin in action.removed):
            return False
    return False


def drawn_pairs_with_waste_now(state: GameState) -> bool:
    """Under «mazo contra descarte», may the waste top pair with the waste card beneath it now?"""
    return state.rules.drawn_pairs_with_waste and len(state.waste) > 1 and top_just_drawn(state)


def not_in_play(state: GameState, card: Card, field: str) -> IllegalMoveError:
    """``card_not_free``: the card is in the stock, under a waste top, or removed; or it is not a
    card of this game at all (another deck's, or a second copy where one deck is dealt), which
    its message says."""
    rules = state.rules
    dealt = card.deck.name == rules.deck and card.copy <= rules.copies
    return IllegalMoveError("card_not_free", detail=None if dealt else "not_in_deck", field=field, card=card.code)


def _check_playable(state: GameState, card: Card, origin: int | None, partner: int | None = None) -> None:
    """Raise unless ``card`` (at ``origin``) may be removed, alone or with the card at ``partner``."""
    rules = state.rules
    if origin is None:
        raise not_in_play(state, card, "move")
    if origin == WASTE_SECOND:
        # «En la aplicación, la carta robada no se empareja con la carta del descarte que cubre.»
        if not (partner == WASTE_TOP and drawn_pairs_with_waste_now(state)):
            raise IllegalMoveError("card_not_free", field="move", card=card.code)
    elif origin >= 0 and not is_free(state.pyramid, origin):
        # «Una carta nunca se empareja con otra que todavía la cubre.»
        if not (rules.pair_with_covering and _only_cover(state, origin, partner)):
            raise IllegalMoveError("card_blocked", field="move", card=card.code)


# -- Pairs and Kings -------------------------------------------------------------------------------


def is_listed(state: GameState, cards: tuple[Card, ...]) -> bool:
    """Whether removing ``cards`` (a King, or a pair) is among the moves of the position now: the
    moves are decided in one place, ``_position.Deal.steps``; the functions here say why a move
    it does not list is refused."""
    deal, position = position_of(state)
    pyramid, slot_of, number = state.pyramid, deal.slot_of, deal.number
    places = []
    for card in cards:
        slot = slot_of.get(card)
        places.append(("slot", slot) if slot is not None and pyramid[slot] is card else ("pile", number.get(card, -1)))
    wanted = {("king", *places)} if len(places) == 1 else {("pair", *places), ("pair", *places[::-1])}
    return not wanted.isdisjoint(deal.steps(position))


def sentence_broken(state: GameState, cards: tuple[Card, ...]) -> IllegalMoveError | None:
    """The first of the rules' sentences removing ``cards`` (a King, or a pair) breaks, if any: a
    card not in play, a card still covered, two cards not summing the pair sum, a King that is not
    one."""
    try:
        if len(cards) == 1:
            king_origin(state, cards[0])
        else:
            pair_origins(state, *cards)
    except IllegalMoveError as error:
        return error
    return None


def refusal(state: GameState, move: Move) -> IllegalMoveError:
    """Why a pair or a King that ``Deal.steps`` does not list is refused (``sentence_broken``)."""
    error = sentence_broken(state, move.cards)
    if error is None:  # (the moves and the sentences are checked against each other, position by
        # position: tests/engine/test_one_rule_model.py)
        raise RuntimeError(f"{move} is not among the moves of the position, and no rule refuses it")
    return error


def pair_origins(state: GameState, a: Card, b: Card) -> tuple[int, int]:
    """«Se toca una carta libre y luego otra: si sus valores suman 13, se retiran las dos.»
    «La carta superior del descarte se empareja con una carta libre de la pirámide.»"""
    origin_a, origin_b = where(state, a), where(state, b)
    _check_playable(state, a, origin_a, origin_b)
    _check_playable(state, b, origin_b, origin_a)
    if not pairs(a, b):
        raise IllegalMoveError(wrong_sum(a), field="move.cards", cards=f"{a.code}+{b.code}")
    return origin_a, origin_b  # type: ignore[return-value]


def wrong_sum(card: Card) -> str:
    """«La suma debe ser igual a 13» (``sum_not_13``); «12» with the Spanish deck (``sum_not_12``)."""
    return f"sum_not_{card.deck.pair_sum}"


def king_origin(state: GameState, card: Card) -> int:
    """«El rey vale 13 por sí solo: basta con tocarlo una vez para retirarlo, tanto si está libre en
    la pirámide como si está en el descarte.»"""
    if not card.is_king:
        raise IllegalMoveError("not_a_king", field="move.card", card=card.code)
    origin = where(state, card)
    _check_playable(state, card, origin)
    return origin  # type: ignore[return-value]


def _remove(state: GameState, removed: tuple[tuple[Card, int], ...]) -> Turn:
    """«Cada carta retirada de la pirámide da 10 puntos: una pareja de dos cartas de la pirámide vale
    20, una pareja con el descarte 10 y un rey de la pirámide 10. Una carta tomada del descarte no
    da puntos.»"""
    removed = tuple(sorted(removed, key=lambda item: item[0].index))  # as the log replays it, whatever the tap order
    action = Action("remove", removed)
    points = action.points
    pyramid = list(state.pyramid)
    taken = [0] * len(PILE_ORIGINS)  # cards taken off each waste pile
    for _, origin in removed:
        if origin >= 0:
            pyramid[origin] = None
        else:
            taken[_pile_index(origin)] += 1
    piles = tuple(pile[: len(pile) - count] for pile, count in zip(waste_piles(state), taken))
    after = state.evolve(
        pyramid=tuple(pyramid),
        waste=piles[0],
        piles=piles[1:],
        foundation=state.foundation + tuple(card for card, _ in removed),
        score=state.score + points,
    )
    event = Event("removed", tuple(card for card, _ in removed), points)
    return _after_action(after, action, event)


def _pile_index(origin: int) -> int:
    """The waste pile (0, 1, 2) a card taken from ``origin`` (below 0) comes from."""
    return 0 if origin in (WASTE_TOP, WASTE_SECOND) else PILE_TOPS.index(origin) + 1


# -- The stock and the waste -----------------------------------------------------------------------


def _draw(state: GameState, pile: str | None = None) -> Turn:
    """«Se puede tocar el mazo en cualquier momento para pasar su carta superior al descarte.» Tut's
    Tomb: «Se roban tres cartas a la vez del mazo en lugar de una; se forman parejas de suma 13 a
    medida que aparecen» (003): the top three cards (fewer when fewer are left) are turned onto the
    waste one after the other, so the third is its top, and only the waste top is in play, as in
    PySolFC's King Tut: the cards beneath come into play as the ones above them are paired."""
    index = _draw_pile(state, pile)
    if not state.stock:
        raise IllegalMoveError("stock_empty", field="move")
    drawn = state.stock[: state.rules.draw_count]
    piles = list(waste_piles(state))
    piles[index] += drawn
    after = state.evolve(stock=state.stock[len(drawn) :], waste=piles[0], piles=tuple(piles[1:]))
    if in_hand(state, state.selected):  # the card in hand is the one drawn
        after = after.evolve(selected=None)
    action = _stock_action("draw", drawn=len(drawn), pile=index + 1 if state.piles else None)
    return _after_action(after, action, Event("drawn", drawn, pile=pile))


@lru_cache(maxsize=256)
def _stock_action(type: str, drawn: int = 1, pile: int | None = None, sizes: tuple[int, ...] = ()) -> Action:
    """A draw or a recycle: values (frozen), one object for each, shared by every history that
    holds it (an unlimited undo history is mostly these: 8 bytes each rather than about 100)."""
    return Action(type, drawn=drawn, pile=pile, sizes=sizes)


def _draw_pile(state: GameState, pile: str | None) -> int:
    """Apophis: «las cartas del mazo pueden colocarse en cualquiera de las tres pilas»: a draw names
    the pile (0, 1, 2) it goes to; with one waste, it names none."""
    if not state.piles:
        if pile is not None:
            raise IllegalMoveError("no_such_pile", field="move.pile", pile=pile)
        return 0
    if pile is None:
        raise IllegalMoveError("pile_required", field="move.pile")
    return WASTE_PILE_NAMES.index(pile)


def recycles_left(state: GameState) -> bool:
    """«Sin límite de pasadas» in the app; «pasadas limitadas» as a variant."""
    limit = state.rules.max_recycles
    return limit is None or state.recycles < limit


def _recycle(state: GameState) -> Turn:
    """«Cuando el mazo está vacío, al tocarlo se recicla el descarte: todas sus cartas vuelven al
    mazo, en el mismo orden.» The waste's bottom card (drawn first) is again the stock's top."""
    if state.stock:
        raise IllegalMoveError("stock_not_empty", field="move")
    piles = waste_piles(state)
    if not any(piles):
        raise IllegalMoveError("waste_empty", field="move")
    if not recycles_left(state):
        raise IllegalMoveError("no_recycles_left", field="move", limit=state.rules.max_recycles)
    # Apophis: the three piles go back in a row, pile 1 first, each from its bottom card.
    stock = tuple(card for pile in piles for card in pile)
    sizes = tuple(len(pile) for pile in piles) if state.piles else ()
    after = state.evolve(stock=stock, waste=(), piles=((),) * len(state.piles), recycles=state.recycles + 1)
    return _after_action(after, _stock_action("recycle", sizes=sizes), Event("recycled", stock))


# -- After each action: counter, history, selection, the end ---------------------------------------


def _after_action(state: GameState, action: Action, event: Event) -> Turn:
    """«El número de movimientos (retiradas, robos y reciclajes).» The undo history keeps the
    last 100 actions; the log keeps them all."""
    history = state.history + (action,)
    if len(history) > UNDO_LIMIT and not state.rules.unlimited_undo:
        history = history[-UNDO_LIMIT:]
    selected = state.selected
    if selected is not None and not is_selectable(state, selected):
        selected = None
    log = state.log + (str(action.move()),)
    after = state.evolve(moves=state.moves + 1, history=history, selected=selected, log=log)
    return _settle(after, (event,))


def _settle(state: GameState, events: tuple[Event, ...], feedback: str | None = None) -> Turn:
    status = status_of(state)
    # a finished game has nothing in hand: a card left selected by the last move is put down (a
    # state that is not PLAYING here already has nothing in hand: moves are refused after the end,
    # and undo puts the card down); the state is copied only when its status changes
    if status != state.status:
        state = state.evolve(status=status, selected=state.selected if status == PLAYING else None)
    if status == WON:
        events += (Event("won"),)
    elif status == BLOCKED:
        events += (Event("blocked"),)
        feedback = "blocked"
    return Turn(state, events, feedback)


def is_won(state: GameState) -> bool:
    """«La partida se gana en cuanto se retiran las 28 cartas de la pirámide, aunque queden cartas en
    el mazo o en el descarte.» With «victoria estricta», stock and waste must be empty too (all three
    waste piles under Apophis)."""
    if any(card is not None for card in state.pyramid):
        return False
    return not state.rules.strict_win or not (state.stock or any(waste_piles(state)))


def status_of(state: GameState) -> str:
    """«La aplicación solo declara el bloqueo [...] cuando el mazo y el descarte están vacíos y no se
    puede jugar ninguna pareja ni ningún rey. Mientras quede alguna carta que robar o reciclar, la
    partida continúa, aunque ya no se pueda retirar nada.» Under a recycle limit, a waste that may
    no longer be recycled is nothing left to recycle; under «victoria estricta» with unlimited
    recycling, see :func:`never_another_removal`."""
    if is_won(state):
        return WON
    if state.stock or (any(waste_piles(state)) and recycles_left(state)):
        return BLOCKED if never_another_removal(state) else PLAYING
    return PLAYING if next(removals(state), None) is not None else BLOCKED


def never_another_removal(state: GameState) -> bool:
    """«La partida termina [...] cuando no queda ningún emparejamiento legal posible» (003): under
    «victoria estricta» with unlimited recycling, a game that can never remove another card is
    over, lost, though cards are left to draw (the app's own rules keep it going). Until the next
    removal, draws and recycles only turn the stock and the waste over in one fixed cycle: the rest
    of this pass, a recycle, then one whole pass, after which it repeats. Each card it brings to
    the waste top is checked (a King there, or a card summing 13 with a free pyramid card, is a
    removal; under «mazo contra descarte», so is a card just drawn summing 13 with the one beneath)."""
    rules = state.rules
    if not rules.strict_win or rules.max_recycles is not None or next(removals(state), None) is not None:
        return False
    pyramid = state.pyramid
    free = [card for slot, card in enumerate(pyramid) if card is not None and is_free(pyramid, slot)]
    if state.piles:
        return not _a_removal_comes_on_three_piles(state, free)
    stock, waste = state.stock, state.waste
    for _ in range(2 * (len(stock) + len(waste)) + 2):
        just_drawn = bool(stock)
        if just_drawn:
            waste, stock = waste + stock[: rules.draw_count], stock[rules.draw_count :]
        else:
            stock, waste = waste, ()
        if not waste:
            continue
        top = waste[-1]
        if top.is_king or any(pairs(top, other) for other in free):
            return False
        if rules.drawn_pairs_with_waste and just_drawn and len(waste) > 1 and pairs(top, waste[-2]):
            return False
    return True


def _a_removal_comes_on_three_piles(state: GameState, free: list[Card]) -> bool:
    """Apophis with unlimited recycling: the player chooses each card's pile, so every card of the
    stock and the piles comes to a pile top, and any two of them can be two tops at once (the one
    first, the cards between on the third pile, the other on the second). A removal comes if one of
    them is a King, sums 13 with a free pyramid card, or sums 13 with another of them."""
    cards = state.stock + tuple(card for pile in waste_piles(state) for card in pile)
    if any(card.is_king or any(pairs(card, other) for other in free) for card in cards):
        return True
    return any(pairs(a, b) for i, a in enumerate(cards) for b in cards[i + 1 :])


# -- Legal moves -----------------------------------------------------------------------------------


def position_of(state: GameState) -> tuple[Deal, Position]:
    """``state`` as the compact position which moves exist is read from (``_position.Deal.steps``:
    the cards it reads), with the tables of its deal."""
    deal = deal_of(state.code)
    piles, just_drawn = waste_piles(state), drawn_pairs_with_waste_now(state)
    try:
        return deal, deal.encode(state, piles, just_drawn, steps_only=True)
    except KeyError:  # a position set up by hand, not one of its deal's
        deal = Deal.of_position(state)
        return deal, deal.encode(state, piles, just_drawn, steps_only=True)


def removals(state: GameState) -> Iterator[Move]:
    """Every pair and King that may be removed now (``_position.Deal.steps`` decides which), in a
    stable order (``_removals_in_order``)."""
    deal, position = position_of(state)
    for step in _removals_in_order(deal, position, list(deal.steps(position))):
        yield deal.move(step)


def _removals_in_order(deal: Deal, position: Position, steps: list[Step]) -> list[Step]:
    """The Kings and pairs among ``steps``: the Kings, then the pairs of two free cards, each in the
    order of the cards in play (the free pyramid cards by slot, then each waste pile's top), then a
    card with the one card still covering it, then the card just drawn with the card beneath it."""
    free = deal.pyramid_moves(position[0])[0]
    pile_of_top = {pile[-1]: i for i, pile in enumerate(position[2]) if pile}

    def in_play_at(where: Where) -> int:
        kind, n = where
        return free.index(n) if kind == "slot" else len(free) + pile_of_top[n]

    def order(step: Step) -> tuple[int, ...]:
        cards = cast(tuple[Where, ...], step[1:])  # (a King's or a pair's: cards)
        if step[0] == "pair" and all(kind == "slot" for kind, _ in cards) and not all(n in free for _, n in cards):
            return (2, *(n for _, n in cards))  # a card, then the one card covering it
        if step[0] == "pair" and all(kind == "pile" for kind, _ in cards) and not deal.several:
            return (3,)  # the card just drawn and the card beneath it
        return (0 if step[0] == "king" else 1, *sorted(in_play_at(where) for where in cards))

    return sorted((step for step in steps if step[0] in ("king", "pair")), key=order)


def legal_moves(state: GameState) -> list[Move]:
    """What may be played now: removals, then draw or recycle (``_position.Deal.steps``), then undo
    (never after a win; only undo once the game is blocked)."""
    if state.status == WON:
        return []
    if state.status == BLOCKED:
        return [Move.undo()] if state.history else []
    deal, position = position_of(state)
    steps = list(deal.steps(position))
    moves = [deal.move(step) for step in _removals_in_order(deal, position, steps)]
    moves += [deal.move(step) for step in steps if step[0] in ("draw", "recycle")]
    if state.history:
        moves.append(Move.undo())
    return moves


# -- Undo ------------------------------------------------------------------------------------------


def unapply(state: GameState, action: Action) -> GameState:
    """The position before ``action`` (score, piles, recycle count; not the move counter).
    «Las cartas vuelven a su sitio y se restan los puntos del movimiento.»"""
    piles = list(waste_piles(state))
    if action.type == "draw":
        index = (action.pile or 1) - 1
        cut = len(piles[index]) - action.drawn
        stock = piles[index][cut:] + state.stock
        piles[index] = piles[index][:cut]
        return state.evolve(stock=stock, waste=piles[0], piles=tuple(piles[1:]))
    if action.type == "recycle":
        sizes = action.sizes or (len(state.stock),)
        starts = [sum(sizes[:i]) for i in range(len(sizes) + 1)]
        piles = [state.stock[starts[i] : starts[i + 1]] for i in range(len(sizes))]
        return state.evolve(stock=(), waste=piles[0], piles=tuple(piles[1:]), recycles=state.recycles - 1)
    pyramid = list(state.pyramid)
    for card, origin in sorted(action.removed, key=lambda item: item[1]):  # W2 back before W
        if origin >= 0:
            pyramid[origin] = card
        else:
            piles[_pile_index(origin)] += (card,)
    return state.evolve(
        pyramid=tuple(pyramid),
        waste=piles[0],
        piles=tuple(piles[1:]),
        foundation=state.foundation[: -len(action.removed)],
        score=state.score - action.points,
    )


def _undo(state: GameState) -> Turn:
    """«El botón Deshacer permite deshacer las 100 últimas acciones [...]; el contador de
    movimientos, en cambio, no disminuye.» A won game is over; a blocked one may be undone. Under
    ``unlimited_undo`` (004): «Puedes deshacer tantas veces como quieras [...] Sin embargo, cada
    deshacer cuenta como un nuevo movimiento»."""
    if state.status == WON:
        raise IllegalMoveError("game_over", field="move")
    if not state.history:
        raise IllegalMoveError("nothing_to_undo", field="move")
    action = state.history[-1]
    before = unapply(state, action).evolve(
        history=state.history[:-1],
        selected=None,
        log=state.log + ("undo",),
        moves=state.moves + 1 if state.rules.unlimited_undo else state.moves,
    )
    return _settle(before, (Event("undone", points=-action.points, action=str(action)),))


# -- Tap play --------------------------------------------------------------------------------------


def _tap_card(state: GameState, card: Card) -> Turn:
    """Tap play, as in the app:
    «Tocar una carta cubierta [...] no hace nada; con la ayuda para errores activada, la aplicación
    muestra "Esta carta está bloqueada por otra".» A King goes with one tap. A first tap selects; a
    second tap on a card summing 13 removes both; «Dos cartas que no sumen 13 [...] no se retiran:
    la aplicación muestra "La suma debe ser igual a 13" y mantiene seleccionada la segunda carta.»
    Tapping the selected card again deselects it. Under Apophis a card in hand goes back to the
    stock when a card in play is tapped (a tap on a covered card still does nothing)."""
    origin = where(state, card)
    covered = origin is not None and origin >= 0 and not is_free(state.pyramid, origin)
    if in_hand(state, state.selected) and not covered:
        state = state.evolve(selected=None)
    selected = state.selected
    # the selected card and this one go together if the position's moves list that pair: a free
    # card with a card summing 13, and under the variants a card with «la única carta que todavía
    # la cubre» and the card just drawn with the one beneath
    pairs_with_selected = selected is not None and selected != card and is_listed(state, (selected, card))

    def remove_with_selected() -> Turn:
        return _remove(state.evolve(selected=None), ((selected, where(state, selected)), (card, origin)))  # type: ignore[arg-type]

    if covered:
        if pairs_with_selected:
            return remove_with_selected()
        if selected is not None:
            refusal(state, Move.pair(card, selected))  # (a sentence refuses it: the card is covered)
        return Turn(state, (), "card_blocked" if state.error_help else None)
    if origin == WASTE_SECOND and pairs_with_selected:
        return remove_with_selected()
    if not is_available(state, origin):
        raise not_in_play(state, card, "move.card")
    if card.is_king:
        if not is_listed(state, (card,)):
            raise refusal(state, Move.king(card))
        return _remove(state.evolve(selected=None), ((card, origin),))  # type: ignore[arg-type]
    if selected is None:
        return Turn(state.evolve(selected=card), (Event("selected", (card,)),))
    if selected == card:
        return Turn(state.evolve(selected=None), (Event("deselected", (card,)),))
    if pairs_with_selected:
        return remove_with_selected()
    return Turn(state.evolve(selected=card), (Event("selected", (card,)),), refusal(state, Move.pair(selected, card)).code)


def _tap_stock(state: GameState) -> Turn:
    """«Se puede tocar el mazo en cualquier momento»: it draws, or recycles when it is empty. Under
    Apophis the draw goes where the player chooses: a tap turns the stock's card up, in hand (a
    second tap puts it back), and a tap on a pile puts it there (:func:`_tap_pile`)."""
    if state.stock and state.piles:
        card = state.stock[0]
        if state.selected == card:
            return Turn(state.evolve(selected=None), (Event("deselected", (card,)),))
        return Turn(state.evolve(selected=card), (Event("selected", (card,)),))
    if state.stock:
        return _draw(state)
    if not any(waste_piles(state)):
        return Turn(state, (), "stock_empty")
    if not recycles_left(state):
        return Turn(state, (), "no_recycles_left")
    return _recycle(state)


def _tap_pile(state: GameState, pile: str) -> Turn:
    """Apophis: a tap on a waste pile puts the card in hand there (a draw onto that pile); with no
    card in hand it does nothing."""
    if not state.piles:
        raise IllegalMoveError("no_such_pile", field="move.pile", pile=pile)
    if not in_hand(state, state.selected):
        return Turn(state, ())
    return _draw(state, pile)


# -- The one entry point ---------------------------------------------------------------------------


def play(state: GameState, move: Move) -> Turn:
    """Play ``move`` in ``state``; raise IllegalMoveError if the rules forbid it."""
    if move.type == "undo":
        return _undo(state)
    if state.status != PLAYING:
        raise IllegalMoveError("game_over", field="move", status=state.status)
    if move.type in ("pair", "king"):
        if not is_listed(state, move.cards):
            raise refusal(state, move)
        return _remove(state, tuple((card, cast(int, where(state, card))) for card in move.cards))
    if move.type == "draw":
        return _draw(state, move.pile)
    if move.type == "recycle":
        return _recycle(state)
    if move.pile == "stock":
        return _tap_stock(state)
    if move.pile is not None:
        return _tap_pile(state, move.pile)
    return _tap_card(state, move.cards[0])



# -- Replay ----------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Replay:
    """Moves played one after the other from a state: where they led, and the first one refused."""

    #: The state after the last move played.
    state: GameState
    #: How many moves were played: the index of the refused one, if any.
    played: int
    #: Why the move at ``played`` was refused; None when all were played.
    refused: IllegalMoveError | None = None


def replay(state: GameState, moves: Iterable[Move]) -> Replay:
    """Play ``moves`` in turn from ``state``, stopping at the first the rules refuse. How a state's
    log is checked, and how a claimed result is verified (``POST /v1/replay``)."""
    # Each move is played on a state with an empty log, its own entry collected here, and the
    # whole log put together once at the end: ``play`` writes the log it is given plus one
    # entry, and a log copied at every move would make the replay quadratic in its length.
    # Under unlimited_undo the undo history grows with the log and ``play`` copies it too: the
    # state played on holds only its newest UNDO_LIMIT to 3 × UNDO_LIMIT actions (all when
    # fewer), the older ones wait in ``older``, and the whole history too is put together once
    # at the end. ``play`` reads only the history's newest actions (undo its last; «mazo contra
    # descarte» looks back past at most the pyramid's removals, 55 at most), so it
    # sees what it would see in the whole history, as it does under the app's rules, which keep
    # only UNDO_LIMIT.
    log, played = state.log, 0
    added: list[str] = []
    older: list[Action] = []
    state = state._replace(log=())
    windowed = state.rules.unlimited_undo
    for move in moves:
        if windowed and (len(state.history) > 3 * UNDO_LIMIT or (older and len(state.history) < UNDO_LIMIT)):
            state = _window(state, older)
        try:
            after = play(state, move).state
        except IllegalMoveError as error:
            return Replay(_whole(state, log, added, older), played, error)
        if after.log:
            added += after.log
            after = after._replace(log=())
        state = after
        played += 1
    return Replay(_whole(state, log, added, older), played)


def _window(state: GameState, older: list[Action]) -> GameState:
    """``state`` holding the newest 2 × UNDO_LIMIT actions of its history (all when fewer), the
    older ones moved to or from the end of ``older`` (oldest first): the window is moved again
    only after UNDO_LIMIT more actions or undos, so each action is moved a bounded number of times."""
    history = state.history
    if len(history) > 3 * UNDO_LIMIT:
        cut = len(history) - 2 * UNDO_LIMIT
        older += history[:cut]
        return state._replace(history=history[cut:])
    take = min(len(older), 2 * UNDO_LIMIT - len(history))
    state = state._replace(history=(*older[len(older) - take :], *history))
    del older[len(older) - take :]
    return state


def _whole(state: GameState, log: tuple[str, ...], added: list[str], older: list[Action]) -> GameState:
    """The state a replay led to, with its whole log and undo history."""
    return state._replace(log=log + tuple(added), history=(*older, *state.history) if older else state.history)
