import time, sys
from service.engine import GameState, Rules, legal_moves, play, seed_code
from service.engine import _state
def per(data, n, repeat=5):
    best = 1e9
    for _ in range(repeat):
        _state._REPLAYS.cache_clear()
        t = time.thread_time(); GameState.from_json(data); best = min(best, time.thread_time() - t)
    return best / n * 1e6
for rules in (Rules(), Rules(unlimited_undo=True)):
    state = GameState.new(seed_code(rules, 12345))
    out = []
    for length in (10, 100, 1000, 2500, 5000, 10000):
        while len(state.log) < length:
            state = play(state, next(m for m in legal_moves(state) if m.type in ("draw", "recycle"))).state
        out.append(f"{length}:{per(state.to_json(), length):.1f}")
    print(rules.unlimited_undo, *out)
