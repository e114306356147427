"""Clients generated from openapi.yaml with their generators' default settings accept every request
of the docs and of the conformance kit (tests/contract_requests.py):

- TypeScript: ``openapi-typescript`` (npm, pinned by tests/contract/package-lock.json; ``make test``
  runs ``npm ci`` there when npm is present), the bodies compiled with ``tsc --strict``;
- Python: ``datamodel-code-generator``'s pydantic models, the bodies validated with them.

Without node and tests/contract/node_modules the TypeScript check is skipped, saying so.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pydantic
import pytest

from service.api.schema import OPENAPI_PATH

from tests.contract_requests import NAMED, distinct, doc_requests, kit_requests
from tests.kit_in_process import every_vector_in_process
from tests.once import once_per_run

CONTRACT = Path(__file__).resolve().parents[1] / "contract"
BIN = CONTRACT / "node_modules" / ".bin"


def _record_requests(folder: Path, sent: list) -> None:
    docs, kit = doc_requests(), kit_requests(sent)
    # the sources are really read: the docs' examples and hundreds of the kit's requests
    assert {where for _, _, where in docs} >= {"README.md", "api.md", "issue 21"}
    assert len(kit) > 1000 and {target for target, _, _ in kit} >= {"NewGameRequest", "MoveRequest", "StateRequest", "HintRequest", "SolveRequest", "ReplayRequest"}
    (folder / "requests.json").write_text(json.dumps(distinct(docs + kit)), encoding="utf-8")


@pytest.fixture(scope="session")
def requests(tmp_path_factory) -> list[tuple[str, object, str]]:
    """The docs' request examples and every request the kit sends, recorded once per run (from the
    kit's one in-process run of every vector, which tests/kit/test_kit_portable.py judges)."""

    def record(folder: Path) -> None:
        _record_requests(folder, every_vector_in_process(tmp_path_factory).sent)

    recorded = once_per_run(tmp_path_factory, "contract-requests", record) / "requests.json"
    return [tuple(request) for request in json.loads(recorded.read_text(encoding="utf-8"))]


def test_the_named_requests_are_among_those_checked(requests):
    checked = {(target, json.dumps(body, sort_keys=True)) for target, body, _ in requests}
    for target, body in NAMED:
        assert (target, json.dumps(body, sort_keys=True)) in checked


# -- TypeScript -------------------------------------------------------------------------------------


def _typescript_source(requests, forbidden=()) -> str:
    """A TypeScript module assigning each request to its generated type; each forbidden one under a
    ``@ts-expect-error``, which fails the compile when the line below it compiles."""
    lines = ['import type { components } from "./api";', 'type S = components["schemas"];', "type Target = {"]
    for target in sorted({target for target, _, _ in [*requests, *forbidden]}):
        kind = 'S["MoveRequest"]["move"]' if target == "Move" else f'S["{target}"]'
        lines.append(f"  {target}: {kind};")
    lines.append("};")
    for name, entries, directive in (("ok", requests, []), ("wrong", forbidden, ["// @ts-expect-error"])):
        for i, (target, body, where) in enumerate(entries):
            lines += [f"// {where}", *directive, f'export const {name}{i}: Target["{target}"] = {json.dumps(body, ensure_ascii=False)};']
    return "\n".join(lines) + "\n"


def skip(reason: str) -> None:
    """Skip, saying why; in CI (``PYRAMIDE_REQUIRE_TOOLS``, set by .ci/run) a missing tool fails."""
    if os.environ.get("PYRAMIDE_REQUIRE_TOOLS"):
        pytest.fail(reason.replace("SKIPPED", "REQUIRED"))
    pytest.skip(reason)


def _node_tools() -> None:
    if shutil.which("node") is None:
        skip("SKIPPED: node is not installed, so the TypeScript client check cannot run (install Node 20 + npm)")
    if not (BIN / "openapi-typescript").exists() or not (BIN / "tsc").exists():
        skip("SKIPPED: tests/contract/node_modules is missing: run `npm ci` in tests/contract (make test does when npm is present)")


@pytest.fixture(scope="module")
def typescript(tmp_path_factory) -> Path:
    """A folder with the types ``openapi-typescript`` generates from openapi.yaml, default settings."""
    _node_tools()
    folder = tmp_path_factory.mktemp("typescript")
    subprocess.run([BIN / "openapi-typescript", OPENAPI_PATH, "-o", folder / "api.d.ts"], check=True, capture_output=True)
    return folder


def _compile(folder: Path, source: str) -> subprocess.CompletedProcess:
    (folder / "requests.ts").write_text(source, encoding="utf-8")
    return subprocess.run([BIN / "tsc", "--strict", "--noEmit", folder / "requests.ts"], capture_output=True, text=True)


#: Requests the contract forbids: each must be a compile error.
FORBIDDEN = [("Move", {"type": "jump"}, "a move of no kind"), ("NewGameRequest", {"code": 7}, "a code that is a number"),
             ("MoveRequest", {"move": {"type": "draw"}}, "no state"), ("NewGameRequest", {"rules": "tuts tomb"}, "no such preset")]  # fmt: skip


def test_typescript_types_accept_every_request_and_refuse_the_forbidden(requests, typescript):
    """One compile: every request of the docs and the kit, then the forbidden ones, each under a
    ``@ts-expect-error`` (which fails the compile when the line below it compiles: the check has teeth)."""
    compiled = _compile(typescript, _typescript_source(requests, FORBIDDEN))
    assert compiled.returncode == 0, compiled.stdout[-4000:]


# -- Python: datamodel-code-generator ---------------------------------------------------------------


@pytest.fixture(scope="module")
def generated_models(tmp_path_factory):
    tmp_path = tmp_path_factory.mktemp("python")
    if importlib.util.find_spec("datamodel_code_generator") is None:
        skip("SKIPPED: datamodel-code-generator is not installed (it is in the test extras: pip install -e '.[test]')")
    out = tmp_path / "generated_models.py"
    subprocess.run(
        [sys.executable, "-m", "datamodel_code_generator", "--input", OPENAPI_PATH, "--input-file-type", "openapi", "--output", out],
        check=True, capture_output=True,
    )  # fmt: skip
    spec = importlib.util.spec_from_file_location("generated_models", out)
    module = importlib.util.module_from_spec(spec)
    sys.modules["generated_models"] = module
    spec.loader.exec_module(module)
    return module


def _validate(module, target: str, body: object) -> None:
    if target == "Move":
        field = module.MoveRequest.model_fields["move"]
        from pydantic import TypeAdapter

        TypeAdapter(field.annotation).validate_python(body)
    else:
        getattr(module, target).model_validate(body)


def test_python_models_accept_every_request(requests, generated_models):
    module = generated_models
    refused = []
    for target, body, where in requests:
        try:
            _validate(module, target, body)
        except Exception as error:  # noqa: BLE001 — reported below, every one
            refused.append(f"{where} {target}: {str(error)[:300]}")
    assert not refused, "\n".join(refused[:10])


def test_python_models_still_refuse_what_the_server_refuses(generated_models):
    module = generated_models
    for target, body in [("Move", {"type": "jump"}), ("MoveRequest", {"move": {"type": "draw"}}), ("Move", {"type": "king", "card": "ZZ"})]:
        with pytest.raises(pydantic.ValidationError):
            _validate(module, target, body)
