"""Write docs/deal-code-vectors.json, the published test vectors of the deal codes.

    python -m scripts.make_vectors

The file is checked by tests/engine/test_codes.py against the engine and against an independent
reimplementation written from docs/deal-codes.md alone.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

from service.engine import DECK, DOCUMENTS_LAYOUT, Layout, PyramideError, Rules, layout_code, parse_code, seed_code

SEED_CODES = [
    "PYR1-N-AAAAAAA",
    "PYR1-N-AAAAAAB",
    "PYR1-N-AAAAAAJ",
    "PYR1-N-AAAAAAS",
    "PYR1-N-BAAAAAA",
    "PYR1-N-PYRAMID",
    "PYR1-N-ZZZZZZZ",
    "PYR1-T-AAAAAAS",
    "PYR1-DST0-AAAAAAS",
    "PYR1-CDST2-QWERTYU",
    "PYR1-E-AAAAAAA",
    "PYR1-P-AAAAAAA",
    "PYR1-EP-AAAAAAA",
    "PYR1-DEST0-PYRAMID",
]
#: The one app code whose deal is known: the documents' deal.
APP_CODES = ["PY1-N-AAAAAAS"]
#: Codes refused, with the problem (and detail) they are refused with.
REFUSED = [
    "PY1-N-AAAAAAJ",
    "PY1-N-AAAAAHW",
    "PY1-S-AAAAAAS",
    "PY1-DST0-AAAAAAS",
    "PY1-X-AAAAAAS",
    "PY2-N-AAAAAAS",
    "PYR1-N-AAAAAA",
    "PYR1-N-AAAAAA1",
    "PYR1-SD-AAAAAAS",
    "PYR1-E-" + "A" * 48,
    "PYR1-P-" + "A" * 48,
    "PYR1-E-" + "Z" * 44,
    "PYR1-P-" + "Z" * 107,
]


def _last_layout() -> str:
    letters, number = [], math.factorial(52) - 1
    for _ in range(48):
        number, digit = divmod(number, 26)
        letters.append(chr(65 + digit))
    return "PYR1-N-" + "".join(reversed(letters))


def _first_deal(rules: Rules) -> tuple:
    """The canonical deck of ``rules`` (copies named in deal order): full-layout number 0."""
    letters = len(layout_code(rules, parse_code(seed_code(rules, 0))[1]).rpartition("-")[2])  # (any full layout's)
    return parse_code(f"PYR1-{rules.letters}-" + "A" * letters)[1].deck


def vector(code: str) -> dict:
    rules, layout, canonical = parse_code(code)
    return {
        "code": canonical,
        "rules": rules.to_json(),
        "deck": [card.code for card in layout.deck],
        "pyramid": [card.code for card in layout.pyramid],
        "waste": [card.code for card in layout.waste],
        "stock": [card.code for card in layout.stock],
    }


def refusal(code: str) -> dict:
    try:
        parse_code(code)
    except PyramideError as error:
        return {"code": code, "problem": error.code, **({"detail": error.detail} if error.detail else {})}
    raise AssertionError(f"{code} is not refused")


def main() -> None:
    layouts = [
        layout_code(Rules(), DOCUMENTS_LAYOUT),
        layout_code(Rules(), Layout.from_deck(DECK, Rules())),
        _last_layout(),
    ]
    other_decks = [
        layout_code(rules, Layout.from_deck(deck, rules))
        for rules in (Rules(deck="spanish"), Rules(rows=10), Rules(rows=10, deck="spanish"))
        for deck in (parse_code(seed_code(rules, 1))[1].deck, _first_deal(rules))
    ]
    codes = SEED_CODES + APP_CODES + layouts + other_decks
    data = {
        "description": "Deal codes and the deals they name; see docs/deal-codes.md. "
        "vectors: canonical codes; deck is the dealt sequence: pyramid slots row by row, then the waste, then the stock "
        "from its top. aliases: codes read as another code (the old PY1 spelling of a full-layout code). "
        "refused: codes that deal nothing, with the problem code (and detail) they are answered with.",
        "vectors": [vector(code) for code in codes],
        "aliases": [{"code": "PY1-" + code.split("-", 1)[1], "canonical": code} for code in layouts[:2]],
        "refused": [refusal(code) for code in REFUSED],
    }
    path = Path(__file__).resolve().parent.parent / "docs" / "deal-code-vectors.json"
    path.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {len(codes)} vectors, {len(data['aliases'])} aliases, {len(REFUSED)} refusals to {path}")


if __name__ == "__main__":
    main()
