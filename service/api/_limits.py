"""The solver's limits in the API: a bounded pool of solver threads per worker process, apart from
the threads that serve the other endpoints, and a wall-clock deadline on each search besides its
node budget.

``solve``, ``hint`` and ``winnable_deal`` here are the engine's, run

- in the process's solver pool: ``PYRAMIDE_SOLVER_SLOTS`` threads (default 1) at a lower CPU
  priority (``nice`` +10, on Linux), so that the cheap endpoints go first when the cores are
  busy. When every slot is taken the request is refused at once with ``503 solver_busy`` and
  ``Retry-After``: a flood of solver requests never queues up behind itself, nor holds the
  threads that answer ``/healthz`` and ``/v1/moves``;
- under a deadline (``PYRAMIDE_SOLVE_SECONDS``, default 2 s): the search stops when its node budget
  or its time runs out, whichever first, and answers as it does when the budget runs out
  (``unknown``; ``no_winnable_deal`` for ``winnable: true``), never a wrong yes or no;
- and, after each search, the C heap's free memory is given back to the system
  (``malloc_trim``, glibc), so that a worker's memory does not stay at its peak.

Long replays are kept apart too (``long_replay``): a state whose log, or a ``/v1/replay`` whose
moves, hold more than ``LONG_LOG`` actions (1,000: about 12 ms of CPU; the limit is 10,000, about
0.12 s) is replayed in the worker's replay pool: ``PYRAMIDE_REPLAY_SLOTS`` processes (default 1)
of their own, at the solver's lower priority. Processes, not threads: a replay thread holds the
worker's GIL, and at a lower priority, on a busy machine, it was often descheduled holding it,
so that the cheap requests waited for it (``/healthz`` p99 98–216 ms under a flood of long
logs); a process shares nothing with the worker but the request's JSON going there and the
replayed state coming back (pickled: about 0.5 ms for 10,000 actions). A request finding the
pool busy waits for it, up to ``PYRAMIDE_REPLAY_WAIT`` seconds (default 2), behind at most
``REPLAY_QUEUE`` others (4); past either it is refused at once with ``503 replay_busy`` and
``Retry-After``. So a flood of long logs holds at most 5 of a worker's threads, waiting, and one
core's share of CPU at a lower priority, and the cheap requests keep the rest. While the queue is
full, a body over ``LONG_BODY`` bytes (8 KiB: a state is about 3 KiB, and its log about 6 bytes an
action) to an endpoint that replays is refused so before it is even parsed (``_app``), so that the
refusals of a flood cost next to nothing.

The deadline goes through the engine's own budget: ``Deadline`` is the node budget (an ``int``)
whose comparison with the node count (``nodes > budget``, which the engine makes at every position
it visits) also reads the clock every 1,024 positions. Python gives the right operand's reflected
comparison priority when its type is a subclass of the left's, so the engine's ``nodes > budget``
calls ``Deadline.__lt__``; nothing in the engine changes (its cost: about 5 % more CPU time).

    >>> budget = Deadline(1_000, seconds=60)
    >>> 999 > budget, 1_001 > budget, isinstance(budget - 10, Deadline)
    (False, True, True)
    >>> 2_048 > Deadline(1_000_000, seconds=0)   # past the deadline: the budget is spent
    True
"""

from __future__ import annotations

import ctypes
import math
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Generic, TypeVar

from .. import engine

from ._problems import ApiProblem

#: Concurrent searches per worker process; more are refused with 503.
SLOTS = max(1, int(os.environ.get("PYRAMIDE_SOLVER_SLOTS", "1")))
#: Wall-clock seconds a search may take, over and above its node budget.
SECONDS = float(os.environ.get("PYRAMIDE_SOLVE_SECONDS", "2"))
#: How much lower the solver threads' CPU priority is (Linux ``nice``).
NICE = 10
#: The clock is read when the node count is a multiple of this (a power of two, minus one).
_EVERY = 1023

#: Actions above which a replay goes to the replay pool.
LONG_LOG = 1_000
#: Long replays at once per worker process, how long one may wait for its turn, and how many may.
REPLAY_SLOTS = max(1, int(os.environ.get("PYRAMIDE_REPLAY_SLOTS", "1")))
REPLAY_WAIT = float(os.environ.get("PYRAMIDE_REPLAY_WAIT", "2"))
REPLAY_QUEUE = 4
#: Bodies over this many bytes are refused unread while the replay queue is full.
LONG_BODY = 8 * 1024

_slots = threading.BoundedSemaphore(SLOTS)
_replay_slots = threading.BoundedSemaphore(REPLAY_SLOTS)
_replay_places = threading.BoundedSemaphore(REPLAY_SLOTS + REPLAY_QUEUE)
T = TypeVar("T")


class Deadline(int):
    """A node budget that also runs out at ``time.monotonic()`` ``at``."""

    at: float

    def __new__(cls, nodes: int, *, seconds: float | None = None, at: float | None = None) -> Deadline:
        budget = super().__new__(cls, nodes)
        budget.at = at if at is not None else time.monotonic() + (SECONDS if seconds is None else seconds)
        return budget

    def __lt__(self, nodes: object, _less=int.__lt__, _now=time.monotonic) -> bool:  # ``nodes > self``
        if _less(self, nodes):
            return True
        return type(nodes) is int and not nodes & _EVERY and _now() > self.at

    def __sub__(self, other: object) -> Deadline:  # what is left of the budget keeps the deadline
        return Deadline(int(self) - int(other), at=self.at)  # type: ignore[call-overload]


def busy() -> ApiProblem:
    seconds = max(1, math.ceil(SECONDS))
    return ApiProblem("solver_busy", 503, seconds=seconds, headers={"Retry-After": str(seconds)})


def replay_busy() -> ApiProblem:
    seconds = max(1, math.ceil(REPLAY_WAIT))
    return ApiProblem("replay_busy", 503, seconds=seconds, headers={"Retry-After": str(seconds)})


def _lower_priority() -> None:
    if sys.platform.startswith("linux"):  # (a thread's own priority: Linux only)
        try:
            os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), os.getpriority(os.PRIO_PROCESS, 0) + NICE)
        except OSError:
            pass


def _trim_heap() -> None:
    """Give the C heap's free memory back to the system (glibc; elsewhere nothing)."""


try:
    _malloc_trim = ctypes.CDLL(None).malloc_trim
    _trim_heap = lambda: _malloc_trim(0)  # noqa: E731
except (OSError, AttributeError):
    pass


class _PerProcess(Generic[T]):
    """A pool made by ``make`` once in each process that asks for it (each server worker, after the
    fork: a pool's threads and processes are not inherited), and made again once replaced."""

    def __init__(self, make: Callable[[], T]) -> None:
        self.make, self.made, self.lock = make, None, threading.Lock()

    def __call__(self) -> T:
        with self.lock:
            if self.made is None or self.made[0] != os.getpid():
                self.made = (os.getpid(), self.make())
            return self.made[1]

    def forget(self, broken: T) -> None:
        """The next call makes a new one, unless ``broken`` was replaced already."""
        with self.lock:
            if self.made is not None and self.made[1] is broken:
                self.made = None


_pool: _PerProcess[ThreadPoolExecutor] = _PerProcess(lambda: ThreadPoolExecutor(SLOTS, "solver", initializer=_lower_priority))


def replay_queue_full() -> bool:
    """Whether a long replay arriving now would be refused at once (its queue is full)."""
    if not _replay_places.acquire(blocking=False):
        return True
    _replay_places.release()
    return False


def _replay_process() -> None:
    """A replay process's start: the solver's lower priority (the whole process's); a Ctrl-C is
    the server's to handle, not its (it ends when its worker does); and on Linux it gets SIGTERM
    if its worker dies without ending it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        os.nice(NICE)
    except OSError:
        pass
    try:
        ctypes.CDLL(None).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


# spawned, not forked: a fork of a worker's threads could copy a lock some thread holds
_replay_pool: _PerProcess[ProcessPoolExecutor] = _PerProcess(
    lambda: ProcessPoolExecutor(REPLAY_SLOTS, mp_context=multiprocessing.get_context("spawn"), initializer=_replay_process)
)


def start_replay_pool() -> None:
    """Start the worker's replay processes now (at the worker's start), not at its first long
    replay, which would wait for them (about 0.3 s of CPU each: a fresh Python importing the engine)."""
    _replay_pool().submit(os.getpid)


def long_replay(actions: int, replay: Callable[..., T], *args: object) -> T:
    """``replay(*args)``: in the replay pool's processes when it replays more than ``LONG_LOG``
    actions (``replay`` and ``args`` go there pickled: a function of a module, and values)."""
    if actions <= LONG_LOG:
        return replay(*args)
    if not _replay_places.acquire(blocking=False):
        raise replay_busy()
    try:
        if not _replay_slots.acquire(timeout=REPLAY_WAIT):
            raise replay_busy()
        try:
            pool = _replay_pool()
            try:
                return pool.submit(replay, *args).result()
            except BrokenProcessPool:  # (a replay process died, killed: a new pool for the next)
                _replay_pool.forget(pool)
                pool.shutdown(wait=False, cancel_futures=True)
                raise replay_busy() from None
        finally:
            _replay_slots.release()
    finally:
        _replay_places.release()


def _search(search: Callable[..., T], args: tuple, kwargs: dict) -> T:
    try:
        return search(*args, **kwargs)
    finally:
        _trim_heap()


def _in_pool(search: Callable[..., T], *args, budget: int, **kwargs) -> T:
    if not _slots.acquire(blocking=False):
        raise busy()
    try:
        return _pool().submit(_search, search, args, {**kwargs, "budget": Deadline(budget)}).result()
    finally:
        _slots.release()


def solve(state: engine.GameState, *, budget: int, **options) -> engine.Solution:
    return _in_pool(engine.solve, state, budget=budget, **options)


def hint(state: engine.GameState, *, budget: int) -> tuple[engine.Move | None, engine.Solution]:
    return _in_pool(engine.hint, state, budget=budget)


def winnable_deal(rules: engine.Rules, *, budget: int, **options) -> engine.GameState:
    return _in_pool(engine.winnable_deal, rules, budget=budget, **options)
