"""The server hands the interpreter lock over after 1 ms (issue #23,
pages/common/request_budget.share_the_interpreter_finely): a short script run waits
less behind a heavy page's run in another thread."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
#: a fresh interpreter: the interval the server process gets when it imports the pages
FRESH_PROCESS = "import sys, pages.common; print(sys.getswitchinterval())"


def interval_in_a_fresh_server(**environment) -> float:
    done = subprocess.run([sys.executable, "-c", FRESH_PROCESS], cwd=REPO_ROOT, text=True,
                          capture_output=True, timeout=120, env={**os.environ, **environment})
    assert done.returncode == 0, done.stderr[-2000:]
    return float(done.stdout.split()[-1])


def test_the_server_switches_threads_every_millisecond():
    assert abs(interval_in_a_fresh_server() - 0.001) < 1e-9
    assert abs(interval_in_a_fresh_server(PERCEPTRON_SWITCH_INTERVAL="0.005") - 0.005) < 1e-9

