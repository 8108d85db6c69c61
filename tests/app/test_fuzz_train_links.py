"""Fuzz /train's links through AppTest, and the issue's crash links and uploads (issue 8).

Each case opens /train with a few query parameters drawn from the same pool of hostile
values as tests/app/test_fuzz_links.py. Every case: no exception element, no "could not be
drawn" fallback, the player is sent, and one warning names each ignored value (cut)
and none of the accepted ones. Seeded (derandomized).
"""

from __future__ import annotations

import math
import re

from app_helpers import (
    assert_link_warning_names,
    fallback_messages,
    link_warning,
    link_warnings,
    open_page,
    player_payload,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_fuzz_links import HOSTILE

PAGE = "pages/train.py"
#: key -> values the page accepts as given
ACCEPTED = {
    "source": ["generated", "draw"],
    "n": ["2", "60", "2000"],
    "margin": ["0.01", "0.5", "0.2"],
    "data_seed": ["0", "1000000"],
    "through_origin": ["true", "false"],
    "balance": ["0.1", "0.9"],
    "noise": ["0.0", "0.2"],
    "show_planted": ["false"],
    "bias": ["false", "true"],
    "delta": ["0.5", "10.0"],
    "order": ["permuted", "max_distance"],
    "init": ["random", "zero"],
    "order_seed": ["3"],
    "speed": ["fast", "slow"],
}


def in_range(key: str, value: str) -> bool:
    """A number written in plain ASCII decimal inside the widget's range (whole where the
    widget counts) is a value the page may take as given."""
    if key not in RANGES or not NUMBER.fullmatch(value.strip()):
        return False
    if key in WHOLE and not re.fullmatch(r"[+-]?[0-9]+", value.strip()):
        return False
    number = float(value)
    return math.isfinite(number) and RANGES[key][0] <= number <= RANGES[key][1]


NUMBER = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
WHOLE = ("n", "data_seed", "order_seed")
#: numeric keys -> the widget's range
RANGES = {
    "n": (2, 2000),
    "margin": (0.01, 0.5),
    "data_seed": (0, 1_000_000),
    "balance": (0.1, 0.9),
    "noise": (0.0, 0.4),
    "delta": (0.0, 10.0),
    "order_seed": (0, 1_000_000),
}


def player_sent(at) -> bool:
    return player_payload(at, "train", required=False) is not None


def test_fuzzed_links_never_crash_and_name_every_ignored_value():
    @settings(
        max_examples=16,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(
        params=st.lists(
            st.sampled_from(sorted(ACCEPTED)), min_size=1, max_size=4, unique=True
        ).flatmap(
            lambda keys: st.fixed_dictionaries(
                {key: st.sampled_from(ACCEPTED[key] + HOSTILE) for key in keys}
            )
        )
    )
    def case(params):
        at = open_page(PAGE, params)  # no exception
        assert not fallback_messages(at)
        if params.get("source") != "draw":
            assert player_sent(at), params
        bad = {
            key
            for key, value in params.items()
            if value not in ACCEPTED[key] and not in_range(key, value)
        }
        assert_link_warning_names(at, params, bad, longest=700)

    case()


def test_the_issues_crash_links_show_a_message_and_the_player():
    for params in (
        {"n": "inf"},
        {"data_seed": "-1e309"},
        {"order_seed": "inf"},
        {"n": "9" * 400},
        {"step": "²"},
        {"step": "①"},
    ):
        at = open_page(PAGE, params)  # no exception
        assert player_sent(at), params
        text = " ".join(w.value for w in at.warning)
        key = next(iter(params))
        assert f"{key}=" in text, (params, text)


def test_a_fraction_for_a_whole_number_says_what_was_used():
    at = open_page(PAGE, {"n": "60.7"})
    text = link_warning(at)
    assert "n=60.7 (not a whole number; used the default 40)" in text
    assert at.number_input(key="n").value == 40


def test_bad_values_are_named_even_when_the_page_stops_early():
    at = open_page(PAGE, {"source": "upload", "order": "zigzag", "n": "99999", "speed": "warp"})
    assert not at.exception
    text = " ".join(link_warnings(at))
    for shown in ("order=zigzag", "n=99999", "speed=warp"):
        assert shown in text


def test_points_out_of_scale_or_too_many_are_ignored_and_named():
    for points in ("1e100,0,1;0,1e-60,-1", ";".join(["0.1,0.1,1"] * 2_500)):
        at = open_page(PAGE, {"source": "draw", "points": points})
        assert not at.exception
        assert at.session_state.drawn_points == []
        assert any("points value could not be read" in w.value for w in at.warning)


def test_markdown_in_a_link_value_is_shown_as_text():
    at = open_page(PAGE, {"order": "**bold** :red[x] $x^2$"})
    text = link_warning(at)
    assert "`order=**bold** :red[x] $x^2$" in text  # inside code: shown literally


def test_the_run_still_matches_the_core_after_cleaning():
    at = open_page(PAGE, {"n": "inf", "margin": "0.2"})
    sent = player_payload(at, "train")
    assert len(sent["y"]) == 40  # n fell back to its default, the margin was kept
    assert at.slider(key="margin").value == 0.2
