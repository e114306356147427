import gc, json, tracemalloc
from service.engine import GameState, Rules, legal_moves, play, seed_code
from service.engine import _state
state = GameState.new(seed_code(Rules(unlimited_undo=True), 12345))
while len(state.log) < 9500:
    state = play(state, next(m for m in legal_moves(state) if m.type in ("draw", "recycle"))).state
text = json.dumps(state.to_json())
_state._REPLAYS.cache_clear(); gc.collect()
tracemalloc.start()
data = json.loads(text)
base = tracemalloc.get_traced_memory()[0]
GameState.from_json(data)
gc.collect()
real = tracemalloc.get_traced_memory()[0] - base
(entry,) = _state._REPLAYS._states.values()
print("entry counted", entry[1], "real", real, "history", len(entry[0].history))
