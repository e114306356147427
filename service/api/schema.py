"""Keep ``openapi.yaml`` and the pydantic models in agreement.

    python -m service.api.schema --write   # rewrite components/schemas and components/examples
    python -m service.api.schema --check   # exit 1 if openapi.yaml has drifted

``paths`` and the prose are written by hand in ``openapi.yaml``; the schemas come from
``service/api/_models.py`` and the examples from the engine, so they cannot drift.
"""

from __future__ import annotations

import json
import sys
from typing import Any

import yaml
from pydantic.json_schema import models_json_schema

from ..engine import DOCUMENTS_LAYOUT, GameState, Move, play

from ._docs import OPENAPI_PATH
from ._models import SCHEMAS


def component_schemas() -> dict[str, Any]:
    _, top = models_json_schema(
        [(model, "validation") for model in SCHEMAS], ref_template="#/components/schemas/{model}"
    )
    return {name: _defaults_in_words(schema) for name, schema in sorted(top["$defs"].items())}


def _defaults_in_words(schema: dict[str, Any]) -> dict[str, Any]:
    """A property's ``default`` said in its description rather than as the keyword.

    Generators read the keyword as "always present": openapi-typescript (default settings) makes
    every property with a ``default`` required, so ``{"code": "…"}`` would not type as a new game,
    nor a state without the options written only when not their default. And pydantic writes
    ``default: null`` for a field that is absent rather than null (``DrawMove.pile``,
    ``State.piles``), which a null-less type does not allow. A property not in ``required`` may
    be left out, and its description says what that means."""
    for prop in schema.get("properties", {}).values():
        if "default" not in prop:
            continue
        default = prop.pop("default")
        nullable = prop.get("type") == "null" or any(part.get("type") == "null" for part in prop.get("anyOf", ()))
        if default is None and not nullable:
            continue  # absent, never null: the description says when it is there
        said = f"Default: `{json.dumps(default)}`."
        prop["description"] = f"{prop['description']} {said}" if prop.get("description") else said
    return schema


def component_examples() -> dict[str, Any]:
    deal = GameState.new(layout=DOCUMENTS_LAYOUT)
    after_king = play(deal, Move.from_text("KD")).state
    return {
        "NewGameFromCode": {"summary": "Re-deal a code", "value": {"code": "PYR1-N-AAAAAAS"}},
        "NewGameDocumentsCode": {"summary": "The rule documents' code: the deal they show", "value": {"code": "PY1-N-AAAAAAS"}},
        "NewGameRandom": {"summary": "A random deal under the traditional strict rules", "value": {"rules": {"strict_win": True, "max_recycles": 0, "drawn_pairs_with_waste": True, "initial_waste": False}}},
        "NewGameByPreset": {"summary": "A random deal under a preset, by its name (GET /v1/rules)", "value": {"rules": "tuts-tomb"}},
        "NewGameDocumentsLayout": {"summary": "The rule documents' deal, as an explicit layout", "value": {"layout": DOCUMENTS_LAYOUT.to_json()}},
        "FirstMoveKing": {"summary": "The documents' first move: the King of diamonds", "value": {"state": deal.to_json(), "move": {"type": "king", "card": "KD"}}},
        "SecondMovePair": {"summary": "The documents' second move: 10♣ + 3♠", "value": {"state": after_king.to_json(), "move": {"type": "pair", "cards": ["TC", "3S"]}}},
        "ReplayRefused": {"summary": "The documents' deal, then a fourth move that plays two stock cards", "value": {"code": deal.code, "moves": ["KD", "TC+3S", "draw", "JC+2D"]}},
        "TapCoveredCard": {"summary": "Tap a covered card (error help on)", "value": {"state": deal.to_json(), "move": {"type": "tap", "card": "QC"}}},
        "TapStock": {"summary": "Tap the stock", "value": {"state": deal.to_json(), "move": {"type": "tap", "pile": "stock"}}},
        "DocumentsDeal": {"summary": "The documents' deal, before any move", "value": {"state": deal.to_json()}},
        "SolveDocumentsDeal": {"summary": "Solve the documents' deal", "value": {"state": deal.to_json(), "budget": 100000}},
    }


class _Dumper(yaml.SafeDumper):
    """Multi-line strings as literal blocks (``|``), so the prose stays editable by hand."""


def _string(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
    style = "|" if "\n" in value else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_Dumper.add_representer(str, _string)


def render(document: dict[str, Any]) -> str:
    return yaml.dump(document, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=100)


def expected(document: dict[str, Any]) -> dict[str, Any]:
    document = dict(document)
    components = dict(document.get("components", {}))
    components["schemas"] = component_schemas()
    components["examples"] = component_examples()
    document["components"] = components
    return document


def main(argv: list[str]) -> int:
    current = yaml.safe_load(OPENAPI_PATH.read_text(encoding="utf-8"))
    wanted = expected(current)
    if "--write" in argv:
        OPENAPI_PATH.write_text(render(wanted), encoding="utf-8")
        return 0
    if current != wanted:
        print("openapi.yaml has drifted from the models: run python -m service.api.schema --write")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
