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
    AppCodeError,
    Card,
    GameState,
    InvalidCodeError,
    PyramideError,
    Layout,
    Rules,
    layout_code,
    parse_code,
    seed_code,
)

DOCS = Path(__file__).resolve().parents[2] / "docs"
FILE = json.loads((DOCS / "deal-code-vectors.json").read_text(encoding="utf-8"))
VECTORS, ALIASES, REFUSED = FILE["vectors"], FILE["aliases"], FILE["refused"]
#: What this project dealt for PY1 seed codes before they were told apart from the app's (the
#: vectors published then).
OLD_PY1_DEALS = {
    "PY1-N-AAAAAAS": "KH AS 8C 8D TC 3H 3S 4H AD 9H 8S 7H JC 7S QH 5S TS 5H 9C 6D JS 5C 6S KC QC KD AH 2H JH TH 8H 6C 3C 7D QD 2D 4C 9S 4D AC 3D QS 2S TD 6H 9D 2C 5D KS 7C 4S JD",
    "PY1-N-AAAAAAJ": "QD 2H TH 3C 4H 2S 5S KC 9C AH TS 3D JC AD 4S 6H 3H 6S 9D AC 7D 5H TC QH 6D 4D 2C 5C KD 3S JD TD QC JS 8S 7H 8H 6C 2D 4C 8C 9H 9S 8D 7S QS KH 5D 7C KS AS JH",
}


def spec_reference() -> dict:
    """The Python block of docs/deal-codes.md, run as written."""
    text = (DOCS / "deal-codes.md").read_text(encoding="utf-8")
    block = re.search(r"```python\n(.*?)```", text, re.S).group(1)
    namespace: dict = {}
    exec(block, namespace)  # noqa: S102 - our own documentation
    return namespace


def documents_sequence() -> list[str]:
    """The documents' deal as the page writes it out, for the app code PY1-N-AAAAAAS."""
    text = (DOCS / "deal-codes.md").read_text(encoding="utf-8")
    return re.search(r"The dealt sequence of `PY1-N-AAAAAAS`.*?\n\n    ([2-9AJQKT][CDHS](?: [2-9AJQKT][CDHS]){51})\n", text, re.S).group(1).split()


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
    prefix, segment, letters = vector["code"].split("-")
    if prefix == "PY1":  # the app's code of the documents' deal: the page writes its sequence out
        assert (vector["code"], documents_sequence()) == ("PY1-N-AAAAAAS", vector["deck"])
    elif len(letters) == 7:
        assert spec_reference()["dealt_sequence"](letters, segment) == vector["deck"]
    else:
        assert spec_reference()["layout_sequence"](letters, segment) == vector["deck"]
        if "E" not in segment and "P" not in segment:
            assert lehmer_decode(letters) == vector["deck"]


def test_the_vectors_cover_what_the_page_promises():
    codes = [vector["code"] for vector in VECTORS]
    assert {"PYR1-N-AAAAAAA", "PYR1-N-ZZZZZZZ", "PYR1-N-AAAAAAS", "PYR1-N-AAAAAAJ", "PY1-N-AAAAAAS"} <= set(codes)
    assert layout_code(Rules(), DOCUMENTS_LAYOUT) in codes
    assert "PYR1-N-" + "A" * 48 in codes
    assert {"PY1-N-AAAAAAJ", "PY1-N-AAAAAHW"} <= {refused["code"] for refused in REFUSED}
    assert "PY1-N-" + "A" * 48 in {alias["code"] for alias in ALIASES}
    assert {"PYR1-E-AAAAAAA", "PYR1-P-AAAAAAA", "PYR1-EP-AAAAAAA", "PYR1-E-" + "A" * 44, "PYR1-P-" + "A" * 107} <= set(codes)
    assert {len(code.rsplit("-", 1)[1]) for code in codes} == {7, 44, 48, 96, 107}


@pytest.mark.parametrize("alias", ALIASES, ids=[a["code"][:20] for a in ALIASES])
def test_each_alias_deals_its_canonical_code(alias):
    assert parse_code(alias["code"]) == parse_code(alias["canonical"])
    assert parse_code(alias["code"])[2] == alias["canonical"]


@pytest.mark.parametrize("refused", REFUSED, ids=[r["code"] for r in REFUSED])
def test_each_refused_code_is_refused_with_its_problem(refused):
    with pytest.raises(PyramideError) as info:
        parse_code(refused["code"])
    assert (info.value.code, info.value.detail) == (refused["problem"], refused.get("detail"))


def test_the_documents_layout_code_is_the_one_the_page_prints():
    text = (DOCS / "deal-codes.md").read_text(encoding="utf-8")
    assert layout_code(Rules(), DOCUMENTS_LAYOUT) in text


def test_the_documents_code_deals_the_documents_deal_and_keeps_its_code():
    rules, layout, code = parse_code(" py1-n-aaaaaas ")
    assert (rules, layout, code) == (Rules(), DOCUMENTS_LAYOUT, "PY1-N-AAAAAAS")
    game = GameState.new("PY1-N-AAAAAAS")
    assert game.code == "PY1-N-AAAAAAS" and game.layout == DOCUMENTS_LAYOUT
    assert GameState.from_json(game.to_json()) == game
    # the same cards as the explicit layout, whose code is its full-layout code
    explicit = GameState.new(layout=DOCUMENTS_LAYOUT)
    assert explicit.code.startswith("PYR1-N-") and explicit._replace(code=game.code) == game


def test_our_generator_deals_another_layout_for_the_same_letters():
    assert parse_code("PYR1-N-AAAAAAS")[1] != DOCUMENTS_LAYOUT


@pytest.mark.parametrize("code", ["PY1-N-AAAAAAJ", "PY1-N-AAAAAHW", "py1-s-aaaaaas", "PY1-T-AAAAAAS", "PY1-DST0-QWERTYU"])
def test_an_app_seed_code_is_refused_never_dealt_as_another_deal(code):
    with pytest.raises(AppCodeError) as info:
        GameState.new(code)
    canonical = code.upper()
    ours = "PYR1-" + canonical.split("-", 1)[1]
    error = info.value
    assert (error.code, error.detail, error.field) == ("app_code", None, "code")
    assert error.params == {"app_code": canonical, "ours": ours}
    for language in ("en", "es", "it", "fr"):
        message = error.message(language)
        assert canonical in message and ours in message and "POST /v1/games" in message and "layout" in message
    assert "unpublished" in str(error) and "no está publicado" in error.message("es")


def test_the_same_letters_with_the_new_prefix_deal_what_the_old_code_dealt():
    """PY1 seed codes were this project's before they were told apart from the app's: PYR1 with
    the same letters deals the same cards (the stream key kept PY1)."""
    for code, deck in OLD_PY1_DEALS.items():
        assert " ".join(card.code for card in parse_code("PYR1-" + code.split("-", 1)[1])[1].deck) == deck, code


def test_an_old_full_layout_code_is_read_under_the_new_prefix():
    old = "PY1-N-LGFBVEIAREUFYOAGOYQHHXEDBLDNSHTXQTVLZPWKGFNXLOAA"
    game = GameState.new(old.lower())
    assert game.layout == DOCUMENTS_LAYOUT and game.code == "PYR1-" + old[4:]


def test_a_code_redeals_exactly_the_same_cards():
    first, again = GameState.new("PYR1-N-AAAAAAS"), GameState.new(" pyr1-n-aaaaaas ")
    assert first == again and first.code == "PYR1-N-AAAAAAS"


@given(st.permutations(DECK), st.booleans())
def test_a_full_layout_code_names_any_deal(deck, initial_waste):
    rules = Rules(initial_waste=initial_waste)
    layout = Layout.from_deck(tuple(deck), rules)
    code = layout_code(rules, layout)
    assert len(code.rsplit("-", 1)[1]) == 48
    assert parse_code(code)[1] == layout


@pytest.mark.parametrize("rules", [Rules(deck="spanish"), Rules(rows=10), Rules(rows=10, deck="spanish", initial_waste=False)])
@given(data=st.data())
def test_a_full_layout_code_names_any_deal_of_another_deck(rules, data):
    """Any order of the Spanish deck or of two decks (copies named in deal order) has a code that
    deals it again, of the rules' length; the page's decoder reads it the same."""
    faces = [card.face for card in rules.cards]
    order = data.draw(st.permutations(faces))
    seen: set[str] = set()
    deck = []
    for face in order:
        deck.append(Card.parse(face + ("2" if face in seen else "")))
        seen.add(face)
    layout = Layout.from_deck(tuple(deck), rules)
    code = layout_code(rules, layout)
    letters = code.rsplit("-", 1)[1]
    assert len(letters) == {("spanish", 7): 44, ("french", 10): 107, ("spanish", 10): 96}[rules.deck, rules.rows]
    assert parse_code(code)[1] == layout
    assert spec_reference()["layout_sequence"](letters, rules.letters) == [card.code for card in deck]


@given(st.integers(0, 26**7 - 1))
def test_every_seed_deals_all_52_cards(seed):
    layout = parse_code(seed_code(Rules(), seed))[1]
    assert sorted(layout.deck, key=lambda card: card.index) == list(DECK)


@pytest.mark.parametrize(
    "code, detail",
    [
        ("PYR1-N", "format"),
        ("PYR1-N-AAAAAAS-X", "format"),
        ("PY2-N-AAAAAAS", "prefix"),
        ("PYR2-N-AAAAAAS", "prefix"),
        ("PYR1-X-AAAAAAS", "rules"),
        ("PY1-X-AAAAAAS", "rules"),
        ("PYR1-SD-AAAAAAS", "rules"),
        ("PYR1-N0-AAAAAAS", "rules"),
        ("PYR1-01-AAAAAAS", "rules"),
        ("PYR1--AAAAAAS", "rules"),
        ("PYR1-N-AAAAAA1", "letters"),
        ("PY1-N-AAAAAA1", "letters"),
        ("PYR1-N-AAAÁAAS", "letters"),
        ("PYR1-N-AAAAAA", "length"),
        ("PY1-N-AAAAAA", "length"),
        ("PYR1-N-" + "Z" * 48, "layout_range"),
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
    for letters in ["N", "S", "0", "DST0", "CDST2", "T", "C", "D12", "CDST9999", "U", "TU", "CDSTU0"]:
        assert Rules.from_letters(letters).letters == letters
    assert math.factorial(52) < 26**48
