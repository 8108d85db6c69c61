# Perceptron Lab — developer entry points.
# Works on a fresh clone: the venv is created on demand and requirements are
# (re)installed only when the requirements files change (stamp files).

PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
PIP    := $(PY) -m pip

REQ_STAMP := $(VENV)/.req-stamp
DEV_STAMP := $(VENV)/.dev-stamp

.PHONY: run test test-fast lint serve bench screenshots venv deps dev-deps clean-venv

venv: $(PY)

$(PY):
	$(PYTHON) -m venv $(VENV)

deps: $(REQ_STAMP)
dev-deps: $(DEV_STAMP)

$(REQ_STAMP): requirements.txt | $(PY)
	$(PIP) install -r requirements.txt
	touch $@

# requirements-dev.txt includes requirements.txt via -r, so it also satisfies REQ_STAMP.
$(DEV_STAMP): requirements-dev.txt requirements.txt | $(PY)
	$(PIP) install -r requirements-dev.txt
	touch $@

# One BLAS thread: sessions share the cores, and idle OpenBLAS threads spinning for a core
# would be counted in a request's CPU budget.
run: $(REQ_STAMP)
	OPENBLAS_NUM_THREADS=1 $(VENV)/bin/streamlit run app.py

# Every test: the core, the pages and the browser in two processes (pytest-xdist; each
# starts its own Streamlit server and Chromium), then the serving set-up (tests/deploy) one
# test at a time: it measures processes, memory and a hall's timings, which a second
# process running beside it would skew.
test: $(DEV_STAMP)
	$(PY) -m pytest -q -n 2 --dist worksteal --durations=30 tests/core tests/app tests/browser
	$(PY) -m pytest -q --durations=10 tests/deploy

# The loop while you work: no browser, no server of its own, no long property sweeps (they
# run in `make test`), two processes (pytest-xdist).
test-fast: $(DEV_STAMP)
	$(PY) -m pytest -q -n 2 --dist worksteal -m "not browser and not server and not slow" tests

# Style and types, as CI checks them (configuration in pyproject.toml).
lint: $(DEV_STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy

# Replicas behind HAProxy (deploy/haproxy.cfg) until Ctrl-C: PORT (default 8500),
# REPLICAS (default: one per core). Needs Debian's haproxy (apt-get install haproxy).
# Also starts Debian's redis-server on a free loopback port (the live classes of /class,
# shared by the replicas; append-only file in a folder of this start's own, or in REDIS_DIR
# to keep the classes across starts) and stops it with the replicas. Prints where students
# join; starts again by itself whatever process dies (one log line per event).
serve: $(REQ_STAMP)
	$(PY) scripts/serve.py

bench: $(DEV_STAMP)
	$(PY) benchmarks/bench_core.py
	$(PY) benchmarks/bench_ui.py

screenshots: $(DEV_STAMP)
	$(PY) scripts/screenshots.py

clean-venv:
	rm -rf $(VENV)
