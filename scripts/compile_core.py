"""``make compiled``: the solver's core (``service/engine/_compiled.py``'s ``COMPILED``) compiled
with mypyc, for the installed package's name, ``pyramide.engine``.

The sources are compiled as they are: mypyc reads the same typed Python the interpreter runs. The
build happens in ``build/mypyc``, where ``pyramide`` is a link to ``service``, so that the modules
get the installed package's names; each extension module is written beside its source (through the
link), and the library they share beside them (``_core__mypyc``). ``--clean`` removes them all: the engine
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
            script_args=["-q", "build_ext", "--inplace", "--parallel", str(os.cpu_count() or 1)],
        )
    finally:
        os.chdir(cwd)
    print(f"compile_core: {len(sources)} modules of pyramide.engine compiled in {time.monotonic() - started:.0f} s")


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
