"""User and link text in messages: cut to a readable length, and shown as written.

A link value, a file name or a core message may hold Markdown, colour (``:red[...]``) or
KaTeX (``$...$``): these helpers show it as text, never as formatting.
"""

from __future__ import annotations

import re

#: longest link value shown in a message (longer ones are cut with "...")
SHOWN_CHARS = 40


def shown_value(value, limit: int = SHOWN_CHARS) -> str:
    """A value as a message shows it: at most ``limit`` characters, then "..."."""
    text = str(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def as_code(text: str) -> str:
    """Inline code for Markdown, so user text is shown as text (no bold, colour, KaTeX)."""
    text = text.replace("\n", " ").replace("\r", " ")
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") or not text.strip() else ""
    return f"{fence}{pad}{text}{pad}{fence}"


_MARKDOWN_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|~<>$:])")


def plain_text(text: str) -> str:
    """User or core text inside Markdown, shown as written: every Markdown, colour
    (``:red[...]``) and KaTeX (``$...$``) character escaped."""
    return _MARKDOWN_SPECIAL.sub(r"\\\1", str(text).replace("\n", " "))
