"""Light runs first, in the worker processes too (issue #23).

A niced worker, even one under SCHED_IDLE, computing on this 2-core machine still slowed
another student's 15 ms settings change by 13-29 % (busy loops beside it, interleaved,
2026-11-25): the cores, their caches and the hypervisor are shared whatever the
scheduler's priorities say. Six heavy /bound links made it 1.73x slower; with every
worker stopped for the whole of each change, 0.99x. So while a light page run computes
in the server (pages/common/page_runs.py counts them, from the top of app.py, and calls
:func:`pause_computing`, then :func:`resume_computing` a moment after the last one ends),
the workers that are computing are paused (SIGSTOP) and then continued (SIGCONT): 1.03x
(24 changes each, interleaved). Each computation is held at most PAUSE_SECONDS in all, so
a stream of light runs delays a heavy link but cannot starve it; its CPU limit counts CPU
time, which a pause does not use.

PERCEPTRON_WORKER_PAUSE_SECONDS=0 turns pausing off (for A/B measurements).
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
import time
from collections.abc import Iterator

#: longest one computation is held paused in all (seconds; 0: never paused)
PAUSE_SECONDS = max(0.0, float(os.environ.get("PERCEPTRON_WORKER_PAUSE_SECONDS", "1.0")))

_COMPUTING_LOCK = threading.Lock()
_COMPUTING: set[Pauses] = set()  # the workers computing now
_LIGHT_RUNS = False  # whether a light run computes now (a computation starting then waits)


class Pauses:
    """Pausing one worker process (``pid``): at most PAUSE_SECONDS per computation."""

    def __init__(self, pid: int):
        self.pid = pid
        self._lock = threading.Lock()
        self._paused_at: float | None = None  # time.monotonic() of the pause, while paused
        self.paused_seconds = 0.0  # in all, in the current computation

    def pause(self) -> None:
        """Stop the process (SIGSTOP) unless it is paused already or its computation has
        been paused PAUSE_SECONDS in all."""
        with self._lock:
            if self._paused_at is not None or self.paused_seconds >= PAUSE_SECONDS:
                return
            try:
                os.kill(self.pid, signal.SIGSTOP)
            except OSError:
                return
            self._paused_at = time.monotonic()

    def resume(self, *, if_over_budget: bool = False) -> None:
        """Continue the process (SIGCONT) if it is paused; with ``if_over_budget``, only
        if this pause has used up what was left of PAUSE_SECONDS."""
        with self._lock:
            if self._paused_at is None:
                return
            held = time.monotonic() - self._paused_at
            if if_over_budget and self.paused_seconds + held < PAUSE_SECONDS:
                return
            with contextlib.suppress(OSError):
                os.kill(self.pid, signal.SIGCONT)
            self._paused_at = None
            self.paused_seconds += held

    @property
    def paused(self) -> bool:
        return self._paused_at is not None


def pause_computing() -> None:
    """A light page run has started: pause every worker that is computing."""
    _set_light_runs(True)


def resume_computing() -> None:
    """No light page run computes any more: continue every paused worker."""
    _set_light_runs(False)


def _set_light_runs(light: bool) -> None:
    global _LIGHT_RUNS
    with _COMPUTING_LOCK:
        _LIGHT_RUNS = light
        computing_now = list(_COMPUTING)
    for pauses in computing_now:
        if light:
            pauses.pause()
        else:
            pauses.resume()


@contextlib.contextmanager
def computing(pauses: Pauses) -> Iterator[None]:
    """While the block runs (a worker computes) it can be paused, from the start if a
    light run computes now; it is never left paused after. The pause budget starts anew."""
    pauses.paused_seconds = 0.0
    with _COMPUTING_LOCK:
        _COMPUTING.add(pauses)
        light_now = _LIGHT_RUNS
    if light_now:
        pauses.pause()
    try:
        yield
    finally:
        with _COMPUTING_LOCK:
            _COMPUTING.discard(pauses)
        pauses.resume()
