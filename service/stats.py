"""``pyramide stats`` on Dask (``distributed``): a local cluster by default, any cluster by its
scheduler's address; chunked, and resumable from a state file.

The deals are the seeds ``start`` … ``start + deals - 1`` of a rule set. They are cut into chunks
of consecutive seeds, each solved by one task (:func:`solve_chunk`) on any worker. A few chunks per
worker are in flight at a time; as each finishes the next is sent. A chunk is at most
:data:`MAX_CHUNK` deals (the first rounds smaller: :data:`FIRST_CHUNK`, then twice as many a
round, so that the first results come at once under slow rules), and about a quarter of what is
left for each worker, so the last chunks
are a deal or a few: at the end of a run no worker waits long on another's chunk holding a slow
deal (and Dask's work stealing moves queued chunks to idle workers). The verdicts are counts
added up, so the result does not depend on the chunks, the cluster or the order chunks finish in.

A state file (``--resume FILE``) keeps every chunk's result as it comes, one JSON line each, after
a first line with the run's parameters. Run again with the same file, the run solves only the seeds
no kept chunk covers: a run stopped anyhow (Ctrl-C, a kill, a reboot) goes on where it stopped and
ends with the result of a run never stopped. A line cut short by a stop in the middle of writing
it is dropped (its chunk is solved again).

This module needs ``distributed`` (``pip install "pyramide[dask]"``); the engine does not.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import queue
import signal
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import dask
from distributed import Client, LocalCluster

from .engine import GameState, Rules, seed_code, solve

VERDICTS = ("winnable", "unwinnable", "unknown")
#: The most deals in one chunk: with the app's rules about half a second of work, so the progress
#: moves and a stop loses little; enough that a task's own cost (a few milliseconds) is small.
MAX_CHUNK = 250
#: The first chunks are this small, each next round twice as large up to ``MAX_CHUNK``: so that
#: under slow rules (a deal a second or more) the first results, and the progress, come at once.
FIRST_CHUNK = 4
#: Chunks in flight per worker thread: one running, the next ones queued on it or on the scheduler.
IN_FLIGHT = 2
#: The first line of a state file says what it is and which run it keeps.
STATE_FORMAT = "pyramide stats state 1"
HEADER_KEYS = ("rules", "start", "deals", "budget")


def solve_chunk(letters: str, first: int, stop: int, budget: int) -> dict:
    """The task run on a worker: the verdicts of the seeds ``first`` … ``stop - 1``, counted."""
    rules = Rules.from_letters(letters)
    counts = dict.fromkeys(VERDICTS, 0)
    began = time.process_time()
    for seed in range(first, stop):
        counts[solve(GameState.new(seed_code(rules, seed)), budget=budget, max_removable=False).result] += 1
    return {"first": first, "stop": stop, **counts, "cpu": round(time.process_time() - began, 4)}


class StateError(ValueError):
    """The state file cannot be resumed from: it is not one, or it keeps another run."""


@dataclass
class Run:
    """One run's parameters and the chunks done; with ``path``, kept in a state file as they come."""

    rules: str
    start: int
    deals: int
    budget: int
    path: str | None = None
    chunks: dict[int, dict] = field(default_factory=dict)  # by first seed
    _file: object = None

    @property
    def end(self) -> int:
        return self.start + self.deals

    def header(self) -> dict:
        return {"format": STATE_FORMAT, "rules": self.rules, "start": self.start, "deals": self.deals, "budget": self.budget}

    def kept(self) -> int:
        return sum(chunk["stop"] - chunk["first"] for chunk in self.chunks.values())

    def remaining(self) -> list[tuple[int, int]]:
        """The seed ranges no chunk done covers, in order."""
        ranges, seed = [], self.start
        for first in sorted(self.chunks):
            if first > seed:
                ranges.append((seed, first))
            seed = self.chunks[first]["stop"]
        if seed < self.end:
            ranges.append((seed, self.end))
        return ranges

    def prefix(self) -> tuple[int, dict[str, int]]:
        """How many seeds from ``start`` on are done without a gap, and their counts."""
        seed, counts = self.start, dict.fromkeys(VERDICTS, 0)
        while seed in self.chunks:
            chunk = self.chunks[seed]
            for verdict in VERDICTS:
                counts[verdict] += chunk[verdict]
            seed = chunk["stop"]
        return seed - self.start, counts

    def add(self, chunk: dict) -> None:
        self.chunks[chunk["first"]] = chunk
        if self._file is not None:
            self._file.write(json.dumps(chunk) + "\n")
            self._file.flush()
            os.fsync(self._file.fileno())

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None


def read_state(path: str) -> tuple[dict | None, list[dict], int]:
    """The header and the chunks a state file keeps, and the length of its whole lines: (None, [],
    0) when there is no file or not even a whole first line. Raises :class:`StateError`."""
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except FileNotFoundError:
        return None, [], 0
    whole = data[: data.rfind(b"\n") + 1]  # what follows the last newline was cut short
    lines = whole.decode("utf-8", errors="replace").splitlines()
    if not lines:
        return None, [], 0
    try:
        header = json.loads(lines[0])
        chunks = [json.loads(line) for line in lines[1:]]
    except json.JSONDecodeError:
        raise StateError(f"{path} is not a state file of pyramide stats") from None
    if not isinstance(header, dict) or header.get("format") != STATE_FORMAT:
        raise StateError(f"{path} is not a state file of pyramide stats")
    return header, chunks, len(whole)


def open_run(path: str | None, given: dict, defaults: dict) -> Run:
    """The run to make: the state file's (going on from its chunks), else a new one. ``given`` holds
    the parameters given on the command line (those not given are None); they must be the state
    file's own. Raises :class:`StateError`."""
    header, chunks, length = read_state(path) if path is not None else (None, [], 0)
    if header is None:
        run = Run(**{key: defaults[key] if given[key] is None else given[key] for key in HEADER_KEYS}, path=path)
    else:
        differ = [f"--{key} {header[key]}" for key in HEADER_KEYS if given[key] is not None and given[key] != header[key]]
        if differ:
            raise StateError(f"{path} keeps another run ({', '.join(differ)}): give its own parameters, or none of them")
        run = Run(**{key: header[key] for key in HEADER_KEYS}, path=path)
        try:
            Rules.from_letters(run.rules)
        except ValueError:
            raise StateError(f"{path} is not a state file of pyramide stats") from None
        seed = run.start
        for chunk in sorted(chunks, key=lambda chunk: chunk["first"]):
            if not (seed <= chunk["first"] < chunk["stop"] <= run.end) or sum(chunk[v] for v in VERDICTS) != chunk["stop"] - chunk["first"]:
                raise StateError(f"{path} is not a state file of pyramide stats (a chunk is out of place)")
            run.chunks[chunk["first"]] = chunk
            seed = chunk["stop"]
    if path is not None:
        if header is None:
            run._file = open(path, "w", encoding="utf-8")
            run._file.write(json.dumps(run.header()) + "\n")
            run._file.flush()
        else:
            run._file = open(path, "r+", encoding="utf-8")
            run._file.truncate(length)  # a line cut short is dropped
            run._file.seek(length)
    return run


@contextlib.contextmanager
def cluster(scheduler: str | None, workers: int) -> Iterator[Client]:
    """A client of the cluster at ``scheduler``, or of a new local cluster of ``workers`` processes
    (one thread each, no dashboard), closed on leaving."""
    if scheduler is not None:
        client = Client(scheduler, timeout="20s")
        try:
            yield client
        finally:
            client.close()
        return
    # The worker processes ignore SIGINT: Ctrl-C reaches the whole foreground group, and only this
    # process answers it (then closes the cluster). A process started with SIGINT ignored keeps it
    # ignored, so it is ignored here while the workers start.
    main = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN) if main else None
    try:
        # On loopback, on ports the system picks; the scheduler's HTTP server (health checks, and
        # the dashboard when bokeh is installed) is always started: off the dashboard's usual 8787
        # The workers' statistical profiler samples every thread's stack every 10 ms: work taken
        # from the solver, for a dashboard no one is shown.
        with dask.config.set({"distributed.worker.profile.enabled": False}):
            local = LocalCluster(
                n_workers=workers, threads_per_worker=1, processes=True, host="127.0.0.1",
                dashboard_address=None, scheduler_kwargs={"dashboard": False, "dashboard_address": "127.0.0.1:0"},
                silence_logs=logging.CRITICAL,
            )  # fmt: skip
    finally:
        if main:
            signal.signal(signal.SIGINT, previous)
    try:
        with Client(local) as client:
            yield client
    finally:
        local.close()


def threads(client: Client) -> int:
    return max(1, sum(client.nthreads().values()))


def solve_run(run: Run, client: Client, done: Callable[[dict], None], stop: threading.Event) -> None:
    """Solves the seeds ``run`` has not done on the cluster, adding each chunk to ``run`` and
    calling ``done`` with it as it finishes, until all are done or ``stop`` is set."""
    todo = run.remaining()
    unassigned = sum(end - first for first, end in todo)
    finished: queue.SimpleQueue = queue.SimpleQueue()
    in_flight = set()
    token = uuid.uuid4().hex[:12]  # task keys of their own on a scheduler shared with other runs

    sent = 0

    def send() -> None:
        nonlocal unassigned, sent
        first, end = todo[0]
        ramp = FIRST_CHUNK << min(16, sent // threads(client))  # (4, 8, 16… a round of chunks each)
        size = max(1, min(MAX_CHUNK, ramp, -(-unassigned // (4 * threads(client)))))
        sent += 1
        last = min(end, first + size)
        if last == end:
            todo.pop(0)
        else:
            todo[0] = (last, end)
        unassigned -= last - first
        future = client.submit(
            solve_chunk, run.rules, first, last, run.budget, key=f"pyramide-stats-{token}-{first}", pure=False
        )  # fmt: skip
        future.add_done_callback(finished.put)
        in_flight.add(future)

    try:
        while todo and len(in_flight) < IN_FLIGHT * threads(client):
            send()
        while in_flight and not stop.is_set():
            try:
                future = finished.get(timeout=0.1)
            except queue.Empty:
                continue
            in_flight.discard(future)
            chunk = future.result()  # a task that failed raises here
            run.add(chunk)
            done(chunk)
            while todo and not stop.is_set() and len(in_flight) < IN_FLIGHT * threads(client):
                send()
    finally:
        if in_flight:
            client.cancel(list(in_flight))
