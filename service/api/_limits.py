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

Fairness: the solver's slots are the server's, shared by its workers (``Places``: each slot a
locked file, which the kernel frees when its holder ends, however it ends), and one client
(``client_of``: its address, an IPv6 one by its /64) holds at most half of them, so that a flood of
solves, or of moves whose 004 outlook asks the solver, from one client leaves a slot for every
other. A worker's long-replay places (its own, as its replay processes are) are shared out by
client too, one client holding at most ``REPLAY_SHARE`` of them; a replay process that does not answer within ``REPLAY_SECONDS`` (a
stopped or stuck process) is killed and its request refused with ``503 replay_busy``, so a long
replay costs at most ``REPLAY_WAIT`` + ``REPLAY_SECONDS``.

The deadline is the engine's own: each search is given ``deadline=time.monotonic() + SECONDS``
(taken when the request is handed to the pool), which the engine's budget checks every 1,024
positions it visits (``service/engine/_solver/budget.py``), besides the node budget.

    >>> game = engine.GameState.new("PYR1-DT2-AAAAAAD")   # its shortest line: proved in 187,126 positions
    >>> solution = engine.solve(game, budget=250_000, shortest=True, deadline=time.monotonic())   # (past)
    >>> solution.result, solution.minimal, solution.nodes <= 1_024   # the verdict's line, the shortest not proved
    ('winnable', False, True)
"""

from __future__ import annotations

import atexit
import ctypes
import fcntl
import ipaddress
import math
import multiprocessing
import os
import shutil
import signal
import sys
import tempfile
import threading
import time
import zlib
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Generic, TypeVar

from .. import engine

from ._problems import ApiProblem

#: Concurrent searches per worker process (the server's slots: this times its workers, shared);
#: more are refused with 503.
SLOTS = max(1, int(os.environ.get("PYRAMIDE_SOLVER_SLOTS", "1")))
#: Wall-clock seconds a search may take, over and above its node budget.
SECONDS = float(os.environ.get("PYRAMIDE_SOLVE_SECONDS", "2"))
#: How much lower the solver threads' CPU priority is (Linux ``nice``).
NICE = 10

#: Actions above which a replay goes to the replay pool.
LONG_LOG = 1_000
#: Long replays at once per worker process, how long one may wait for its turn, and how many may.
REPLAY_SLOTS = max(1, int(os.environ.get("PYRAMIDE_REPLAY_SLOTS", "1")))
REPLAY_WAIT = float(os.environ.get("PYRAMIDE_REPLAY_WAIT", "2"))
REPLAY_QUEUE = 4
#: A worker's long-replay places (running or waiting) one client may hold: under half of them.
REPLAY_SHARE = max(1, (REPLAY_SLOTS + REPLAY_QUEUE - 1) // 2)
#: Seconds a replay process has to answer; then it is killed (stopped, stuck) and the replay refused.
REPLAY_SECONDS = float(os.environ.get("PYRAMIDE_REPLAY_SECONDS", "5"))
#: Bodies over this many bytes are refused unread while the replay queue is full.
LONG_BODY = 8 * 1024

_replay_slots = threading.BoundedSemaphore(REPLAY_SLOTS)
_replay_places = threading.BoundedSemaphore(REPLAY_SLOTS + REPLAY_QUEUE)
_replay_clients: Counter[str] = Counter()
_replay_clients_lock = threading.Lock()
T = TypeVar("T")


# -- Who asks, and the places the server's processes share ------------------------------------------


def client_of(environ: dict) -> str:
    """Who sent a request: the address nginx saw, behind it (gunicorn's Unix socket, which only our
    nginx reaches, has no peer address; nginx writes ``X-Forwarded-For`` itself, over whatever the
    client sent), else the peer's address. An IPv6 address counts by its /64, a host's usual share.

    >>> client_of({"REMOTE_ADDR": "", "HTTP_X_FORWARDED_FOR": "2001:db8::1"}) == client_of({"REMOTE_ADDR": "2001:db8::ffff"})
    True
    >>> client_of({"REMOTE_ADDR": "127.0.0.1", "HTTP_X_FORWARDED_FOR": "10.0.0.1"})
    '127.0.0.1'
    """
    address = environ.get("REMOTE_ADDR") or environ.get("HTTP_X_FORWARDED_FOR") or ""
    try:
        parsed = ipaddress.ip_address(address.strip())
    except ValueError:
        return address.strip()[:64]
    if isinstance(parsed, ipaddress.IPv6Address):
        if parsed.ipv4_mapped is not None:
            return str(parsed.ipv4_mapped)
        return str(ipaddress.ip_network(f"{parsed}/64", strict=False))
    return str(parsed)


class _Shared:
    """Where the places of the server's processes are: a directory of lock files. ``serve`` names
    one in the server's own directory, before its workers are forked, with their count; elsewhere
    (the app in a test, or under another server) each process makes its own, for one worker."""

    def __init__(self) -> None:
        self.directory: str | None = None
        self.workers = 1
        self.owner = 0
        self.lock = threading.Lock()

    def place(self, directory: str, workers: int) -> None:
        self.directory, self.workers, self.owner = directory, max(1, workers), 0

    def path(self) -> str:
        with self.lock:
            if self.directory is None or (self.owner and self.owner != os.getpid()):
                self.directory, self.owner = tempfile.mkdtemp(prefix="pyramide-places-"), os.getpid()
                atexit.register(_remove, self.directory, self.owner)
            return self.directory


def _remove(directory: str, owner: int) -> None:
    if os.getpid() == owner:
        shutil.rmtree(directory, ignore_errors=True)


shared = _Shared()


class Places:
    """``count()`` places shared by every process of the server, of which one client holds at
    most ``share``: a place is a file of the shared directory locked by its holder (``flock``, on
    a descriptor of its own: two threads of a process exclude each other too). The kernel lets go
    of a lock when its descriptor is closed or its process ends, however it ends (a worker
    recycled, killed): a place can never leak. A client's share is counted by files of its own
    (its address hashed into one of ``BUCKETS``)."""

    BUCKETS = 4096

    def __init__(self, name: str, per_worker: int) -> None:
        self.name, self.per_worker = name, per_worker

    def count(self) -> int:
        return self.per_worker * shared.workers

    def share(self) -> int:
        """Half of the places, at least one: one client never holds every place but where there
        is one alone."""
        return max(1, self.count() // 2)

    def take(self, client: str) -> list[int] | None:
        """A place for ``client`` (its descriptors, for ``give_back``), or None: every place taken,
        or the client's share."""
        directory = shared.path()
        bucket = zlib.crc32(client.encode()) % self.BUCKETS
        mine = self._lock_one(directory, f"{self.name}-client-{bucket}-", self.share())
        if mine is None:
            return None
        try:
            place = self._lock_one(directory, f"{self.name}-", self.count())
        except BaseException:  # (out of descriptors…: the client's share is not kept taken)
            os.close(mine)
            raise
        if place is None:
            os.close(mine)
            return None
        return [mine, place]

    @staticmethod
    def give_back(held: list[int]) -> None:
        for descriptor in held:
            os.close(descriptor)

    @staticmethod
    def _lock_one(directory: str, prefix: str, count: int) -> int | None:
        for number in range(count):
            descriptor = os.open(os.path.join(directory, f"{prefix}{number}"), os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
            try:
                fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return descriptor
            except BlockingIOError:
                os.close(descriptor)
            except BaseException:
                os.close(descriptor)
                raise
        return None


_solver_places = Places("solver", SLOTS)


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


# (as many threads as the server has slots: a client's solves may all land in one worker)
_pool: _PerProcess[ThreadPoolExecutor] = _PerProcess(
    lambda: ThreadPoolExecutor(_solver_places.count(), "solver", initializer=_lower_priority)
)


def replay_queue_full() -> bool:
    """Whether a long replay arriving now would be refused at once (its queue is full)."""
    if not _replay_places.acquire(blocking=False):
        return True
    _replay_places.release()
    return False


def _replay_process(parent: int) -> None:
    """A replay process's start: the solver's lower priority (the whole process's); a Ctrl-C is
    the server's to handle, not its (it ends when its worker does); and it ends when its worker
    is gone without ending it (killed: ``kill -9``, the OOM killer), rather than live on, an
    orphan: a thread of its own looks at its parent (``parent``, the worker that made the pool)
    every second, from the start: a worker killed while its replay process was still starting
    left that process an orphan for good (as ``PR_SET_PDEATHSIG``, set by the process once
    started, did)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        os.nice(NICE)
    except OSError:
        pass

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


# spawned, not forked: a fork of a worker's threads could copy a lock some thread holds
_replay_pool: _PerProcess[ProcessPoolExecutor] = _PerProcess(
    lambda: ProcessPoolExecutor(
        REPLAY_SLOTS, mp_context=multiprocessing.get_context("spawn"), initializer=_replay_process, initargs=(os.getpid(),)
    )
)


def start_replay_pool() -> None:
    """Start the worker's replay processes now (at the worker's start), not at its first long
    replay, which would wait for them (about 0.3 s of CPU each: a fresh Python importing the engine)."""
    _replay_pool().submit(os.getpid)


def _kill(pool: ProcessPoolExecutor) -> None:
    """End a replay pool whose process does not answer (stopped, stuck): killed, not asked."""
    for process in list((getattr(pool, "_processes", None) or {}).values()):  # (3.14: pool.kill_workers(); None once shut down)
        try:
            process.kill()
        except (OSError, ValueError):
            pass
    pool.shutdown(wait=False, cancel_futures=True)


def long_replay(actions: int, replay: Callable[..., T], *args: object, client: str = "") -> T:
    """``replay(*args)``: in the replay pool's processes when it replays more than ``LONG_LOG``
    actions (``replay`` and ``args`` go there pickled: a function of a module, and values), in one
    of the worker's places, ``client`` holding at most ``REPLAY_SHARE`` of them."""
    if actions <= LONG_LOG:
        return replay(*args)
    with _replay_clients_lock:
        if _replay_clients[client] >= REPLAY_SHARE:
            raise replay_busy()
        _replay_clients[client] += 1
    try:
        if not _replay_places.acquire(blocking=False):
            raise replay_busy()
        try:
            if not _replay_slots.acquire(timeout=REPLAY_WAIT):
                raise replay_busy()
            try:
                pool = _replay_pool()
                try:
                    future = pool.submit(replay, *args)
                except (BrokenProcessPool, RuntimeError):  # (its pool shut down meanwhile by another request)
                    raise replay_busy() from None
                try:
                    return future.result(timeout=REPLAY_SECONDS)
                except (BrokenProcessPool, TimeoutError):  # (a replay process killed, or stopped: a new pool)
                    _replay_pool.forget(pool)
                    _kill(pool)
                    start_replay_pool()  # (started now: its start is not the next replay's to wait for)
                    raise replay_busy() from None
            finally:
                _replay_slots.release()
        finally:
            _replay_places.release()
    finally:
        with _replay_clients_lock:
            _replay_clients[client] -= 1
            if not _replay_clients[client]:
                del _replay_clients[client]


def _search(search: Callable[..., T], args: tuple, kwargs: dict) -> T:
    try:
        return search(*args, **kwargs)
    finally:
        _trim_heap()


def _in_pool(search: Callable[..., T], *args, budget: int, client: str, **kwargs) -> T:
    held = _solver_places.take(client)
    if held is None:
        raise busy()
    try:
        deadline = time.monotonic() + SECONDS
        return _pool().submit(_search, search, args, {**kwargs, "budget": budget, "deadline": deadline}).result()
    finally:
        Places.give_back(held)


def solve(state: engine.GameState, *, budget: int, client: str, **options) -> engine.Solution:
    return _in_pool(engine.solve, state, budget=budget, client=client, **options)


def hint(state: engine.GameState, *, budget: int, client: str) -> tuple[engine.Move | None, engine.Solution]:
    return _in_pool(engine.hint, state, budget=budget, client=client)


def winnable_deal(rules: engine.Rules, *, budget: int, client: str, **options) -> engine.GameState:
    return _in_pool(engine.winnable_deal, rules, budget=budget, client=client, **options)


def outlook_solver(client: str) -> Callable[..., engine.Solution]:
    """The engine's ``solve`` for 004's outlook (``engine.outlook``, ``engine.foresee``): in the
    solver pool, under its deadline, as ``client``'s; a full pool answers ``unknown``, as a budget
    run out does (a move or a new game is never refused for its outlook)."""

    def solve_or_unknown(state: engine.GameState, *, budget: int, **options) -> engine.Solution:
        try:
            return solve(state, budget=budget, client=client, **options)
        except ApiProblem:
            return engine.Solution("unknown", None, False, None, 0)

    return solve_or_unknown
