"""The engine's public surface is deliberate: this pins it (as httpx pins its own)."""

import service.engine as engine


def test_public_api_is_pinned():
    assert sorted(engine.__all__) == sorted(
        [
            "ALL_CARDS", "BLOCKED", "COMPILED_MODULES", "DECK", "DECKS", "DOCUMENTS_LAYOUT", "MAX_LOG", "PLAYING", "PRESETS", "RANKS", "SUITS", "UNDO_LIMIT", "VARIANT_LETTERS", "WON",
            "Action", "AppCodeError", "Card", "Deck", "Event", "GameState", "IllegalMoveError", "InvalidCodeError", "InvalidMoveError",
            "InvalidStateError", "Layout", "Move", "Option", "PyramideError", "Registry", "Replay", "Rules", "Solution", "Turn", "card_name", "core_compiled", "describe",
            "foresee", "hint", "layout_code", "legal_moves", "options_registry", "outlook", "parse_code", "parse_log", "play", "random_code", "replay", "seed_code", "shuffled_deck", "solve", "solver_supports",
            "status_of", "tap_order", "winnable_deal",
        ]
    )  # fmt: skip
    for name in engine.__all__:
        assert getattr(engine, name) is not None


def test_modules_behind_it_are_private():
    modules = [name for name in vars(engine) if not name.startswith("__") and type(vars(engine)[name]).__name__ == "module"]
    assert all(name.startswith("_") for name in modules), modules


def test_errors_are_value_errors():
    for name in ("IllegalMoveError", "InvalidMoveError", "InvalidStateError", "InvalidCodeError", "AppCodeError"):
        assert issubclass(getattr(engine, name), ValueError)


def test_the_engine_imports_only_the_standard_library():
    import ast
    import sys
    from pathlib import Path

    root = Path(engine.__file__).parent
    for path in list(root.rglob("*.py")) + [root.parent / "locales" / "__init__.py"]:  # (the solver package too)
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module]
            else:
                continue
            for name in names:
                top = name.split(".")[0]
                assert top in sys.stdlib_module_names or top in ("service", "__future__"), (path.name, name)
