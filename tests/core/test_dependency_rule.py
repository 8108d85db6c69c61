"""Architecture rule for perceptron_core (static AST scan + an import check).

The package docstring says what the package is; these tests hold it to that:

* the computation, perceptron_core/** except perceptron_core/viz/, imports only
  numpy, the standard library and perceptron_core itself;
* its pictures, perceptron_core/viz/**, may import plotly as well, and nothing else;
* nothing under perceptron_core imports streamlit;
* the computation does not import perceptron_core.viz (keeps plotly out of it);
* ``import perceptron_core`` loads neither streamlit nor plotly;
* the docstring's notation table is ``theory.NOTATION`` (what the Notation panel shows).
"""

from __future__ import annotations

import ast
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import perceptron_core
from perceptron_core.theory import NOTATION

REPO_ROOT = Path(__file__).resolve().parents[2]
PKG = "perceptron_core"
PKG_DIR = REPO_ROOT / PKG
VIZ_DIR = PKG_DIR / "viz"

STDLIB = frozenset(sys.stdlib_module_names)
CORE_ALLOWED = STDLIB | {"numpy", PKG}
VIZ_ALLOWED = CORE_ALLOWED | {"plotly"}


@dataclass(frozen=True)
class Imp:
    file: Path
    line: int
    module: str  # fully qualified (relative imports resolved)

    @property
    def top(self) -> str:
        return self.module.split(".")[0]

    def __str__(self) -> str:
        return f"{self.file.relative_to(REPO_ROOT)}:{self.line}: imports {self.module!r}"


def _py_files() -> list[Path]:
    return sorted(p for p in PKG_DIR.rglob("*.py") if "__pycache__" not in p.parts)


def _is_viz(path: Path) -> bool:
    return VIZ_DIR == path.parent or VIZ_DIR in path.parents


def _module_package(path: Path) -> list[str]:
    """Dotted package (as parts) containing the module at ``path``."""
    return list(path.relative_to(REPO_ROOT).parent.parts)


def _imports(path: Path) -> list[Imp]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    out: list[Imp] = []
    pkg_parts = _module_package(path)
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.extend(Imp(path, node.lineno, a.name) for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0:
                base = node.module or ""
            else:
                keep = len(pkg_parts) - (node.level - 1)
                assert keep >= 1, f"{path}:{node.lineno}: relative import escapes the package"
                base = ".".join(pkg_parts[:keep] + ([node.module] if node.module else []))
            out.append(Imp(path, node.lineno, base))
            # `from pkg import submodule` may import submodules
            out.extend(
                Imp(path, node.lineno, f"{base}.{a.name}") for a in node.names if a.name != "*"
            )
        elif isinstance(node, ast.Call):
            # importlib.import_module("x") / __import__("x") with a literal name
            f = node.func
            name = f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", None)
            if (
                name in {"import_module", "__import__"}
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)
                and not node.args[0].value.startswith(".")
            ):
                out.append(Imp(path, node.lineno, node.args[0].value))
    return out


def test_package_has_python_files() -> None:
    files = _py_files()
    assert (PKG_DIR / "__init__.py").is_file(), f"{PKG}/__init__.py is missing"
    assert files, f"no .py files under {PKG_DIR} - the dependency rule would pass vacuously"


def test_core_and_viz_import_only_allowed_modules() -> None:
    files = _py_files()
    assert files, f"no .py files under {PKG_DIR}"
    bad: list[str] = []
    for f in files:
        allowed = VIZ_ALLOWED if _is_viz(f) else CORE_ALLOWED
        for imp in _imports(f):
            if imp.top and imp.top not in allowed:
                where = "viz" if _is_viz(f) else "core"
                bad.append(f"{imp}  (not allowed in {where}: {sorted(allowed - STDLIB)} + stdlib)")
    assert not bad, "dependency rule violated:\n" + "\n".join(sorted(set(bad)))


def test_nothing_in_perceptron_core_imports_streamlit() -> None:
    files = _py_files()
    assert files, f"no .py files under {PKG_DIR}"
    bad = [str(i) for f in files for i in _imports(f) if i.top == "streamlit"]
    assert not bad, "perceptron_core must not import streamlit:\n" + "\n".join(bad)


def test_core_does_not_import_viz() -> None:
    files = [f for f in _py_files() if not _is_viz(f)]
    assert files, f"no core .py files under {PKG_DIR}"
    viz = f"{PKG}.viz"
    bad = [
        str(i)
        for f in files
        for i in _imports(f)
        if i.module == viz or i.module.startswith(viz + ".")
    ]
    assert not bad, "core modules must not import perceptron_core.viz:\n" + "\n".join(bad)


def test_import_perceptron_core_loads_no_ui_libraries() -> None:
    assert (PKG_DIR / "__init__.py").is_file(), f"{PKG}/__init__.py is missing"
    code = (
        "import perceptron_core, sys; "
        "bad = sorted(m for m in ('streamlit', 'plotly') if m in sys.modules); "
        "assert not bad, bad"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, (
        "`import perceptron_core` must not import streamlit or plotly:\n" + proc.stderr
    )


def test_the_docstring_says_what_the_rule_enforces() -> None:
    doc = " ".join(perceptron_core.__doc__.split())
    assert "NumPy only" in doc and "Plotly only" in doc, doc[:300]
    assert sorted(VIZ_ALLOWED - CORE_ALLOWED) == ["plotly"]  # the pictures add Plotly, no more
    assert sorted(CORE_ALLOWED - STDLIB) == ["numpy", PKG]


def docstring_table(doc: str, title: str = "Notation") -> dict[str, str]:
    """An RST simple table (two columns) after the section ``title``, as symbol -> text."""
    lines = doc[doc.index(f"\n{title}\n") :].splitlines()
    rules = [i for i, line in enumerate(lines) if line.startswith("=") and set(line) <= {"=", " "}]
    assert len(rules) >= 3, f"no table under {title!r}"
    split = lines[rules[0]].index(" ")  # the first column ends where its rule ends
    table: dict[str, list[str]] = {}
    symbol = None
    for line in lines[rules[1] + 1 : rules[2]]:
        if line[:split].strip():
            symbol = line[:split].strip()
            table[symbol] = []
        assert symbol is not None, line
        table[symbol].append(line[split:].strip())
    return {name: " ".join(parts) for name, parts in table.items()}


def test_the_docstring_notation_table_is_the_notation_panel() -> None:
    in_docstring = docstring_table(perceptron_core.__doc__)
    panel = {symbol: " ".join(text.split()) for symbol, text in NOTATION.items()}
    assert list(in_docstring) == list(panel), "symbols differ or are in another order"
    for symbol, text in panel.items():
        assert in_docstring[symbol] == text, (symbol, in_docstring[symbol], text)
