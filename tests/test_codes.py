"""Deal codes: the engine and the specification's own reference code agree with the published vectors."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from service.engine import (
    DECK,
    DOCUMENTS_LAYOUT,
    GameState,
    InvalidCodeError,
    Layout,
    Rules,
    layout_code,
    parse_code,
    seed_code,
)

DOCS = Path(__file__).resolve().parent.parent / "docs"
VECTORS = json.loads((DOCS / "deal-code-vectors.json").read_text(encoding="utf-8"))["vectors"]


def spec_reference() -> dict:
    """The Python block of docs/deal-codes.md, run as written."""
    text = (DOCS / "deal-codes.md").read_text(encoding="utf-8")
    block = re.search(r"```python\n(.*?)```", text, re.S).group(1)
    namespace: dict = {}
    exec(block, namespace)  # noqa: S102 - our own documentation
    return namespace


def lehmer_decode(letters: str) -> list[str]:
    """Full-layout codes as the page describes them, written apart from the engine."""
    number = 0
    for letter in letters:
        number = number * 26 + "ABCDEFGHIJKLMNOPQRSTUVWXYZ".index(letter)
    digits = []
    for base in range(1, 53):
        number, digit = divmod(number, base)
        digits.append(digit)
    remaining = [r + s for s in "CDHS" for r in "A23456789TJQK"]
    return [remaining.pop(k) for k in reversed(digits)]


@pytest.mark.parametrize("vector", VECTORS, ids=[v["code"][:20] for v in VECTORS])
def test_the_engine_deals_each_vector(vector):
    rules, layout, canonical = parse_code(vector["code"])
    assert canonical == vector["code"] and rules.to_json() == vector["rules"]
    assert [card.code for card in layout.deck] == vector["deck"]
    assert [card.code for card in layout.pyramid] == vector["pyramid"]
    assert [card.code for card in layout.waste] == vector["waste"]
    assert [card.code for card in layout.stock] == vector["stock"]
    assert len(vector["waste"]) == (1 if vector["rules"]["initial_waste"] else 0)


@pytest.mark.parametrize("vector", VECTORS, ids=[v["code"][:20] for v in VECTORS])
def test_an_independent_implementation_from_the_page_deals_each_vector(vector):
    letters = vector["code"].rsplit("-", 1)[1]
    if len(letters) == 7:
        assert spec_reference()["dealt_sequence"](letters) == vector["deck"]
    else:
        assert lehmer_decode(letters) == vector["deck"]


def test_the_vectors_cover_what_the_page_promises():
    codes = [vector["code"] for vector in VECTORS]
    assert {"PY1-N-AAAAAAA", "PY1-N-ZZZZZZZ", "PY1-N-AAAAAAS", "PY1-N-AAAAAAJ"} <= set(codes)
    assert layout_code(Rules(), DOCUMENTS_LAYOUT) in codes
    assert "PY1-N-" + "A" * 48 in codes


def test_the_documents_layout_code_is_the_one_the_page_prints():
    text = (DOCS / "deal-codes.md").read_text(encoding="utf-8")
    assert layout_code(Rules(), DOCUMENTS_LAYOUT) in text


def test_our_generator_deals_another_layout_for_the_documents_code():
    assert parse_code("PY1-N-AAAAAAS")[1] != DOCUMENTS_LAYOUT


def test_a_code_redeals_exactly_the_same_cards():
    first, again = GameState.new("PY1-N-AAAAAAS"), GameState.new(" py1-n-aaaaaas ")
    assert first == again and first.code == "PY1-N-AAAAAAS"


@given(st.permutations(DECK), st.booleans())
def test_a_full_layout_code_names_any_deal(deck, initial_waste):
    rules = Rules(initial_waste=initial_waste)
    layout = Layout.from_deck(tuple(deck), rules)
    code = layout_code(rules, layout)
    assert len(code.rsplit("-", 1)[1]) == 48
    assert parse_code(code)[1] == layout


@given(st.integers(0, 26**7 - 1))
def test_every_seed_deals_all_52_cards(seed):
    layout = parse_code(seed_code(Rules(), seed))[1]
    assert sorted(layout.deck, key=lambda card: card.index) == list(DECK)


@pytest.mark.parametrize(
    "code, detail",
    [
        ("PY1-N", "format"),
        ("PY1-N-AAAAAAS-X", "format"),
        ("PY2-N-AAAAAAS", "prefix"),
        ("PY1-X-AAAAAAS", "rules"),
        ("PY1-SD-AAAAAAS", "rules"),
        ("PY1-N0-AAAAAAS", "rules"),
        ("PY1-01-AAAAAAS", "rules"),
        ("PY1--AAAAAAS", "rules"),
        ("PY1-N-AAAAAA1", "letters"),
        ("PY1-N-AAAÁAAS", "letters"),
        ("PY1-N-AAAAAA", "length"),
        ("PY1-N-" + "Z" * 48, "layout_range"),
        (42, "format"),
    ],
)
def test_bad_codes_say_which_part_is_wrong(code, detail):
    with pytest.raises(InvalidCodeError) as info:
        parse_code(code)
    assert info.value.code == "invalid_code" and info.value.detail == detail
    assert info.value.message("es") and info.value.message("it") != info.value.message("en")


def test_the_rules_segment_round_trips():
    for letters in ["N", "S", "0", "DST0", "CDST2", "T", "C", "D12", "CDST9999"]:
        assert Rules.from_letters(letters).letters == letters
    assert math.factorial(52) < 26**48
