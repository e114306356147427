"""Building positions for tests: deals with chosen cards, and hand-made states the engine checks."""

from __future__ import annotations

import random
from collections.abc import Iterator

from service.engine import DECK, UNDO_LIMIT, Card, GameState, Layout, Move, Rules, legal_moves, play, seed_code, status_of

C = Card.parse


def cards(text: str) -> tuple[Card, ...]:
    return tuple(C(code) for code in text.split())


def deal(first: str, rules: Rules = Rules()) -> Layout:
    """A deal whose first cards (pyramid slots from the top, then waste, then stock) are ``first``;
    the rest of the deck follows in canonical order."""
    head = cards(first)
    return Layout.from_deck(head + tuple(card for card in DECK if card not in head), rules)


def deal_at(placed: dict[int, str], rules: Rules = Rules()) -> Layout:
    """A deal with the given cards at the given places of the dealt sequence (0–27 the pyramid
    slots, then the waste, then the stock from its top); the rest in canonical order."""
    fixed = {place: C(code) for place, code in placed.items()}
    rest = iter(card for card in DECK if card not in fixed.values())
    return Layout.from_deck(tuple(fixed[i] if i in fixed else next(rest) for i in range(52)), rules)


def foundation_order(removed: list[Card]) -> tuple[Card, ...]:
    """The removed cards as a sequence of Kings and pairs summing 13."""
    pending = sorted(removed, key=lambda card: card.index)
    order: list[Card] = [card for card in pending if card.is_king]
    rest = [card for card in pending if not card.is_king]
    while rest:
        card = rest.pop(0)
        partner = next(other for other in rest if other.value + card.value == 13)
        rest.remove(partner)
        order += [card, partner]
    return tuple(order)


def position(
    layout: Layout,
    *,
    keep: set[int],
    stock: str = "",
    waste: str = "",
    rules: Rules = Rules(),
    **fields,
) -> GameState:
    """A state of ``layout`` where only the pyramid slots in ``keep`` are left, the stock and waste
    hold the given cards and all else is in the foundation: a position late in a game, more than
    UNDO_LIMIT moves in (unless ``moves`` says otherwise). The engine plays from it as from any
    state built in Python; it has no log, so ``GameState.from_json`` (the API) refuses it."""
    game = GameState.new(layout=layout, rules=rules)
    pyramid = tuple(card if slot in keep else None for slot, card in enumerate(game.pyramid))
    in_play = {card for card in pyramid if card} | set(cards(stock)) | set(cards(waste))
    state = game.evolve(
        pyramid=pyramid,
        stock=cards(stock),
        waste=cards(waste),
        foundation=foundation_order([card for card in DECK if card not in in_play]),
        score=10 * (28 - len([card for card in pyramid if card])),
        **{"moves": UNDO_LIMIT + 1, **fields},
    )
    return state.evolve(status=status_of(state))


def run(state: GameState, *moves: str) -> GameState:
    for text in moves:
        state = play(state, Move.from_text(text)).state
    return state


def winning_line(state: GameState, *, budget: int = 200_000) -> list[Move] | None:
    """A line of legal moves that wins from ``state``, found by a plain depth-first search over
    ``legal_moves`` (undo left out), or None within ``budget`` positions: for rules the solver does
    not search (Tut's Tomb), so that a test can play a whole game to a win through the API."""
    from service.engine import legal_moves

    def ordered(position: GameState) -> list[Move]:
        """Removals first, then draws onto the emptiest of Apophis's piles first."""
        piles = (position.waste, *position.piles)
        size = lambda move: len(piles[int(move.pile[-1]) - 1]) if move.type == "draw" and move.pile else 0  # noqa: E731
        return sorted(legal_moves(position), key=lambda move: (move.type == "draw", size(move)))

    def key(position: GameState) -> tuple:
        recycles = position.recycles if position.rules.max_recycles is not None else 0
        return position.pyramid, position.stock, position.waste, recycles

    seen = {key(state)}
    stack = [(state, iter(ordered(state)))]
    line: list[Move] = []
    while stack:
        position, moves = stack[-1]
        if position.status == "won":
            return line
        move = next((move for move in moves if move.type != "undo"), None)
        if move is None:
            stack.pop()
            if line:
                line.pop()
            continue
        after = play(position, move).state
        if key(after) in seen or len(seen) >= budget:
            continue
        seen.add(key(after))
        line.append(move)
        stack.append((after, iter(ordered(after))))
    return None


def random_games(rules: Rules, seeds: int, steps: int) -> Iterator[tuple[GameState, list[Move]]]:
    """Positions of random games under ``rules``, the first ``seeds`` deals, at most ``steps`` moves
    each, with the moves the engine allows there (undo aside); a fixed seed: the same positions
    every run."""
    rng = random.Random(37)
    for seed in range(seeds):
        state = GameState.new(seed_code(rules, seed))
        for _ in range(steps):
            moves = [move for move in legal_moves(state) if move.type != "undo"]
            if not moves:
                break
            yield state, moves
            state = play(state, rng.choice(moves)).state
