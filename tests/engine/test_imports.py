"""The engine's modules import one another without a circle.

A state is derived by replaying its log through ``play``: ``_state`` imports ``_play``, and
``_play`` reads the state it is given without importing ``_state`` (issue 22). The graph below is
read from the source with ``ast``, every import counted, those inside functions too (a lazy import
hides a circle, it does not remove it), except the ones under ``if TYPE_CHECKING:``, which only
name a type for the checker and never run.
"""

from __future__ import annotations

import ast
from pathlib import Path

import service.engine as engine

ROOT = Path(engine.__file__).parent
PACKAGE = "service.engine"


def imported_from(node: ast.ImportFrom, package: str) -> str:
    """The module ``from … import`` names, relative ones resolved against ``package`` (the package
    the importing module is in); also read by ``test_public_names``."""
    if not node.level:
        return node.module or ""
    base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
    return f"{base}.{node.module}" if node.module else base


def module_name(path: Path, base: Path) -> str:
    parts = list(path.relative_to(base).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _type_checking_only(tree: ast.AST) -> set[int]:
    """The ids of the import nodes under ``if TYPE_CHECKING:``."""
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            skipped.update(id(child) for statement in node.body for child in ast.walk(statement))
    return skipped


def import_graph(root: Path = ROOT, base: Path = ROOT.parent.parent) -> dict[str, set[str]]:
    """Each module of the package at ``root`` (the engine), named from ``base`` → the package's
    modules it imports."""
    modules = {module_name(path, base): path for path in root.rglob("*.py")}
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        skipped = _type_checking_only(tree)
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(tree):
            if id(node) in skipped:
                continue
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = imported_from(node, package)
                # ``from . import general`` imports the module ``general``; ``from .x import y`` imports ``x``
                targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base for alias in node.names]
            for target in targets:
                if target in modules and target != name:
                    graph[name].add(target)
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """A circle of imports (its modules, the first again at the end), if there is one. A package's
    ``__init__`` imports its modules and they reach it only as their package: not an edge back."""
    state: dict[str, int] = {}  # 1 on the path, 2 done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for target in sorted(graph.get(node, ())):
            if state.get(target) == 1:
                return path[path.index(target) :] + [target]
            if target not in state:
                found = visit(target)
                if found:
                    return found
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


def test_the_engine_imports_without_a_circle():
    graph = {name: {t for t in targets if not name.startswith(t + ".")} for name, targets in import_graph().items()}
    assert find_cycle(graph) is None, " → ".join(find_cycle(graph) or [])


def test_the_state_is_derived_through_play_and_play_does_not_import_the_state():
    graph = import_graph()
    assert f"{PACKAGE}._play" in graph[f"{PACKAGE}._state"]
    assert f"{PACKAGE}._state" not in graph[f"{PACKAGE}._play"]
    # (the graph sees imports inside functions, relative ones and the solver package's)
    assert f"{PACKAGE}._play" in graph[f"{PACKAGE}._solver.model"]
    assert f"{PACKAGE}._solver.general" in graph[f"{PACKAGE}._solver.entry"]


def test_the_cycle_finder_finds_the_circle_there_was():
    """The graph before issue 22: ``_state`` imported ``_play`` inside two methods, and ``_play``
    imported ``_state``."""
    graph = {"_play": {"_state", "_layout"}, "_state": {"_layout", "_play"}, "_layout": set()}
    assert find_cycle(graph) == ["_play", "_state", "_play"]
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": set()}) is None


def test_lazy_imports_are_counted(tmp_path):
    """An import inside a function is an edge; one under ``if TYPE_CHECKING:`` is not."""
    package = tmp_path / "engine"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "_play.py").write_text("")
    (package / "_state.py").write_text("")
    (package / "_describe.py").write_text(
        "from typing import TYPE_CHECKING\n"
        "def f():\n    from ._play import play\n"
        "if TYPE_CHECKING:\n    from ._state import GameState\n"
    )
    assert import_graph(package, tmp_path)["engine._describe"] == {"engine._play"}
