"""A scenario's capability needs are derived from its steps, never tagged by hand, and an engine
that lacks a capability has every scenario needing it skipped, naming it, and passes the rest.

The first tests read each vector's step *texts* (not the operations :mod:`features.capabilities`
derives from), so that they check the derivation rather than restate it."""

from __future__ import annotations

import dataclasses
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from features import vectors as kit_vectors
from features.capabilities import needs, vector_plan
from features.cli import PYTEST_OPTIONS
from features.client import InProcessClient
from features.conftest import check_citations
from features.driver import CAPABILITIES, DEFAULT_ON, OPT_IN, HttpDriver
from features.ops import Game, KitFailure
from service.engine import PRESETS, Rules

ROOT = Path(__file__).resolve().parents[2]
VECTORS = json.loads(kit_vectors.VECTORS.read_text(encoding="utf-8"))["vectors"]
ADAPTER = f"{sys.executable} -m features.adapters.pyramide_engine"
OPTIONS = {field.name for field in dataclasses.fields(Rules)}


def texts(vector) -> list[str]:
    return [step["step"] for step in vector["steps"]]


def test_every_vector_with_a_tap_requires_taps():
    with_taps = [v for v in VECTORS if any("tap:" in text for text in texts(v))]
    assert len(with_taps) > 100
    assert [v["id"] for v in with_taps if "taps" not in v["requires"]] == []


def test_every_vector_checking_the_selection_or_the_free_cards_requires_taps():
    selecting = [v for v in VECTORS if any(re.search(r"selected card|no card is selected|free pyramid cards", text) for text in texts(v))]
    assert selecting and [v["id"] for v in selecting if "taps" not in v["requires"]] == []


def test_every_vector_checking_points_or_the_score_requires_scoring():
    scoring = [v for v in VECTORS if any(re.search(r"\bscore is\b|\bpoints\b", text) for text in texts(v) if not text.startswith("Then the replay"))]
    assert len(scoring) > 50
    assert [v["id"] for v in scoring if "scoring" not in v["requires"]] == []


def test_every_vector_checking_the_move_counter_requires_it():
    counting = [v for v in VECTORS if any("move counter" in text for text in texts(v))]
    assert counting and [v["id"] for v in counting if "move-counter" not in v["requires"]] == []


def test_every_vector_playing_undo_requires_undo_and_a_hundred_of_them_the_limit():
    undoing = [v for v in VECTORS if any(re.search(r'(play|try|played)\b.*"[^"]*\bundo\b', text) for text in texts(v))]
    assert len(undoing) > 20 and [v["id"] for v in undoing if "undo" not in v["requires"]] == []
    limit = [v for v in VECTORS if any(re.search(r'"undo"[^"]* (100|99) times', text) for text in texts(v))]
    assert limit and [v["id"] for v in limit if "undo-limit" not in v["requires"]] == []


def test_every_vector_checking_a_message_requires_messages():
    messages = [v for v in VECTORS if any(text.split(" ", 1)[1].startswith("the message is") for text in texts(v))]
    assert messages and [v["id"] for v in messages if "messages" not in v["requires"]] == []


def test_every_vector_dealing_under_a_rules_option_requires_it():
    named = 0
    for vector in VECTORS:
        for op in (op for step in vector["steps"] for op in step["ops"] if op["op"] in ("deal", "deal_try")):
            rules = op.get("rules") or {}
            if isinstance(rules, str):  # a preset by its name (Pyramide's API): the engine's own preset, if any
                named += 1
                assert "api" in vector["requires"], vector["id"]
                rules = PRESETS[rules].to_json() if rules in PRESETS else {}
                rules = {key: value for key, value in rules.items() if value != getattr(Rules(), key)}
            for key in (key for key in rules if key in OPTIONS):  # (not an option no rules have: a refusal's example)
                wanted = {"draw_count": "variant-tuts-tomb", "waste_piles": "variant-apophis", "rows": "variant-pharaoh", "deck": "variant-spanish"}
                assert wanted.get(key, "option-" + key.replace("_", "-")) in vector["requires"], (vector["id"], key)
    assert named >= 2


def test_every_vector_with_a_deal_code_requires_codes():
    coded = [v for v in VECTORS if any(re.search(r"(?<!feedback )\bcode\b", text) for text in texts(v)) and "api" not in v["tags"]]
    assert coded and [v["id"] for v in coded if "codes" not in v["requires"]] == []


def test_every_vector_checking_the_reason_of_a_refusal_requires_refusal_reasons():
    giving = [v for v in VECTORS if any(text.split(" ", 1)[1].startswith("the reason given") for text in texts(v))]
    assert len(giving) > 40
    assert [v["id"] for v in giving if "refusal-reasons" not in v["requires"]] == []


class _CodesWithoutReasons:
    """Pyramide's app as a server whose refusals give their codes and no reasons."""

    def __init__(self) -> None:
        self.client = InProcessClient()

    def request(self, method, path, body=None, language=None):
        reply = self.client.request(method, path, body, language)
        if isinstance(reply.body, dict) and reply.status >= 400:
            reply = dataclasses.replace(reply, body={k: v for k, v in reply.body.items() if k not in ("reason", "index", "move", "rule")})
        return reply


class _WrongReasons(_CodesWithoutReasons):
    """A server whose refusals say a wrong reason (every one ``missing``)."""

    def request(self, method, path, body=None, language=None):
        reply = self.client.request(method, path, body, language)
        if isinstance(reply.body, dict) and reply.body.get("reason"):
            reply = dataclasses.replace(reply, body={**reply.body, "reason": "missing"})
        return reply


def _run(vector, client) -> None:
    game = Game(HttpDriver(client))
    for step in vector["steps"]:
        for op in step["ops"]:
            game.run(op)


def test_a_server_giving_codes_but_no_reasons_lacks_refusal_reasons_and_still_passes_the_codes():
    """Over HTTP a server declares nothing: its refusals without a reason make refusal-reasons
    not offered (the scenarios checking one are skipped, naming it), and its codes still pass."""
    assert "refusal-reasons" in HttpDriver(InProcessClient()).capabilities
    assert "refusal-reasons" not in HttpDriver(_CodesWithoutReasons()).capabilities
    assert "refusal-reasons" not in HttpDriver(InProcessClient(), without=frozenset({"refusal-reasons"})).capabilities
    vector = next(v for v in VECTORS if v["id"].startswith("setup/a-layout-that-is-not-the-52-cards-each-once-is-not-a-deal-a-card-twice"))
    assert "refusal-reasons" in vector["requires"]
    checks = [op for step in vector["steps"] for op in step["ops"] if op["op"] != "reason"]
    _run({**vector, "steps": [{"ops": checks}]}, _CodesWithoutReasons())  # the code alone passes


def test_a_wrong_reason_fails_the_check_citing_the_scenarios_sentence():
    vector = next(v for v in VECTORS if v["id"].startswith("setup/a-layout-that-is-not-the-52-cards-each-once-is-not-a-deal-a-card-twice"))
    with pytest.raises(KitFailure) as failure:
        _run(vector, _WrongReasons())
    assert failure.value.what == "the reason of the refusal"
    assert (failure.value.expected, failure.value.got) == ({"reason": "duplicate", "field": "layout"}, {"reason": "missing", "field": "layout"})
    assert check_citations(None, vector["tags"]) == [("000", 9)]  # the reason check guards the scenario's sentence


def test_the_derivation_names_only_known_capabilities_and_the_hand_tags_still_count():
    assert set(CAPABILITIES) == set(OPT_IN) | set(DEFAULT_ON) and not set(OPT_IN) & set(DEFAULT_ON)
    assert all(set(vector["requires"]) <= set(CAPABILITIES) for vector in VECTORS)
    assert needs([], ["api", "doc-000"]) == {"api"}
    assert needs([{"op": "play", "moves": ["tap:7S", "undo"]}]) == {"taps", "undo"}
    assert needs([{"op": "play", "moves": ["undo"] * 100}]) == {"undo", "undo-limit"}


LACKING = ("taps", "undo", "undo-limit", "scoring", "move-counter", "messages", "option-notify-unwinnable", "option-unlimited-undo")


def test_an_engine_lacking_capabilities_skips_exactly_their_scenarios_and_passes_the_rest():
    """Pyramide's adapter made an engine without tap play, undo, score, move counter, messages and
    004's two options (it refuses the moves and the options, and answers no score): every
    scenario needing one is skipped, naming it, and every other one passes."""
    lacking = set(LACKING)
    skipped = [v for v in VECTORS if vector_plan(v, {"api", "solver"} | lacking)[0]]
    # a check of what it lacks is left out on its own, the rest of its scenario judged
    partly = [v for v in VECTORS if not vector_plan(v, {"api", "solver"} | lacking)[0] and lacking & set(v["requires"])]
    assert len(partly) > 50
    result = subprocess.run(
        [sys.executable, "-m", "features.cli", "--driver-command", ADAPTER],
        cwd=ROOT, capture_output=True, text=True, timeout=600,
        env={**os.environ, "PYRAMIDE_ADAPTER_WITHOUT": ",".join(LACKING)},
    )  # fmt: skip
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
    assert result.stdout.rstrip().endswith(f"{len(VECTORS) - len(skipped)} passed, 0 failed, {len(skipped)} skipped"), result.stdout[-2000:]
    counted = result.stdout.split("skipped, by what the implementation does not offer")[1]
    taps = sum(1 for v in VECTORS if "taps" in vector_plan(v, {"api", "solver"} | lacking)[0])
    assert f"{taps:>7}  taps" in counted, counted
    assert len(VECTORS) - len(skipped) > 100  # the documents' play rules are still judged


def test_without_on_the_command_line_skips_over_http():
    """A server declares nothing: --without names what it lacks (here, of the King scenarios:
    those by a tap need taps, and every one checks points)."""
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "features", "-q", *PYTEST_OPTIONS, "--without", "taps", "-rs", "-k", "king_of_the_pyramid"],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout[-2000:]
    assert "the implementation does not offer: taps" in result.stdout
    assert " passed" in result.stdout  # the King moves still run


def test_an_engine_taking_an_option_but_not_one_of_its_values_skips_only_that_value():
    """An engine that limits the recycles but cannot take two (its hello's "without" lists
    option-max-recycles=2) has the scenarios dealing under max_recycles 2 skipped, naming the
    value, and passes those under 0 and 1; --without says the same of a server."""
    values = {json.dumps(op["rules"]["max_recycles"]) for v in VECTORS for step in v["steps"] for op in step["ops"]
              if op["op"] in ("deal", "deal_try") and "max_recycles" in (op.get("rules") or {})}  # fmt: skip
    assert {"0", "1", "2"} <= values
    selection = ["-m", "variant-limited-passes", "-rs"]
    for target, env in ((["--driver-command", ADAPTER], {"PYRAMIDE_ADAPTER_WITHOUT": "option-max-recycles=2"}), (["--without", "option-max-recycles=2"], {})):
        result = subprocess.run(
            [sys.executable, "-m", "pytest", "features", "-q", *PYTEST_OPTIONS, *target, *selection],
            cwd=ROOT, capture_output=True, text=True, timeout=300, env={**os.environ, **env},
        )  # fmt: skip
        assert result.returncode == 0, result.stdout[-2000:]
        assert re.search(r"SKIPPED \[2\] .*the implementation does not offer: option-max-recycles=2", result.stdout), result.stdout[-2000:]
        passed = re.search(r"(\d+) passed", result.stdout)
        assert passed and int(passed.group(1)) >= 10 and " failed" not in result.stdout, result.stdout[-500:]  # under 0 and 1


def test_an_unknown_capability_is_a_usage_error():
    result = subprocess.run([sys.executable, "-m", "features.cli", "--without", "tapz"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert result.returncode == 2 and "--without tapz: not a capability" in result.stderr
    for name in ("option-max-recycles=two", "variant-pharaoh=1"):
        result = subprocess.run([sys.executable, "-m", "features.cli", "--without", name], cwd=ROOT, capture_output=True, text=True, timeout=60)
        assert result.returncode == 2 and f"--without {name}: not a capability" in result.stderr


def test_list_names_every_capability_and_option_value_the_kit_deals_under(capsys):
    """An implementer reads what to declare from --list, not from vectors.json (issue 35)."""
    import json as json_
    from pathlib import Path

    from features.capabilities import option_values
    from features.cli import main as kit_main

    vectors = json_.loads((Path(__file__).resolve().parents[2] / "features" / "vectors.json").read_text(encoding="utf-8"))["vectors"]
    assert kit_main(["--list"]) == 0
    said = capsys.readouterr().out
    recycles_2 = sum("option-max-recycles=2" in option_values(op for step in v["steps"] for op in step["ops"]) for v in vectors)
    taps = sum("taps" in v["requires"] for v in vectors)
    assert f"  {recycles_2:>5}  option-max-recycles=2\n" in said and recycles_2 > 0
    assert f"  {taps:>5}  taps\n" in said and f"capabilities the {len(vectors)} scenarios need" in said
