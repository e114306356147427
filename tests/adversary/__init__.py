"""The adversary: broken engines, each breaking one rule, run against the conformance kit.

``mutants.py`` holds the engines (``MUTANTS``), ``live.py`` the check that each one changes what a
client sees, ``worker.py`` runs one (its liveness, then the kit) and ``runner.py`` runs them all:
``make adversary`` or ``python -m tests.adversary [NAME ...] [--jobs N]``.
docs/conformance-measurements.md ("Engines broken by an adversary") says what they found. Not part of ``make test``
(``tests/conftest.py`` keeps pytest out of this folder); ``tests/kit/test_adversary.py`` checks the
table's integrity cheaply.
"""
