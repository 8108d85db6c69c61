"""Lines per file in pages/ and every function over 60 lines, not counting its docstring.

Run from anywhere: ``python scripts/code_stats.py [--limit 60]``. Python functions are
found with ``ast`` in pages/ and perceptron_core/; a function's length runs from its
``def`` line to its last line, decorators left out, minus the lines of its docstring
(a nested function counts in its parent's length and is also listed on its own).
The player's JavaScript (pages/player/*.js) is written with every top-level function starting
``function name(`` at the start of a line and ending at the next line that is ``}``:
such a function's length runs from one to the other.
"""

from __future__ import annotations

import argparse
import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAGE_FOLDER = ROOT / "pages"
CODE_FOLDERS = (ROOT / "pages", ROOT / "perceptron_core")


def line_count(path: Path) -> int:
    """Physical lines of a text file."""
    return len(path.read_text(encoding="utf-8").splitlines())


def docstring_lines(node: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    """How many lines the function's docstring takes (0 without one)."""
    first = node.body[0] if node.body else None
    if (
        isinstance(first, ast.Expr)
        and isinstance(first.value, ast.Constant)
        and isinstance(first.value.value, str)
    ):
        return first.end_lineno - first.lineno + 1
    return 0


def function_lengths(path: Path) -> list[tuple[str, int, int]]:
    """(qualified name, first line, length without docstring) of every function in a file."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = []

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                name = f"{prefix}{child.name}"
                length = child.end_lineno - child.lineno + 1 - docstring_lines(child)
                found.append((name, child.lineno, length))
                visit(child, f"{name}.")
            elif isinstance(child, ast.ClassDef):
                visit(child, f"{prefix}{child.name}.")
            else:
                visit(child, prefix)

    visit(tree, "")
    return found


def script_function_lengths(path: Path) -> list[tuple[str, int, int]]:
    """(name, first line, length) of every top-level function of a JavaScript file."""
    found, start, name = [], None, ""
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if line.startswith("function ") or line.startswith("export default function"):
            start, name = number, line.split("(")[0].removeprefix("function ").strip()
        elif line == "}" and start is not None:
            found.append((name, start, number - start + 1))
            start = None
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--limit",
        type=int,
        default=60,
        help="list functions longer than this many lines (default 60)",
    )
    limit = parser.parse_args().limit

    print("Lines per file in pages/")
    for path in sorted(
        p for p in PAGE_FOLDER.rglob("*") if p.is_file() and p.suffix in (".py", ".js", ".css")
    ):
        print(f"  {line_count(path):5d}  {path.relative_to(ROOT)}")

    print(f"\nFunctions over {limit} lines (docstring not counted)")
    long_ones = []
    for folder in CODE_FOLDERS:
        for path in sorted(folder.rglob("*.py")):
            for name, first_line, length in function_lengths(path):
                if length > limit:
                    long_ones.append((length, f"{path.relative_to(ROOT)}:{first_line}", name))
    for path in sorted((PAGE_FOLDER / "player").glob("*.js")):
        for name, first_line, length in script_function_lengths(path):
            if length > limit:
                long_ones.append((length, f"{path.relative_to(ROOT)}:{first_line}", name))
    for length, where, name in sorted(long_ones, reverse=True):
        print(f"  {length:5d}  {where}  {name}")
    if not long_ones:
        print("  none")


if __name__ == "__main__":
    main()
