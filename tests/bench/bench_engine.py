"""Engine benchmark: µs to apply a move, and to validate a state from its JSON.

Figures are per call, best and median of several repeats (the spread is the machine's noise).
"""

from __future__ import annotations

import json
import statistics
import timeit

from service.engine import DOCUMENTS_LAYOUT, GameState, Move, play


def _measure(label: str, func, number: int, repeat: int = 7) -> dict:
    times = [t / number * 1e6 for t in timeit.repeat(func, number=number, repeat=repeat)]
    row = {"what": label, "best_us": round(min(times), 2), "median_us": round(statistics.median(times), 2),
           "max_us": round(max(times), 2)}
    print(f"  {label:<48} best {row['best_us']:>8.2f} µs   median {row['median_us']:>8.2f} µs   max {row['max_us']:>8.2f} µs")
    return row


def main() -> list[dict]:
    print("engine (per call)")
    start = GameState.new(layout=DOCUMENTS_LAYOUT)
    mid = start
    for text in ["KD", "TC+3S", *["draw"] * 23, "recycle", *["draw"] * 24, "recycle", *["draw"] * 24, "recycle"]:
        mid = play(mid, Move.from_text(text)).state  # 77 actions of history
    pair, draw, tap = Move.from_text("TC+3S"), Move.draw(), Move.tap("7C")
    rows = [
        _measure("play pair (fresh deal)", lambda: play(start, pair), 20_000),
        _measure("play draw (77 actions of history)", lambda: play(mid, draw), 20_000),
        _measure("play tap select", lambda: play(start, tap), 20_000),
    ]
    fresh, full = start.to_json(), mid.to_json()
    fresh_text, full_text = json.dumps(fresh), json.dumps(full)
    rows += [
        _measure("validate state from JSON (fresh deal)", lambda: GameState.from_json(fresh), 5_000),
        _measure("validate state from JSON (77 history)", lambda: GameState.from_json(full), 1_000),
        _measure("json.loads + validate (77 history)", lambda: GameState.from_json(json.loads(full_text)), 1_000),
        _measure("state to JSON (77 history)", lambda: mid.to_json(), 5_000),
    ]
    del fresh_text
    return rows


if __name__ == "__main__":
    main()
