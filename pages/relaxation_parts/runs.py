"""/relaxation's runs (pages/relaxation.py), each cached: the run and its player payload, the
sweep over η (every run at once), the perceptron both ways. Not a page."""

import numpy as np
import streamlit as st

from pages.common.compute import computed
from perceptron_core import relaxation
from perceptron_core.viz import relaxation as viz
from perceptron_core.viz.player import player_spec, run_id

CACHE = dict(max_entries=32, ttl=3600)


@st.cache_data(show_spinner=False, **CACHE)
def run(A, c, eta, rule, w0, seed, tol, max_iter, tau):
    return relaxation(
        A, c, eta=eta, rule=rule, w0=np.array(w0), seed=seed, tol=tol, max_iter=max_iter, tau=tau
    )


@st.cache_data(show_spinner=False, **CACHE)
def payload_for(A, c, settings, start_step, present):
    trace = run(A, c, *settings)
    moves = np.flatnonzero(trace.moved) + 1  # 1-based iterations that moved w
    spec = player_spec(
        run_id(A, c, settings),
        trace.n_iter,
        moves,
        start_step=start_step,
        present=present,
        labels=viz.PLAYER_WORDS,
    )
    return viz.player_payload(A, c, trace, player=spec)


@st.cache_data(show_spinner="Sweeping η…", max_entries=16, ttl=3600)
def sweep(A, c, w0, seed, tol, max_iter, tau):  # in a worker process
    return computed(
        viz.eta_sweep, A, c, w0=np.array(w0), seed=seed, tol=tol, max_iter=max_iter, tau=tau
    )


both_ways = st.cache_data(show_spinner=False, max_entries=16, ttl=3600)(viz.perceptron_both_ways)
