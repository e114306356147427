"""The solver's core compiled by mypyc (``make compiled``) answers exactly as its sources do, the
interpreted core being the fallback (issue 38): the installed package, ``pyramide.engine``, runs
the compiled modules; ``service.engine``, the same files imported under the repository's name, runs
the sources. Both are imported here, side by side, and asked the same questions.

``make test`` builds the compiled core first; elsewhere these tests say SKIPPED (in CI,
``PYRAMIDE_REQUIRE_TOOLS``, they fail instead)."""

from __future__ import annotations

import importlib.machinery
import json
import os
import random
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

import service.engine as interpreted
from service.engine._compiled import COMPILED, up_to_date
from tests.server import server_process

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "service" / "engine"


#: There while ``make compiled`` builds the core (``make test`` builds it beside the first tests).
BUILDING = ROOT / "build" / "mypyc-building"


def compiled_engine():
    """``pyramide.engine`` with its core compiled (waiting for a build under way), or a skip (a
    failure in CI) saying why not."""
    why = None
    waited = time.monotonic()
    while BUILDING.exists() and not up_to_date(ENGINE) and time.monotonic() < waited + 300:
        time.sleep(0.5)
    if not up_to_date(ENGINE):
        why = "the solver's core is not compiled, or a source is newer than its build: make compiled"
    else:
        engine = pytest.importorskip("pyramide.engine", reason="the package is not installed: make install")
        if engine.core_compiled():
            return engine
        why = f"pyramide.engine runs its sources ({os.environ.get('PYRAMIDE_PURE_PYTHON') and 'PYRAMIDE_PURE_PYTHON is set'})"
    if os.environ.get("PYRAMIDE_REQUIRE_TOOLS"):
        pytest.fail(why)
    pytest.skip(why)


#: Rule sets of both searches: the app's, Microsoft's (DT2), one pass with strict wins, a card
#: and the one covering it; every preset of the general search.
RULE_SETS = {
    "N": {},
    "DT2": {"max_recycles": 2, "drawn_pairs_with_waste": True, "initial_waste": False},
    "one pass, strict": {"max_recycles": 0, "strict_win": True},
    "covering, limited": {"pair_with_covering": True, "max_recycles": 1},
    **{name: name for name in ("tuts-tomb", "apophis", "pharaoh", "spanish")},
}


def rules_of(engine, spec):
    return engine.PRESETS[spec] if isinstance(spec, str) else engine.Rules(**spec)


def answers(engine, spec, seeds: range, budget: int) -> list:
    """What ``engine`` answers on those deals: verdicts with their lines, the shortest lines,
    hints, and the legal moves along a game (the move generator is compiled too), as text."""
    rules = rules_of(engine, spec)
    said = []
    for seed in seeds:
        game = engine.GameState.new(engine.seed_code(rules, seed))
        for shortest in (False, True):
            solution = engine.solve(game, budget=budget, shortest=shortest)
            said.append((solution.result, [str(move) for move in solution.line or ()], solution.minimal, solution.max_removable, solution.nodes))
        move, solution = engine.hint(game, budget=budget)
        said.append((str(move), solution.result, solution.nodes))
        rng, state = random.Random(seed), game
        for _ in range(40):
            moves = [move for move in engine.legal_moves(state) if move.type != "undo"]
            said.append([str(move) for move in moves])
            if not moves:
                break
            state = engine.play(state, rng.choice(moves)).state
    return said


@pytest.mark.parametrize("name", RULE_SETS)
def test_the_compiled_core_answers_as_its_sources(name):
    compiled = compiled_engine()
    assert compiled.__name__ == "pyramide.engine" and not interpreted.core_compiled()
    seeds, budget = range(3), 6_000
    assert answers(compiled, RULE_SETS[name], seeds, budget) == answers(interpreted, RULE_SETS[name], seeds, budget)


def test_a_winnable_deal_is_the_same_deal():
    compiled = compiled_engine()
    for spec in (RULE_SETS["DT2"], "tuts-tomb"):
        found = [engine.winnable_deal(rules_of(engine, spec), first_seed=100).code for engine in (compiled, interpreted)]
        assert found[0] == found[1]


def run_engine(code: str, **environ: str) -> str:
    """What a fresh interpreter prints after ``code``, the installed engine imported first."""
    env = {**os.environ, **environ}
    script = f"import pyramide.engine as engine\n{code}"
    return subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, cwd=ROOT / "build", check=True, timeout=120).stdout.strip()


def test_the_environment_chooses_the_sources():
    compiled_engine()
    ask = "import pyramide.engine._solver.model as model; print(engine.core_compiled(), model.__file__.endswith('.py'))"
    assert run_engine(ask) == "True False"
    assert run_engine(ask, PYRAMIDE_PURE_PYTHON="1") == "False True"
    assert run_engine(ask, PYRAMIDE_PURE_PYTHON="0") == "True False"


def test_the_repositorys_name_always_runs_the_sources():
    """``service.engine`` (tests, scripts) never loads a module compiled for ``pyramide.engine``."""
    compiled_engine()
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    for name in COMPILED:
        module = sys.modules.get(f"service.engine.{name}") or importlib.import_module(f"service.engine.{name}")
        assert module.__file__ and not module.__file__.endswith(suffixes), name


def test_a_core_compiled_before_its_source_changed_is_not_used(tmp_path):
    """``up_to_date``: every compiled module there and none older than its source; else the core
    runs its sources (an edited source is what runs)."""
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    for name in COMPILED:
        path = tmp_path.joinpath(*name.split("."))
        path.parent.mkdir(parents=True, exist_ok=True)
        path.with_name(path.name + ".py").write_text("")
        os.utime(path.with_name(path.name + ".py"), (1_000, 1_000))
        path.with_name(path.name + suffix).write_text("")
        os.utime(path.with_name(path.name + suffix), (2_000, 2_000))
    assert up_to_date(tmp_path)
    model = tmp_path / "_solver" / "model.py"
    os.utime(model, (3_000, 3_000))  # edited after the build
    assert not up_to_date(tmp_path)
    os.utime(model, (1_000, 1_000))
    (tmp_path / "_solver" / f"levels{suffix}").unlink()  # one module not built
    assert not up_to_date(tmp_path)


#: A shortest line the compiled core proves in about 110,000 positions (0.8 s of one core, 5
#: December 2026): well past the time bound below.
HARD = "PYR1-DT2-AAAAAAD"
BOUND = 0.3


def test_the_compiled_server_keeps_its_time_bound_under_a_flood():
    """The API's time bound (``PYRAMIDE_SOLVE_SECONDS``) reached by the compiled core's own budget
    (``deadline=``, read every 1,024 positions; an ``int`` subclass would be lost to mypyc): 12
    clients at once ask ``HARD``'s shortest line of the installed server (``pyramide.api.serve``,
    compiled), 2 workers with 2 solver slots each and a 0.3 s bound. Each solve answered is the
    verdict's line, not proved the shortest, answered within the bound and a margin; the others are
    shed with ``503 solver_busy``; and the server still answers once the flood is over."""
    compiled_engine()
    body = json.dumps({"state": interpreted.GameState.new(HARD).to_json(), "shortest": True, "budget": 250_000}).encode()
    env = {"PYRAMIDE_SOLVE_SECONDS": str(BOUND), "PYRAMIDE_SOLVER_SLOTS": "2", "PYRAMIDE_ACCESS_LOG": "off"}
    with server_process(workers=2, module="pyramide.api.serve", **env) as (base, _):
        replies: list[tuple[int, dict, float]] = []

        def solve() -> None:
            request = urllib.request.Request(base + "/v1/solve", body, {"Content-Type": "application/json"})
            started = time.monotonic()
            try:
                with urllib.request.urlopen(request, timeout=30) as response:
                    replies.append((response.status, json.load(response), time.monotonic() - started))
            except urllib.error.HTTPError as error:
                replies.append((error.code, json.load(error), time.monotonic() - started))

        flood = [threading.Thread(target=solve) for _ in range(12)]
        for thread in flood:
            thread.start()
        for thread in flood:
            thread.join(60)
        answered = [(answer, seconds) for status, answer, seconds in replies if status == 200]
        shed = [answer for status, answer, _ in replies if status == 503]
        assert len(replies) == 12 and len(answered) + len(shed) == 12 and answered, replies
        for answer, seconds in answered:
            assert answer["result"] == "winnable" and answer["minimal"] is False, answer
            assert seconds < BOUND + 1.5, seconds
        assert all(answer["code"] == "solver_busy" for answer in shed), shed
        with urllib.request.urlopen(base + "/healthz", timeout=5) as response:
            assert response.status == 200


def test_the_compiled_bit_count_counts_as_int_bit_count():
    """``model.ones`` (native arithmetic, 32 bits at a time, where mypyc would call ``int.bit_count``
    as a generic method) counts as ``int.bit_count`` on every mask the searches can pass (≥ 0),
    narrow and wider than 32 and 64 bits; interpreted, it is ``int.bit_count`` itself."""
    import importlib

    from service.engine._solver.model import ones as interpreted_ones

    assert interpreted_ones is int.bit_count
    ones = importlib.import_module(compiled_engine().__name__ + "._solver.model").ones
    assert ones is not int.bit_count
    rng = random.Random(38)
    masks = [0, 1, 2**32 - 1, 2**32, 2**32 + 1, 2**64 - 1, 2**64 + 5, (1 << 300) - 1]
    masks += [rng.getrandbits(rng.choice([8, 28, 31, 32, 33, 52, 64, 65, 120, 300])) for _ in range(20_000)]
    assert [ones(mask) for mask in masks] == [mask.bit_count() for mask in masks]
