"""The in-browser scripts as sent: without their comment lines and indentation.

The player's and the charts' JavaScript is read from commented, indented files and sent
inline with each component. A first visit pays for every byte of it, so what only a
reader of the source needs (whole-line ``//`` comments, leading spaces) is left out.
None of these scripts has a string or template literal spanning lines, so dropping a
line's indentation or a comment line changes nothing the browser runs.
"""

from __future__ import annotations


def compact_script(script: str) -> str:
    """``script`` without whole-line ``//`` comments, blank lines and indentation."""
    lines = (line.strip() for line in script.splitlines())
    return "\n".join(line for line in lines if line and not line.startswith("//"))
