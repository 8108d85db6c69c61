"""After a server restart the page shows the state it really has, at once.

Streamlit's browser side reconnects by itself but does not rerun the page, so a lost
upload's caption and player stayed until the student's next click. A small watcher on every
page (a components.v2 element with no picture) sees the connection come back and asks for
a rerun: the new server then finds no file and the page says so (own_data_upload). While
the server is away, Streamlit's dialog asks "Are you connected to the internet?" (text fixed
in its JavaScript bundle); the watcher writes over that sentence in the page, so it blames
no one and says that the page reconnects by itself.
"""

from __future__ import annotations

import json

import streamlit as st

#: what the connection-lost dialog says instead of blaming the student's connection
OUTAGE_TEXT = (
    "The server is not answering: it may be restarting. This page reconnects by "
    "itself and then shows what the server still has; there is nothing to do."
)

_JS = """
export default function (component) {
  window.__labRerun = () => component.setTriggerValue("reconnected", Date.now());
  if (window.__labWatch) return;
  window.__labWatch = true;
  const OUTAGE = %s;
  let lost = false;
  const look = () => {
    const app = document.querySelector('[data-testid="stApp"]');
    const state = app && app.getAttribute("data-test-connection-state");
    if (state && state !== "CONNECTED") lost = true;
    if (state === "CONNECTED" && lost) { lost = false; window.__labRerun(); }
    for (const dialog of document.querySelectorAll('[role="dialog"]')) {
      const walker = document.createTreeWalker(dialog, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if (/connected to the internet/.test(node.nodeValue)) node.nodeValue = OUTAGE;
      }
    }
  };
  new MutationObserver(look).observe(document.body, {subtree: true, childList: true,
    attributes: true, attributeFilter: ["data-test-connection-state"]});
}
"""
_watcher = None


def reconnect_watch() -> None:
    """Mount the watcher (once per page run; it draws nothing)."""
    global _watcher
    if _watcher is None:
        _watcher = st.components.v2.component("lab_reconnect", js=_JS % json.dumps(OUTAGE_TEXT))
    _watcher(key="lab_reconnect", on_reconnected_change=lambda: None)
