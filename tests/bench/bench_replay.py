"""Replay cost: µs per action to validate a state whose log has 10 to 10,000 actions
(``GameState.from_json``, which replays the log from the deal; the replay cache emptied before
each), under the app's rules and under the 004 preset ``unlimited-undo`` (whose undo history grows
with the log), and the replay cache's memory when a client fills it as cheaply as it can (logs
one action longer each time, which replay in a few µs from the previous one): the bytes it counts
against its limit, and the bytes really allocated (tracemalloc), under both rule sets:
``python -m tests.bench replay`` (on demand).

The time is the thread's CPU time (``time.thread_time``), the best of a few runs, so that other
processes on a busy machine do not count. A linear replay prints about the same µs per action at
every length; the log's limit is ``MAX_LOG`` (10,000).
"""

from __future__ import annotations

import gc
import json
import time
import tracemalloc

from service.engine import DOCUMENTS_LAYOUT, PRESETS, GameState, legal_moves, play, seed_code
from service.engine import _state

LENGTHS = (10, 100, 1_000, 2_500, 5_000, 10_000)


def long_game(actions: int, preset: str = "pyramide") -> GameState:
    """The documents' deal (under another preset than the app's, the deal of seed 12345) after
    ``actions`` actions: up to 20 removals and draws, then draws and recycles (no limit on passes
    under the app's rules, nor under unlimited-undo), so the game goes on however long."""
    if preset == "pyramide":
        state = GameState.new(layout=DOCUMENTS_LAYOUT)
    else:
        state = GameState.new(seed_code(PRESETS[preset], 12345))
    while len(state.log) < actions:
        moves = [move for move in legal_moves(state) if move.type != "undo"]
        if len(state.log) >= 20:
            moves = [move for move in moves if move.type in ("draw", "recycle")]
        state = play(state, moves[0]).state
    return state


def _per_action(data: dict, actions: int, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        _state._REPLAYS.cache_clear()
        started = time.thread_time()
        GameState.from_json(data)
        best = min(best, time.thread_time() - started)
    return best / actions * 1e6


def main() -> list[dict]:
    rows = []
    for preset in ("pyramide", "unlimited-undo"):
        print(f"replay under {preset!r} (GameState.from_json, the replay cache emptied before each; CPU time, best of 5)")
        longest = long_game(LENGTHS[-1], preset)
        for length in LENGTHS:
            state = longest if length == LENGTHS[-1] else long_game(length, preset)
            us = _per_action(state.to_json(), length, 5)
            rows.append({"rules": preset, "actions": length, "us_per_action": round(us, 2)})
            print(f"  {length:>6} actions: {us:>7.2f} µs an action, {us * length / 1000:>8.2f} ms in all")
    print(f"replay cache: limit {_state._REPLAYS.limit / 2**20:g} MiB (PYRAMIDE_REPLAY_CACHE_MB)")
    for preset in ("pyramide", "unlimited-undo"):
        for length in (40, 1_000, 9_500):
            rows.append(_fill(length, 400, preset))
    return rows


def _fill(length: int, requests: int, preset: str) -> dict:
    """``requests`` states, each one action longer than the one before, from ``length`` actions,
    validated from their JSON text (each log a new string, as in a server)."""
    state, texts = long_game(length, preset), []
    for _ in range(requests):
        texts.append(json.dumps(state.to_json()))
        state = play(state, next(move for move in legal_moves(state) if move.type in ("draw", "recycle"))).state
    _state._REPLAYS.cache_clear()
    gc.collect()
    tracemalloc.start()
    started = time.perf_counter()
    for text in texts:
        GameState.from_json(json.loads(text))
    seconds = time.perf_counter() - started
    gc.collect()
    real = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    cache = _state._REPLAYS
    row = {"rules": preset, "actions": length, "entries": len(cache._states), "counted_bytes": cache.bytes, "real_bytes": real}
    print(f"  {preset:<14} {requests} logs of {length:>6}+ actions, each one longer: {seconds / requests * 1e6:>7.0f} µs a request; "
          f"{row['entries']} kept, {cache.bytes / 2**20:.1f} MiB counted, {real / 2**20:.1f} MiB allocated")  # fmt: skip
    cache.cache_clear()
    return row


if __name__ == "__main__":
    main()
