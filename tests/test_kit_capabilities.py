"""A scenario's capability needs are derived from its steps, never tagged by hand, and an engine
that lacks a capability has every scenario needing it skipped, naming it, and passes the rest.

The first tests read each vector's step *texts* (not the operations :mod:`features.capabilities`
derives from), so that they check the derivation rather than restate it."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

from features import vectors as kit_vectors
from features.capabilities import needs
from features.cli import PYTEST_OPTIONS
from features.driver import CAPABILITIES, DEFAULT_ON, OPT_IN

ROOT = Path(__file__).resolve().parent.parent
VECTORS = json.loads(kit_vectors.VECTORS.read_text(encoding="utf-8"))["vectors"]
ADAPTER = f"{sys.executable} -m features.adapters.pyramide_engine"


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
    for vector in VECTORS:
        for op in (op for step in vector["steps"] for op in step["ops"] if op["op"] in ("deal", "deal_try")):
            for key in op.get("rules") or {}:
                wanted = {"draw_count": "variant-tuts-tomb", "waste_piles": "variant-apophis", "rows": "variant-pharaoh", "deck": "variant-spanish"}
                assert wanted.get(key, "option-" + key.replace("_", "-")) in vector["requires"], (vector["id"], key)


def test_every_vector_with_a_deal_code_requires_codes():
    coded = [v for v in VECTORS if any(re.search(r"(?<!feedback )\bcode\b", text) for text in texts(v)) and "api" not in v["tags"]]
    assert coded and [v["id"] for v in coded if "codes" not in v["requires"]] == []


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
    skipped = [v for v in VECTORS if ({"api", "solver"} | lacking) & set(v["requires"])]
    result = subprocess.run(
        [sys.executable, "-m", "features.cli", "--driver-command", ADAPTER],
        cwd=ROOT, capture_output=True, text=True, timeout=600,
        env={**os.environ, "PYRAMIDE_ADAPTER_WITHOUT": ",".join(LACKING)},
    )  # fmt: skip
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
    assert result.stdout.rstrip().endswith(f"{len(VECTORS) - len(skipped)} passed, 0 failed, {len(skipped)} skipped"), result.stdout[-2000:]
    counted = result.stdout.split("skipped, by what the implementation does not offer")[1]
    taps = sum(1 for v in VECTORS if "taps" in v["requires"])
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


def test_an_unknown_capability_is_a_usage_error():
    result = subprocess.run([sys.executable, "-m", "features.cli", "--without", "tapz"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert result.returncode == 2 and "--without tapz: not a capability" in result.stderr
