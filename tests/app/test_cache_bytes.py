"""Issue #23 item 3: the caches are bounded in bytes, not only in entries.

Every st.cache_data entry of the server process shares one budget in pickled bytes
(server.maxCacheDataSize, which Streamlit enforces by dropping the least recently used
entries); the heavy caches' largest entries, computed here at the heaviest settings their
pages allow, times their max_entries stay under it (and /multiclass's fit under its own
max_size)."""

from __future__ import annotations

import functools
import pickle
import re
import tomllib
from pathlib import Path

import numpy as np
import pytest

from pages.common.request_budget import CACHE_DATA_BYTES
from perceptron_core import generalisation_curve, kernel_margin, make_blobs, make_circles
from perceptron_core.viz import multiclass, relaxation

ROOT = Path(__file__).resolve().parents[2]
MB = 1024**2


def entry_bytes(value) -> int:
    return len(pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL))


def page_cache(page: str, function: str) -> dict:
    """max_entries and max_size (bytes, or None) of a page's cached function, read from
    its decorator (the page's CACHE-like dict or the decorator's own arguments)."""
    source = (ROOT / page).read_text()
    head = source[: source.index(f"def {function}(")].rsplit("@st.cache_data(", 1)[1]
    args = head.split("\n", 1)[0]
    if "**" in args:  # a dict defined in the page, e.g. **FIT_CACHE
        name = re.search(r"\*\*(\w+)", args).group(1)
        args = re.search(rf"^{name} = dict\((.*)\)$", source, re.M).group(1)
    entries = int(re.search(r"max_entries=(\d+)", args).group(1))
    size = re.search(r'max_size="(\d+)MB"', args)
    return {"entries": entries, "size": int(size.group(1)) * MB if size else None}


@functools.cache
def heaviest_multiclass_fit():
    data = make_blobs(n=600, seed=1, dim=2, radius=1.0, k=6, spread=0.6)
    X, labels = np.array(data.X), np.array(data.y)
    X[labels == 0] -= X[labels == 0].mean(axis=0)  # one class in the middle
    return multiclass.fit_both(X, labels, "max_residual", 0, 200)  # the most updates


def heaviest_curve_point():
    return generalisation_curve(
        n_train=[10_000], margin=0.9, dim=2, repeats=1000, seed=0, n_test=5_000
    )


def heaviest_eta_sweep():
    rng = np.random.default_rng(0)
    A = rng.normal(size=(2, 50))  # 50 own rows, the most a system may have
    return relaxation.eta_sweep(A, np.ones(50), w0=np.zeros(2), seed=0, tol=1e-3, max_iter=10)


def heaviest_kernel_margin():
    """The larger of two entries of /kernels' feature_space: the RBF margin on separable
    data, and a degree-8 polynomial's exact proof (46 rational weights) on flipped labels."""
    from perceptron_core import with_label_noise
    from perceptron_core.kernels import kernel_no_separator_proof

    data = make_circles(n=400, seed=0)
    rbf = (
        kernel_margin(np.asarray(data.X), np.asarray(data.y), kernel="rbf", scale=2.0),
        None,
        False,
    )
    noisy = with_label_noise(data, 0.2, seed=1)
    X, y = np.asarray(noisy.X), np.asarray(noisy.y)
    margin = kernel_margin(X, y, kernel="poly", degree=8, scale=2.0)
    poly = (
        margin,
        kernel_no_separator_proof(X, y, kernel="poly", degree=8, scale=2.0, margin=margin),
        False,
    )
    assert poly[1] is not None
    return max(rbf, poly, key=entry_bytes)


HEAVY = [
    ("pages/multiclass.py", "fit", heaviest_multiclass_fit),
    ("pages/generalisation_parts/runs.py", "curve_at", heaviest_curve_point),
    ("pages/relaxation_parts/runs.py", "sweep", heaviest_eta_sweep),
    ("pages/kernels.py", "feature_space", heaviest_kernel_margin),
]


def test_the_process_budget_is_configured_and_stated():
    config = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text())
    text = config["server"]["maxCacheDataSize"]
    assert text.upper() == f"{CACHE_DATA_BYTES // MB}MB"
    assert f"{CACHE_DATA_BYTES // MB} MB" in (ROOT / "README.md").read_text()


@pytest.mark.parametrize("page, function, heaviest", HEAVY, ids=[h[1] for h in HEAVY])
def test_a_full_heavy_cache_stays_within_its_bytes(page, function, heaviest):
    largest = entry_bytes(heaviest())
    cache = page_cache(page, function)
    assert cache["entries"] * largest <= CACHE_DATA_BYTES / len(HEAVY), (largest, cache)
    if cache["size"] is not None:
        assert cache["entries"] * largest <= cache["size"] <= CACHE_DATA_BYTES


def test_multiclass_caches_its_results_compactly():
    """The heaviest /multiclass result was 24.5 MB (every binary run's trace, int64
    regions); the page shows neither: its regions are the polygons of the exact cut."""
    ova, ovo, _, region, _ = heaviest_multiclass_fit()
    assert ova.traces == () and ovo.traces == ()
    assert entry_bytes((ova, ovo, region)) < 0.5 * MB
