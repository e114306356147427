"""Presets by name wherever a rule set is taken (issue 21): the API's ``"rules": "tuts-tomb"``, the
CLI's ``--rules traditional``; an unknown name's message lists every name and every segment
letter, generated from the one registry (``PRESETS``, ``VARIANT_LETTERS``)."""

from __future__ import annotations

import pytest

from service.api import create_app
from service.cli import main
from service.engine import DOCUMENTS_LAYOUT, PRESETS, VARIANT_LETTERS, GameState, Rules

LETTERS = sorted(letter for letter in VARIANT_LETTERS.values() if letter.isalpha())


@pytest.fixture(scope="module")
def client():
    return create_app().test_client()


@pytest.mark.parametrize("name", list(PRESETS))
def test_a_new_game_under_each_preset_by_its_name(client, name):
    response = client.post("/v1/games", json={"rules": name})
    assert response.status_code == 201, response.json
    state = response.json["state"]
    assert state["rules"] == PRESETS[name].to_json() == client.get("/v1/rules").json["presets"][name]
    assert state["code"].split("-")[1] == PRESETS[name].letters
    assert len(state["pyramid"]) == PRESETS[name].rows


def test_a_replay_of_a_layout_under_a_preset_by_its_name(client):
    layout = DOCUMENTS_LAYOUT.to_json()
    layout = {**layout, "stock": layout["waste"] + layout["stock"], "waste": []}  # a 24-card stock, as 003
    response = client.post("/v1/replay", json={"layout": layout, "rules": "traditional", "moves": ["KD", "TC+3S"]})
    assert response.status_code == 200 and response.json["valid"], response.json
    assert response.json["state"]["rules"] == PRESETS["traditional"].to_json()


@pytest.mark.parametrize("name", ["tuts tomb", "Tuts-Tomb", "DST0", "N", "", "x" * 40])
@pytest.mark.parametrize("language", ["en", "es"])
def test_an_unknown_name_is_refused_listing_every_name(client, name, language):
    response = client.post("/v1/games", json={"rules": name}, headers={"Accept-Language": language})
    assert response.status_code == 400 and response.json["code"] == "unknown_rules" and response.json["field"] == "rules"
    detail = response.json["detail"]
    assert all(preset in detail for preset in PRESETS)
    # the API takes names only: its message offers no rules segment (the CLI's does, and takes one)
    assert " ".join(LETTERS) not in detail and "segment" not in detail and "segmento" not in detail
    assert detail.startswith({"en": f"Unknown rules “{name[:32]}”", "es": f"Reglas desconocidas «{name[:32]}»"}[language])


def test_a_state_still_carries_its_rules_as_an_object(client):
    state = client.post("/v1/games", json={"rules": "apophis"}).json["state"]
    state["rules"] = "apophis"
    response = client.post("/v1/moves", json={"state": state, "move": {"type": "draw", "pile": "waste1"}})
    assert response.status_code == 400 and response.json["code"] == "invalid_state"


def test_the_cli_takes_a_preset_name(capsys):
    assert main(["stats", "--rules", "traditional", "--deals", "2", "--workers", "1", "--json"]) == 0
    assert '"rules": "DST0"' in capsys.readouterr().out
    assert main(["solve", "PYR1-N-AAAAAHW", "--rules", "traditional", "--json"]) == 0
    assert '"code": "PYR1-DST0-AAAAAHW"' in capsys.readouterr().out


@pytest.mark.parametrize("command", [["stats", "--rules", "tradition"], ["solve", "PYR1-N-AAAAAHW", "--rules", "tradition"]])
def test_the_cli_lists_every_name_and_letter_for_an_unknown_one(capsys, command):
    assert main(command) == 2
    error = capsys.readouterr().err
    assert "Unknown rules “tradition”" in error and all(name in error for name in PRESETS) and " ".join(LETTERS) in error


def test_the_solve_rules_option_wants_a_seed_code(capsys):
    full = GameState.new(layout=DOCUMENTS_LAYOUT).code
    assert main(["solve", full, "--rules", "traditional"]) == 2
    assert "--rules takes a seed code" in capsys.readouterr().err


def test_a_bad_rules_segment_in_a_code_lists_every_letter(client):
    response = client.post("/v1/games", json={"code": "PYR1-XYZ-AAAAAAA"})
    assert response.json["code"] == "invalid_code" and " ".join(LETTERS) in response.json["detail"]
    # a long preset name is quoted by its first 32 characters
    response = client.post("/v1/games", json={"rules": "x" * 40})
    assert response.json["code"] == "unknown_rules" and f"“{'x' * 32}”" in response.json["detail"]
    # a long segment is quoted by its first 16 characters (a segment the pattern reads is at most 14)
    response = client.post("/v1/games", json={"code": "PYR1-ACDEKPSTUWXYZ1234-AAAAAAA"})
    assert response.json["reason"] == "rules" and "“ACDEKPSTUWXYZ123”" in response.json["detail"]
    assert Rules.named("dst0") == PRESETS["traditional"] == Rules.named(" Traditional ")
