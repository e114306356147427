"""pytest's configuration for tests/.

tests/adversary is a tool (``make adversary``), not tests: its modules patch the engine when run,
so pytest neither collects nor imports them (``--doctest-modules`` would import every module).
tests/test_adversary.py checks its table cheaply.
"""

collect_ignore = ["adversary"]
