"""The adversary's broken engines: each breaks exactly one rule of the rule documents (000/002)
or of the documented API, the way a real implementation slips.

``MUTANTS`` maps a name to a :class:`Mutant`: the function that applies the break (monkeypatching
``service.engine`` and the app's references to it), the rule sentence it breaks (quoted from
000, or from the API documents where the rule documents are silent) and one line saying how.
:func:`applied` applies one and undoes it; :func:`apply` applies one for the rest of the process
(``tests/adversary/worker.py``, one process per mutant).

A state is its deal code and its log: ``GameState.from_json`` replays the log through ``play``,
so a broken ``play`` replays its own log its own way and derives its own fields. A break that
lives only on the tap path (a tap is logged as the pair, King, draw or recycle it played) is the
exception: the state it returns disagrees with what its log replays, and the engine refuses its
own state on the next request. The runner reports which catches came only from such a refusal.

The selection is the one field a state takes from the client: where a break keeps a selection the
reference would drop, the mutant also widens ``is_selectable`` (which both ``from_json`` and the
drop after each action consult), so that its engine accepts the states it returns.
"""

from __future__ import annotations

import contextlib
import functools
import sys
from dataclasses import replace
from typing import Callable, Iterator, NamedTuple

from service.engine import _codes, _describe, _layout, _moves, _play, _rules, _state
from service.engine._cards import Card
from service.engine._errors import IllegalMoveError, PyramideError
from service.engine._layout import POSITION, Layout
from service.engine._shape import COVERED_BY_SLOTS, covered_by
from service.engine._moves import WASTE_SECOND, WASTE_TOP, Action, Move
from service.engine._play import Event, Turn
from service.engine._state import BLOCKED, PLAYING, WON, GameState
from service.locales import LANGUAGES, catalogue

#: The slots that cover each slot of the app's 7-row pyramid.
COVERED_BY = covered_by(7)


class Mutant(NamedTuple):
    name: str
    #: Applies the break to the engine of this process.
    patch: Callable[[], None]
    #: The rule sentence broken (000, or «(api: …)» for the documented API).
    rule: str
    #: How it breaks, in one line.
    how: str


MUTANTS: dict[str, Mutant] = {}


def mutant(rule: str, how: str):
    def register(fn):
        if fn.__name__ in MUTANTS:
            raise ValueError(f"two mutants named {fn.__name__}")
        MUTANTS[fn.__name__] = Mutant(fn.__name__, fn, rule, how)
        return fn

    return register


# -- Applying and undoing ------------------------------------------------------------------------

#: Classes whose attributes a break may replace.
_CLASSES = (GameState, Action, Layout, Move, Event, Turn, Card, _rules.Rules)


def _modules() -> list:
    return [module for name, module in sorted(sys.modules.items()) if name == "service" or name.startswith("service.")]


def snapshot() -> dict:
    """Everything a break may change: the service's module globals, the attributes of the engine's
    classes, the tables it edits in place (origins' texts, presets) and the message catalogues."""
    _api()  # the app's module, whose references to play, legal_moves and describe a break may replace
    return {
        "modules": {module.__name__: (module, dict(vars(module))) for module in _modules()},
        "classes": {cls.__qualname__: (cls, dict(vars(cls))) for cls in _CLASSES},
        "tables": {
            name: (table, dict(table))
            for name, table in (
                ("_moves._ORIGIN_TEXT", _moves._ORIGIN_TEXT),
                ("_moves._ORIGIN_OF_TEXT", _moves._ORIGIN_OF_TEXT),
                ("_rules.PRESETS", _rules.PRESETS),
            )
        },
        "messages": {lang: (catalogue(lang).messages, dict(catalogue(lang).messages)) for lang in LANGUAGES},
    }


def differences(saved: dict) -> list[str]:
    """What changed since ``saved``: the names of the globals, attributes and entries replaced."""
    changed = []
    for name, (module, before) in saved["modules"].items():
        now = vars(module)
        changed += [f"{name}.{key}" for key in before.keys() | now.keys() if now.get(key, _NONE) is not before.get(key, _NONE)]
    for name, (cls, before) in saved["classes"].items():
        now = vars(cls)
        changed += [f"{name}.{key}" for key in before.keys() | now.keys() if now.get(key, _NONE) is not before.get(key, _NONE)]
    for group in ("tables", "messages"):
        for name, (table, before) in saved[group].items():
            changed += [f"{name}[{key!r}]" for key in before.keys() | table.keys() if table.get(key, _NONE) != before.get(key, _NONE)]
    return sorted(changed)


_NONE = object()


def restore(saved: dict) -> None:
    for _, (module, before) in saved["modules"].items():
        now = vars(module)
        for key in list(now):
            if key not in before:
                del now[key]
        for key, value in before.items():
            if now.get(key, _NONE) is not value:
                now[key] = value
    for _, (cls, before) in saved["classes"].items():
        for key in list(vars(cls)):
            if key not in before:
                delattr(cls, key)
        for key, value in before.items():
            if vars(cls).get(key, _NONE) is not value:
                setattr(cls, key, value)
    for group in ("tables", "messages"):
        for _, (table, before) in saved[group].items():
            table.clear()
            table.update(before)
    clear_caches()


def clear_caches() -> None:
    """Empty the engine's lru_caches (the deal of a code, parsed actions and moves): what they hold
    was computed by whichever engine filled them."""
    for module in _modules():
        if module.__name__.startswith("service.engine"):
            for value in list(vars(module).values()):
                clear = getattr(value, "cache_clear", None)
                if callable(clear) and not isinstance(value, type):  # a cache's class: its instance is cleared
                    clear()


#: The rules' sentences in ``_play`` that say whether a card is in play and whether two cards pair.
#: Our ``play`` makes a removal only if the one move generator (``_position.Deal.steps``, through ``_play.is_listed``) lists it,
#: and reads these for the reason of a refusal; an engine that breaks one of them decides by them.
SENTENCES = (
    "pairs", "is_free", "_only_cover", "_check_playable", "pair_origins", "king_origin",
    "drawn_pairs_with_waste_now", "top_just_drawn", "is_available", "where",
)  # fmt: skip


def decided_by_sentences(state: GameState, cards: tuple[Card, ...]) -> bool:
    """``_play.is_listed`` in an engine whose sentences decide: a removal no sentence refuses."""
    return _play.sentence_broken(state, cards) is None


def apply(name: str) -> None:
    """Apply mutant ``name`` to this process, for good. A mutant that breaks one of the rules'
    ``SENTENCES`` breaks how its engine decides a removal too (``decided_by_sentences``)."""
    before = {sentence: getattr(_play, sentence) for sentence in SENTENCES}
    MUTANTS[name].patch()
    if any(getattr(_play, sentence) is not was for sentence, was in before.items()):
        _play.is_listed = decided_by_sentences
    clear_caches()


@contextlib.contextmanager
def applied(name: str) -> Iterator[list[str]]:
    """Apply mutant ``name``, yield what it changed, then undo it."""
    saved = snapshot()
    try:
        apply(name)
        yield differences(saved)
    finally:
        restore(saved)


# -- Helpers -------------------------------------------------------------------------------------


def _api():
    import service.api._app as app  # noqa: PLC0415

    return app


def set_play(fn) -> None:
    """Replace ``play`` everywhere: the engine (whose ``replay`` calls it, so a state's log is
    replayed by the broken engine too), its package and the app."""
    import service.engine as engine  # noqa: PLC0415

    _play.play = engine.play = _api().play = fn


def set_legal_moves(fn) -> None:
    import service.engine as engine  # noqa: PLC0415

    _play.legal_moves = engine.legal_moves = _api().legal_moves = fn


def set_describe(fn) -> None:
    import service.engine as engine  # noqa: PLC0415

    _describe.describe = engine.describe = _api().describe = fn


def set_points(fn) -> None:
    """Replace the scoring of a removal (``Action.points``; ``removal_points`` is the reference)."""
    Action.points = property(fn)


def reference_points(action: Action) -> int:
    return _moves.removal_points(action.removed)


def after(module, name: str, install: Callable | None = None):
    """Decorator for a break that changes what ``module.name`` returns: the decorated
    ``change(t, *args)`` is called with the original's result ``t`` and its arguments, and the
    wrapper returns what ``change`` returns, or ``t`` where that is None.

    The wrapper replaces the module global, which :func:`restore` puts back like any other;
    ``install`` (``set_play``) puts it instead in every place that holds the function."""

    def decorate(change: Callable) -> Callable:
        orig = getattr(module, name)

        @functools.wraps(orig)
        def wrapper(*args, **kwargs):
            t = orig(*args, **kwargs)
            changed = change(t, *args, **kwargs)
            return t if changed is None else changed

        if install is None:
            setattr(module, name, wrapper)
        else:
            install(wrapper)
        return change

    return decorate


def turn(t: Turn, state=None, events=None, feedback="same") -> Turn:
    return Turn(
        t.state if state is None else state,
        t.events if events is None else tuple(events),
        t.feedback if feedback == "same" else feedback,
    )


def covered(state, card) -> bool:
    origin = _play.where(state, card)
    return origin is not None and origin >= 0 and not _play.is_free(state.pyramid, origin)


def message(lang: str, key: str, text: str) -> None:
    catalogue(lang).messages[key] = text


def goes_on(state) -> str:
    """The reference's status while a card is left to draw or recycle: playing, unless no card can
    ever be removed again under «victoria estricta» with unlimited recycling (for the mutants that
    rewrite ``status_of`` to break another part of it)."""
    return BLOCKED if _play.never_another_removal(state) else PLAYING


def also_selectable(extra: Callable[[GameState, Card], bool]) -> None:
    """Widen ``is_selectable`` (what a state's ``selected`` may be, and what survives an action)."""
    orig = _play.is_selectable

    @functools.wraps(orig)
    def is_selectable(state, card):
        return orig(state, card) or extra(state, card)

    _play.is_selectable = is_selectable



# ----------------------------------------------------------------------------------------------
# La preparación
# ----------------------------------------------------------------------------------------------


@mutant(
    "La aplicación da la vuelta a una carta y la coloca en el descarte, y pone las 23 cartas restantes en el mazo",
    "random (seed-code) deals under the app's rules turn no card onto the waste: 24 in the stock",
)
def random_deal_no_waste_card():
    orig = _codes.parse_code

    def parse_code(code):
        rules, layout, canonical = orig(code)
        if len(canonical.split("-")[2]) == 7 and rules.initial_waste:
            layout = Layout(layout.pyramid, (), layout.waste + layout.stock)
        return rules, layout, canonical

    _codes.parse_code = _state.parse_code = parse_code
    _state._deal.cache_clear()


@mutant(
    "(variante tradicional, 003) initial_waste=false: mazo de 24 cartas sin descarte",
    "random deals under initial_waste=false still turn one card onto the waste (23 in the stock)",
)
def traditional_random_deal_turns_waste():
    orig = _codes.parse_code

    def parse_code(code):
        rules, layout, canonical = orig(code)
        if len(canonical.split("-")[2]) == 7 and not rules.initial_waste:
            layout = Layout(layout.pyramid, layout.stock[:1], layout.stock[1:])
        return rules, layout, canonical

    _codes.parse_code = _state.parse_code = parse_code
    _state._deal.cache_clear()


# ----------------------------------------------------------------------------------------------
# Las cartas libres
# ----------------------------------------------------------------------------------------------


@mutant(
    "Una carta de la pirámide está libre cuando se han retirado las dos cartas que la cubren",
    "a card is free as soon as EITHER covering card is removed",
)
def free_when_either_cover_gone():
    def is_free(pyramid, slot):
        covers = COVERED_BY[slot]
        return pyramid[slot] is not None and (not covers or any(pyramid[c] is None for c in covers))

    _play.is_free = is_free


@mutant(
    "Cada carta está parcialmente cubierta por dos cartas de la fila de debajo",
    "the rightmost card of each row only checks its left covering card (edge off-by-one)",
)
def rightmost_card_half_covered():
    def is_free(pyramid, slot):
        covers = COVERED_BY[slot]
        row, pos = POSITION[slot]
        if covers and pos == row:
            covers = covers[:1]
        return pyramid[slot] is not None and all(pyramid[c] is None for c in covers)

    _play.is_free = is_free


def _remove_by_identity(state, removed):
    """``_play._remove``, taking waste cards out by identity (the card under the top may leave alone)."""
    removed = tuple(sorted(removed, key=lambda item: item[0].index))  # deck order, as the log replays it
    action = Action("remove", removed)
    pyramid = list(state.pyramid)
    waste = list(state.waste)
    for card, origin in removed:
        if origin >= 0:
            pyramid[origin] = None
        else:
            waste.remove(card)
    after = state.evolve(
        pyramid=tuple(pyramid),
        waste=tuple(waste),
        foundation=state.foundation + tuple(card for card, _ in removed),
        score=state.score + action.points,
    )
    return _play._after_action(after, action, Event("removed", tuple(c for c, _ in removed), action.points))


@mutant(
    "La carta superior del descarte también está libre; las demás cartas del descarte deben esperar",
    "a `pair` move may use the card UNDER the waste top with a free pyramid card (only W+W2 is forbidden)",
)
def waste_second_pairs_with_pyramid():
    orig = _play._check_playable

    def check(state, card, origin, partner=None):
        if origin == WASTE_SECOND and partner is not None and partner >= 0:
            return
        orig(state, card, origin, partner)

    _play._check_playable = check
    _play._remove = _remove_by_identity
    orig_unapply = _play.unapply

    def unapply(state, action):
        origins = [o for _, o in action.removed]
        if action.type == "remove" and WASTE_SECOND in origins and WASTE_TOP not in origins:
            pyramid, waste = list(state.pyramid), state.waste
            for card, origin in action.removed:
                if origin >= 0:
                    pyramid[origin] = card
                else:  # back under the waste top it was taken from
                    waste = waste[:-1] + (card,) + waste[-1:]
            return state.evolve(
                pyramid=tuple(pyramid),
                waste=waste,
                foundation=state.foundation[: -len(action.removed)],
                score=state.score - action.points,
            )
        return orig_unapply(state, action)

    _play.unapply = unapply


@mutant(
    "las demás cartas del descarte deben esperar / (api) a tap on a card not in play is a 422 card_not_free",
    "tapping a waste card under the top answers 200 with feedback card_blocked instead of 422 card_not_free",
)
def deep_waste_tap_says_blocked():
    orig = _play._tap_card

    def tap(state, card):
        if card in state.waste[:-1]:
            return Turn(state, (), "card_blocked" if state.error_help else None)
        return orig(state, card)

    _play._tap_card = tap


@mutant(
    "Tocar una carta cubierta, como el D♣ de la fila 6 al empezar, no hace nada",
    "tapping a covered card drops the current selection",
)
def blocked_tap_drops_selection():
    @after(_play, "_tap_card")
    def change(t, state, card):
        if covered(state, card) and not t.events:
            return turn(t, state=t.state.evolve(selected=None))


@mutant(
    "con la ayuda para errores activada, la aplicación muestra «Esta carta está bloqueada por otra»",
    "the card_blocked feedback is given even with error_help false",
)
def blocked_feedback_ignores_error_help():
    @after(_play, "_tap_card")
    def change(t, state, card):
        if covered(state, card) and not t.events and t.feedback is None:
            return turn(t, feedback="card_blocked")


@mutant(
    "«Esta carta está bloqueada por otra» (it: «Questa carta è bloccata da un’altra»)",
    "the Italian card_blocked message is paraphrased («Questa carta è coperta da un’altra»)",
)
def blocked_message_it_paraphrased():
    message("it", "card_blocked", "Questa carta è coperta da un’altra")


@mutant(
    "con la ayuda para errores activada, la aplicación muestra «Esta carta está bloqueada por otra»",
    "a draw resets error_help to true (the setting is lost after the first draw)",
)
def error_help_reset_by_draw():
    @after(_play, "_draw")
    def change(t, state):
        return turn(t, state=t.state.evolve(error_help=True))


@mutant(
    "la aplicación muestra «La suma debe ser igual a 13» (not tied to the error help)",
    "with error_help false the sum_not_13 feedback is muted too",
)
def error_help_off_mutes_sum_message():
    @after(_play, "_tap_card")
    def change(t, state, card):
        if t.feedback == "sum_not_13" and not state.error_help:
            return turn(t, feedback=None)


# ----------------------------------------------------------------------------------------------
# Las parejas que suman 13
# ----------------------------------------------------------------------------------------------


@mutant(
    "El rey vale 13 por sí solo / las parejas posibles son: A + Q, 2 + J, 3 + 10, 4 + 9, 5 + 8, 6 + 7",
    "the sum test is (a+b) % 13 == 0, so two Kings pair (a `pair` move K+K is accepted)",
)
def sum_modulo_13():
    _play.pairs = lambda a, b: (a.value + b.value) % 13 == 0


@mutant(
    "El as vale 1, la jota 11, la reina 12 y las demás cartas su número",
    "the ace counts 14 (ace high), so A + Q never pairs",
)
def ace_high():
    def value(card):
        return 14 if card.value == 1 else card.value

    _play.pairs = lambda a, b: value(a) + value(b) == 13


@mutant(
    "El palo no importa",
    "tap play: 'tapping the selected card again' is tested by suit, so a second card of the same suit deselects",
)
def same_suit_tap_deselects():
    orig = _play._tap_card

    def tap(state, card):
        selected = state.selected
        if (
            selected is not None
            and selected is not card
            and selected.suit == card.suit
            and not card.is_king
            and _play.is_available(state, _play.where(state, card))
        ):
            return Turn(state.evolve(selected=None), (Event("deselected", (selected,)),))
        return orig(state, card)

    _play._tap_card = tap


@mutant(
    "no se retiran: la aplicación muestra «La suma debe ser igual a 13» y mantiene seleccionada la segunda carta",
    "after a sum_not_13 tap the FIRST card stays selected",
)
def sum_not_13_keeps_first():
    @after(_play, "_tap_card")
    def change(t, state, card):
        if t.feedback == "sum_not_13":
            return turn(t, state=t.state.evolve(selected=state.selected))


@mutant(
    "la aplicación muestra «La suma debe ser igual a 13» (fr: «La somme doit être égale à 13»)",
    "the French sum_not_13 message is paraphrased («La somme doit faire 13»)",
)
def sum_not_13_message_fr():
    message("fr", "sum_not_13", "La somme doit faire 13")


@mutant(
    "mantiene seleccionada la segunda carta (api: events `selected`)",
    "the sum_not_13 tap selects the second card but emits no `selected` event",
)
def sum_not_13_no_selected_event():
    @after(_play, "_tap_card")
    def change(t, state, card):
        if t.feedback == "sum_not_13":
            return turn(t, events=())


@mutant(
    "El rey vale 13 por sí solo: basta con tocarlo una vez para retirarlo",
    "tapping a free King while another card is selected answers sum_not_13 and removes nothing",
)
def king_tap_with_selection_sum_not_13():
    orig = _play._tap_card

    def tap(state, card):
        if card.is_king and state.selected is not None and _play.is_available(state, _play.where(state, card)):
            return Turn(state, (), "sum_not_13")
        return orig(state, card)

    _play._tap_card = tap


@mutant(
    "tanto si está libre en la pirámide como si está en el descarte",
    "a `king` move refuses the waste-top King (card_not_free); tapping it still works",
)
def waste_king_move_refused():
    orig = _play.play

    def play(state, move):
        if move.type == "king" and _play.where(state, move.cards[0]) == WASTE_TOP and state.status == PLAYING:
            raise IllegalMoveError("card_not_free", field="move", card=move.cards[0].code)
        return orig(state, move)

    set_play(play)


@mutant(
    "basta con tocarlo una vez para retirarlo, tanto si está libre en la pirámide como si está en el descarte",
    "a tap on a King on the waste top selects it (one-tap removal only for pyramid Kings)",
)
def waste_king_tap_selects():
    orig = _play._tap_card

    def tap(state, card):
        if card.is_king and _play.where(state, card) == WASTE_TOP:
            if state.selected is None:
                return Turn(state.evolve(selected=card), (Event("selected", (card,)),))
            if state.selected is card:
                return Turn(state.evolve(selected=None), (Event("deselected", (card,)),))
            return Turn(state.evolve(selected=card), (Event("selected", (card,)),), "sum_not_13")
        return orig(state, card)

    _play._tap_card = tap
    also_selectable(lambda state, card: card.is_king and _play.where(state, card) == WASTE_TOP)


@mutant(
    "La carta superior del descarte se empareja con una carta libre de la pirámide",
    "tap play: pyramid card first, then the waste top summing 13 -> sum_not_13 (waste works only as first tap)",
)
def waste_top_second_tap_no_pair():
    orig = _play._tap_card

    def tap(state, card):
        selected = state.selected
        if (
            _play.where(state, card) == WASTE_TOP
            and not card.is_king
            and selected is not None
            and selected is not card
            and _play.where(state, selected) is not None
            and _play.where(state, selected) >= 0
        ):
            return Turn(state.evolve(selected=card), (Event("selected", (card,)),), "sum_not_13")
        return orig(state, card)

    _play._tap_card = tap


@mutant(
    "La carta superior del descarte se empareja con una carta libre de la pirámide",
    "a pair with the waste top does not check that the pyramid card is free",
)
def waste_top_pairs_with_covered_card():
    orig = _play._check_playable

    def check(state, card, origin, partner=None):
        if origin is not None and origin >= 0 and partner == WASTE_TOP:
            return
        orig(state, card, origin, partner)

    _play._check_playable = check
    orig_tap = _play._tap_card

    def tap(state, card):
        selected = state.selected
        if (
            covered(state, card)
            and selected is not None
            and _play.where(state, selected) == WASTE_TOP
            and _play.pairs(selected, card)
        ):
            return _play._remove(
                state.evolve(selected=None), ((selected, WASTE_TOP), (card, _play.where(state, card)))
            )
        return orig_tap(state, card)

    _play._tap_card = tap


# ----------------------------------------------------------------------------------------------
# El mazo y el descarte
# ----------------------------------------------------------------------------------------------


@mutant(
    "La carta superior del descarte ... solo cuenta la carta superior (api: a draw covering a selected waste top drops the selection)",
    "after a draw, a selected waste top stays selected although it is now covered (the card under the top counts as selectable)",
)
def draw_keeps_covered_waste_selected():
    # The selection survives an action while it is selectable: the card under the waste top now is.
    also_selectable(lambda state, card: not card.is_king and _play.where(state, card) == WASTE_SECOND)


@mutant(
    "Se puede tocar el mazo en cualquier momento (rules.md: a selection still in play is kept)",
    "a draw clears a selected pyramid card",
)
def draw_clears_selection():
    @after(_play, "_draw")
    def change(t, state):
        return turn(t, state=t.state.evolve(selected=None))


@mutant(
    "Se puede tocar el mazo en cualquier momento para pasar su carta superior al descarte",
    "tap on the stock while a card is selected only deselects it (no draw); the `draw` move works",
)
def tap_stock_with_selection_only_deselects():
    orig = _play._tap_stock

    def tap_stock(state):
        if state.selected is not None:
            return Turn(state.evolve(selected=None), (Event("deselected", (state.selected,)),))
        return orig(state)

    _play._tap_stock = tap_stock


@mutant(
    "Cuando el mazo está vacío, al tocarlo se recicla el descarte",
    "tap:stock on an empty stock answers stock_empty; only the `recycle` move recycles",
)
def tap_stock_never_recycles():
    orig = _play._tap_stock

    def tap_stock(state):
        if not state.stock and state.waste:
            return Turn(state, (), "stock_empty")
        return orig(state)

    _play._tap_stock = tap_stock


@mutant(
    "Se puede tocar el mazo en cualquier momento para pasar su carta superior al descarte",
    "tap:stock with exactly ONE card left answers stock_empty (off by one); `draw` works",
)
def tap_stock_last_card_says_empty():
    orig = _play._tap_stock

    def tap_stock(state):
        if len(state.stock) == 1:
            return Turn(state, (), "stock_empty")
        return orig(state)

    _play._tap_stock = tap_stock


@mutant(
    "Se puede tocar el mazo en cualquier momento para pasar su carta superior al descarte",
    "tap:stock tests the waste before the stock: with an empty waste (24-card stock, or waste cleared) it says stock_empty",
)
def tap_stock_checks_waste_first():
    orig = _play._tap_stock

    def tap_stock(state):
        if not state.waste:
            return Turn(state, (), "stock_empty")
        return orig(state)

    _play._tap_stock = tap_stock


@mutant(
    "todas sus cartas vuelven al mazo, en el mismo orden y sin límite de pasadas",
    "the SECOND recycle turns the waste over in reverse order (the first is right)",
)
def second_recycle_reversed():
    @after(_play, "_recycle")
    def change(t, state):
        if t.state.recycles == 2:
            return turn(t, state=t.state.evolve(stock=tuple(reversed(t.state.stock))))


@mutant(
    "Cuando el mazo está vacío, al tocarlo se recicla el descarte",
    "a `recycle` move with cards still in the stock is accepted (waste goes under the stock)",
)
def recycle_allowed_with_stock():
    orig = _play._recycle

    def recycle(state):
        if state.stock and state.waste and _play.recycles_left(state):
            after = state.evolve(stock=state.waste + state.stock, waste=(), recycles=state.recycles + 1)
            return _play._after_action(after, Action("recycle"), Event("recycled", state.waste))
        return orig(state)

    _play._recycle = recycle


@mutant(
    "el número de movimientos (retiradas, robos y reciclajes)",
    "a recycle does not count as a move",
)
def recycle_not_counted_as_move():
    @after(_play, "_recycle")
    def change(t, state):
        return turn(t, state=t.state.evolve(moves=t.state.moves - 1))


@mutant(
    "el contador de movimientos, en cambio, no disminuye (undo is not a move either)",
    "undo adds one to the move counter",
)
def undo_counts_as_move():
    @after(_play, "_undo")
    def change(t, state):
        return turn(t, state=t.state.evolve(moves=t.state.moves + 1))


@mutant(
    "el número de movimientos (retiradas, robos y reciclajes)",
    "a tap that only selects a card counts as a move",
)
def select_tap_counts_as_move():
    @after(_play, "_tap_card")
    def change(t, state, card):
        if t.events and t.events[0].type == "selected" and t.feedback is None:
            return turn(t, state=t.state.evolve(moves=t.state.moves + 1))


@mutant(
    "el número de movimientos (retiradas, robos y reciclajes)",
    "a refused pairing (sum_not_13 tap) counts as a move",
)
def refused_tap_counts_as_move():
    @after(_play, "_tap_card")
    def change(t, state, card):
        if t.feedback == "sum_not_13":
            return turn(t, state=t.state.evolve(moves=t.state.moves + 1))


@mutant(
    "el número de movimientos (retiradas, robos y reciclajes)",
    "a King removed by a TAP is not counted as a move (the `king` move is)",
)
def king_tap_not_counted():
    @after(_play, "_tap_card")
    def change(t, state, card):
        if card.is_king and t.events and t.events[0].type == "removed":
            return turn(t, state=t.state.evolve(moves=t.state.moves - 1))


@mutant(
    "pasadas limitadas (solo se puede volver a recorrer el mazo un número limitado de veces, o ninguna)",
    "max_recycles = n allows n+1 recycles (<= instead of <)",
)
def recycle_limit_off_by_one():
    def recycles_left(state):
        limit = state.rules.max_recycles
        return limit is None or state.recycles <= limit

    _play.recycles_left = recycles_left


@mutant(
    "pasadas limitadas (... o ninguna)",
    "max_recycles = 0 is read as 'no limit' (falsy test `if not limit`)",
)
def zero_recycles_means_unlimited():
    def recycles_left(state):
        limit = state.rules.max_recycles
        return not limit or state.recycles < limit

    _play.recycles_left = recycles_left


@mutant(
    "Se puede volver a recorrer el mazo sin límite / sin límite de pasadas",
    "under the app's rules the third recycle is refused (a default limit of 2)",
)
def unlimited_recycles_capped_at_two():
    def recycles_left(state):
        limit = state.rules.max_recycles
        return state.recycles < (2 if limit is None else limit)

    _play.recycles_left = recycles_left


@mutant(
    "pasadas limitadas (api: a tap on the stock that can do nothing answers no_recycles_left)",
    "with no recycle left, tap:stock answers stock_empty instead of no_recycles_left",
)
def no_recycles_left_says_stock_empty():
    @after(_play, "_tap_stock")
    def change(t, state):
        if t.feedback == "no_recycles_left":
            return turn(t, feedback="stock_empty")


@mutant(
    "solo declara el bloqueo ... cuando el mazo y el descarte están vacíos (rules.md: with no recycle left the waste is nothing to recycle)",
    "under limited passes the game is never blocked while the waste holds cards",
)
def limited_passes_never_blocked():
    def status_of(state):
        if _play.is_won(state):
            return WON
        if state.stock or state.waste:
            return goes_on(state)
        return PLAYING if next(_play.removals(state), None) is not None else BLOCKED

    _play.status_of = status_of


@mutant(
    "Mientras quede alguna carta que robar o reciclar, la partida continúa, aunque ya no se pueda retirar nada",
    "blocked once the STOCK is empty and nothing can be removed, though the waste could be recycled",
)
def blocked_though_waste_can_recycle():
    def status_of(state):
        if _play.is_won(state):
            return WON
        if state.stock:
            return goes_on(state)
        return PLAYING if next(_play.removals(state), None) is not None else BLOCKED

    _play.status_of = status_of


@mutant(
    "cuando el mazo y el descarte están vacíos y no se puede jugar ninguna pareja ni ningún rey",
    "with stock and waste empty, only Kings are looked for: blocked though a pyramid pair is free",
)
def blocked_checks_kings_only():
    def status_of(state):
        if _play.is_won(state):
            return WON
        if state.stock or (state.waste and _play.recycles_left(state)):
            return goes_on(state)
        return PLAYING if any(m.type == "king" for m in _play.removals(state)) else BLOCKED

    _play.status_of = status_of


@mutant(
    "La aplicación solo declara el bloqueo, «No hay más movimientos posibles»",
    "when the blocking move is a TAP the `blocked` feedback is missing (status and event right)",
)
def blocked_feedback_missing_on_tap():
    @after(_play, "play", install=set_play)
    def change(t, state, move):
        if move.type == "tap" and t.feedback == "blocked":
            return turn(t, feedback=None)


@mutant(
    "la aplicación solo declara el bloqueo, «No hay más movimientos posibles»",
    "the Spanish blocked message is paraphrased («No quedan movimientos posibles»)",
)
def blocked_message_es_paraphrased():
    message("es", "blocked", "No quedan movimientos posibles")


@mutant(
    "La carta superior del descarte cuenta como una carta libre (api: legal-moves lists what `moves` accepts)",
    "POST /v1/legal-moves omits every removal involving the waste top",
)
def legal_moves_omit_waste_top():
    orig = _play.legal_moves

    def legal_moves(state):
        moves = orig(state)
        if not state.waste:
            return moves
        top = state.waste[-1]
        return [m for m in moves if top not in m.cards]

    set_legal_moves(legal_moves)


@mutant(
    "pasadas limitadas (api: legal-moves lists what `moves` accepts)",
    "POST /v1/legal-moves still lists `recycle` when no recycle is left",
)
def legal_moves_recycle_past_limit():
    orig = _play.legal_moves

    def legal_moves(state):
        moves = orig(state)
        if state.status != WON and not state.stock and state.waste and not _play.recycles_left(state):
            at = len(moves) - (1 if state.history else 0)
            moves.insert(at, Move.recycle())
        return moves

    set_legal_moves(legal_moves)


# ----------------------------------------------------------------------------------------------
# El final de la partida
# ----------------------------------------------------------------------------------------------


@mutant(
    "La partida se gana en cuanto se retiran las 28 cartas de la pirámide, aunque queden cartas en el mazo o en el descarte",
    "app rules: won only once the STOCK is empty too (waste may remain)",
)
def app_win_needs_empty_stock():
    def is_won(state):
        if any(card is not None for card in state.pyramid):
            return False
        if state.rules.strict_win:
            return not (state.stock or state.waste)
        return not state.stock

    _play.is_won = is_won


@mutant(
    "victoria estricta (hay que retirar también todas las cartas del mazo y del descarte)",
    "strict win checks only the stock: won with cards left on the waste",
)
def strict_win_ignores_waste():
    def is_won(state):
        if any(card is not None for card in state.pyramid):
            return False
        return not state.rules.strict_win or not state.stock

    _play.is_won = is_won


@mutant(
    "victoria estricta (hay que retirar también todas las cartas del mazo y del descarte)",
    "strict_win ignored: won as soon as the pyramid is empty",
)
def strict_win_ignored():
    def is_won(state):
        return all(card is None for card in state.pyramid)

    _play.is_won = is_won


@mutant(
    "victoria estricta: hay que retirar también todas las cartas del mazo y del descarte",
    "strict win is only checked when a PYRAMID card is removed: clearing the last waste card (a King) does not win",
)
def strict_win_not_on_waste_removal():
    @after(_play, "_remove")
    def change(t, state, removed):
        if state.rules.strict_win and t.state.status == WON and all(o < 0 for _, o in removed):
            return Turn(t.state.evolve(status=PLAYING), tuple(e for e in t.events if e.type != "won"), t.feedback)


@mutant(
    "La partida se gana en cuanto se retiran las 28 cartas de la pirámide",
    "the win is missed when the last pyramid card goes in a pair with the waste top",
)
def win_missed_on_waste_pair():
    @after(_play, "_remove")
    def change(t, state, removed):
        if t.state.status == WON and any(o < 0 for _, o in removed) and any(o >= 0 for _, o in removed):
            return Turn(t.state.evolve(status=PLAYING), tuple(e for e in t.events if e.type != "won"), t.feedback)


@mutant(
    "La partida se gana en cuanto se retiran las 28 cartas (api: event `won`)",
    "a winning TAP sets status won but emits no `won` event",
)
def won_event_missing_on_tap():
    @after(_play, "_tap_card")
    def change(t, state, card):
        if t.state.status == WON:
            return turn(t, events=[e for e in t.events if e.type != "won"])


@mutant(
    "La partida se gana ... (rules.md: a won game is over: every move, undo included, is game_over)",
    "after a win, draw and tap:stock are still accepted",
)
def won_game_accepts_draw():
    orig = _play.play

    def play(state, move):
        if state.status == WON and (move.type == "draw" or (move.type == "tap" and move.pile == "stock")):
            return _play._draw(state) if move.type == "draw" else _play._tap_stock(state)
        return orig(state, move)

    set_play(play)


@mutant(
    "El botón Deshacer ... (rules.md: a won game is over: undo included)",
    "undo is allowed after a win",
)
def undo_after_win_allowed():
    orig = _play._undo

    def undo(state):
        if state.status == WON:
            return orig(state.evolve(status=PLAYING))
        return orig(state)

    _play._undo = undo


@mutant(
    "El botón Deshacer permite deshacer las 100 últimas acciones (rules.md: a blocked game may be undone)",
    "undo is refused (game_over) once the game is blocked",
)
def blocked_game_undo_refused():
    orig = _play._undo

    def undo(state):
        if state.status == BLOCKED:
            raise IllegalMoveError("game_over", field="move", status=state.status)
        return orig(state)

    _play._undo = undo


# ----------------------------------------------------------------------------------------------
# La puntuación
# ----------------------------------------------------------------------------------------------

@mutant(
    "una pareja con el descarte 10 ... Una carta tomada del descarte no da puntos",
    "a pair with the waste top scores 20 (both cards counted)",
)
def waste_pair_worth_20():
    def points(self):
        if self.type == "remove" and len(self.removed) == 2 and any(o < 0 for _, o in self.removed):
            return 20
        return reference_points(self)

    set_points(points)


@mutant(
    "un rey de la pirámide 10. Una carta tomada del descarte no da puntos",
    "a King taken from the waste scores 10",
)
def waste_king_worth_10():
    def points(self):
        if self.type == "remove" and len(self.removed) == 1 and self.removed[0][0].is_king:
            return 10
        return reference_points(self)

    set_points(points)


@mutant(
    "Robar y reciclar no cuestan puntos",
    "a recycle costs 100 points, floored at 0 (Windows habit)",
)
def recycle_costs_100():
    @after(_play, "_recycle")
    def change(t, state):
        return turn(t, state=t.state.evolve(score=max(0, t.state.score - 100)))


@mutant(
    "una pareja de dos cartas de la pirámide vale 20, una pareja con el descarte 10 (api: event removed.points)",
    "the `removed` event of every pair says 20 points (the score itself is right)",
)
def removed_event_points_pair_constant():
    @after(_play, "_remove")
    def change(t, state, removed):
        events = [Event(e.type, e.cards, 20, e.action) if e.type == "removed" and len(e.cards) == 2 else e for e in t.events]
        return turn(t, events=events)


# ----------------------------------------------------------------------------------------------
# Deshacer y código de partida
# ----------------------------------------------------------------------------------------------


@mutant(
    "se restan los puntos del movimiento (api: undone.points is negative)",
    "the `undone` event reports the points as a positive number",
)
def undone_event_points_positive():
    @after(_play, "_undo")
    def change(t, state):
        events = [Event(e.type, e.cards, abs(e.points), e.action) if e.type == "undone" else e for e in t.events]
        return turn(t, events=events)


@mutant(
    "El botón Deshacer permite deshacer las 100 últimas acciones",
    "only the last 99 actions are kept (the 100th undo is refused)",
)
def undo_limit_99():
    _play.UNDO_LIMIT = _state.UNDO_LIMIT = 99


@mutant(
    "El botón Deshacer permite deshacer las 100 últimas acciones",
    "101 actions are kept (a 101st undo is accepted)",
)
def undo_limit_101():
    _play.UNDO_LIMIT = _state.UNDO_LIMIT = 101


@mutant(
    "Las cartas vuelven a su sitio y se restan los puntos del movimiento",
    "undoing a King of the pyramid puts it back but leaves its 10 points",
)
def undo_king_keeps_points():
    @after(_play, "_undo")
    def change(t, state):
        action = state.history[-1]
        if action.type == "remove" and len(action.removed) == 1 and action.removed[0][1] >= 0:
            return turn(t, state=t.state.evolve(score=t.state.score + action.points))


@mutant(
    "El botón Deshacer permite deshacer ... reciclajes. Las cartas vuelven a su sitio",
    "undoing a recycle restores the piles but not the recycle count",
)
def undo_recycle_keeps_count():
    @after(_play, "_undo")
    def change(t, state):
        if state.history[-1].type == "recycle":
            return turn(t, state=t.state.evolve(recycles=state.recycles))


@mutant(
    "Las cartas vuelven a su sitio",
    "undoing a pair with the waste top puts the waste card back on top of the STOCK",
)
def undo_waste_pair_card_to_stock():
    @after(_play, "_undo")
    def change(t, state):
        action = state.history[-1]
        origins = [o for _, o in action.removed]
        if action.type == "remove" and WASTE_TOP in origins and WASTE_SECOND not in origins:
            s = t.state
            return turn(t, state=s.evolve(waste=s.waste[:-1], stock=(s.waste[-1],) + s.stock))


@mutant(
    "Las cartas vuelven a su sitio (undo of a draw)",
    "undoing a draw puts the card at the BOTTOM of the stock",
)
def undo_draw_to_stock_bottom():
    @after(_play, "_undo")
    def change(t, state):
        if state.history[-1].type == "draw":
            s = t.state
            return turn(t, state=s.evolve(stock=s.stock[1:] + s.stock[:1]))


@mutant(
    "El botón Deshacer (rules.md: undo clears the selection)",
    "undo keeps the current selection",
)
def undo_keeps_selection():
    @after(_play, "_undo")
    def change(t, state):
        if state.selected is not None and _play.is_selectable(t.state, state.selected):
            return turn(t, state=t.state.evolve(selected=state.selected))


@mutant(
    "Las cartas vuelven a su sitio (variant mazo contra descarte: undo of a W+W2 pair)",
    "undoing a pair of the waste top and the card under it restores the two swapped",
)
def undo_drawn_pair_swaps_waste():
    @after(_play, "_undo")
    def change(t, state):
        action = state.history[-1]
        origins = [o for _, o in action.removed]
        if action.type == "remove" and WASTE_TOP in origins and WASTE_SECOND in origins:
            s = t.state
            return turn(t, state=s.evolve(waste=s.waste[:-2] + (s.waste[-1], s.waste[-2])))


@mutant(
    "Al pegarlo en la ventana Nueva partida, se vuelven a repartir exactamente las mismas cartas",
    "a pasted code is not upper-cased: 'py1-n-aaaaaas' is refused",
)
def pasted_code_not_uppercased():
    def normalize_code(code):
        if not isinstance(code, str):
            raise _codes.InvalidCodeError("format", text="")
        return code.strip()

    _codes.normalize_code = normalize_code


@mutant(
    "Al pegarlo en la ventana Nueva partida, se vuelven a repartir exactamente las mismas cartas",
    "a pasted code is not trimmed: ' PY1-N-AAAAAAS ' is refused",
)
def pasted_code_not_trimmed():
    def normalize_code(code):
        if not isinstance(code, str):
            raise _codes.InvalidCodeError("format", text="")
        return code.upper()

    _codes.normalize_code = normalize_code


@mutant(
    "Mazo: 23 cartas; descarte: 7 de diamantes (only the waste's top card is named)",
    "the description names the BOTTOM waste card instead of the top",
)
def describe_names_bottom_waste():
    orig = _describe.describe

    def describe(state, language="en"):
        return orig(state.evolve(waste=state.waste[:1]), language)

    set_describe(describe)


@mutant(
    "Fila 1: jota de diamantes; ... (rules.md: an empty row is «fila 7: vacía»)",
    "a row with no card left is written with an empty list («fila 7: ») instead of «vacía»",
)
def describe_emptied_row_blank():
    from service.locales import translate, translate_plural

    def describe(state, language="en"):
        t = translate
        stock = translate_plural(language, "describe.stock", len(state.stock))
        waste = (
            t(language, "describe.waste", card=_describe.card_name(state.waste[-1], language))
            if state.waste
            else t(language, "describe.waste_empty")
        )
        rows = []
        for number, row in enumerate(state.rows, 1):
            names = [_describe.card_name(card, language) for card in row if card is not None]
            rows.append(t(language, "describe.row", n=number, cards=t(language, "describe.card_separator").join(names)))
        text = t(language, "describe.row_separator").join(rows)
        return t(language, "describe.board", stock=stock, waste=waste, rows=text[:1].upper() + text[1:])

    set_describe(describe)


@mutant(
    "Dos cartas libres cuyos valores sumen 13 se retiran juntas (api: a selection no longer in play is dropped)",
    "a `pair`/`king` MOVE that removes the selected card leaves it selected (a removed card counts as selectable)",
)
def pair_move_keeps_removed_selection():
    # A pair or King move does not clear the selection first (taps do): it survives the action
    # because a removed card counts as selectable.
    also_selectable(lambda state, card: card in state.foundation)


@mutant(
    "todas sus cartas vuelven al mazo, en el mismo orden (api: event recycled lists the cards turned back)",
    "the `recycled` event lists the cards in reverse order (the piles are right)",
)
def recycled_event_cards_reversed():
    @after(_play, "_recycle")
    def change(t, state):
        return turn(t, events=[Event(e.type, tuple(reversed(e.cards))) if e.type == "recycled" else e for e in t.events])


@mutant(
    "Se toca una carta libre y luego otra (api: tapping the selected card again deselects it, event deselected)",
    "tapping the selected card again deselects it but emits no `deselected` event",
)
def no_deselected_event():
    @after(_play, "_tap_card")
    def change(t, state, card):
        if t.events and t.events[0].type == "deselected":
            return turn(t, events=())


# ----------------------------------------------------------------------------------------------
# Variantes
# ----------------------------------------------------------------------------------------------


@mutant(
    "mazo contra descarte (la carta que se acaba de robar puede emparejarse con la carta superior del descarte)",
    "drawn_pairs_with_waste is ignored: the just-drawn card never pairs with the card under it",
)
def drawn_pairs_variant_ignored():
    _play.drawn_pairs_with_waste_now = lambda state: False


@mutant(
    "mazo contra descarte: la carta que se acaba de robar",
    "under the variant, ANY waste top pairs with the card under it (also one uncovered by a removal)",
)
def drawn_pairs_any_time():
    _play.drawn_pairs_with_waste_now = lambda state: state.rules.drawn_pairs_with_waste and len(state.waste) > 1


@mutant(
    "mazo contra descarte (variant, tap path)",
    "under the variant the `pair` move works but a tap on the card under the waste top is card_not_free",
)
def drawn_pairs_tap_refused():
    orig = _play._tap_card

    def tap(state, card):
        if _play.where(state, card) == WASTE_SECOND:
            raise IllegalMoveError("card_not_free", field="move.card", card=card.code)
        return orig(state, card)

    _play._tap_card = tap


@mutant(
    "carta y carta que la cubre (una carta puede emparejarse con la única carta que todavía la cubre)",
    "pair_with_covering is ignored",
)
def covering_variant_ignored():
    _play._only_cover = lambda state, slot, cover: False


@mutant(
    "carta y carta que la cubre (... la ÚNICA carta que todavía la cubre)",
    "under the variant a card pairs with a covering card even while its other cover is still there",
)
def covering_pair_with_either_cover():
    def only_cover(state, slot, cover):
        return cover is not None and cover in COVERED_BY[slot] and _play.is_free(state.pyramid, cover)

    _play._only_cover = only_cover


@mutant(
    "carta y carta que la cubre (variant, tap path)",
    "under the variant the `pair` move works but tapping the covering card then the covered one says card_blocked",
)
def covering_variant_tap_refused():
    orig = _play._tap_card

    def tap(state, card):
        if covered(state, card):
            return Turn(state, (), "card_blocked" if state.error_help else None)
        return orig(state, card)

    _play._tap_card = tap


@mutant(
    "No se puede emparejar una carta con otra que la cubre: una carta nunca se empareja con otra que todavía la cubre",
    "under the APP's rules a card may pair with the single card still covering it (variant always on)",
)
def app_pairs_with_single_cover():
    orig_check = _play._check_playable

    def check(state, card, origin, partner=None):
        if origin is not None and origin >= 0 and not _play.is_free(state.pyramid, origin):
            if _play._only_cover(state, origin, partner):
                return
        orig_check(state, card, origin, partner)

    _play._check_playable = check
    orig_tap = _play._tap_card

    def tap(state, card):
        selected = state.selected
        if covered(state, card) and selected is not None and _play.pairs(selected, card):
            origin, partner = _play.where(state, card), _play.where(state, selected)
            if _play._only_cover(state, origin, partner):
                return _play._remove(state.evolve(selected=None), ((selected, partner), (card, origin)))
        return orig_tap(state, card)

    _play._tap_card = tap
    orig_removals = _play.removals

    def removals(state):
        yield from orig_removals(state)
        if not state.rules.pair_with_covering:
            pyramid = state.pyramid
            for slot, card in enumerate(pyramid):
                if card is None or _play.is_free(pyramid, slot):
                    continue
                for cover in COVERED_BY[slot]:
                    other = pyramid[cover]
                    if other is not None and _play._only_cover(state, slot, cover) and _play.pairs(card, other):
                        yield Move.pair(card, other)

    _play.removals = removals



# ----------------------------------------------------------------------------------------------
# Second batch
# ----------------------------------------------------------------------------------------------


@mutant(
    "El as vale 1, la jota 11, la reina 12 y las demás cartas su número",
    "the jack counts 10 (face card = 10 habit): J + 3 pairs, 2 + J does not",
)
def jack_worth_10():
    def value(card):
        return 10 if card.value == 11 else card.value

    _play.pairs = lambda a, b: value(a) + value(b) == 13


@mutant(
    "Cuando el mazo está vacío, al tocarlo se recicla el descarte: todas sus cartas vuelven al mazo",
    "a waste of ONE card is not recycled (`len(waste) <= 1` -> waste_empty / stock_empty)",
)
def recycle_single_card_refused():
    orig_recycle, orig_tap = _play._recycle, _play._tap_stock

    def recycle(state):
        if not state.stock and len(state.waste) == 1:
            raise IllegalMoveError("waste_empty", field="move")
        return orig_recycle(state)

    def tap_stock(state):
        if not state.stock and len(state.waste) == 1:
            return Turn(state, (), "stock_empty")
        return orig_tap(state)

    def status_of(state):
        if _play.is_won(state):
            return WON
        if state.stock or (len(state.waste) > 1 and _play.recycles_left(state)):
            return goes_on(state)
        return PLAYING if next(_play.removals(state), None) is not None else BLOCKED

    _play._recycle, _play._tap_stock, _play.status_of = recycle, tap_stock, status_of


@mutant(
    "pasadas limitadas (the tap path counts recycles too)",
    "a recycle made by tap:stock does not increase `recycles` (the `recycle` move does)",
)
def tap_stock_recycle_not_counted():
    @after(_play, "_tap_stock")
    def change(t, state):
        if t.events and t.events[0].type == "recycled":
            return turn(t, state=t.state.evolve(recycles=state.recycles))


@mutant(
    "Las cartas vuelven a su sitio",
    "undoing a pair of two pyramid cards puts each card in the other's slot",
)
def undo_pair_swaps_slots():
    @after(_play, "_undo")
    def change(t, state):
        action = state.history[-1]
        if action.type == "remove" and len(action.removed) == 2 and all(o >= 0 for _, o in action.removed):
            (a, oa), (b, ob) = action.removed
            pyramid = list(t.state.pyramid)
            pyramid[oa], pyramid[ob] = b, a
            return turn(t, state=t.state.evolve(pyramid=tuple(pyramid)))


@mutant(
    "Cada reparto tiene un código, que se muestra durante la partida, por ejemplo PY1-N-AAAAAAS",
    "after the first move the state's code is rewritten as the deal's 48-letter layout code",
)
def code_rewritten_as_layout_after_move():
    @after(_play, "_after_action")
    def change(t, state, action, event):
        code = _codes.layout_code(t.state.rules, t.state.layout)
        return turn(t, state=t.state.evolve(code=code))


@mutant(
    "pasadas limitadas (solo se puede volver a recorrer el mazo un número limitado de veces)",
    "a limit of 2 or more recycles is not enforced (only 0 and 1 are special-cased)",
)
def limit_above_one_ignored():
    def recycles_left(state):
        limit = state.rules.max_recycles
        return limit is None or limit >= 2 or state.recycles < limit

    _play.recycles_left = recycles_left


@mutant(
    "mazo contra descarte: la carta que se acaba de robar (rules.md: removals within the pyramid do not count)",
    "under the variant a removal of pyramid cards ends «the card just drawn»",
)
def drawn_pairs_lost_after_pyramid_removal():
    def top_just_drawn(state):
        return bool(state.history) and state.history[-1].type == "draw"

    _play.top_just_drawn = top_just_drawn


@mutant(
    "(variante tradicional) initial_waste=false: the explicit 24-card deal with no waste card",
    "an explicit layout is always required to have one waste card, whatever initial_waste says",
)
def traditional_layout_needs_waste():
    orig = Layout.check

    def check(self, rules):
        if len(self.waste) != 1:
            raise PyramideError("invalid_layout", detail="waste", field="layout.waste", expected=1)
        return orig(self, replace(rules, initial_waste=True))

    Layout.check = check


@mutant(
    "con la ayuda para errores activada (api: `error_help: false` at new game)",
    "POST /v1/games ignores `error_help: false` (always true)",
)
def error_help_false_ignored_at_new_game():
    orig = _state.GameState.new.__func__

    def new(cls, code=None, *, rules=None, layout=None, error_help=True):
        return orig(cls, code, rules=rules, layout=layout, error_help=True)

    _state.GameState.new = classmethod(new)


@mutant(
    "El botón Deshacer (api: legal-moves ends with undo when there is history)",
    "POST /v1/legal-moves never lists `undo`",
)
def legal_moves_no_undo():
    orig = _play.legal_moves

    def legal_moves(state):
        return [m for m in orig(state) if m.type != "undo"]

    set_legal_moves(legal_moves)


@mutant(
    "las demás cartas del descarte deben esperar (api: a tap on a removed card is 422 card_not_free)",
    "a tap on an already removed card answers 200 and does nothing",
)
def tap_removed_card_ignored():
    orig = _play._tap_card

    def tap(state, card):
        if card in state.foundation:
            return Turn(state, (), None)
        return orig(state, card)

    _play._tap_card = tap


@mutant(
    "La aplicación solo declara el bloqueo (rules.md: a blocked game takes no move but undo: game_over)",
    "in a blocked game tap:stock answers 200 with feedback stock_empty instead of 422 game_over",
)
def blocked_tap_stock_feedback():
    orig = _play.play

    def play(state, move):
        if state.status == BLOCKED and move.type == "tap" and move.pile == "stock":
            return Turn(state, (), "stock_empty" if not state.waste else "no_recycles_left")
        return orig(state, move)

    set_play(play)


@mutant(
    "una pareja de dos cartas de la pirámide vale 20",
    "a pyramid pair removed by TAPS scores 10 (the `pair` move scores 20)",
)
def tap_pair_scores_10():
    @after(_play, "_tap_card")
    def change(t, state, card):
        if t.events and t.events[0].type == "removed" and len(t.events[0].cards) == 2 and t.events[0].points == 20:
            return turn(t, state=t.state.evolve(score=t.state.score - 10))


@mutant(
    "Dos cartas que no sumen 13 ... no se retiran (api: a pair move of them is 422 sum_not_13)",
    "a `pair` move of two free cards not summing 13 is refused with the code card_not_free",
)
def pair_move_non13_wrong_code():
    refuse_pair_otherwise("sum_not_13", lambda error, a: IllegalMoveError("card_not_free", field="move.cards", card=a.code))


def refuse_pair_otherwise(code: str, instead: Callable[[IllegalMoveError, Card], IllegalMoveError]) -> None:
    """A `pair` move the reference refuses with ``code`` is refused with ``instead(error, a)``."""
    orig = _play.pair_origins

    def pair_origins(state, a, b):
        try:
            return orig(state, a, b)
        except IllegalMoveError as error:
            if error.code == code:
                raise instead(error, a) from None
            raise

    _play.pair_origins = pair_origins


@mutant(
    "Mazo: 23 cartas (describe: one card is «1 carta»)",
    "the description always uses the plural: «Mazo: 1 cartas»",
)
def describe_stock_plural_always():
    import service.locales as loc

    def translate_plural(language, key, n, **params):
        cat, forms = loc._lookup(language, key)
        forms = [forms] if isinstance(forms, str) else forms
        return forms[-1].format_map(loc._Params(params, n=n))

    _describe.translate_plural = translate_plural


@mutant(
    "solo declara el bloqueo ... cuando ... no se puede jugar ninguna pareja ni ningún rey (the waste top counts)",
    "with no recycle left, the blocked test ignores the waste top (a waste King or waste pair left): blocked too early",
)
def status_ignores_waste_top():
    def status_of(state):
        if _play.is_won(state):
            return WON
        if state.stock or (state.waste and _play.recycles_left(state)):
            return goes_on(state)
        bare = state.evolve(waste=())
        return PLAYING if next(_play.removals(bare), None) is not None else BLOCKED

    _play.status_of = status_of


@mutant(
    "La puntuación empieza en 0",
    "a game dealt with initial_waste=false (24-card stock) starts at 10 points",
)
def traditional_stock_starts_with_points():
    orig = _state.GameState.new.__func__

    def new(cls, code=None, *, rules=None, layout=None, error_help=True):
        state = orig(cls, code, rules=rules, layout=layout, error_help=error_help)
        return state.evolve(score=10) if not state.rules.initial_waste else state

    _state.GameState.new = classmethod(new)


# ----------------------------------------------------------------------------------------------
# Third batch
# ----------------------------------------------------------------------------------------------


@mutant(
    "(api: history `TC@7.2+3S@7.5`: row then position, both from 1)",
    "history entries name pyramid slots with 0-based positions (`KD@7.5` for the 6th card), read back the same way",
)
def history_slots_zero_based():
    from service.engine import _layout

    def slot_name(slot):
        row, pos = POSITION[slot]
        return f"{row}.{pos - 1}"

    def parse_slot(name):
        row, _, pos = name.partition(".")
        try:
            return _layout._SLOT_OF[(int(row), int(pos) + 1)]
        except (KeyError, ValueError):
            raise ValueError(f"no pyramid slot {name!r}") from None

    _moves.slot_name, _moves.parse_slot = slot_name, parse_slot
    _moves._parse_action.cache_clear()


@mutant(
    "(api: history `W` is the waste top, `W2` the card under it)",
    "history entries write the waste top as `W1` (read back the same way)",
)
def history_waste_written_W1():
    _moves._ORIGIN_TEXT[WASTE_TOP] = "W1"
    _moves._ORIGIN_OF_TEXT.clear()
    _moves._ORIGIN_OF_TEXT.update({"W1": WASTE_TOP, "W2": WASTE_SECOND})
    _moves._parse_action.cache_clear()


@mutant(
    "victoria estricta (hay que retirar también todas las cartas del mazo y del descarte)",
    "strict win checks only the waste: won with cards left in the stock",
)
def strict_win_ignores_stock():
    def is_won(state):
        if any(card is not None for card in state.pyramid):
            return False
        return not state.rules.strict_win or not state.waste

    _play.is_won = is_won


@mutant(
    "se restan los puntos del movimiento (a pair with the waste is worth 10)",
    "undoing a pair with the waste top subtracts 20",
)
def undo_waste_pair_subtracts_20():
    @after(_play, "_undo")
    def change(t, state):
        action = state.history[-1]
        origins = [o for _, o in action.removed]
        if action.type == "remove" and len(origins) == 2 and any(o < 0 for o in origins) and any(o >= 0 for o in origins):
            return turn(
                t,
                state=t.state.evolve(score=max(0, t.state.score - 10)),
                events=[Event(e.type, e.cards, -20, e.action) if e.type == "undone" else e for e in t.events],
            )


@mutant(
    "solo declara el bloqueo ... (rules.md: a blocked game may be undone)",
    "undoing the move that blocked the game leaves the status `blocked`",
)
def undo_keeps_blocked_status():
    @after(_play, "_undo")
    def change(t, state):
        if state.status == BLOCKED:
            return turn(t, state=t.state.evolve(status=BLOCKED))


@mutant(
    "el número de movimientos (retiradas, robos y reciclajes)",
    "drawing the LAST stock card is not counted as a move",
)
def last_draw_not_counted():
    @after(_play, "_draw")
    def change(t, state):
        if len(state.stock) == 1:
            return turn(t, state=t.state.evolve(moves=t.state.moves - 1))


@mutant(
    "Se toca una carta libre y luego otra (api: on the selected card again, deselects it)",
    "tapping the selected WASTE TOP again answers sum_not_13 and keeps it selected (deselect works for pyramid cards)",
)
def waste_top_reselect_not_deselected():
    orig = _play._tap_card

    def tap(state, card):
        if state.selected is card and _play.where(state, card) == WASTE_TOP:
            return Turn(state, (Event("selected", (card,)),), "sum_not_13")
        return orig(state, card)

    _play._tap_card = tap


@mutant(
    "Dos cartas libres ... se retiran juntas (rules.md: only a selection no longer in play is dropped)",
    "a `pair` move of two OTHER cards clears the selection of a card still in play",
)
def pair_move_clears_other_selection():
    @after(_play, "play", install=set_play)
    def change(t, state, move):
        if move.type == "pair" and state.selected is not None and state.selected not in move.cards:
            return turn(t, state=t.state.evolve(selected=None))


@mutant(
    "Mazzo di pesca: 23 carte; scarti: 7 di quadri (an empty waste: «scarti: vuoto»)",
    "the Italian description of an empty waste says «scarti: vuoti»",
)
def describe_empty_waste_it_wrong():
    message("it", "describe.waste_empty", "scarti: vuoti")


@mutant(
    "Fila 1: jota de diamantes; fila 2: 6 de tréboles, 7 de corazones (removed cards are left out)",
    "a removed card leaves an empty item in its row («fila 7: 7 de tréboles, , 3 de corazones»)",
)
def describe_removed_leaves_gap():
    from service.locales import translate, translate_plural

    def describe(state, language="en"):
        t = translate
        stock = translate_plural(language, "describe.stock", len(state.stock))
        waste = (
            t(language, "describe.waste", card=_describe.card_name(state.waste[-1], language))
            if state.waste
            else t(language, "describe.waste_empty")
        )
        rows = []
        for number, row in enumerate(state.rows, 1):
            names = [_describe.card_name(card, language) if card is not None else "" for card in row]
            if any(names):
                rows.append(t(language, "describe.row", n=number, cards=t(language, "describe.card_separator").join(names)))
            else:
                rows.append(t(language, "describe.row_empty", n=number))
        text = t(language, "describe.row_separator").join(rows)
        return t(language, "describe.board", stock=stock, waste=waste, rows=text[:1].upper() + text[1:])

    set_describe(describe)


@mutant(
    "Cuando el mazo está vacío, al tocarlo se recicla (api: legal-moves lists what `moves` accepts)",
    "POST /v1/legal-moves lists `draw` instead of `recycle` when the stock is empty",
)
def legal_moves_draw_instead_of_recycle():
    orig = _play.legal_moves

    def legal_moves(state):
        return [Move.draw() if m.type == "recycle" else m for m in orig(state)]

    set_legal_moves(legal_moves)


@mutant(
    "la carta robada no se empareja con la carta del descarte que cubre (api: legal-moves)",
    "POST /v1/legal-moves lists the pair waste top + card under it under the app's rules",
)
def legal_moves_list_waste_second_pair():
    orig = _play.legal_moves

    def legal_moves(state):
        moves = orig(state)
        if state.status != WON and len(state.waste) > 1 and _play.pairs(state.waste[-1], state.waste[-2]):
            pair = Move.pair(state.waste[-1], state.waste[-2])
            if pair not in moves:
                moves.insert(0, pair)
        return moves

    set_legal_moves(legal_moves)


@mutant(
    "Al pegarlo en la ventana Nueva partida (api: `code` with `rules`/`layout` is 422 conflicting_deal)",
    "a new game with both `code` and `rules` silently ignores the rules",
)
def conflicting_deal_accepted():
    orig = _state.GameState.new.__func__

    def new(cls, code=None, *, rules=None, layout=None, error_help=True):
        if code is not None:
            rules = layout = None
        return orig(cls, code, rules=rules, layout=layout, error_help=error_help)

    _state.GameState.new = classmethod(new)


@mutant(
    "(api: `{\"rules\": {...}}` deals at random under those rules) pasadas limitadas / victoria estricta",
    "a random deal ignores the requested rules and deals under the app's rules",
)
def random_deal_ignores_rules():
    orig = _state.GameState.new.__func__

    def new(cls, code=None, *, rules=None, layout=None, error_help=True):
        if code is None and layout is None:
            rules = None
        return orig(cls, code, rules=rules, layout=layout, error_help=error_help)

    _state.GameState.new = classmethod(new)


@mutant(
    "basta con tocarlo una vez para retirarlo, tanto si está libre en la pirámide como si está en el descarte",
    "a tap on the waste-top King while a pyramid card is selected answers sum_not_13 (pyramid Kings are fine)",
)
def waste_king_tap_with_selection_refused():
    orig = _play._tap_card

    def tap(state, card):
        if card.is_king and _play.where(state, card) == WASTE_TOP and state.selected is not None:
            return Turn(state, (), "sum_not_13")
        return orig(state, card)

    _play._tap_card = tap


@mutant(
    "mazo contra descarte (la carta que se acaba de robar puede emparejarse con la carta superior del descarte)",
    "under the variant the card just drawn may not pair with the DEALT waste card (misreading 'not for the dealt waste card')",
)
def drawn_pairs_not_with_dealt_card():
    orig = _play.drawn_pairs_with_waste_now

    def now(state):
        if not orig(state):
            return False
        layout = getattr(state, "layout", None) if hasattr(state, "code") else None
        if layout is not None and layout.waste and state.waste[-2] is layout.waste[0]:
            return False
        return True

    _play.drawn_pairs_with_waste_now = now


@mutant(
    "carta y carta que la cubre (una carta puede emparejarse con la única carta que todavía la cubre)",
    "under the variant a card with a single covering card left pairs with ANY free card, not only that cover",
)
def covering_half_free_pairs_anything():
    def half_free(state, slot):
        pyramid = state.pyramid
        left = [c for c in COVERED_BY[slot] if pyramid[c] is not None]
        return len(left) == 1 and _play.is_free(pyramid, left[0])

    orig_check = _play._check_playable

    def check(state, card, origin, partner=None):
        if (
            state.rules.pair_with_covering
            and origin is not None
            and origin >= 0
            and pyramid_card(state, origin)
            and not _play.is_free(state.pyramid, origin)
            and half_free(state, origin)
            and partner is not None
        ):
            return
        orig_check(state, card, origin, partner)

    def pyramid_card(state, origin):
        return state.pyramid[origin] is not None

    _play._check_playable = check
    orig_tap = _play._tap_card

    def tap(state, card):
        selected = state.selected
        origin = _play.where(state, card)
        if (
            state.rules.pair_with_covering
            and covered(state, card)
            and selected is not None
            and _play.pairs(selected, card)
            and half_free(state, origin)
        ):
            return _play._remove(state.evolve(selected=None), ((selected, _play.where(state, selected)), (card, origin)))
        return orig_tap(state, card)

    _play._tap_card = tap


@mutant(
    "victoria estricta / pasadas limitadas (api: GET /v1/rules names the presets; traditional = DST0)",
    "the `traditional` preset lacks strict_win (DT0)",
)
def preset_traditional_without_strict():
    from service.engine import _rules

    # (the API reads the presets from the registry, ``Rules.preset``; ``PRESETS`` is the library's)
    presets_of = _rules.presets_of

    def broken(registry):
        presets = dict(presets_of(registry))
        presets["traditional"] = replace(presets["traditional"], strict_win=False)
        return presets

    _rules.presets_of = broken
    _rules.PRESETS["traditional"] = replace(_rules.PRESETS["traditional"], strict_win=False)


@mutant(
    "La partida se gana en cuanto se retiran las 28 cartas (api: event `won`)",
    "a winning `pair` MOVE sets status won but emits no `won` event (taps and Kings are right)",
)
def won_event_missing_on_pair_move():
    @after(_play, "play", install=set_play)
    def change(t, state, move):
        if move.type == "pair" and t.state.status == WON:
            return turn(t, events=[e for e in t.events if e.type != "won"])


@mutant(
    "la aplicación solo declara el bloqueo (api: event `blocked`)",
    "the move that blocks the game gives the feedback but no `blocked` event",
)
def blocked_event_missing():
    @after(_play, "_settle")
    def change(t, state, events, feedback=None):
        if t.state.status == BLOCKED:
            return turn(t, events=[e for e in t.events if e.type != "blocked"])


@mutant(
    "Dos cartas que no sumen 13 ... no se retiran (api: a pair move of them is a 422)",
    "a `pair` move of two free cards not summing 13 answers 200 with feedback sum_not_13 and no change",
)
def pair_move_non13_as_feedback():
    orig = _play.play

    def play(state, move):
        try:
            return orig(state, move)
        except IllegalMoveError as error:
            if move.type == "pair" and error.code == "sum_not_13":
                return Turn(state, (), "sum_not_13")
            raise

    set_play(play)


@mutant(
    "Tocar una carta cubierta ... no hace nada; con la ayuda ... muestra «Esta carta está bloqueada por otra»",
    "a tap on a covered card is a 422 card_blocked error instead of a 200 with feedback",
)
def covered_tap_is_422():
    @after(_play, "_tap_card")
    def change(t, state, card):
        if covered(state, card) and not t.events:
            raise IllegalMoveError("card_blocked", field="move.card", card=card.code)


@mutant(
    "el número de movimientos (retiradas, robos y reciclajes)",
    "a tap on the stock that can do nothing (stock_empty / no_recycles_left) counts as a move",
)
def empty_stock_tap_counts_move():
    @after(_play, "_tap_stock")
    def change(t, state):
        if t.feedback in ("stock_empty", "no_recycles_left") and not t.events:
            return turn(t, state=t.state.evolve(moves=t.state.moves + 1))


@mutant(
    "El botón Deshacer (api: event undone.action is the history entry taken back)",
    "the `undone` event's action is the move's text (`TC+3S`) instead of the history entry (`TC@7.2+3S@7.5`)",
)
def undo_event_action_text_wrong():
    @after(_play, "_undo")
    def change(t, state):
        action = state.history[-1]
        text = "+".join(c.code for c, _ in action.removed) if action.type == "remove" else action.type
        return turn(t, events=[Event(e.type, e.cards, e.points, text) if e.type == "undone" else e for e in t.events])


@mutant(
    "Se puede tocar el mazo ... para pasar su carta superior al descarte (api: event drawn names the card)",
    "the `drawn` event names the NEXT stock card (nothing for the last card)",
)
def drawn_event_reports_next_card():
    @after(_play, "_draw")
    def change(t, state):
        cards = state.stock[1:2]
        return turn(t, events=[Event(e.type, cards) if e.type == "drawn" else e for e in t.events])


# ----------------------------------------------------------------------------------------------
# Fourth batch
# ----------------------------------------------------------------------------------------------


@mutant(
    "Una carta de la pirámide está libre cuando se han retirado las dos cartas que la cubren (the top card too)",
    "the TOP card (row 1) is free as soon as either card of row 2 is gone",
)
def apex_half_covered():
    orig = _play.is_free

    def is_free(pyramid, slot):
        if slot == 0:
            return pyramid[0] is not None and any(pyramid[c] is None for c in COVERED_BY[0])
        return orig(pyramid, slot)

    _play.is_free = is_free


@mutant(
    "Cada carta está parcialmente cubierta por dos cartas de la fila de debajo",
    "the LEFTMOST card of each row only checks its right covering card",
)
def leftmost_card_half_covered():
    def is_free(pyramid, slot):
        covers = COVERED_BY[slot]
        row, pos = POSITION[slot]
        if covers and pos == 1:
            covers = covers[1:]
        return pyramid[slot] is not None and all(pyramid[c] is None for c in covers)

    _play.is_free = is_free


@mutant(
    "mazo contra descarte: la carta que se acaba de robar (also on a later pass)",
    "under the variant, after a recycle no drawn card pairs with the card under it any more",
)
def drawn_pairs_off_after_recycle():
    orig = _play.top_just_drawn

    def top_just_drawn(state):
        if any(a.type == "recycle" for a in state.history) or getattr(state, "recycles", 0):
            return False
        return orig(state)

    _play.top_just_drawn = top_just_drawn


@mutant(
    "carta y carta que la cubre (una carta puede emparejarse con la única carta que todavía la cubre)",
    "under the variant the single covering card need not be free itself (a covered cover pairs with the card under it)",
)
def covering_pair_cover_not_free():
    def loose(state, slot, cover):
        pyramid = state.pyramid
        return (
            cover is not None
            and cover >= 0
            and cover in COVERED_BY[slot]
            and pyramid[cover] is not None
            and all(pyramid[o] is None for o in COVERED_BY[slot] if o != cover)
        )

    orig_check = _play._check_playable

    def check(state, card, origin, partner=None):
        if (
            state.rules.pair_with_covering
            and origin is not None
            and origin >= 0
            and partner is not None
            and partner >= 0
            and not _play.is_free(state.pyramid, origin)
            and (loose(state, origin, partner) or loose(state, partner, origin))
        ):
            return
        orig_check(state, card, origin, partner)

    _play._check_playable = check
    _play._only_cover = loose


@mutant(
    "Cada carta retirada de la pirámide da 10 puntos (variant carta y carta que la cubre: both are pyramid cards)",
    "a pair of a card and its covering card (variant) scores 10",
)
def covering_pair_scores_10():
    def points(self):
        if self.type == "remove" and len(self.removed) == 2:
            (_, a), (_, b) = self.removed
            if a >= 0 and b >= 0 and (a in COVERED_BY[b] or b in COVERED_BY[a]):
                return 10
        return reference_points(self)

    set_points(points)


@mutant(
    "Una carta tomada del descarte no da puntos (variant mazo contra descarte: two waste cards)",
    "a pair of the card just drawn and the waste card under it scores 10 (as 'a pair with the waste')",
)
def drawn_pair_scores_10():
    def points(self):
        if self.type == "remove" and sorted(o for _, o in self.removed) == [WASTE_SECOND, WASTE_TOP]:
            return 10
        return reference_points(self)

    set_points(points)


@mutant(
    "no se puede jugar ninguna pareja ni ningún rey (the variant's pair of the two waste cards is a pair)",
    "the blocked test (and legal moves) ignore the variant pair card-just-drawn + card under it",
)
def status_ignores_drawn_pair():
    orig = _play.removals

    def removals(state):
        for move in orig(state):
            if len(state.waste) > 1 and set(move.cards) == {state.waste[-1], state.waste[-2]}:
                continue
            yield move

    _play.removals = removals


@mutant(
    "carta y carta que la cubre (api: legal-moves lists what `moves` accepts)",
    "POST /v1/legal-moves omits the variant's card + covering-card pairs",
)
def legal_moves_omit_covering_pairs():
    orig = _play.legal_moves

    def legal_moves(state):
        return [m for m in orig(state) if not any(covered(state, c) for c in m.cards)]

    set_legal_moves(legal_moves)


@mutant(
    "mazo contra descarte (api: legal-moves lists what `moves` accepts)",
    "POST /v1/legal-moves omits the variant's pair card-just-drawn + card under it",
)
def legal_moves_omit_drawn_pair():
    orig = _play.legal_moves

    def legal_moves(state):
        moves = orig(state)
        if len(state.waste) > 1:
            moves = [m for m in moves if set(m.cards) != {state.waste[-1], state.waste[-2]}]
        return moves

    set_legal_moves(legal_moves)


# ----------------------------------------------------------------------------------------------
# Variants of another shape (003): Pharaoh / Triangle and the Spanish pyramid
# ----------------------------------------------------------------------------------------------

_PHARAOH = "Pharaoh / Triangle: «Reparte un diseño triangular más grande (a menudo 10 filas)» (003; docs/rules.md)"
_SPANISH = "Pirámide española: «los valores de las parejas suman 12 en lugar de 13 y los Reyes siguen retirándose solos» (003)"


def _pharaoh(state) -> bool:
    return len(state.pyramid) == 55


def _spanish(card) -> bool:
    return card.deck.name == "spanish"


def _other_copy(card: Card) -> Card:
    return Card.parse(card.face if card.copy == 2 else card.face + "2")


@mutant(
    f"{_PHARAOH}: a pyramid of 10 rows, 55 cards [...] a card of row 7 is covered like any other",
    "the covered test reads the app's 7-row table for rows 1-7, so row 7 is free at the deal under Pharaoh",
)
def pharaoh_row7_free():
    size = COVERED_BY_SLOTS
    free_by_covers(lambda pyramid, slot: COVERED_BY[slot] if slot < len(COVERED_BY) else size[len(pyramid)][slot])


def free_by_covers(covers_of: Callable[[tuple, int], tuple[int, ...]]) -> None:
    """A pyramid card is free when the cards ``covers_of`` names for it are gone."""

    def is_free(pyramid, slot):
        return pyramid[slot] is not None and all(pyramid[c] is None for c in covers_of(pyramid, slot))

    _play.is_free = is_free


@mutant(
    f"{_PHARAOH}: At the deal the ten cards of row 10 are free, and a card of row 7 is covered like any other",
    "tap path only: under Pharaoh a tap treats a card of row 7 as free (7-row bottom row hard-coded in the tap handler)",
)
def pharaoh_row7_free_by_tap():
    orig = _play._tap_card

    def row7(state, card):
        origin = _play.where(state, card)
        return _pharaoh(state) and origin is not None and 21 <= origin < 28

    def tap(state, card):
        if row7(state, card) and covered(state, card):
            selected = state.selected
            if selected is None:
                return Turn(state.evolve(selected=card), (Event("selected", (card,)),))
            partner = _play.where(state, selected)
            if selected is not card and _play.pairs(selected, card) and _play.is_available(state, partner):
                return _play._remove(state.evolve(selected=None), ((selected, partner), (card, _play.where(state, card))))
        return orig(state, card)

    _play._tap_card = tap
    also_selectable(row7)


@mutant(
    f"{_PHARAOH}: A card's second copy is a card of its own [...] so that a move, a tap or a layout names one copy",
    "a move or tap naming a copy not in play (3S2 in the stock) plays the other copy of that face in play (3S on the waste)",
)
def pharaoh_move_names_face_not_copy():
    orig = _play.play

    def play(state, move):
        if _pharaoh(state) and move.type in ("pair", "king", "tap") and move.cards:
            cards = tuple(
                _other_copy(c) if _play.where(state, c) is None and _play.where(state, _other_copy(c)) is not None else c
                for c in move.cards
            )
            if cards != move.cards:
                move = replace(move, cards=tuple(sorted(cards, key=lambda c: c.index)) if move.type == "pair" else cards)
        return orig(state, move)

    set_play(play)


@mutant(
    f"{_PHARAOH}: A card's second copy is a card of its own / «deshacer» puts back the cards removed",
    "under Pharaoh, undoing a removal puts each pyramid card back as its FIRST copy (history kept by face)",
)
def pharaoh_undo_restores_first_copy():
    orig = _play.unapply

    def unapply(state, action):
        after = orig(state, action)
        if action.type != "remove" or not _pharaoh(state):
            return after
        back = {card for card, origin in action.removed if origin >= 0 and card.copy == 2}
        if not back:
            return after
        pyramid = tuple(Card.parse(c.face) if c in back else c for c in after.pyramid)
        return after.evolve(pyramid=pyramid)

    _play.unapply = unapply


@mutant(
    f"{_PHARAOH}: Each pyramid card is worth 10 points: a won game is worth 550 (the game is won when the 55 are gone)",
    "under Pharaoh the game is won as soon as 28 pyramid cards are removed (the app's 28 hard-coded)",
)
def pharaoh_won_at_28_removed():
    orig = _play.is_won

    def is_won(state):
        if _pharaoh(state):
            return sum(1 for c in state.pyramid if c is None) >= 28
        return orig(state)

    _play.is_won = is_won


@mutant(
    f"{_PHARAOH}: Each pyramid card is worth 10 points: a won game is worth 550",
    "under Pharaoh the score is capped at the app's 280 («una partida ganada siempre vale 280 puntos»)",
)
def pharaoh_score_capped_280():
    orig = _play._remove

    def remove(state, removed):
        t = orig(state, removed)
        if _pharaoh(state) and t.state.score > 280:
            return turn(t, state=t.state.evolve(score=280))
        return t

    _play._remove = remove


@mutant(
    f"{_PHARAOH} / «solo declara el bloqueo [...] cuando [...] no se puede jugar ninguna pareja ni ningún rey»",
    "under Pharaoh the blocked test scans only the first 28 slots (rows 1-7) and the waste: blocked with row 10 pairs left",
)
def pharaoh_blocked_check_7_rows():
    blocked_check_counting(lambda state, move: not _pharaoh(state) or all(_play.where(state, c) < 28 for c in move.cards))


def blocked_check_counting(counts: Callable[[GameState, Move], bool]) -> None:
    """Once nothing is left to draw or recycle, the game is blocked unless a removal that
    ``counts`` is left (the reference counts every removal)."""
    import service.engine as engine  # noqa: PLC0415

    orig = _play.status_of

    def status_of(state):
        status = orig(state)
        if status != PLAYING or state.stock or (any(_play.waste_piles(state)) and _play.recycles_left(state)):
            return status
        return PLAYING if any(counts(state, move) for move in _play.removals(state)) else BLOCKED

    _play.status_of = engine.status_of = status_of


@mutant(
    f"{_PHARAOH}: A layout [...] writes a card's first copy before its second (invalid_layout otherwise)",
    "the copy order is checked in the pyramid only: a layout with 10♠2 before 10♠ in the stock is accepted",
)
def pharaoh_copy_order_pyramid_only():
    orig = _layout.check_deck

    def check_deck(deck, rules, *, field):
        deck = list(deck)
        seen: set = set()
        for i, card in enumerate(deck):
            if i >= rules.slots and card.copy == 2 and _other_copy(card) not in seen:
                j = deck.index(_other_copy(card))  # checked as if the copies came in order
                deck[i], deck[j] = deck[j], deck[i]
                card = deck[i]
            seen.add(card)
        return orig(deck, rules, field=field)

    _layout.check_deck = check_deck


@mutant(
    f"{_PHARAOH}: Every card code in the state, the moves and the events names one copy (`7D` or `7D2`)",
    "a layout writing a plain code twice is read as copy 1 then copy 2 (7D, 7D), not refused as a duplicate",
)
def pharaoh_layout_repeated_code_as_second_copy():
    orig = Layout.__dict__["from_json"].__func__

    def from_json(cls, data):
        try:
            rows = [list(row) for row in data["pyramid"]]
            if sum(len(row) for row in rows) == 55:
                seen: set = set()

                def name(code):
                    if code in seen and isinstance(code, str) and not code.endswith("2"):
                        code += "2"
                    seen.add(code)
                    return code

                data = {
                    **data,
                    "pyramid": [[name(c) for c in row] for row in rows],
                    "waste": [name(c) for c in data.get("waste", [])],
                    "stock": [name(c) for c in data["stock"]],
                }
        except (KeyError, TypeError):
            pass
        return orig(cls, data)

    Layout.from_json = classmethod(from_json)


@mutant(
    "deal-codes.md: Under E and P the same [Fisher–Yates], from the rules' canonical deck (i from its length − 1 down)",
    "a Pharaoh seed code shuffles ONE deck of 52 and deals that order twice (then names the copies in order)",
)
def pharaoh_seed_deals_one_shuffle_twice():
    orig = _codes.shuffled_deck

    def shuffled_deck(seed, rules=None):
        if rules is None or rules.copies != 2:
            return orig(seed, rules)
        one = orig(seed, replace(rules, rows=7))
        return _codes._copies_in_order(list(one + one))

    set_shuffled_deck(shuffled_deck)


def set_shuffled_deck(fn) -> None:
    """The seed codes' shuffle, where the engine and its cache of deals read it."""
    import service.engine as engine  # noqa: PLC0415

    _codes.shuffled_deck = engine.shuffled_deck = fn
    _state._deal.cache_clear()


@mutant(
    f"{_PHARAOH} / «Cada carta está parcialmente cubierta por dos cartas de la fila de debajo»",
    "the hand-extended rows 8-9: their rightmost card checks only its left covering card",
)
def pharaoh_rightmost_half_covered_rows_8_9():
    size = COVERED_BY_SLOTS

    def covers_of(pyramid, slot):
        covers = size[len(pyramid)][slot]
        row, pos = POSITION[slot]
        return covers[:1] if len(pyramid) == 55 and row in (8, 9) and pos == row else covers

    free_by_covers(covers_of)


@mutant(
    f"{_SPANISH}: Pairs sum 12: 1 + caballo, 2 + sota, 3 + 9, 4 + 8, 5 + 7 and 6 + 6",
    "tap path only: under the Spanish deck two taps summing 13 remove the pair, 12 answers sum_not_12",
)
def spanish_tap_sums_13():
    orig = _play._tap_card

    def tap(state, card):
        selected = state.selected
        origin = _play.where(state, card)
        if (
            _spanish(card)
            and selected is not None
            and selected is not card
            and not card.is_king
            and not covered(state, card)
            and _play.is_available(state, origin)
        ):
            total = selected.value + card.value
            if total == 13:
                return _play._remove(state.evolve(selected=None), ((selected, _play.where(state, selected)), (card, origin)))
            if total == 12:
                return Turn(state.evolve(selected=card), (Event("selected", (card,)),), "sum_not_12")
        return orig(state, card)

    _play._tap_card = tap


@mutant(
    f"{_SPANISH} (6 + 6) / «solo declara el bloqueo [...] cuando [...] no se puede jugar ninguna pareja ni ningún rey»",
    "the blocked test skips pairs of one rank (never a pair in the French deck): blocked with 6 + 6 left",
)
def spanish_blocked_check_skips_six_six():
    blocked_check_counting(lambda state, move: not (move.type == "pair" and move.cards[0].rank == move.cards[1].rank))


@mutant(
    f"{_SPANISH} / «tanto si está libre en la pirámide como si está en el descarte»",
    "a Spanish rey on the waste top does not go alone: the king move is card_not_free, a tap selects it",
)
def spanish_waste_rey_not_alone():
    orig_play = _play.play

    def on_waste(state, card):
        return _spanish(card) and card.is_king and _play.where(state, card) == WASTE_TOP

    def play(state, move):
        if move.type == "king" and on_waste(state, move.cards[0]) and state.status == PLAYING:
            raise IllegalMoveError("card_not_free", field="move", card=move.cards[0].code)
        return orig_play(state, move)

    set_play(play)
    orig_tap = _play._tap_card

    def tap(state, card):
        if on_waste(state, card):
            if state.selected is None:
                return Turn(state.evolve(selected=card), (Event("selected", (card,)),))
            if state.selected is card:
                return Turn(state.evolve(selected=None), (Event("deselected", (card,)),))
            return Turn(state.evolve(selected=card), (Event("selected", (card,)),), "sum_not_12")
        return orig_tap(state, card)

    _play._tap_card = tap
    also_selectable(on_waste)


@mutant(
    f"{_SPANISH}: the rey goes alone, by a King move or one tap (only the rey: the caballo is worth 11)",
    "the King move's lone-card test is 'a court card above the sota', so the caballo goes alone by a king move",
)
def spanish_caballo_goes_alone():
    orig = _play.king_origin

    def king_origin(state, card):
        if _spanish(card) and card.rank == 11:
            origin = _play.where(state, card)
            _play._check_playable(state, card, origin)
            return origin
        return orig(state, card)

    _play.king_origin = king_origin


@mutant(
    f"{_SPANISH}: Pairs sum 12 [...] and 6 + 6 (two cards of one rank, which the French deck never pairs)",
    "two cards of one rank never pair (the French deck's shortcut): 6 + 6 answers sum_not_12",
)
def spanish_six_six_refused():
    orig = _play.pairs
    _play.pairs = lambda a, b: a.rank != b.rank and orig(a, b)


@mutant(
    "docs/rules.md: The board is described with the Spanish names («sota de oros» [...] \"knave of coins\")",
    "in English the sota is named by the French deck's jack: \"jack of coins\"",
)
def spanish_describe_en_sota_jack():
    message("en", "card.spanish.rank.10", "jack")


class _SumSaysThirteen(IllegalMoveError):
    @property
    def message_key(self) -> str:
        return "sum_not_13"


@mutant(
    "api.md: two cards not summing 12 answer `sum_not_12` («La suma debe ser igual a 12»)",
    "a refused Spanish pair MOVE has code sum_not_12 but its problem detail is the app's «La suma debe ser igual a 13»",
)
def spanish_refused_pair_detail_says_13():
    refuse_pair_otherwise("sum_not_12", lambda error, a: _SumSaysThirteen("sum_not_12", field=error.field, **error.params))


@mutant(
    "deal-codes.md: `E` [...] Its canonical order is oros 1…R, copas 1…R, espadas 1…R, bastos 1…R (index 0 = `1OR`)",
    "a Spanish seed code shuffles the deck from rank-major order (1OR 1CO 1ES 1BA 2OR …)",
)
def spanish_seed_rank_major_order():
    orig = _codes.shuffled_deck

    def shuffled_deck(seed, rules=None):
        if rules is None or rules.deck != "spanish":
            return orig(seed, rules)
        stream = _codes._Sha256Stream(f"{_codes.STREAM_KEY}:{seed}".encode("ascii"))
        deck = sorted(rules.cards, key=lambda c: (c.copy, c.rank, c.index))
        for i in range(len(deck) - 1, 0, -1):
            j = stream.below(i + 1)
            deck[i], deck[j] = deck[j], deck[i]
        return _codes._copies_in_order(deck)

    set_shuffled_deck(shuffled_deck)


@mutant(
    f"{_SPANISH} (6 + 6) with Pharaoh's two decks: «the options compose with every other one» (docs/rules.md)",
    "«Two copies never pair» taken literally: under E+P the copies 6OR and 6OR2 (summing 12) are refused",
)
def spanish_pharaoh_copies_never_pair():
    orig = _play.pairs
    _play.pairs = lambda a, b: a.face != b.face and orig(a, b)
