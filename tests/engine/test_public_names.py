"""The API, the CLI, the scripts and the tests use the engine through its public names only (its
``__all__``, pinned by ``test_public_api.py``), never its private modules (``service.engine._x``):
the modules behind ``__all__`` may then be split, merged or renamed without breaking a user.

The scanner reads the source with ``ast``: imports (absolute and relative, inside functions too),
attributes of the engine package (``engine._solver``) and dotted strings naming a private module
(``monkeypatch.setattr("service.engine._x.y", …)``, ``importlib.import_module``). A file may do so
only if :data:`ALLOWED` names it, with the reason.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from tests.engine.test_imports import imported_from

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = "service.engine"
#: Where the users of the engine are.
SCANNED = ("service/api", "service/cli.py", "service/stats.py", "scripts", "tests")

#: The files that reach the engine's private modules on purpose, and why.
ALLOWED: dict[str, str] = {
    "tests/mutants.py": "mutation tooling: it patches the rules' private functions (``_play``, ``_moves``) on purpose",
    "tests/adversary/mutants.py": "the adversary's mutants: rewritten copies of private rule functions, patched in on purpose",
    "tests/solver/test_solver_registry.py": "the solver's reading of the registry: it swaps the registry in force "
    "(``_options.use``) with an option no search names, and asks which searches a rule set goes to (``searches_for``)",
    "tests/engine/test_options.py": "the registry's own tests: they swap the registry in force (``_options.use``) and build "
    "copies with ``Letter`` and ``Preset``, which no user of the engine does",
    "tests/engine/test_play.py": "white-box tests of the rules: the triangle's tables checked apart from the engine's, and "
    "the length of the history ``_play`` is handed during a replay",
    "tests/engine/test_state.py": "white-box tests of the replay cache (``_state._REPLAYS``), which has no public face",
    "tests/solver/test_solver.py": "white-box tests of the solver: its searches compared with each other through "
    "``SearchOptions`` and its internal searches, bounds and line writer",
    "tests/solver/test_compiled.py": "the compiled core's own tests: which modules are compiled (``_compiled.COMPILED``) "
    "and when a build is out of date (``up_to_date``)",
    "tests/solver/test_one_move_generator.py": "white-box tests of the one move generator: the moves the fast model "
    "and the general search try, compared with the engine's position by position",
    "tests/engine/test_one_rule_model.py": "white-box tests of the one move generator: ``play`` refuses a move "
    "``_position.Deal.steps`` is patched to leave out, and the rules' sentences (``_play.pair_origins``, ``king_origin``) "
    "are compared with ``_play.is_listed``",
    "tests/solver/test_solver_presets.py": "white-box tests of the general search: its cuts, its shortest lines, its budget",
    "tests/solver/test_deadline.py": "white-box tests of the solver's deadline: the Budget's clock checkpoints and shares, "
    "the positions each search spent before it stopped",
    "tests/bench/bench_replay.py": "a benchmark: it empties the replay cache to time cold replays",
    "tests/bench/bench_shortest.py": "a benchmark: it compares the shortest-line searches through ``SearchOptions``",
    "tests/api/test_api.py": "one test makes a shape unsupported by patching the general search's ``models`` "
    "(no public way to, until the registry says which search models each option: #37 item 2)",
    "tests/cli/test_cli.py": "the same as tests/api/test_api.py, for the CLI's usage error",
}

_PRIVATE = re.compile(r"^service\.engine\._\w+(\.\w+)*$")


def _module_of(path: Path) -> str:
    """``service/api/_app.py`` → ``service.api._app`` (to resolve its relative imports)."""
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _private(name: str) -> bool:
    """Whether a dotted module name is one of the engine's private modules (or below one)."""
    return name.startswith(PACKAGE + ".") and name[len(PACKAGE) + 1 :].startswith("_")


def private_engine_uses(source: str, module: str = "tests.example", is_package: bool = False) -> list[str]:
    """Each use of a private engine module in ``source`` (the module ``module``), as ``line: what``.

    >>> private_engine_uses("from service.engine import Move\\nimport service.engine as engine\\nengine.play")
    []
    >>> private_engine_uses("from service.engine._state import MAX_LOG")
    ['1: service.engine._state']
    """
    found: list[str] = []
    tree = ast.parse(source)
    package = module if is_package else module.rpartition(".")[0]
    engine_names: set[str] = set()  # the names bound to the engine package (``import service.engine as engine``)
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if _private(alias.name):
                    found.append(f"{node.lineno}: {alias.name}")
                elif alias.name == PACKAGE:
                    engine_names.add(alias.asname or "service")  # (``service.engine._x`` is an attribute then)
        elif isinstance(node, ast.ImportFrom):
            base = imported_from(node, package)
            if _private(base):
                found.append(f"{node.lineno}: {base}")
                continue
            for alias in node.names:
                if _private(f"{base}.{alias.name}"):
                    found.append(f"{node.lineno}: {base}.{alias.name}")
                elif f"{base}.{alias.name}" == PACKAGE:
                    engine_names.add(alias.asname or alias.name)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and _PRIVATE.match(node.value):
            found.append(f"{node.lineno}: {node.value!r}")
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__"):
            owner = node.value
            dotted = ast.unparse(owner)
            if dotted in engine_names or (dotted == "service.engine" and "service" in engine_names):
                found.append(f"{node.lineno}: {dotted}.{node.attr}")
    return sorted(set(found), key=lambda text: (int(text.split(":")[0]), text))


def scanned_files() -> list[Path]:
    files: list[Path] = []
    for place in SCANNED:
        path = ROOT / place
        files.extend([path] if path.is_file() else sorted(path.rglob("*.py")))
    return [path for path in files if "node_modules" not in path.parts]


def private_uses_by_file() -> dict[str, list[str]]:
    uses = {}
    for path in scanned_files():
        found = private_engine_uses(path.read_text(encoding="utf-8"), _module_of(path), path.name == "__init__.py")
        if found:
            uses[str(path.relative_to(ROOT))] = found
    return uses


def test_only_the_allowed_files_use_private_engine_modules():
    refused = {name: found for name, found in private_uses_by_file().items() if name not in ALLOWED}
    assert not refused, "use the engine's public names (service.engine's __all__), or add the file to ALLOWED with the reason: " + "; ".join(
        f"{name}: {', '.join(found)}" for name, found in refused.items()
    )


def test_every_allowed_file_still_needs_it():
    """An entry whose file no longer uses a private module (or is gone) is taken off the list."""
    uses = private_uses_by_file()
    assert [name for name in ALLOWED if name not in uses] == []


def test_the_api_the_cli_and_the_scripts_use_public_names_only():
    assert not [name for name in ALLOWED if name.startswith(("service/", "scripts/"))]


@pytest.mark.parametrize(
    "source, module",
    [
        ("from service.engine._state import MAX_LOG", "tests.x"),
        ("import service.engine._solver.entry as entry", "tests.x"),
        ("from service.engine import Move, _options", "tests.x"),
        ("from service.engine._solver import general", "tests.x"),
        ("def f():\n    from ..engine._rules import presets_of", "service.api._app"),
        ("from ..engine import _options", "service.api._models"),
        ("from .engine import GameState, _options", "service.cli"),
        ("import service.engine as engine\nengine._play.play", "tests.x"),
        ("from service import engine\nengine._state._REPLAYS", "tests.x"),
        ("import service.engine\nservice.engine._codes", "tests.x"),
        ("monkeypatch.setattr('service.engine._solver.general.models', None)", "tests.x"),
        ("importlib.import_module('service.engine._options')", "tests.x"),
    ],
)
def test_the_scanner_finds_a_planted_private_import(source, module):
    assert private_engine_uses(source, module), source


@pytest.mark.parametrize(
    "source, module",
    [
        ("from service.engine import MAX_LOG, Move, options_registry", "tests.x"),
        ("from ..engine import foresee\nfrom ._limits import solve", "service.api._app"),
        ("from . import _models as models", "service.api._app"),
        ("import service.engine as engine\nengine.__file__, engine.play", "tests.x"),
        ("x = 'service/engine/_options.py'  # a path in prose", "tests.x"),
        ("from service.api import _models", "tests.x"),
    ],
)
def test_the_scanner_passes_public_names(source, module):
    assert private_engine_uses(source, module) == [], source


def test_a_planted_file_fails_the_check(tmp_path, monkeypatch):
    """The whole check, not only the scanner, fails on a file that imports a private module."""
    planted = ROOT / "tests" / "engine" / "_planted_private_import.py"
    monkeypatch.setattr(
        "tests.engine.test_public_names.scanned_files", lambda: [*scanned_files_before(), planted]
    )
    monkeypatch.setattr(Path, "read_text", _reading({planted: "from service.engine._state import MAX_LOG\n"}))
    with pytest.raises(AssertionError, match="_planted_private_import.py: 1: service.engine._state"):
        test_only_the_allowed_files_use_private_engine_modules()


scanned_files_before = scanned_files


def _reading(planted: dict[Path, str]):
    original = Path.read_text

    def read_text(self: Path, *args, **kwargs) -> str:
        return planted[self] if self in planted else original(self, *args, **kwargs)

    return read_text


if __name__ == "__main__":  # (python -m tests.engine.test_public_names: every private use, allowed or not)
    for name, found in private_uses_by_file().items():
        print(("allowed  " if name in ALLOWED else "REFUSED  ") + name + ": " + ", ".join(found))
