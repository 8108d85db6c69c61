"""One worker process: a fresh Python interpreter at lower priority that computes core
functions sent to it through a pipe (the pool that shares them is pages/common/workers.py).
"""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
import time
from multiprocessing.connection import Connection

from pages.common.worker_pause import Pauses, computing

#: niceness added to each worker process (interactive sessions get the CPU first)
WORKER_NICENESS = 10
#: one BLAS thread per worker: its CPU limit then counts the computation, not OpenBLAS's
#: idle threads spinning while they wait for a core (on a loaded server the default /bound
#: "n and d" sweep took 0.7 CPU-s with one thread and 6.7-9.6 CPU-s with two)
ONE_BLAS_THREAD = {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
_CLOCK_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
_PAGE_BYTES = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096

#: what a worker process runs (``python -c``): a fresh interpreter that imports the
#: core, lowers its priority, then computes ``function(*args, **kwargs)`` for each
#: pickled task it receives and sends back ``(True, result)`` or ``(False, error)``
_WORKER_LOOP = """
import os, pickle, sys
from multiprocessing.connection import Connection
tasks = Connection(int(sys.argv[1]), writable=False)
results = Connection(int(sys.argv[2]), readable=False)
sys.path[:0] = [p for p in sys.argv[4:] if p not in sys.path]
if hasattr(os, "nice"):
    os.nice(int(sys.argv[3]))
import perceptron_core  # noqa: F401  (imported before the first task)
try:  # glibc keeps what a computation freed; malloc_trim returns it (about 1 ms)
    import ctypes
    trim = ctypes.CDLL("libc.so.6").malloc_trim
except (OSError, AttributeError):
    trim = None
while True:
    try:
        task = tasks.recv_bytes()
    except (EOFError, OSError):
        break  # the server closed the pipe or exited
    try:
        function, args, kwargs = pickle.loads(task)
        reply = (True, function(*args, **kwargs))
    except Exception as error:
        reply = (False, error)
    try:
        answer = pickle.dumps(reply, protocol=pickle.HIGHEST_PROTOCOL)
    except Exception as error:  # an unpicklable result or error
        answer = pickle.dumps((False, RuntimeError(f"{type(error).__name__}: {error}")))
    task = function = args = kwargs = reply = None  # the computation's memory is free now
    if trim:
        trim(0)  # and given back before the server reads this worker's size
    results.send_bytes(answer)
"""


class OverCPU(Exception):
    """The computation used more CPU time than it may."""


class OverMemory(Exception):
    """The computation's worker process held more memory than it may."""


class WorkerProcess:
    """One worker process and the two pipes to it (tasks in, results out)."""

    def __init__(self):
        task_read, task_write = os.pipe()
        result_read, result_write = os.pipe()
        paths = [path for path in sys.path if path]
        try:
            self.process = subprocess.Popen(
                [sys.executable, "-c", _WORKER_LOOP, str(task_read), str(result_write),
                 str(WORKER_NICENESS), *paths],
                pass_fds=(task_read, result_write), stdin=subprocess.DEVNULL,
                env={**os.environ, **ONE_BLAS_THREAD},
                # a group of its own: should the server die while this worker is paused,
                # the group is orphaned and the kernel sends it SIGHUP then SIGCONT, so a
                # paused worker never outlives the server
                process_group=0)
        finally:
            os.close(task_read)
            os.close(result_write)
        self.tasks = Connection(task_write, readable=False)
        self.results = Connection(result_read, writable=False)
        self.done = 0
        self.pauses = Pauses(self.process.pid)  # held while light runs compute

    def cpu_seconds(self) -> float | None:
        """CPU time the process has used (Linux /proc); None where it cannot be read."""
        try:
            with open(f"/proc/{self.process.pid}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / _CLOCK_TICKS
        except (OSError, IndexError, ValueError):
            return None

    def rss_mb(self) -> float | None:
        """Resident memory of the process in MB (Linux /proc); None where it cannot be read."""
        try:
            with open(f"/proc/{self.process.pid}/statm") as statm:
                return int(statm.read().split()[1]) * _PAGE_BYTES / 2**20
        except (OSError, IndexError, ValueError):
            return None

    def call(self, function, args: tuple, kwargs: dict, cpu_seconds: float,
             deadline: float, memory_mb: float | None = None) -> tuple:
        """``(True, result)`` or ``(False, the function's error)``. Raises OverCPU once
        the computation has used ``cpu_seconds`` of CPU (of wall-clock time where CPU
        time cannot be read), OverMemory once the process holds more than ``memory_mb``
        MB (read every 50 ms while it computes; None: no limit), TimeoutError at
        ``deadline`` (time.monotonic), EOFError or OSError if the process ended."""
        started, cpu_before = time.monotonic(), self.cpu_seconds()
        self.tasks.send_bytes(pickle.dumps((function, args, kwargs),
                                           protocol=pickle.HIGHEST_PROTOCOL))
        with computing(self.pauses):  # each computation has its own pause budget
            return self._wait_for_reply(started, cpu_before, cpu_seconds, deadline, memory_mb)

    def _wait_for_reply(self, started: float, cpu_before: float | None, cpu_seconds: float,
                        deadline: float, memory_mb: float | None) -> tuple:
        while not self.results.poll(max(0.0, min(0.05, deadline - time.monotonic()))):
            self.pauses.resume(if_over_budget=True)  # a pause ends within 50 ms of its budget
            cpu_now = self.cpu_seconds()
            used = (cpu_now - cpu_before if cpu_now is not None and cpu_before is not None
                    else time.monotonic() - started)
            if used > cpu_seconds:
                raise OverCPU
            if memory_mb is not None and (self.rss_mb() or 0.0) > memory_mb:
                raise OverMemory
            if time.monotonic() >= deadline:
                raise TimeoutError
        reply = pickle.loads(self.results.recv_bytes())
        self.done += 1
        return reply

    def stop(self) -> None:
        """End the process at once (a computation in it is lost) and close the pipes."""
        self.process.kill()
        self.process.wait()
        self.tasks.close()
        self.results.close()
