"""``make compiled``: the solver's core (``service/engine/_compiled.py``'s ``COMPILED``) compiled
with mypyc, for the installed package's name, ``pyramide.engine``.

The sources are compiled as they are: mypyc reads the same typed Python the interpreter runs. The
build happens in ``build/mypyc``, where ``pyramide`` is a link to ``service``, so that the modules
get the installed package's names; then each extension module is moved beside its source, the
library they share (``_core__mypyc``) first. ``--clean`` removes them all: the engine
is then interpreted again.

    python -m scripts.compile_core [--clean]

``MYPYC_OPT_LEVEL`` (0–3, 3 by default) is the C compiler's optimisation: 1 compiles in about two
thirds of the time and runs some 10 % slower.
"""

from __future__ import annotations

import argparse
import importlib.machinery
import os
import shutil
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
STAGE = ROOT / "build" / "mypyc"
#: Where the extension modules are built before they are moved beside their sources
BUILT = STAGE / "lib"
#: There while a build runs (``tests/solver/test_compiled.py`` waits for it to go)
BUILDING = ROOT / "build" / "mypyc-building"
#: The library the compiled modules share, a module of the engine's package too.
GROUP = "pyramide.engine._core"


def compiled_sources() -> list[Path]:
    from service.engine import COMPILED_MODULES

    return [ROOT / "service" / "engine" / (name.replace(".", "/") + ".py") for name in COMPILED_MODULES]


def built_files() -> list[Path]:
    """The extension modules beside the sources, and the shared library in site-packages."""
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    found = [path for path in (ROOT / "service" / "engine").rglob("*") if path.name.endswith(suffixes)]
    return found


def clean() -> None:
    for path in built_files():
        path.unlink()
    shutil.rmtree(STAGE, ignore_errors=True)


def build() -> None:
    from mypyc.build import mypycify
    from setuptools import setup

    STAGE.mkdir(parents=True, exist_ok=True)
    BUILDING.touch()
    try:
        link = STAGE / "pyramide"
        if not link.is_symlink():
            link.symlink_to(ROOT / "service", target_is_directory=True)
        sources = [str(Path("pyramide") / path.relative_to(ROOT / "service")) for path in compiled_sources()]
        started = time.monotonic()
        cwd = os.getcwd()
        os.chdir(STAGE)
        try:
            setup(
                name=GROUP,
                ext_modules=mypycify(sources, group_name=GROUP, opt_level=os.environ.get("MYPYC_OPT_LEVEL", "3"), multi_file=False),
                script_args=["-q", "build_ext", "--build-lib", str(BUILT)],
            )
        finally:
            os.chdir(cwd)
        install()
        print(f"compile_core: {len(sources)} modules of pyramide.engine compiled in {time.monotonic() - started:.0f} s")
    finally:
        BUILDING.unlink(missing_ok=True)


def install() -> None:
    """The built extension modules beside their sources, each moved in whole (``os.replace``), the
    shared library first: a process starting meanwhile sees a module missing and runs the sources,
    never a library half written (``_compiled.up_to_date``)."""
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    built = sorted((path for path in (BUILT / "pyramide").rglob("*") if path.name.endswith(suffixes)), key=lambda path: "__mypyc" not in path.name)
    for path in built:
        os.replace(path, ROOT / "service" / path.relative_to(BUILT / "pyramide"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m scripts.compile_core", description=__doc__.split("\n\n")[0])
    parser.add_argument("--clean", action="store_true", help="remove the compiled modules: the engine is interpreted again")
    args = parser.parse_args(argv)
    clean()
    if not args.clean:
        build()
    return 0


if __name__ == "__main__":
    sys.exit(main())
