"""Own data: what a page accepts as the student's own data
(:class:`OwnDataSpec`) and what it gets (:class:`OwnData`).

A CSV file (pages/common/own_data_upload.py) or points drawn on a chart
(pages/common/own_data_drawing.py), shared by /train, /kernels and /multiclass through
pages/common/own_data_source.py. Pages of two classes label them -1/+1; a page of k
classes labels them 0..k-1. Session keys start with the page's prefix, so each page
keeps its own data; drawn points live in the link (points=x,y,label;...).

    OWN = OwnDataSpec(prefix="kernels_", max_rows=400)           # two classes
    restore_drawn_points(OWN, link_values)     # once per session, from points=
    data = own_data(OWN, "upload")             # OwnData, or None (a message says why)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from perceptron_core.viz import multiclass as _multiclass_viz

#: the labels of a page of two classes, in the order the class picker offers them
BINARY_LABELS = (1, -1)


@dataclass(frozen=True)
class OwnDataSpec:
    """What a page accepts as the student's own data.

    ``prefix`` starts every session key ("" on /train, whose keys came first);
    ``class_labels`` the labels a point may have, (1, -1) or (0, ..., k-1);
    ``min_classes`` the fewest classes (1 on /train, 2 elsewhere); ``max_rows`` the
    most rows of a file and ``max_points`` the most drawn points (a link carries them);
    ``share_hint`` how to share uploaded data (links do not carry files).
    """

    prefix: str
    class_labels: tuple = BINARY_LABELS
    min_classes: int = 2
    max_rows: int = 20_000
    max_points: int = 2_000
    share_hint: str = "Links do not carry uploaded files: share the file itself."

    @property
    def binary(self) -> bool:
        return set(self.class_labels) == {-1, 1}

    def key(self, name: str) -> str:
        return f"{self.prefix}{name}"

    def class_name(self, label) -> str:
        """How the class picker and messages write a class: +1, -1 or "2 ◆"."""
        if self.binary:
            return f"{label:+d}"
        glyphs = _multiclass_viz.CLASS_GLYPHS
        return f"{label} {glyphs[label]}" if 0 <= label < len(glyphs) else str(label)


@dataclass(frozen=True)
class OwnData:
    """The student's data: X (n, 2), labels y (n,) from the spec's class_labels, and a
    label for titles and exports ("uploaded data.csv", "12 drawn points"; user text)."""

    X: np.ndarray
    y: np.ndarray
    label: str
