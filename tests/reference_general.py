"""A reference search for every preset, written for the tests from the rules alone, to check the
solver's verdicts against (as ``tests/reference_one_pass.py`` does for one pass).

It shares no code with the engine or its solver (the deal aside: a deal is read once as plain
values), and models the game the way the rule documents word it, with cards as bare values (suits
never matter, so two positions with the same values in the same places are one position):

- a pyramid of ``rows`` rows, each card covered by the two below it; a card is free when both are
  gone (003: «Una carta de la pirámide está descubierta [...] únicamente cuando ninguna carta de la
  fila inferior la solapa»);
- two available cards summing ``pair_sum`` go (13, or 12 with the Spanish deck); a card worth the
  sum alone (the King, the rey) goes alone; with ``covering``, a card pairs with the one card
  still covering it, that card being free;
- a draw turns ``draw_count`` cards of the stock (fewer if fewer are left) onto a waste pile, of
  ``piles`` piles, the player choosing which; the top of each pile is available (003's Apophis
  and Tut's Tomb); with ``drawn_pairs``, the card just drawn pairs with the card beneath it until
  another card leaves the waste or lands on it;
- an empty stock takes back the piles, pile 1 first, each from its bottom card, ``limit`` times
  (None: without limit);
- won when the pyramid is empty (with ``strict``, the stock and piles too).

The search tries every move from every position, each position once (nothing is forced, not even
a King). Two cuts: a pyramid card left whose partner value is nowhere among the cards left can
never go; and a position lost even if every stock and pile card could be taken at any time (the
pool, ``_Pool``, written here again) is lost. Past ``limit_positions`` positions (of the game,
or of the pool) it raises ``OutOfPositions``.

Run it against the solver on deals (``--deals``), as ``make crosscheck`` does for every preset::

    python -m tests.reference_general tuts-tomb --deals 200
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence


class OutOfPositions(Exception):
    pass


def _geometry(rows: int) -> list[tuple[int, ...]]:
    """For each slot (row by row, left to right), the slots of the two cards lying on it."""
    index, on = {}, []
    for row in range(rows):
        for pos in range(row + 1):
            index[row, pos] = len(index)
    for row in range(rows):
        for pos in range(row + 1):
            on.append(() if row == rows - 1 else (index[row + 1, pos], index[row + 1, pos + 1]))
    return on


class _Pool:
    """The game where every card of the stock and the piles may be taken at any time: a pyramid
    card goes with a free pyramid card or any such card of the partner value. Every line of the
    real game is one of it (its pairs of two stock or pile cards made at the end), so a position
    it loses is lost. Under ``strict``, what is left of the stock and piles at the end must pair
    off (or be lone cards)."""

    def __init__(self, on: list[tuple[int, ...]], pair_sum: int, strict: bool, covering: bool, limit: int) -> None:
        self.on, self.pair_sum, self.strict, self.covering = on, pair_sum, strict, covering
        self.known: dict[tuple, bool] = {}
        self.limit = limit

    def winnable(self, pyr: tuple, counts: tuple) -> bool:
        key = (pyr, counts)
        if key in self.known:
            return self.known[key]
        if len(self.known) > self.limit:
            raise OutOfPositions
        total = self.pair_sum
        for v in pyr:  # a pyramid card whose partner value is nowhere left
            if v and v != total:
                partners = counts[total - v] + sum(1 for w in pyr if w == total - v) - (1 if v == total - v else 0)
                if not partners:
                    self.known[key] = False
                    return False
        self.known[key] = False  # (each move removes a card: no position comes back)
        result = self._search(pyr, counts)
        self.known[key] = result
        return result

    def _search(self, pyr: tuple, counts: tuple) -> bool:
        total = self.pair_sum
        if not any(pyr):
            if not self.strict:
                return True
            return all(counts[v] == counts[total - v] for v in range(1, total)) and (
                total % 2 or counts[total // 2] % 2 == 0
            )
        free = [s for s in range(len(pyr)) if pyr[s] and all(pyr[o] == 0 for o in self.on[s])]
        for s in free:
            if pyr[s] == total:
                return self.winnable(_gone(pyr, s), counts)
        for i, a in enumerate(free):
            for b in free[i + 1 :]:
                if pyr[a] + pyr[b] == total and self.winnable(_gone(pyr, a, b), counts):
                    return True
            need = total - pyr[a]
            if counts[need]:
                fewer = counts[:need] + (counts[need] - 1,) + counts[need + 1 :]
                if self.winnable(_gone(pyr, a), fewer):
                    return True
        if self.covering:
            for s in range(len(pyr)):
                over = [o for o in self.on[s] if pyr[o]]
                if pyr[s] and len(over) == 1 and over[0] in free and pyr[s] + pyr[over[0]] == total:
                    if self.winnable(_gone(pyr, s, over[0]), counts):
                        return True
        return False


def _gone(pyr: tuple, *slots: int) -> tuple:
    return tuple(0 if i in slots else v for i, v in enumerate(pyr))


def winnable(
    pyramid: Sequence[int | None],
    stock: Sequence[int],
    piles: Sequence[Sequence[int]],
    *,
    pair_sum: int,
    draw_count: int,
    limit: int | None,
    recycles: int = 0,
    strict: bool = False,
    covering: bool = False,
    drawn_pairs: bool = False,
    just_drawn: bool = False,
    limit_positions: int = 2_000_000,
) -> bool:
    """Can the game be won from here? ``pyramid`` row by row (None where gone), ``stock`` top first,
    each pile top last."""
    rows = 1
    while rows * (rows + 1) // 2 < len(pyramid):
        rows += 1
    on = _geometry(rows)
    lone = pair_sum
    pool = _Pool(on, pair_sum, strict, covering, limit_positions)
    seen: set = set()
    todo = [(tuple(v or 0 for v in pyramid), tuple(stock), tuple(tuple(p) for p in piles), recycles, just_drawn)]

    def free(pyr: tuple, slot: int) -> bool:
        return pyr[slot] != 0 and all(pyr[o] == 0 for o in on[slot])

    while todo:
        pyr, stk, pls, used, drawn = todo.pop()
        if not any(pyr) and (not strict or not (stk or any(pls))):
            return True
        key = (pyr, stk, pls, used if limit is not None else 0, drawn)
        if key in seen:
            continue
        seen.add(key)
        if len(seen) > limit_positions:
            raise OutOfPositions
        # the one cut: a pyramid card whose partner value is nowhere among the cards left
        left: dict[int, int] = {}
        for value in (*pyr, *stk, *(v for p in pls for v in p)):
            left[value] = left.get(value, 0) + 1
        if any(
            v and v != lone and left.get(pair_sum - v, 0) < (2 if pair_sum - v == v else 1)
            for v in pyr
        ):
            continue
        # the other cut: lost even if any card of the stock and piles could be taken at any time
        pile_left = [0] * (pair_sum + 1)
        for value in (*stk, *(v for p in pls for v in p)):
            pile_left[value] += 1
        if not pool.winnable(pyr, tuple(pile_left)):
            continue
        # what is available: free pyramid cards ("p", slot) and pile tops ("w", pile)
        avail = [(pyr[s], ("p", s)) for s in range(len(pyr)) if free(pyr, s)]
        avail += [(p[-1], ("w", i)) for i, p in enumerate(pls) if p]

        def without(*places: tuple[str, int]) -> tuple:
            new_pyr, new_pls = list(pyr), [list(p) for p in pls]
            for kind, n in places:
                if kind == "p":
                    new_pyr[n] = 0
                else:
                    new_pls[n].pop()
            took_pile = any(kind == "w" for kind, _ in places)
            return (tuple(new_pyr), stk, tuple(tuple(p) for p in new_pls), used, drawn and not took_pile)

        moves: list[tuple] = []  # the positions after each move: tried in this order
        for i, (a, place_a) in enumerate(avail):
            if a == lone:
                moves.append(without(place_a))
            for b, place_b in avail[i + 1 :]:
                if a + b == pair_sum:
                    moves.append(without(place_a, place_b))
        if covering:
            for s in range(len(pyr)):
                over = [o for o in on[s] if pyr[o]]
                if pyr[s] and len(over) == 1 and free(pyr, over[0]) and pyr[s] + pyr[over[0]] == pair_sum:
                    moves.append(without(("p", s), ("p", over[0])))
        if drawn_pairs and drawn and len(pls[0]) > 1 and pls[0][-1] + pls[0][-2] == pair_sum:
            new_pls = (pls[0][:-2], *pls[1:])
            moves.append((pyr, stk, new_pls, used, False))
        if stk:
            for i in range(len(pls)):
                new_pls = tuple(p + stk[:draw_count] if j == i else p for j, p in enumerate(pls))
                moves.append((pyr, stk[draw_count:], new_pls, used, True))
        elif any(pls) and (limit is None or used < limit):
            moves.append((pyr, tuple(v for p in pls for v in p), tuple(() for _ in pls), used + 1, False))
        todo.extend(reversed(moves))
    return False


def reference_verdict(state, limit_positions: int = 2_000_000) -> bool:
    """The reference's verdict on an engine ``GameState`` (read as plain values)."""
    rules = state.rules
    piles = (state.waste, *state.piles)
    just_drawn = False  # the last draw, with only pyramid cards removed since
    for action in reversed(state.history):
        if action.type != "remove":
            just_drawn = action.type == "draw"
            break
        if any(origin < 0 for _, origin in action.removed):
            break
    return winnable(
        [card.value if card else None for card in state.pyramid],
        [card.value for card in state.stock],
        [[card.value for card in pile] for pile in piles],
        pair_sum=12 if rules.deck == "spanish" else 13,
        draw_count=rules.draw_count,
        limit=rules.max_recycles,
        recycles=state.recycles,
        strict=rules.strict_win,
        covering=rules.pair_with_covering,
        drawn_pairs=rules.drawn_pairs_with_waste,
        just_drawn=just_drawn,
        limit_positions=limit_positions,
    )


def main(argv: list[str] | None = None) -> int:
    from service.engine import PRESETS, GameState, Rules, play, seed_code, solve

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("rules", nargs="+", help="preset names or rules segments (tuts-tomb, DKT, ...)")
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--start", type=int, default=0)
    parser.add_argument("--budget", type=int, default=100_000, help="the solver's node budget (the API's default)")
    parser.add_argument("--limit", type=int, default=200_000, help="the reference's positions")
    parser.add_argument("--verbose", action="store_true", help="a line per deal")
    args = parser.parse_args(argv)
    differ = 0
    for name in args.rules:
        rules = PRESETS[name] if name in PRESETS else Rules.from_letters(name)
        counts = {"agree": 0, "differ": 0, "solver unknown": 0, "reference unknown": 0, "won": 0, "lost": 0}
        times: list[float] = []
        for seed in range(args.start, args.start + args.deals):
            deal = GameState.new(seed_code(rules, seed))
            began = time.perf_counter()
            solution = solve(deal, budget=args.budget, max_removable=False)
            times.append(time.perf_counter() - began)
            if solution.result == "winnable":
                after = deal
                for move in solution.line:
                    after = play(after, move).state
                if after.status != "won":
                    print(f"{name} seed {seed}: the winning line does not win", flush=True)
                    differ += 1
            try:
                reference = "winnable" if reference_verdict(deal, args.limit) else "unwinnable"
            except OutOfPositions:
                reference = "unknown"
            if args.verbose:
                print(f"{name} seed {seed}: solver {solution.result} ({times[-1] * 1000:.0f} ms), reference {reference}", flush=True)
            if solution.result == "unknown":
                counts["solver unknown"] += 1
            if reference == "unknown":
                counts["reference unknown"] += 1
            if "unknown" in (solution.result, reference):
                continue
            if solution.result == reference:
                counts["agree"] += 1
                counts["won" if reference == "winnable" else "lost"] += 1
            else:
                counts["differ"] += 1
                differ += 1
                print(f"{name} seed {seed}: solver {solution.result}, reference {reference}", flush=True)
        times.sort()
        median, worst = times[len(times) // 2], times[-1]
        print(
            f"{name} ({rules.letters}), seeds {args.start}-{args.start + args.deals - 1}: "
            + ", ".join(f"{count} {what}" for what, count in counts.items())
            + f"; solver median {median * 1000:.1f} ms, max {worst * 1000:.0f} ms",
            flush=True,
        )
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
