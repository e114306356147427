"""The solver's core runs compiled where it was built, interpreted otherwise: one source, the same
answers (``tests/solver/test_compiled.py`` compares the two).

``make compiled`` (``scripts/compile_core.py``) compiles the modules of :data:`COMPILED` with
mypyc, under the installed package's name, ``pyramide.engine`` (what the server, the CLI and the
wheel import); each extension module lies beside its source. Imported as ``service.engine`` (the
tests in-process, the repository's scripts), or with ``PYRAMIDE_PURE_PYTHON=1`` set, the engine
reads its sources instead, through :class:`SourceOnly`: a module compiled for one package name
cannot serve another, and the interpreted core is the fallback every machine without a C compiler
runs. Standard library only, like the rest of the engine.
"""

from __future__ import annotations

import importlib.machinery
import os
import sys
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType

#: The modules compiled, named from the engine's package: the move generator and the solver's
#: parts (not the packages' ``__init__``, which run first and choose).
COMPILED = (
    "_position",
    "_solver.budget",
    "_solver.options",
    "_solver.model",
    "_solver.bounds",
    "_solver.pooled",
    "_solver.levels",
    "_solver.lines",
    "_solver.estimate",
    "_solver.shortest",
    "_solver.shortest_plain",
    "_solver.breadth_first",
    "_solver.search",
    "_solver.general_cuts",
    "_solver.general_shortest",
    "_solver.general",
    "_solver.entry",
)

#: Set to anything but "" or "0": the installed package reads its sources too.
PURE_ENV = "PYRAMIDE_PURE_PYTHON"

_SOURCE = (importlib.machinery.SourceFileLoader, importlib.machinery.SOURCE_SUFFIXES)


class SourceOnly:
    """A meta path finder: the engine's modules (names under ``prefix``) from their sources, never
    from an extension module beside them."""

    def __init__(self, prefix: str) -> None:
        self.prefix = prefix

    def find_spec(self, name: str, path: Sequence[str] | None, target: ModuleType | None = None) -> ModuleSpec | None:
        if not name.startswith(self.prefix) or not path:
            return None
        for entry in path:
            spec = importlib.machinery.FileFinder(entry, _SOURCE).find_spec(name)
            if spec is not None:
                return spec
        return None


def choose(package: str) -> None:
    """Called by the engine's ``__init__`` (``package``: its name) before any module of the core
    is imported: the sources, unless this is the installed package, its compiled modules are all
    there and none is older than its source (a source edited since ``make compiled`` is what
    runs: the core is compiled whole or not at all), and no one said otherwise."""
    interpreted = (
        not package.startswith("pyramide.")
        or os.environ.get(PURE_ENV, "") not in ("", "0")
        or not up_to_date(Path(__file__).parent)
    )
    if interpreted and not any(isinstance(finder, SourceOnly) and finder.prefix == package + "." for finder in sys.meta_path):
        sys.meta_path.insert(0, SourceOnly(package + "."))


def up_to_date(engine: Path) -> bool:
    """Whether every module of :data:`COMPILED` has an extension module in ``engine`` (the
    engine's directory) no older than its source."""
    for name in COMPILED:
        base = engine.joinpath(*name.split("."))
        source = base.with_name(base.name + ".py")
        built = [base.with_name(base.name + suffix) for suffix in importlib.machinery.EXTENSION_SUFFIXES]
        found = next((path for path in built if path.exists()), None)
        if found is None or found.stat().st_mtime < source.stat().st_mtime:
            return False
    return True


def is_compiled(package: str) -> bool:
    """Whether the core of the engine imported as ``package`` runs compiled (its model is an
    extension module)."""
    module = sys.modules.get(f"{package}._solver.model")
    return module is not None and (module.__file__ or "").endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))
