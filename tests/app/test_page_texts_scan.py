"""Every text a page shows, at its defaults and at the settings that could make a sentence
false, holds no unfilled ``{NAME}`` and no inequality that is false as printed.

Each page runs through AppTest with its link (tests/page_text_checks.py reads every text it
sends: Markdown, captions, alerts, widgets' labels, options and help, metrics, tables,
the figures' titles, axis titles, annotations and hover texts, the player's payload, the
quizzes); the parts drawn only once opened are open. The settings: the defaults, and per
page the edges of its link (n = 1 and 2, tiny margins, δ with three decimals, noise that
flips nothing, tolerance 0, η = 2, XOR with a linear kernel, one class, ...).

The player writes some texts in JavaScript (pages/player/*.js) as it steps: the browser
test at the end steps /train's player and checks its texts and its live region the same
way.
"""

from __future__ import annotations

from decimal import Decimal

import pytest
from app_helpers import open_page
from browser_helpers import new_page, open_player, wait_for_player
from page_text_checks import false_inequalities, inequalities, page_texts, placeholders

#: (page, link) pairs: every page at its defaults, then its edge settings
CASES = [
    ("pages/home.py", {}),
    ("pages/train.py", {}),
    ("pages/train.py", {"n": "1"}),  # out of range: the page says so and uses its default
    ("pages/train.py", {"n": "2", "margin": "0.01"}),
    ("pages/train.py", {"n": "2", "bias": "false", "through_origin": "true"}),
    ("pages/train.py", {"delta": "0.005"}),
    ("pages/train.py", {"delta": "0.004"}),
    ("pages/train.py", {"delta": "0.005", "init": "random", "order": "max_distance"}),
    ("pages/train.py", {"noise": "0.01", "n": "20"}),  # noise that flips nothing
    ("pages/train.py", {"noise": "0.4", "order": "permuted"}),
    ("pages/train.py", {"balance": "0.9", "margin": "0.5", "n": "3"}),
    ("pages/train.py", {"source": "draw", "points": "0.5,0.5,1"}),  # one point, one class
    ("pages/train.py", {"source": "draw", "points": "0,0,1;0.5,0.5,-1"}),  # a point at 0
    ("pages/bound.py", {}),
    ("pages/bound.py", {"bound_bias": "false", "bound_n": "2", "bound_dim": "1"}),
    (
        "pages/bound.py",
        {
            "bound_tab": ":material/straighten: n and d",
            "bound_n_values": "2, 3",
            "bound_d_values": "1, 2",
            "bound_size_margin": "0.005",
        },
    ),
    ("pages/aggressive.py", {}),
    ("pages/aggressive.py", {"aggressive_T": "10^2 = 100", "always_wrong_T": "5"}),
    ("pages/adversary.py", {}),
    ("pages/adversary.py", {"adv_gamma": "1", "adv_dim": "1"}),  # n = 1
    (
        "pages/adversary.py",
        {
            "adv_gamma": "0.7",
            "adv_dim": "3",
            "adv_learner": "Perceptron (Algorithm 1.16, through the origin)",
        },
    ),
    ("pages/adversary.py", {"adv_gamma": "0.01", "adv_dim": "2", "adv_moves": "+-"}),
    ("pages/kernels.py", {}),
    ("pages/kernels.py", {"data": "xor", "kernel": "linear"}),
    ("pages/kernels.py", {"data": "xor", "kernel": "poly", "degree": "1", "n": "10"}),
    (
        "pages/kernels.py",
        {"data": "blobs", "kernel": "rbf", "scale": "0.05", "bias": "false", "noise": "0.01"},
    ),
    (
        "pages/kernels.py",
        {
            "data": "circles",
            "noise": "0.3",
            "kernel": "rbf",
            "scale": "50",
            "lift": "product",
            "bits_a": "000",
            "bits_b": "111",
            "conj_kind": "disjunction",
            "conj_size": "6",
            "conj_bits": "6",
            "conj_m": "20",
        },
    ),
    ("pages/kernels.py", {"data": "draw", "points": "0.5,0.5,1"}),  # one class
    ("pages/multiclass.py", {}),
    ("pages/multiclass.py", {"k": "3", "n": "6", "spread": "0.6", "max_epochs": "1"}),
    ("pages/multiclass.py", {"layout": "one class in the middle", "k": "6", "spread": "0.02"}),
    ("pages/multiclass.py", {"source": "draw", "points": "0,0,0;0.5,0.5,1"}),
    ("pages/relaxation.py", {}),
    ("pages/relaxation.py", {"eta": "2", "tol": "0"}),
    ("pages/relaxation.py", {"eta": "0.05", "rule": "chaotic", "tau": "1", "max_iter": "10"}),
    (
        "pages/relaxation.py",
        {
            "system": "thin sliver",
            "tol": "0",
            "w0_1": "10",
            "w0_2": "-10",
            "p_n": "2",
            "p_delta": "0",
            "p_margin": "0.02",
        },
    ),
    ("pages/relaxation.py", {"system": "infeasible", "eta": "2", "rule": "max_residual"}),
    ("pages/generalisation.py", {}),
    (
        "pages/generalisation.py",
        {
            "n": "2",
            "margin": "0.9",
            "curve_n": "1, 2",
            "repeats": "10",
            "stab_n": "5",
            "heldout": "4",
            "eta": "100",
        },
    ),
    (  # SGD refused at this η and γ: its message's numbers are scanned
        "pages/generalisation.py",
        {"margin": "0.05", "curve_dim": "3", "curve_n": "2, 5", "repeats": "10", "eta": "0.01"},
    ),
    ("pages/generalisation.py", {"margin": "0.15", "eta": "0.01"}),  # the smallest η, run
]

#: per page: symbol -> the link setting whose value it stands for in an inequality (a
#: rounded δ in "0.000 ≤ δ = 0.01" says δ is 0.01)
SETTINGS_NAMED = {
    "pages/train.py": {"δ": ("delta", "0")},
    "pages/relaxation.py": {"η": ("eta", "1")},
    "pages/generalisation.py": {"η": ("eta", "0.1")},
}


def known_values(page: str, query: dict) -> dict[str, Decimal]:
    """Symbol -> its true value, for the settings this page names in inequalities."""
    return {
        symbol: Decimal(query.get(key, default))
        for symbol, (key, default) in SETTINGS_NAMED.get(page, {}).items()
    }


def case_id(case) -> str:
    page, query = case
    name = page.removeprefix("pages/").removesuffix(".py")
    return name + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


def problems(texts: list[str], known: dict) -> list[str]:
    found = []
    for text in texts:
        found += [f"unfilled {field} in {text[:200]!r}" for field in placeholders(text)]
        found += false_inequalities(text, known)
    return sorted(set(found))


@pytest.mark.parametrize("case", CASES, ids=[case_id(case) for case in CASES])
def test_no_placeholder_and_no_false_inequality_in_any_text(case):
    page, query = case
    at = open_page(page, query)
    texts = page_texts(at)
    assert len(texts) > 20, "the page sent almost no text: the reader missed it"
    found = problems(texts, known_values(page, query))
    assert not found, "\n".join(found)


def test_the_reader_reaches_alerts_and_the_checks_read_their_inequalities():
    """/bound's check says "the largest ratio updates / bound is 0.xyz ≤ 1" in an alert:
    the texts read include it, and it is read as an inequality between two numbers."""
    said = [
        text for text in page_texts(open_page("pages/bound.py")) if "updates / bound is" in text
    ]
    assert said and all(
        any(op == "≤" and b == 1 for _, _, op, b, _, _ in inequalities(text)) for text in said
    ), said


# ---------------------------------------------------------------------------
# The player's texts, written in JavaScript as it steps
# ---------------------------------------------------------------------------

#: what the player says as it steps: its whole text, the live region included
PLAYER_TEXT_JS = """(root) => root.textContent"""


#: (page, link, symbol -> its true value): the players stepped in the browser
PLAYER_CASES = [
    ("train", "delta=0&n=20", {"δ": "0"}),
    ("train", "delta=0.005&n=20", {"δ": "0.005"}),
    ("train", "delta=0.004&n=20", {"δ": "0.004"}),
    ("train", "delta=0.25&n=20&init=random", {"δ": "0.25"}),
    ("kernels", "n=20", {}),
    ("kernels", "data=xor&kernel=linear&n=20", {}),
    ("relaxation", "", {}),
    ("relaxation", "eta=2&tol=0&system=thin+sliver", {}),
    ("generalisation", "n=20", {}),
]


@pytest.mark.parametrize(
    "page, query, known", PLAYER_CASES, ids=[f"{page}?{query}" for page, query, _ in PLAYER_CASES]
)
def test_the_players_texts_hold_as_they_step(browser, streamlit_server, page, query, known):
    """A player stepped example by example (40 steps at most): every text it shows (the
    step's sentence, the panel, the live region) holds no false inequality and names each
    setting by its value."""
    known = {symbol: Decimal(value) for symbol, value in known.items()}
    found: list[str] = []
    symbols: set = set()  # the symbols written before "=" in the inequalities read
    read = 0  # inequalities read: the check is not idle
    with new_page(browser, 1280, 900) as tab:
        player = open_player(tab, f"{streamlit_server}/{page}?{query}")
        root = player.element_handle()
        next_example = player.locator("[data-action=next_example]")
        for step in range(1, 41):
            if next_example.is_disabled():  # the run has ended
                break
            next_example.click()
            wait_for_player(player, step=step)
            tab.wait_for_timeout(30)  # the live region is written just after the move
            text = root.evaluate(PLAYER_TEXT_JS)
            for _, _, _, _, left, right in inequalities(text):
                read += 1
                symbols |= {left, right}
            found += [f"step {step}: {problem}" for problem in false_inequalities(text, known)]
            found += [f"step {step}: unfilled {field}" for field in placeholders(text)]
    assert step > 1, "the player did not step"
    assert read and set(known) <= symbols, (read, symbols)  # what the check reads is there
    assert not found, "\n".join(list(dict.fromkeys(found))[:12])


# ---------------------------------------------------------------------------
# The checks themselves catch what they are for
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, fields",
    [
        ("within {HULL_TOLERANCE_TEXT}). Then", ["{HULL_TOLERANCE_TEXT}"]),
        ("after {n} updates", ["{n}"]),
        (r"$\mathbf{x}_{t}$ and $x^{2}$, $\frac{a}{b}$, $\text{otherwise}$", []),
        ("%{x:.3g} and %{y}", []),
        ("labels y ∈ {−1, +1}", []),
    ],
)
def test_the_placeholder_check_tells_a_field_from_latex(text, fields):
    assert placeholders(text) == fields


@pytest.mark.parametrize(
    "text, false",
    [
        ("y(w·x + b) = 0.000 > δ = 0: correct", True),
        ("y(w·x + b) = 0.007 > δ = 0.01: correct", True),
        ("0.1 ≤ 0.05", True),
        ("the ratio 1.2 ≤ 1", True),
        ("0 < 1 < 0.5", True),
        (r"$0.3 \le 0.2$", True),
        ("0.000 ≤ δ = 0.01", False),
        ("largest ratio updates / bound is 0.912 ≤ 1.", False),
        ("2·0.5 ≤ 0.9", False),  # a product on the left: not read
        ("aᵢ·w − cᵢ = 0.500 > 0: violated", False),
        ("aᵢ·w − cᵢ = 0.000 > 0: violated", True),
        ("0.9 ≥ 0.5·4", False),  # a product on the right: not read
        ("0.3 ≤ γ", False),
        ("10⁻¹² ≤ 0.5", False),
        ("1,000 ≤ 2,000 and 3 < 4", False),
        ("−0.5 < 0", False),
        ("<td>0.3</td><td>0.1</td>", False),
    ],
)
def test_the_inequality_check_reads_printed_numbers(text, false):
    from page_text_checks import readable

    assert bool(false_inequalities(readable(text))) == false


def test_a_rounded_setting_in_an_inequality_is_caught_when_its_value_is_known():
    known = {"δ": Decimal("0.005")}
    assert false_inequalities("y(w·x + b) = 0.000 ≤ δ = 0.01: a mistake", known)
    assert not false_inequalities("y(w·x + b) = 0.000 ≤ δ = 0.005: a mistake", known)
    assert false_inequalities("y(w·x + b) = 0.000 ≤ δ = 0", {"δ": Decimal("0.004")})
