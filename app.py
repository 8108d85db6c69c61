"""Perceptron Lab: entry point. Registers every page explicitly."""

import streamlit as st

st.set_page_config(page_title="Perceptron Lab", page_icon=":material/linear_scale:",
                   layout="wide", initial_sidebar_state="expanded")

PAGES = [
    st.Page("pages/home.py", title="Home", icon=":material/home:", url_path="", default=True),
    st.Page("pages/train.py", title="Train, one mistake at a time", icon=":material/step:",
            url_path="train"),
    st.Page("pages/bound.py", title="Mistakes against the bound", icon=":material/show_chart:",
            url_path="bound"),
    st.Page("pages/aggressive.py", title="Aggressive updates never stop",
            icon=":material/all_inclusive:", url_path="aggressive"),
    st.Page("pages/adversary.py", title="The adversarial lower bound",
            icon=":material/swords:", url_path="adversary"),
]

st.navigation(PAGES).run()
