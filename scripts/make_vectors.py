"""Write docs/deal-code-vectors.json, the published test vectors of the PY1 deal codes.

    python -m scripts.make_vectors

The file is checked by tests/test_codes.py against the engine and against an independent
reimplementation written from docs/deal-codes.md alone.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

from service.engine import DECK, DOCUMENTS_LAYOUT, Layout, Rules, layout_code, parse_code

SEED_CODES = [
    "PY1-N-AAAAAAA",
    "PY1-N-AAAAAAB",
    "PY1-N-AAAAAAJ",
    "PY1-N-AAAAAAS",
    "PY1-N-BAAAAAA",
    "PY1-N-PYRAMID",
    "PY1-N-ZZZZZZZ",
    "PY1-T-AAAAAAS",
    "PY1-DST0-AAAAAAS",
    "PY1-CDST2-QWERTYU",
]


def _last_layout() -> str:
    letters, number = [], math.factorial(52) - 1
    for _ in range(48):
        number, digit = divmod(number, 26)
        letters.append(chr(65 + digit))
    return "PY1-N-" + "".join(reversed(letters))


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


def main() -> None:
    codes = SEED_CODES + [
        layout_code(Rules(), DOCUMENTS_LAYOUT),
        layout_code(Rules(), Layout.from_deck(DECK, Rules())),
        _last_layout(),
    ]
    data = {
        "description": "PY1 deal codes and the deals they name; see docs/deal-codes.md. "
        "deck is the dealt sequence: pyramid slots row by row, then the waste, then the stock from its top.",
        "vectors": [vector(code) for code in codes],
    }
    path = Path(__file__).resolve().parent.parent / "docs" / "deal-code-vectors.json"
    path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {len(codes)} vectors to {path}")


if __name__ == "__main__":
    main()
