"""Shortest lines side by side with the peer: mchung94/solitaire-player's Pyramid solver (Java, A*,
Microsoft Solitaire Collection's rules), built from its own source, against ours under `DT2`.

``PYRAMIDE_PEER=/path/to/build python -m tests.bench shortest`` (or ``python -m tests.bench.bench_peer``;
``PYRAMIDE_PEER_EACH=1`` prints each deal too)
— ``PYRAMIDE_PEER`` is the folder ``tests/bench/peer/build.sh`` (``make peer PEER_SRC=…``) wrote:
the peer's solver classes and the two libraries they need. Without it the same deals are searched
by ours alone, and the bench says how to build the peer.

The deals: the first 30 (``PYRAMIDE_PEER_DEALS``) of seed 1 (``PYRAMIDE_PEER_SEED``), dealt by our
Java driver (``tests/bench/peer/PeerShortest.java``: the peer has no dealer of its own), each the
peer's 52 cards in its order: 28 to the pyramid row by row, then the stock from its top. The same
cards, in the same places, are our deal under `DT2` (24-card stock, no waste card, three passes,
the card just drawn pairs with the waste card it covers): its full-layout code.

Both run in one process pair, deal by deal alternately (the peer's JVM stays up, reading one deal
at a time), so both see the same machine. Ours as the API runs it (``"shortest": true``: anytime
weighted A*, ``max_removable`` off as in bench_shortest) within 250,000 positions and the API's time
bound (``PYRAMIDE_SOLVE_SECONDS``; 60 leaves the node budget alone to bound it on a busy machine),
and also within the API's default budget (100,000), the same deals again. The peer's A* has no
budget: it answers every deal, and its answer is always minimal (its estimate is admissible and
consistent; ``BoardChallengeSolver``). Times are per winnable deal: wall clock for both, CPU for
ours (the process) and for the peer (its solving thread; the JVM's own threads, JIT and GC, apart).

How the two count moves. Both count a draw, a recycle and a removal (a pair or a King) as one
move, and stop when the pyramid is empty. But the peer's stock top is face up and in play before
it is drawn (Microsoft's layout), ours is drawn first: a card the peer removes from the stock's
top costs us a draw more. So the lengths are compared through each other's lines:

- the peer's line, played in our engine (each removal from the stock's top preceded by a draw),
  must win, and be no shorter than our proven minimum;
- our line, counted the peer's way (a draw of a card removed before another card is drawn onto
  it costs the peer nothing), must be no shorter than the peer's minimum.

Either inequality broken would mean a line one side calls minimal is not: the bench fails.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import statistics
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from service.api._limits import SECONDS
from service.engine import Card, GameState, Layout, Move, Rules, play, solve

#: Microsoft Solitaire Collection's Pyramid, as the peer plays it (``DT2``).
DT2 = Rules(max_recycles=2, drawn_pairs_with_waste=True, initial_waste=False)
BUDGET = 250_000
API_DEFAULT_BUDGET = 100_000
PEER_ENV = "PYRAMIDE_PEER"
DRIVER = Path(__file__).with_name("peer") / "PeerShortest.java"
#: The peer's own JVM options (its build.gradle's ``applicationDefaultJvmArgs``).
PEER_JAVA_OPTS = ("-Xmx8G", "-XX:+UseG1GC", "-XX:MaxGCPauseMillis=5000")
HOW_TO_BUILD = (
    "the peer is not built: fetch github.com/mchung94/solitaire-player, then\n"
    "    make peer PEER_SRC=/path/to/solitaire-player PEER=/path/to/build\n"
    f"and run again with {PEER_ENV}=/path/to/build (docs/solver-lab-notes.md, 'Beside the peer')"
)


# -- the deals ---------------------------------------------------------------------------------
def our_deal(peer_deck: str) -> GameState:
    """The peer's deck (52 cards such as ``Th``, the pyramid row by row, then the stock from its
    top) as our deal under `DT2`: the same cards in the same places."""
    cards = peer_deck.split()
    if len(cards) != 52:
        raise ValueError(f"a peer deck has 52 cards, not {len(cards)}")
    return GameState.new(layout=Layout.from_deck([Card.parse(card_of(text)) for text in cards], DT2), rules=DT2)


def peer_deals(seed: int, count: int) -> list[str]:
    """The first ``count`` deals of ``seed``: one ``random.Random(seed)`` shuffling, deal after deal,
    a fresh deck in the order A…K of clubs, diamonds, hearts, spades, written the peer's way."""
    stream = random.Random(seed)
    decks = []
    for _ in range(count):
        cards = [rank + suit for suit in "cdhs" for rank in "A23456789TJQK"]
        stream.shuffle(cards)
        decks.append(" ".join(cards))
    return decks


def card_of(peer_card: str) -> str:
    """``Th`` → ``TH``: the peer writes rank then suit in lower case, ranks ``A23456789TJQK``."""
    if len(peer_card) != 2 or peer_card[0] not in "A23456789TJQK" or peer_card[1] not in "cdhs":
        raise ValueError(f"not a peer card: {peer_card!r}")
    return peer_card.upper()


# -- the peer's lines --------------------------------------------------------------------------
@dataclass(frozen=True)
class PeerAction:
    kind: str  # "draw", "recycle" or "remove"
    cards: tuple[str, ...] = ()  # ours (``TH``), for a removal
    positions: tuple[str, ...] = ()  # "0"…"27" (the pyramid's slots), "Stock" or "Waste"

    @property
    def from_stock(self) -> bool:
        return "Stock" in self.positions


def parse_action(text: str) -> PeerAction:
    """One of the peer's ``Action.toString()``: ``Draw``, ``Recycle``, ``Remove [Ad, Qs] ([21, Stock])``."""
    if text in ("Draw", "Recycle"):
        return PeerAction(text.lower())
    head, sep, rest = text.partition(" (")
    if not (head.startswith("Remove [") and head.endswith("]") and sep and rest.startswith("[") and rest.endswith("])")):
        raise ValueError(f"not a peer action: {text!r}")
    cards = tuple(card_of(card) for card in head[len("Remove [") : -1].split(", "))
    positions = tuple(rest[1:-2].split(", "))
    if len(cards) != len(positions) or not 1 <= len(cards) <= 2:
        raise ValueError(f"not a peer action: {text!r}")
    return PeerAction("remove", cards, positions)


def our_line(actions: list[PeerAction]) -> list[Move]:
    """The peer's line as our moves: the same, with a draw before each removal from the stock's top
    (ours is in play only once drawn; the peer never leaves a drawn card unremoved there, so every
    other draw is the peer's own)."""
    moves: list[Move] = []
    for action in actions:
        if action.kind != "remove":
            moves.append(Move.draw() if action.kind == "draw" else Move.recycle())
            continue
        if action.from_stock:
            moves.append(Move.draw())
        moves.append(Move.king(action.cards[0]) if len(action.cards) == 1 else Move.pair(*action.cards))
    return moves


def replay(game: GameState, moves: list[Move]) -> GameState:
    """Play ``moves`` from ``game`` in our engine (an illegal move raises)."""
    for move in moves:
        game = play(game, move).state
    return game


def peer_count(game: GameState, moves: tuple[Move, ...] | list[Move]) -> int:
    """Our line's length counted the peer's way: a draw whose card leaves before another card is
    drawn onto it (or the waste recycled) is the peer's stock top, in play without a draw."""
    free, fresh = 0, None  # (the card last drawn while nothing has been drawn onto it)
    for move in moves:
        if move.type == "draw":
            fresh = game.stock[0]
        elif move.type == "recycle":
            fresh = None
        elif fresh is not None and fresh in move.cards:
            free, fresh = free + 1, None
        game = play(game, move).state
    return len(moves) - free


# -- running the peer --------------------------------------------------------------------------
def peer_classpath(folder: str | os.PathLike | None) -> str | None:
    """The peer's classpath in the folder build.sh wrote, or None when it is not there."""
    if not folder:
        return None
    root = Path(folder)
    jars = [root / "peer-pyramid.jar", *sorted((root / "lib").glob("*.jar"))]
    if not jars[0].is_file() or len(jars) < 2 or shutil.which("java") is None:
        return None
    return os.pathsep.join(str(jar) for jar in jars)


class Peer:
    """The peer's JVM, our driver compiled against its classes, answering one deal at a time."""

    def __init__(self, classpath: str) -> None:
        self.classes = tempfile.mkdtemp(prefix="pyramide-peer-")
        subprocess.run(["javac", "-nowarn", "-d", self.classes, "-cp", classpath, str(DRIVER)], check=True)
        self.classpath = os.pathsep.join((self.classes, classpath))
        opts = os.environ.get("PYRAMIDE_PEER_JAVA_OPTS")
        self.java = ["java", *(opts.split() if opts else PEER_JAVA_OPTS), "-cp", self.classpath, "PeerShortest"]
        self.process: subprocess.Popen | None = None

    def solve(self, deck: str) -> dict:
        if self.process is None:
            self.process = subprocess.Popen([*self.java, "solve"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        assert self.process.stdin and self.process.stdout
        self.process.stdin.write(deck + "\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError("the peer's JVM stopped (out of memory? see its standard error)")
        return json.loads(line)

    def close(self) -> None:
        if self.process is not None:
            assert self.process.stdin
            self.process.stdin.close()
            self.process.wait(timeout=60)
        shutil.rmtree(self.classes, ignore_errors=True)


# -- the table ---------------------------------------------------------------------------------
def percentile(values: list[float], p: int) -> float:
    """The nearest-rank ``p``-th percentile."""
    ordered = sorted(values)
    return ordered[max(0, -(-len(ordered) * p // 100) - 1)]


def compiled_engine():
    """The installed package's engine when its core runs compiled (``make compiled``), else None."""
    try:
        import pyramide.engine as installed
    except ImportError:
        return None
    return installed if installed.core_compiled() else None


def ours(game: GameState, budget: int, engine=None) -> dict:
    """Our shortest line for ``game``, by ``engine`` (the compiled core's package) or by the
    sources (``service.engine``, the fallback), with its times."""
    start, start_cpu = time.perf_counter(), time.process_time()
    if engine is None:
        solution = solve(game, max_removable=False, shortest=True, budget=budget, deadline=time.monotonic() + SECONDS)
    else:
        solution = engine.solve(engine.GameState.new(game.code), max_removable=False, shortest=True, budget=budget, deadline=time.monotonic() + SECONDS)
    wall, cpu = (time.perf_counter() - start) * 1000, (time.process_time() - start_cpu) * 1000
    line = None if solution.line is None else [Move.from_text(str(move)) for move in solution.line]
    if line is not None:
        assert replay(game, line).status == "won", game.code
    return {"result": solution.result, "minimal": solution.minimal, "nodes": solution.nodes, "wall_ms": wall, "cpu_ms": cpu,
            "length": None if line is None else len(line), "peer_count": None if line is None else peer_count(game, line)}  # fmt: skip


#: Our runs of each deal: (key, the engine's kind, budget): compiled where it is built, with the
#: sources' (the fallback's) figures beside; else the sources alone.
COMPILED_RUNS = (("ours", "compiled", BUDGET), ("ours_default", "compiled", API_DEFAULT_BUDGET), ("ours_interpreted", "interpreted", BUDGET))
INTERPRETED_RUNS = (("ours", "interpreted", BUDGET), ("ours_default", "interpreted", API_DEFAULT_BUDGET))


def main() -> list[dict]:
    seed = int(os.environ.get("PYRAMIDE_PEER_SEED", 1))
    count = int(os.environ.get("PYRAMIDE_PEER_DEALS", 30))
    classpath = peer_classpath(os.environ.get(PEER_ENV))
    peer = Peer(classpath) if classpath else None
    compiled = compiled_engine()
    runs = COMPILED_RUNS if compiled is not None else INTERPRETED_RUNS
    print(f"beside the peer (mchung94/solitaire-player, A*): the first {count} deals of seed {seed}, `DT2`, "
          f"ours within {BUDGET:,} and {API_DEFAULT_BUDGET:,} positions, {SECONDS:g} s bound; {os.cpu_count()} cores, "
          f"load average {os.getloadavg()[0]:.1f}; the solver's core "
          f"{'compiled and interpreted' if compiled else 'interpreted only (make compiled for the compiled rows)'}")  # fmt: skip
    if peer is None:
        print("  " + HOW_TO_BUILD.replace("\n", "\n  "))
    try:
        deals = []
        for deck in peer_deals(seed, count):
            game = our_deal(deck)
            answer = peer.solve(deck) if peer else None
            deal = {"code": game.code, "peer": answer}
            for key, kind, budget in runs:
                deal[key] = ours(game, budget, compiled if kind == "compiled" else None)
            deal["runs"] = [(key, f"ours {kind}, {budget:,}") for key, kind, budget in runs]
            deals.append(deal)
    finally:
        if peer:
            peer.close()
    return report(deals)


def report(deals: list[dict]) -> list[dict]:
    """Check the two sides against each other and print the table; the rows returned."""
    with_peer = all(deal["peer"] is not None for deal in deals)
    winnable = []
    for deal in deals:
        mine, theirs = deal["ours"], deal["peer"]
        if with_peer:
            if theirs["solved"] != (mine["result"] == "winnable") and mine["result"] != "unknown":
                raise AssertionError(f"{deal['code']}: the peer says solved={theirs['solved']}, ours {mine['result']}")
            if theirs["solved"]:
                game = our_deal_of(deal)
                line = our_line([parse_action(text) for text in theirs["actions"]])
                assert replay(game, line).status == "won", f"{deal['code']}: the peer's line does not win here"
                deal["peer_length"], deal["peer_ours"] = len(theirs["actions"]), len(line)
                if mine["minimal"]:
                    assert mine["length"] <= len(line), f"{deal['code']}: the peer's line is shorter than our minimal one"
                    assert mine["peer_count"] >= deal["peer_length"], f"{deal['code']}: our line beats the peer's minimum"
        if (theirs["solved"] if with_peer else mine["result"] == "winnable"):
            winnable.append(deal)
    if os.environ.get("PYRAMIDE_PEER_EACH"):
        for deal in deals:
            mine, theirs = deal["ours"], deal["peer"] or {}
            print(f"    {deal['code']}  ours {mine['result']:<10} {mine['length'] or '-':>3} moves "
                  f"{'minimal' if mine['minimal'] else 'not proven':<10} {mine['nodes']:>7,} positions "
                  f"{mine['cpu_ms']:>8.1f} ms CPU {mine['wall_ms']:>8.1f} ms"
                  + (f"  | peer {len(theirs['actions']) if theirs['solved'] else '-':>3} actions ({deal.get('peer_ours', '-')} ours) "
                     f"{theirs['cpu_ms']:>8.1f} ms CPU {theirs['wall_ms']:>8.1f} ms" if theirs else ""))  # fmt: skip
    rows = []
    for key, side in deals[0].get("runs", [("ours", f"ours, {BUDGET:,}"), ("ours_default", f"ours, {API_DEFAULT_BUDGET:,}")]):
        runs = [deal[key] for deal in winnable]
        wall, cpu = [run["wall_ms"] for run in runs], [run["cpu_ms"] for run in runs]
        rows.append({"side": side, "deals": len(deals), "winnable": len(winnable),
                     "proven": sum(run["minimal"] for run in runs), "median_ms": statistics.median(wall),
                     "p95_ms": percentile(wall, 95), "cpu_median_ms": statistics.median(cpu),
                     "cpu_p95_ms": percentile(cpu, 95), "median_positions": statistics.median(run["nodes"] for run in runs)})  # fmt: skip
    if with_peer:
        runs = [deal["peer"] for deal in winnable]
        wall, cpu = [run["wall_ms"] for run in runs], [run["cpu_ms"] for run in runs]
        rows.append({"side": "peer (A*, no budget)", "deals": len(deals), "winnable": len(winnable), "proven": len(runs),
                     "median_ms": statistics.median(wall), "p95_ms": percentile(wall, 95),
                     "cpu_median_ms": statistics.median(cpu), "cpu_p95_ms": percentile(cpu, 95),
                     "process_cpu_median_ms": statistics.median(run["process_cpu_ms"] for run in runs),
                     "all_deals_wall_s": sum(deal["peer"]["wall_ms"] for deal in deals) / 1000})  # fmt: skip
    for row in rows:
        print(f"  {row['side']:<26} winnable {row['winnable']:>2}/{row['deals']}  proven shortest {row['proven']:>2}/{row['winnable']}  "
              f"wall median {row['median_ms']:>8.1f} ms  p95 {row['p95_ms']:>8.1f} ms  "
              f"CPU median {row['cpu_median_ms']:>8.1f} ms  p95 {row['cpu_p95_ms']:>8.1f} ms"
              + (f"  median positions {row['median_positions']:>8,.0f}" if "median_positions" in row else ""))  # fmt: skip
    if with_peer:
        peer_row = rows[-1]
        for row in rows[:-1]:
            row["ratio_wall"] = row["median_ms"] / peer_row["median_ms"]
            row["ratio_cpu"] = row["cpu_median_ms"] / peer_row["cpu_median_ms"]
            print(f"  ratio ours/peer of the median, {row['side']}: wall {row['ratio_wall']:.2f}, CPU {row['ratio_cpu']:.2f}"
                  f"  (the peer's thread; its process, JIT and GC included: median {peer_row['process_cpu_median_ms']:.1f} ms)")  # fmt: skip
        both = [deal for deal in winnable if deal["ours"]["minimal"]]
        same = sum(deal["ours"]["length"] == deal["peer_ours"] for deal in both)
        same_peer = sum(deal["ours"]["peer_count"] == deal["peer_length"] for deal in both)
        print(f"  lengths on the {len(both)} deals both proved: consistent on all (neither line beats the other's minimum); "
              f"the peer's line is also a shortest of ours on {same}, ours a shortest of the peer's on {same_peer}")  # fmt: skip
        rows.append({"side": "lengths", "both_proved": len(both), "peer_line_minimal_for_us": same, "our_line_minimal_for_peer": same_peer})
    return rows


def our_deal_of(deal: dict) -> GameState:
    return GameState.new(deal["code"])


if __name__ == "__main__":
    main()
