"""What the browser player needs to step through a frozen run (JSON-ready).

The player (``pages/player/player.js``) keeps the position, the history for *Back*,
the keys, the scrub slider, Play and the link; it needs only the run's length
and where its updates happened. A page's scene adds what it draws.
"""

from __future__ import annotations

import base64
import hashlib
import json

import numpy as np

SPEEDS = ("slow", "medium", "fast")


def run_id(*parts) -> str:
    """A short fingerprint of everything that defines a run (data and settings)."""
    digest = hashlib.sha256()
    for part in parts:
        if isinstance(part, np.ndarray):
            digest.update(np.ascontiguousarray(part).tobytes())
            digest.update(str(part.shape).encode())
        else:
            digest.update(json.dumps(part, sort_keys=True, default=str).encode())
        digest.update(b"|")
    return digest.hexdigest()[:16]


def player_spec(
    identity: str,
    n_examined: int,
    update_steps,
    *,
    start_step=None,
    speed: str = "medium",
    present: bool = False,
    link: bool = True,
    labels: dict | None = None,
) -> dict:
    """The stepping part of a payload.

    Parameters
    ----------
    identity : str, changes whenever the run changes (see ``run_id``)
    n_examined : int, examined steps N of the run
    update_steps : array of shape (M,), the 1-based step of each update (increasing)
    start_step : int or None, the step to open at (a link's ``step=``)
    speed : one of SPEEDS, the Play speed
    present : bool, presenter stage
    link : bool, keep ``step=`` in the address bar (off for an offline export)
    labels : dict or None, the page's words for the controls: ``next_mistake``,
        ``next_example``, ``update`` (what the slider counts) and ``keys`` (the key line)
    """
    steps = np.asarray(update_steps, dtype=np.int64)
    return {
        "run_id": identity,
        "n_examined": int(n_examined),
        "update_steps": [int(s) for s in steps],
        "start_step": None if start_step is None else int(start_step),
        "speed": speed if speed in SPEEDS else "medium",
        "present": bool(present),
        "link": bool(link),
        "labels": dict(labels or {}),
    }


def encode_indices(indices, n_samples: int, cyclic: bool = False) -> dict:
    """The example examined at each step 1..N, compactly.

    Cyclic order needs no table (step t examines (t - 1) mod n); otherwise the
    indices travel as little-endian unsigned integers in base64 (2 bytes each
    when n < 65 536), a sixth of their JSON size.
    """
    if cyclic:
        return {"encoding": "cyclic"}
    indices = np.asarray(indices)
    dtype, name = (np.dtype("<u2"), "uint16") if n_samples < 2**16 else (np.dtype("<u4"), "uint32")
    return {
        "encoding": name,
        "data": base64.b64encode(indices.astype(dtype).tobytes()).decode("ascii"),
    }


def decode_indices(table: dict, n_examined: int, n_samples: int) -> np.ndarray:
    """Inverse of ``encode_indices`` (what the browser computes), for tests."""
    if table["encoding"] == "cyclic":
        return np.arange(n_examined) % n_samples
    dtype = "<u2" if table["encoding"] == "uint16" else "<u4"
    return np.frombuffer(base64.b64decode(table["data"]), dtype=dtype).astype(np.int64)
