"""The requests a client generated from ``openapi.yaml`` must be able to send: every request example
of the docs (README.md, docs/api.md, the contract's own examples) and every request the conformance
kit sends, each with the request schema that the server's models accept it as.

``tests/api/test_contract_clients.py`` compiles them against the TypeScript types of
``openapi-typescript`` and validates them with the models of a Python generator.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Iterator

import yaml
from pydantic import BaseModel, TypeAdapter, ValidationError

from service.api import _models as models
from service.engine import options_registry
from service.api.schema import OPENAPI_PATH

ROOT = Path(__file__).resolve().parent.parent
DOCS = (ROOT / "README.md", ROOT / "docs" / "api.md")

#: The request schemas of the contract, by their name in ``components/schemas``. ``Move`` is the
#: ``move`` of a ``MoveRequest``; ``Rules`` a rule set as ``rules`` takes it.
TARGETS: dict[str, Any] = {
    "NewGameRequest": models.NewGameRequest,
    "MoveRequest": models.MoveRequest,
    "StateRequest": models.StateRequest,
    "SolveRequest": models.SolveRequest,
    "HintRequest": models.HintRequest,
    "ReplayRequest": models.ReplayRequest,
    "Rules": models.Rules,
    "Move": TypeAdapter(models.Move),
}
PATHS = {
    "/v1/games": "NewGameRequest",
    "/v1/moves": "MoveRequest",
    "/v1/legal-moves": "StateRequest",
    "/v1/describe": "StateRequest",
    "/v1/solve": "SolveRequest",
    "/v1/hint": "HintRequest",
    "/v1/replay": "ReplayRequest",
}
#: The requests the issue found refused by generated types: they must stay accepted.
NAMED = [
    ("NewGameRequest", {"code": "PYR1-N-AAAAAAS"}),
    ("Move", {"type": "draw"}),
    ("NewGameRequest", {"rules": {"max_recycles": 0}}),
    ("NewGameRequest", {"rules": "tuts-tomb"}),
]


def _accepts(target: str, body: Any) -> bool:
    validator = TARGETS[target]
    try:
        if isinstance(validator, TypeAdapter):
            validator.validate_python(body)
        else:
            assert issubclass(validator, BaseModel)
            validator.model_validate(body)
    except ValidationError:
        return False
    return True


def _json_texts(text: str) -> Iterator[str]:
    yield from re.findall(r"`(\{.*?\})`", text)  # inline code: `{"type": "draw"}`
    yield from re.findall(r"-d '(\{.*?\})'", text, flags=re.S)  # curl bodies
    yield from re.findall(r"```json\n(.*?)```", text, flags=re.S)


def doc_requests() -> list[tuple[str, Any, str]]:
    """``(target, body, where)`` for every JSON object of the docs that the server takes as a request."""
    found = [(target, body, "issue 21") for target, body in NAMED]  # first: distinct() keeps them
    for path in DOCS:
        for text in _json_texts(path.read_text(encoding="utf-8")):
            try:
                body = json.loads(text)
            except ValueError:
                continue  # prose with an ellipsis, `{…}`
            for target in TARGETS:
                if _accepts(target, body):
                    found.append((target, body, path.name))
    spec = yaml.safe_load(OPENAPI_PATH.read_text(encoding="utf-8"))
    for path, operations in spec["paths"].items():
        for operation in operations.values():
            content = operation.get("requestBody", {}).get("content", {}).get("application/json", {})
            for example in content.get("examples", {}).values():
                name = example["$ref"].rsplit("/", 1)[1]
                found.append((PATHS[path], spec["components"]["examples"][name]["value"], f"openapi.yaml {name}"))
    return found


def kit_requests(sent: list[tuple[str, Any]]) -> list[tuple[str, Any, str]]:
    """Every request body the kit sends while it runs every vector (features/vectors.json) in-process:
    ``sent``, as :func:`tests.kit_in_process.every_vector_in_process` records them (a vector that
    needs what the in-process run lacks would fail there: its requests so far count)."""
    # the kit's deliberately malformed requests (answered 400) are off the contract: no type takes them
    return [(PATHS[path], body, "kit") for path, body in sent if path in PATHS and _accepts(PATHS[path], body)]


#: The keys whose values are literals of the schema: the moves' and states', and the rules options
#: that take a list of values (the registry's, ``service/engine/_options.py``).
_LITERAL_KEYS = {"type", "pile", "status"} | {
    option.name for option in options_registry().options if option.values and not option.is_flag
}


def _shape(value: Any, key: str = "") -> Any:
    """What a body's type depends on: its keys, the literal-typed values, the others' JSON types."""
    if isinstance(value, dict):
        return tuple(sorted((k, _shape(v, k)) for k, v in value.items()))
    if isinstance(value, list):
        return ("list", tuple(sorted({repr(_shape(item, key)) for item in value})))
    if key in _LITERAL_KEYS:
        return value
    return type(value).__name__


def distinct(requests: list[tuple[str, Any, str]]) -> list[tuple[str, Any, str]]:
    """One request of each target and shape (the types cannot tell the others apart)."""
    seen, kept = set(), []
    for target, body, where in requests:
        key = (target, repr(_shape(body)))
        if key not in seen:
            seen.add(key)
            kept.append((target, body, where))
    return kept
