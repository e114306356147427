"""Pyramide's conformance kit: the rules of the documents as Gherkin scenarios that judge any
implementation through a driver (``features/driver.py``).

    pyramide-conformance                                   # in-process, against Pyramide's own app
    pyramide-conformance --base-url http://host:port       # any server speaking Pyramide's API
    pyramide-conformance --driver-command "node adapter.js"  # any engine behind a JSON-lines adapter

In this repository the kit is the package ``features`` beside Pyramide's ``service``; installed,
they are ``pyramide_conformance`` and ``pyramide``. :func:`pyramide` imports from whichever is
beside the kit.
"""

from __future__ import annotations

import importlib
from types import ModuleType

#: Pyramide's own package: ``service`` in its repository, ``pyramide`` once installed.
PYRAMIDE_PACKAGE = "service" if __name__ == "features" else "pyramide"


def pyramide(module: str) -> ModuleType:
    """A module of Pyramide itself (``pyramide("api")``), for the in-process app and the adapter."""
    return importlib.import_module(f"{PYRAMIDE_PACKAGE}.{module}")
