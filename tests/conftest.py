"""pytest's configuration for tests/.

tests/adversary is a tool (``make adversary``), not tests: its modules patch the engine when run,
so pytest neither collects nor imports them (``--doctest-modules`` would import every module).
tests/test_adversary.py checks its table cheaply.

Hypothesis runs without its deadline (200 ms an example by default): an example's wall time says
how busy the machine is, not whether the code is right, and speed is tests/bench's to measure.
Under make test on a machine busy on every core, tests/test_codes.py's examples took 0.7 to 1 s.
"""

from hypothesis import settings

collect_ignore = ["adversary"]

settings.register_profile("pyramide", deadline=None)
settings.load_profile("pyramide")
