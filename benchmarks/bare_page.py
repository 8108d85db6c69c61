"""The bare Streamlit page benchmarks/bench_pages.py compares every page with."""

import streamlit as st

st.write("Hello")
