"""Helpers for the live class's tests: a real Redis (Debian's redis-server) on a free port, and
a small bank of questions of our own (the app's bank is filled in by another change)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
import serve  # noqa: E402

from classroom import poll_question  # noqa: E402


def small_question(options=("1", "2", "3"), answer="2", key="q_small") -> dict:
    return poll_question(key, "How many updates?", options, answer, "Because each one counts.")


@pytest.fixture(scope="module")
def redis_url(tmp_path_factory):
    """A real redis-server for the module (skipped only if the binary is missing)."""
    if serve.find_redis_server() is None:
        pytest.skip("redis-server not installed (apt-get install redis-server)")
    with serve.redis_server(data_dir=tmp_path_factory.mktemp("redis")) as (url, _process):
        yield url
