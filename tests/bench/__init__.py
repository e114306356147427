"""Benchmarks, run on demand (``make bench``), never as timed unit tests. Each prints its figures."""
