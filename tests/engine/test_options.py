"""The registry of options (``service/engine/_options.py``): what is derived from it, and that a new
value or preset is data only (issue 22)."""

from __future__ import annotations

import dataclasses
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from features.capabilities import OPTION_CAPABILITIES
from service.engine import PRESETS, VARIANT_LETTERS, GameState, PyramideError, Rules
from service.engine import _options
from service.locales import LANGUAGES, _lookup

ROOT = Path(__file__).resolve().parents[2]
REGISTRY = _options.REGISTRY


def _table_in(path: str, table: str) -> bool:
    """Whether the doc holds ``table`` line for line (a table in a list item is indented)."""
    lines = [line.strip() for line in (ROOT / path).read_text(encoding="utf-8").splitlines()]
    wanted = table.splitlines()
    return any(lines[i : i + len(wanted)] == wanted for i in range(len(lines)))


def test_rules_fields_are_the_registry_options_in_order_with_their_defaults():
    fields = dataclasses.fields(Rules)
    assert tuple(field.name for field in fields) == REGISTRY.names
    assert {field.name: field.default for field in fields} == {option.name: option.default for option in REGISTRY.options}


def test_the_docs_option_tables_are_the_registry():
    """docs/deal-codes.md's letters and docs/conformance.md's keys are the tables the registry
    writes: a new option or value without its row fails here (the message prints the table)."""
    letters, keys = _options.letter_table(REGISTRY), _options.keys_table(REGISTRY)
    assert _table_in("docs/deal-codes.md", letters), f"docs/deal-codes.md's rules-segment table should be:\n{letters}"
    assert _table_in("docs/conformance.md", keys), f"docs/conformance.md's table of rules keys should be:\n{keys}"


def test_every_option_is_in_the_rules_doc_and_described_in_every_language():
    """docs/rules.md's variants table explains each option's effect in prose (written by hand), and
    each catalogue describes each option for ``GET /v1/rules``."""
    rules_doc = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    for option in REGISTRY.options:
        assert f"`{option.name}" in rules_doc, option.name
        for language in LANGUAGES:
            catalogue, message = _lookup(language, f"rules.{option.name}")
            assert message and message != f"rules.{option.name}", (language, option.name)


def test_each_option_quotes_the_documents_to_the_letter():
    """Each «…» of an option's sentence is in the rule documents (``[...]`` leaves words out)."""
    sources = " ".join(" ".join(path.read_text(encoding="utf-8").split()) for path in (ROOT / "docs" / "sources").glob("0*.txt"))
    for option in REGISTRY.options:
        quotes = re.findall(r"«([^»]*)»", option.sentence)
        assert quotes, option.name
        for quote in quotes:
            for part in quote.split("[...]"):
                assert part.strip() in sources, (option.name, part)


def test_the_kit_capabilities_are_the_registry():
    """The kit is standalone (an outside engine runs it without ours), so it keeps its own map."""
    assert OPTION_CAPABILITIES == {option.name: option.capability for option in REGISTRY.options}


def test_letters_and_presets_come_from_the_registry():
    assert VARIANT_LETTERS == _options.option_letters(REGISTRY)
    assert list(PRESETS) == [preset.name for preset in REGISTRY.presets]
    assert _options.letters(REGISTRY).listed == "A C D E K P S T U W"
    for preset in REGISTRY.presets:
        assert Rules.from_letters(PRESETS[preset.name].letters) == PRESETS[preset.name]


def test_each_value_round_trips_through_its_letter_and_json():
    for letter, name, value in _options.letters(REGISTRY).named:
        rules = Rules(**{name: value})
        assert rules.letters == letter and Rules.from_letters(letter) == rules
        option = REGISTRY.option(name)
        assert _options.option_allows(option, value) and all(named.value != option.default for named in option.letters)
        assert Rules.from_json(json.loads(json.dumps(rules.to_json()))) == rules


def test_a_conflict_of_the_registry_is_no_rule_set():
    with pytest.raises(PyramideError) as refused:
        Rules(waste_piles=3, drawn_pairs_with_waste=True)
    assert refused.value.field == "rules.drawn_pairs_with_waste"
    assert not any(options["waste_piles"] == 3 and options["drawn_pairs_with_waste"] for options in _options.rule_sets(REGISTRY))


def test_two_letters_of_one_option_name_no_rule_set():
    registry = REGISTRY.with_value("rows", _options.Letter(6, "B", "`rows = 6`", "six rows"))
    before = _options.use(registry)
    try:
        assert Rules.from_letters("B").rows == 6 and Rules.from_letters("P").rows == 10
        with pytest.raises(PyramideError):
            Rules.from_letters("BP")
    finally:
        _options.use(before)
    with pytest.raises(PyramideError):  # the registry in force again: no letter B
        Rules.from_letters("B")


#: Run in a fresh interpreter: the registry gets one more value of ``rows`` (6: a 21-card pyramid,
#: letter ``B``) and one more preset, and nothing else; then the engine, the codes, the API built
#: after it, its schema and the docs tables derived from it are asked about them.
EXTENSION = r'''
import json, random
from service.engine import _options
from service.engine._options import Letter, Preset

_options.use(
    _options.REGISTRY.with_value(
        "rows", Letter(6, "B", "`rows = 6`", "a 6-row pyramid of 21 cards (a test's value)"),
        meaning="10: Pharaoh, 10 rows from two decks; 6: a 21-card pyramid (a test's value)",
    ).with_preset(Preset("little-pyramid", (("rows", 6), ("strict_win", True)), "a test's preset"))
)

from service.engine import GameState, Layout, Move, Rules, legal_moves, play, solve, solver_supports, parse_code
from service.engine._codes import layout_code, shuffled_deck

out = {}
# the engine deals it: 21 cards in 6 rows, 1 on the waste, 30 in the stock
game = GameState.new("PYR1-B-AAAAAAA")
out["rules"] = game.rules.to_json()
out["rows"] = [len(row) for row in game.rows]
out["waste_stock"] = [len(game.waste), len(game.stock)]
out["letters"] = [Rules(rows=6).letters, Rules(rows=6, strict_win=True, max_recycles=2).letters]
out["preset"] = Rules.preset("little-pyramid").letters
# codes round-trip: the seed code, and the full-layout code of an explicit deal
rules = Rules(rows=6, initial_waste=False)
deck = list(rules.cards)
random.Random(7).shuffle(deck)
layout = Layout.from_deck(tuple(deck), rules)
dealt = GameState.new(layout=layout, rules=rules)
out["layout_code"] = dealt.code.split("-")[1]
out["layout_round_trip"] = parse_code(dealt.code)[1] == layout and GameState.new(dealt.code).layout == layout
# the 6-row table: at the deal only the bottom row (slots 15 to 20) is free
free = {game.pyramid.index(card) for move in legal_moves(game) for card in move.cards if card in game.pyramid}
out["free_at_deal"] = sorted(free)
# it plays: random legal moves (and the first free row-6 card is free by the 6-row table), each
# state derived again from its JSON by replaying its log
state, moves = game, 0
chooser = random.Random(1)
while state.status == "playing" and moves < 150:
    state = play(state, chooser.choice(legal_moves(state))).state
    moves += 1
    assert GameState.from_json(json.loads(json.dumps(state.to_json()))) == state
out["played"] = [moves, state.status, len(state.foundation)]
out["supported"] = solver_supports(game.rules)
verdict = solve(game, budget=50_000)
out["verdict"] = verdict.result
if verdict.result == "winnable":
    end = game
    for move in verdict.line:
        end = play(end, move).state
    out["line_wins"] = end.status == "won"

# the API built after it
from service.api import create_app
from service.api.schema import component_schemas

client = create_app().test_client()
def post(path, body):
    response = client.post(path, json=body)
    return response.status_code, response.get_json()
status, body = post("/v1/games", {"rules": {"rows": 6}})
out["api_rules"] = [status, body["state"]["rules"], body["state"]["code"][:7], [len(r) for r in body["state"]["pyramid"]]]
status, body = post("/v1/games", {"rules": "little-pyramid"})
out["api_preset"] = [status, body["state"]["code"][:8]]
status, body = post("/v1/games", {"code": "PYR1-B-AAAAAAA"})
move = client.post("/v1/legal-moves", json={"state": body["state"]}).get_json()["moves"][0]
out["api_move"] = post("/v1/moves", {"state": body["state"], "move": move})[0]
out["api_layout"] = post("/v1/games", {"rules": rules.to_json(), "layout": layout.to_json()})[1]["state"]["code"] == dealt.code
out["api_five_rows"] = post("/v1/games", {"rules": {"rows": 5}})[0]
listing = client.get("/v1/rules").get_json()
out["api_listing"] = [listing["preset_codes"]["little-pyramid"], next(o["letter"] for o in listing["options"] if o["name"] == "rows")]
schemas = component_schemas()
out["schema_rows"] = schemas["Rules"]["properties"]["rows"]["enum"]
out["schema_layout_rows"] = schemas["Layout"]["properties"]["pyramid"]["minItems"]
out["schema_presets"] = "little-pyramid" in json.dumps(schemas)
# the docs tables derived from it
registry = _options.active()
out["letter_row"] = [line for line in _options.letter_table(registry).splitlines() if "`B`" in line]
out["keys_row"] = [line for line in _options.keys_table(registry).splitlines() if "`rows`" in line]
print(json.dumps(out))
'''


def test_a_new_option_value_is_data_only():
    """Issue 22's one-place extension: a 6-row pyramid (letter ``B``) and a preset, added to a copy
    of the registry and to nothing else, are dealt, played, solved, coded and served."""
    run = subprocess.run([sys.executable, "-c", EXTENSION], cwd=ROOT, capture_output=True, text=True, timeout=240)
    assert run.returncode == 0, run.stderr[-3000:]
    out = json.loads(run.stdout)
    assert out["rules"] == {**Rules().to_json(), "rows": 6}
    assert out["rows"] == [1, 2, 3, 4, 5, 6] and out["waste_stock"] == [1, 30]
    assert out["free_at_deal"] and set(out["free_at_deal"]) <= set(range(15, 21))
    assert out["letters"] == ["B", "BS2"] and out["preset"] == "BS"
    assert out["layout_code"] == "BT" and out["layout_round_trip"] is True
    # (the deal and the random moves are seeded: the same game every run)
    moves, status, removed = out["played"]
    assert [moves, status] == [150, "playing"] and removed >= 0
    assert out["supported"] is True and out["verdict"] == "winnable"
    assert out["line_wins"] is True
    assert out["api_rules"] == [201, {**Rules().to_json(), "rows": 6}, "PYR1-B-", [1, 2, 3, 4, 5, 6]]
    assert out["api_preset"] == [201, "PYR1-BS-"]
    assert out["api_move"] == 200 and out["api_layout"] is True
    assert out["api_five_rows"] == 400
    assert out["api_listing"] == ["BS", "P, B"]
    assert out["schema_rows"] == [7, 10, 6] and out["schema_layout_rows"] == 6 and out["schema_presets"] is True
    assert out["letter_row"] == ["| `B` | `rows = 6` | a 6-row pyramid of 21 cards (a test's value) |"]
    assert out["keys_row"] == ["| `rows` | `7` | 10: Pharaoh, 10 rows from two decks; 6: a 21-card pyramid (a test's value) | `variant-pharaoh` |"]


def test_without_the_extension_the_six_row_pyramid_is_refused():
    """The control: under the registry in force, the same requests are refused."""
    from service.api import create_app

    client = create_app().test_client()
    with pytest.raises(PyramideError):
        GameState.new("PYR1-B-AAAAAAA")
    with pytest.raises(PyramideError):
        Rules(rows=6)
    assert client.post("/v1/games", json={"rules": {"rows": 6}}).status_code == 400
    assert client.post("/v1/games", json={"rules": "little-pyramid"}).status_code in (400, 422)
