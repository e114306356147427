"""openapi.yaml: in step with the pydantic models, and its examples work as written."""

from __future__ import annotations

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
