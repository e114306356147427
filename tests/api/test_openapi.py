"""openapi.yaml: in step with the pydantic models, and its examples work as written."""

from __future__ import annotations

import re

import pytest
import yaml

from service.api import create_app
from service.api.schema import OPENAPI_PATH, component_examples, component_schemas, main

SPEC = yaml.safe_load(OPENAPI_PATH.read_text(encoding="utf-8"))


def test_the_schemas_are_the_models():
    assert SPEC["components"]["schemas"] == component_schemas()
    assert SPEC["components"]["examples"] == component_examples()
    assert main(["--check"]) == 0


def _request_examples():
    for path, operations in SPEC["paths"].items():
        for method, operation in operations.items():
            content = operation.get("requestBody", {}).get("content", {}).get("application/json", {})
            for name, example in content.get("examples", {}).items():
                reference = example["$ref"].rsplit("/", 1)[1]
                yield pytest.param(path, method, operation, reference, id=f"{operation['operationId']}-{name}")


@pytest.mark.parametrize("path, method, operation, reference", list(_request_examples()))
def test_every_request_example_is_answered_with_its_documented_success(path, method, operation, reference):
    body = SPEC["components"]["examples"][reference]["value"]
    response = create_app().test_client().open(path, method=method.upper(), json=body)
    success = [code for code in operation["responses"] if code.startswith("2")]
    assert str(response.status_code) in success, response.json


def test_every_operation_has_an_id_and_a_problem_answer():
    for operations in SPEC["paths"].values():
        for operation in operations.values():
            assert operation["operationId"] and "default" in operation["responses"]


def test_the_contract_is_a_valid_openapi_3_1_document():
    from openapi_spec_validator import OpenAPIV31SpecValidator, validate

    validate(SPEC, cls=OpenAPIV31SpecValidator)  # raises, saying where, on any error
    # and the validator has teeth: the `default: null` the issue found on a type without null is refused
    broken = yaml.safe_load(OPENAPI_PATH.read_text(encoding="utf-8"))
    broken["components"]["schemas"]["DrawMove"]["properties"]["pile"]["default"] = None
    with pytest.raises(Exception, match="None is not"):
        validate(broken, cls=OpenAPIV31SpecValidator)


def test_no_property_carries_a_default_that_generators_read_as_required():
    """openapi-typescript (default settings) makes a property with a ``default`` required; the
    defaults are said in the descriptions instead (tests/api/test_contract_clients.py compiles clients)."""
    for name, schema in SPEC["components"]["schemas"].items():
        for prop_name, prop in schema.get("properties", {}).items():
            assert "default" not in prop, f"{name}.{prop_name}"
    assert "Default: `true`." in SPEC["components"]["schemas"]["NewGameRequest"]["properties"]["error_help"]["description"]


def test_every_operation_is_tagged_with_a_declared_tag():
    declared = [tag["name"] for tag in SPEC["tags"]]
    assert {"games", "moves", "solver", "rules", "health"} <= set(declared)
    used = {op["operationId"]: op["tags"] for ops in SPEC["paths"].values() for op in ops.values()}
    assert all(len(tags) == 1 and tags[0] in declared for tags in used.values()), used
    assert used["newGame"] == ["games"] and used["playMove"] == ["moves"] and used["solve"] == ["solver"]
    assert used["rules"] == ["rules"] and used["health"] == ["health"]


def test_cards_and_codes_have_real_examples():
    """The explorer's generated samples: real cards and codes, not ``"4OR2"`` or ``"string"``."""
    from service.engine import GameState

    schemas = SPEC["components"]["schemas"]
    card = schemas["KingMove"]["properties"]["card"]
    assert card["examples"] and all(re.match(card["pattern"], example) for example in card["examples"])
    for code in (schemas["State"]["properties"]["code"]["examples"][0],
                 schemas["NewGameRequest"]["properties"]["code"]["anyOf"][0]["examples"][0]):  # fmt: skip
        assert GameState.new(code).code == code


def test_openapi_json_is_the_same_document():
    client = create_app().test_client()
    response = client.get("/openapi.json")
    assert response.status_code == 200 and response.content_type == "application/json"
    assert response.get_json() == SPEC
    assert response.headers["ETag"] and "max-age=3600" in response.headers["Cache-Control"]
