"""/kernels steps up to n = 2 000 generated points (issue #21, item 5): the run, the
player and the margin in feature space on all of them, and a link over the limit refused
with a message."""

import numpy as np
import pytest
from app_helpers import open_page, player_payload

from perceptron_core import kernel_perceptron


@pytest.mark.parametrize("dataset", ["circles", "xor", "blobs"])
def test_n_2000_steps_every_point_with_its_bound(dataset):
    at = open_page("pages/kernels.py", {"data": dataset, "n": "2000", "data_seed": "3"})
    assert not at.exception
    payload = player_payload(at, "kernels")
    X, y = np.asarray(payload["X"]), np.asarray(payload["y"])
    assert X.shape == (2000, 2) and y.shape == (2000,)
    # the updates shown are the core's run on these 2 000 points (RBF, κ = 2, the default)
    trace = kernel_perceptron(
        X, y, kernel="rbf", scale=2.0, bias=True, max_updates=2000, max_epochs=500
    )
    assert payload["updates"]["indices"] == [int(i) for i in trace.update_indices]
    # separable data: the margin in feature space is computed at this size, so a bound
    # is shown and no "took longer" message
    assert payload["bound"] is not None
    assert not any("no bound is shown" in i.value for i in at.info)


def test_n_over_the_largest_is_refused_with_a_message():
    at = open_page("pages/kernels.py", {"n": "2010"})
    assert not at.exception
    assert len(player_payload(at, "kernels")["y"]) == 100  # the default kept
    assert any("n=2010 (outside 10 to 2000" in w.value for w in at.warning)
