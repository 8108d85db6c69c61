"""No function of the player's scripts over 60 lines (scripts/code_stats.py measures it;
ruff's complexity and statement rules in pyproject.toml check the Python), and every script
of the player is joined into it (pages/player/player_component.py lists them). Files are
split by what they do, not by a line count: there is no cap on a file's length."""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
import code_stats  # noqa: E402

from pages.player.player_component import PLAYER_SCRIPTS, scene_scripts  # noqa: E402

#: the scenes the pages mount: player("<scene>", ...)
SCENES = sorted(
    {
        name
        for page in (ROOT / "pages").glob("*.py")
        for name in re.findall(r'\bplayer\(\s*"(\w+)"', page.read_text())
    }
)


def test_no_script_function_is_over_60_lines():
    long_ones = []
    for path in (ROOT / "pages" / "player").glob("*.js"):
        long_ones += [
            (path.name, name, length)
            for name, _, length in code_stats.script_function_lengths(path)
            if length > 60
        ]
    assert long_ones == []


def test_the_script_measure_finds_every_top_level_function():
    """script_function_lengths relies on the house style: `function name(` at the start
    of a line, closed by a line that is `}`; a count of the declarations checks it."""
    for path in (ROOT / "pages" / "player").glob("*.js"):
        text = path.read_text()
        found = code_stats.script_function_lengths(path)
        assert len(found) == len(re.findall(r"^function \w+\(", text, flags=re.M)), path.name
        assert all(length >= 3 for _, _, length in found), path.name


def test_every_script_of_pages_is_joined_into_a_player_and_every_one_joined_exists():
    assert SCENES == ["generalisation", "kernels", "relaxation", "train"]
    joined = {name for scene in SCENES for name in scene_scripts(scene)}
    assert joined == {p.name for p in (ROOT / "pages" / "player").glob("*.js")}
    for scene in SCENES:
        assert scene_scripts(scene)[: len(PLAYER_SCRIPTS)] == PLAYER_SCRIPTS
        assert scene_scripts(scene)[len(PLAYER_SCRIPTS)] == f"{scene}_scene.js"
