"""Reading and writing data: uploaded CSV files in, datasets and runs out.

* :func:`parse_labelled_csv` reads an uploaded CSV file (numeric feature
  columns plus one label column of two classes) into a :class:`LoadedData`;
  :func:`parse_class_csv` reads one with k classes into a
  :class:`LoadedClasses`. Both go through the same stages (decode, split the
  rows, find the header, read the features, read the labels) and either
  return a complete, checked result or raise ``ValueError`` with a message
  that names the row (the line number a spreadsheet shows) and the column,
  and says what to fix. Nothing is ever half-loaded.
* :func:`dataset_to_csv` writes ``X, y`` as CSV text that
  :func:`parse_labelled_csv` reads back exactly.
* :func:`trace_to_csv` and :func:`trace_to_json` export a perceptron run
  (a :class:`~perceptron_core.perceptron.Trace`) update by update.

Only the standard library (``csv``, ``json``, ``re``) and NumPy are used.
"""

from __future__ import annotations

import csv
import io
import json
import math
import numbers
import re
from dataclasses import dataclass

import numpy as np

from ._checks import (
    MAX_ABS_VALUE,
    MIN_ABS_VALUE,
    RowsOfX,
    check_dataset,
    check_drawable_scale,
    check_number,
    frozen,
)
from .perceptron import Trace

__all__ = [
    "LoadedData",
    "LoadedClasses",
    "parse_labelled_csv",
    "parse_class_csv",
    "dataset_to_csv",
    "trace_to_csv",
    "trace_to_json",
    "check_drawable_scale",
]

#: delimiters parse_labelled_csv recognises, in order of preference when several fit
DELIMITERS = ("\t", ";", ",")
_DELIMITER_NAMES = {",": "comma", ";": "semicolon", "\t": "tab"}
_SNIFF_LINES = 50  # non-blank lines looked at to choose the delimiter

# A number as a CSV file writes it: plain ASCII decimal, optional exponent. (Python's
# float() also takes "1_000" and non-ASCII digits; a data file should not.)
_NUMBER = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
_DECIMAL_COMMA = re.compile(r"[+-]?[0-9]*,[0-9]+(?:[eE][+-]?[0-9]+)?")
_NON_FINITE = re.compile(r"[+-]?(?:nan|inf|infinity)", re.IGNORECASE)
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f]")


@dataclass(frozen=True, kw_only=True)
class _ReadFromCsv(RowsOfX):
    """What a dataset read from a CSV file records about the file (keyword fields)."""

    feature_names: tuple
    has_header: bool
    n_rows: int
    label_name: str = "label"
    delimiter: str = ","


@dataclass(frozen=True)
class LoadedData(_ReadFromCsv):
    """A labelled dataset read from a CSV file.

    Attributes
    ----------
    X : ndarray of shape (n_rows, n_features)
        Feature values, float64, finite, read-only.
    y : ndarray of shape (n_rows,)
        Labels mapped to -1 / +1, int64, read-only; both classes occur (unless
        read with ``min_classes=1``).
    label_mapping : tuple of (str, int) pairs
        How the file's labels were mapped: ``((text, -1), (text, +1))``, the
        -1 class first (one pair for data of one class). ``text`` is the label
        as first written in the file (numeric labels spelt differently, such as
        ``1`` and ``1.0``, are one class).
    feature_names : tuple of str
        Header names of the feature columns, or ``("x1", ..., "xd")`` when the
        file has no header.
    has_header : bool
        Whether the first row was read as a header.
    n_rows : int
        Number of data rows (examples).
    label_name : str
        Header name of the label column (``"label"`` without a header).
    delimiter : str
        The delimiter found: ``","``, ``";"`` or ``"\\t"``.
    """

    X: np.ndarray
    y: np.ndarray
    label_mapping: tuple


@dataclass(frozen=True)
class LoadedClasses(_ReadFromCsv):
    """A dataset of k classes read from a CSV file (:func:`parse_class_csv`).

    Attributes
    ----------
    codes : ndarray of shape (n_rows,)
        Each example's class as its position in ``classes`` (0..k-1), int64,
        read-only.
    classes : tuple of str, length k
        The distinct labels as first written in the file, in sorted order
        (numbers numerically, text alphabetically).
    X, feature_names, has_header, n_rows, label_name, delimiter
        As in :class:`LoadedData`.
    """

    X: np.ndarray
    codes: np.ndarray
    classes: tuple

    @property
    def n_classes(self) -> int:
        """Number of distinct classes k."""
        return len(self.classes)


# ---------------------------------------------------------------------------
# Reading
# ---------------------------------------------------------------------------


def _format_size(n_bytes: int) -> str:
    if n_bytes >= 1024 * 1024:
        return f"{n_bytes / (1024 * 1024):.3g} MB"
    if n_bytes >= 1024:
        return f"{n_bytes / 1024:.3g} KB"
    return f"{n_bytes} bytes"


def _not_text(detail: str) -> ValueError:
    return ValueError(
        f"this is not a text CSV file ({detail}). Upload the data saved as CSV "
        "(UTF-8 text, comma, semicolon or tab separated), not a spreadsheet or other "
        "binary file."
    )


def _looks_utf16(data: bytes) -> bool:
    """A UTF-16 byte order mark, or ASCII text with a NUL byte beside every character."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return True
    head = data[:400]
    if len(head) < 4:
        return False
    even, odd = head[0::2], head[1::2]
    return (odd.count(0) == len(odd) and even.count(0) == 0) or (
        even.count(0) == len(even) and odd.count(0) == 0
    )


def _decode(data, max_bytes: int) -> str:
    """Size check, then bytes -> str; strips a UTF-8 byte order mark."""
    if isinstance(data, (bytearray, memoryview)):
        data = bytes(data)
    if isinstance(data, bytes):
        size = len(data)
    elif isinstance(data, str):
        if len(data) > max_bytes:  # every character takes at least one byte
            size = len(data)
        else:
            try:
                size = len(data.encode("utf-8"))
            except UnicodeEncodeError:
                raise _not_text("it holds characters that are not valid Unicode") from None
    else:
        raise ValueError(
            f"data must be the file's contents as bytes or str, got {type(data).__name__}."
        )
    if size > max_bytes:
        raise ValueError(
            f"the file is {_format_size(size)}{f' ({size} bytes)' if size >= 1024 else ''}, "
            f"over the {_format_size(max_bytes)} limit; "
            "upload a smaller file (fewer rows or columns)."
        )
    if isinstance(data, bytes):
        if _looks_utf16(data):
            raise ValueError(
                "this file is UTF-16 text, which the reader does not take. Save it again as "
                "UTF-8: in Excel or LibreOffice choose 'CSV UTF-8' (Save As / Export), in a "
                "text editor choose the encoding UTF-8, then upload it again."
            )
        if b"\x00" in data:
            raise _not_text("it contains NUL bytes")
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            line = data.count(b"\n", 0, exc.start) + 1
            raise _not_text(
                f"the bytes on row {line} are not UTF-8 text; if a spreadsheet "
                "made it, save it again as 'CSV UTF-8'"
            ) from None
    else:
        text = data[1:] if data.startswith("\ufeff") else data
    bad = _CONTROL.search(text)
    if bad:
        line = text.count("\n", 0, bad.start()) + 1
        raise _not_text(f"row {line} contains the control character U+{ord(bad.group()):04X}")
    if not text.strip():
        raise ValueError(
            "the file is empty; upload a CSV file with feature columns and a "
            "label column, one example per row."
        )
    return text


def _split(line: str, delimiter: str) -> list[str]:
    return next(csv.reader([line], delimiter=delimiter, skipinitialspace=True))


def _choose_delimiter(lines: list[str]) -> str:
    """The delimiter that splits the first non-blank lines into equal rows of >= 2 cells.

    Tab and semicolon win over comma when all fit (so "1,5;2,5;1" is semicolon
    separated with decimal commas); if none fits every line, the one giving
    >= 2 cells on most lines (comma first on ties), so a ragged row is
    reported rather than a single-column file.
    """
    sample = [line for line in lines if line.strip()][:_SNIFF_LINES]
    best, best_lines = ",", -1
    for delimiter in DELIMITERS:
        counts = []
        for line in sample:
            try:
                counts.append(len(_split(line, delimiter)))
            except csv.Error:
                counts.append(1)
        if min(counts) >= 2 and len(set(counts)) == 1:
            return delimiter
        multi = sum(count >= 2 for count in counts)
        if multi > best_lines or (multi == best_lines and delimiter == ","):
            best, best_lines = delimiter, multi
    return best


def _parse_number(text: str, delimiter: str) -> float | None:
    """The number written in ``text`` (nan/inf included), or None if it is not one."""
    if _NUMBER.fullmatch(text):
        return float(text)
    if delimiter != "," and _DECIMAL_COMMA.fullmatch(text):
        return float(text.replace(",", "."))
    if _NON_FINITE.fullmatch(text):
        return float(text)
    return None


def _header_like(cells: list[str], delimiter: str) -> bool:
    """Some cell holds text that is not a number (an empty cell is missing data, not text)."""
    return any(c and _parse_number(c, delimiter) is None for c in cells)


# The stages of reading a file: decode (above), split into rows, find the label
# column and the header, check the table's shape, read the features, read the
# labels; then map the labels to -1/+1 (parse_labelled_csv) or to classes
# 0..k-1 (parse_class_csv).


@dataclass(frozen=True)
class _Table:
    """A CSV file split into cells: every non-blank row with its line number."""

    rows: list  # (1-based line number, stripped cells) of every non-blank row
    delimiter: str
    label_index: int  # 0-based column of the labels
    feature_index: list  # 0-based columns of the features, in file order
    names: list | None  # header cells (empty ones named "column j"), None without a header

    @property
    def data_rows(self) -> list:
        return self.rows[1:] if self.names is not None else self.rows

    def column(self, j: int) -> str:
        """How a message names column j: 'column 2' or "column 2 ('x2')"."""
        return f"column {j + 1}" + (f" ({self.names[j]!r})" if self.names is not None else "")

    def where(self, line: int, j: int) -> str:
        return f"row {line}, {self.column(j)}"


def _split_rows(text: str) -> tuple[str, list]:
    """Choose the delimiter and split every non-blank line into stripped cells."""
    lines = _LINE_BREAK.split(text)
    delimiter = _choose_delimiter(lines)
    rows = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            cells = _split(line, delimiter)
        except csv.Error as exc:
            raise ValueError(
                f"row {number} could not be read as CSV ({exc}); check the quoting on that row."
            ) from None
        rows.append((number, [cell.strip() for cell in cells]))
    return delimiter, rows


def _find_columns(rows: list, label_column: int, delimiter: str) -> _Table:
    """The label column, the feature columns and the header (if row 1 is one)."""
    first_line, first = rows[0]
    n_columns = len(first)
    if n_columns < 2:
        raise ValueError(
            f"row {first_line} has only one column; the file needs at least two columns: "
            "one or more numeric feature columns plus the label column. Separate the "
            "columns with commas, semicolons or tabs."
        )
    if not -n_columns <= label_column < n_columns:
        raise ValueError(
            f"label_column = {label_column} but the file has {n_columns} columns; use an "
            f"index from {-n_columns} to {n_columns - 1} (-1 is the last column)."
        )
    label_index = label_column % n_columns
    feature_index = [j for j in range(n_columns) if j != label_index]
    # row 1 is a header only when a feature cell holds text and no cell of it is a
    # number: a typo in a data row ("0.5x,0.3,1") is then reported, not dropped
    has_header = _header_like([first[j] for j in feature_index], delimiter) and all(
        _parse_number(c, delimiter) is None for c in first
    )
    names = (
        [cell if cell else f"column {j + 1}" for j, cell in enumerate(first)]
        if has_header
        else None
    )
    return _Table(rows, delimiter, label_index, feature_index, names)


def _check_shape(table: _Table, max_rows: int, min_rows: int, needs: str) -> None:
    """Not too many data rows, every row as wide as row 1, at least ``min_rows`` rows."""
    data_rows = table.data_rows
    if len(data_rows) > max_rows:
        raise ValueError(
            f"the file has {len(data_rows)} data rows, over the limit of {max_rows} "
            f"(row {data_rows[max_rows][0]} is data row {max_rows + 1}); upload at most "
            f"{max_rows} rows."
        )
    first_line, first = table.rows[0]
    for line, cells in table.rows:
        if len(cells) != len(first):
            raise ValueError(
                f"row {line} has {len(cells)} columns, expected {len(first)} (as in row "
                f"{first_line}, {_DELIMITER_NAMES[table.delimiter]} separated); give every "
                "row the same cells: the features and the label."
            )
    if len(data_rows) < min_rows:
        if not data_rows:
            found = f"only a header (row {first_line}) and no data rows"
        else:
            found = f"only one data row (row {data_rows[0][0]})"
        raise ValueError(f"the file has {found}; {needs}.")


def _feature_value(table: _Table, line: int, j: int, cell: str, check_scale: bool) -> float:
    """The number in one feature cell, or a ValueError naming the row and column."""
    value = _parse_number(cell, table.delimiter)
    if value is None:
        if not cell:
            raise ValueError(
                f"{table.where(line, j)} is empty; every feature cell needs a "
                "number. Fill it in or delete the row."
            )
        shown = cell if len(cell) <= 40 else cell[:37] + "..."
        header_hint = (
            " Row 1 was read as data because some of its cells are "
            "numbers; a header row has text in every cell."
            if table.names is None and line == table.rows[0][0]
            else ""
        )
        raise ValueError(
            f"{table.where(line, j)} holds {shown!r}, which is not a number; feature "
            "columns must hold numbers such as 1.5 or -2e-3. Fix the cell, or set "
            f"label_column if the labels are in another column.{header_hint}"
        )
    if not math.isfinite(value):
        what = "is too large (infinite)" if _NUMBER.fullmatch(cell) else "is NaN or infinite"
        raise ValueError(
            f"{table.where(line, j)} holds {cell!r}, which {what}; missing or "
            "infinite values are not allowed: fill in a finite number or "
            "delete the row."
        )
    if check_scale and (abs(value) > MAX_ABS_VALUE or 0 < abs(value) < MIN_ABS_VALUE):
        size = "large" if abs(value) > MAX_ABS_VALUE else "small"
        raise ValueError(
            f"{table.where(line, j)} holds {cell[:40]!r}, which is too {size} to compute "
            f"with: feature values must be 0 or between {MIN_ABS_VALUE:g} and "
            f"{MAX_ABS_VALUE:g} in size. Rescale the column (e.g. divide it by a power of ten)."
        )
    return value


def _read_features(table: _Table, check_scale: bool) -> np.ndarray:
    """The feature columns as floats, shape (n_rows, n_features), row by row."""
    data_rows = table.data_rows
    X = np.empty((len(data_rows), len(table.feature_index)), dtype=np.float64)
    for i, (line, cells) in enumerate(data_rows):
        for k, j in enumerate(table.feature_index):
            X[i, k] = _feature_value(table, line, j, cells[j], check_scale)
    return X


@dataclass(frozen=True)
class _Labels:
    """The label column read: one key per row (numbers if every label is one, else
    the texts), the first spelling of each distinct key and the row it first appears on."""

    keys: list
    spelling: dict
    first_row: dict


def _read_labels(table: _Table, one_of: str) -> _Labels:
    """Every row's label; labels that all read as numbers compare as numbers."""
    j = table.label_index
    texts = []
    for line, cells in table.data_rows:
        if not cells[j]:
            raise ValueError(
                f"{table.where(line, j)} is empty; every row needs a label ({one_of})."
            )
        texts.append(cells[j])
    numeric = [_parse_number(t, table.delimiter) for t in texts]
    for (line, _), t, v in zip(table.data_rows, texts, numeric):
        if v is not None and not math.isfinite(v):
            raise ValueError(
                f"{table.where(line, j)} holds the label {t!r}, which is "
                f"NaN or infinite; give every row {one_of} label."
            )
    keys = numeric if all(v is not None for v in numeric) else texts
    spelling: dict = {}  # class key -> first spelling; first row where it appears
    first_row: dict = {}
    for (line, _), key, t in zip(table.data_rows, keys, texts):
        if key not in spelling:
            spelling[key] = t
            first_row[key] = line
    return _Labels(keys, spelling, first_row)


def _shown_labels(labels: _Labels) -> str:
    shown = ", ".join(repr(v) for v in list(labels.spelling.values())[:5])
    return shown + (", ..." if len(labels.spelling) > 5 else "")


def _read_table(
    data, max_bytes, max_rows, label_column, check_scale, min_rows: int, needs: str
) -> tuple[_Table, np.ndarray]:
    """Check the options, then decode, split, find the columns, check the shape and
    read the features: the stages every reader shares."""
    max_bytes = check_number(max_bytes, "max_bytes", low=1, integer=True)
    max_rows = check_number(max_rows, "max_rows", low=1, integer=True)
    if not isinstance(check_scale, bool):
        raise ValueError(f"check_scale must be True or False, got {check_scale!r:.40}.")
    if isinstance(label_column, bool) or not isinstance(label_column, numbers.Integral):
        raise ValueError(
            f"label_column must be a whole number (a column index such as -1 "
            f"for the last column), got {label_column!r}."
        )
    delimiter, rows = _split_rows(_decode(data, max_bytes))
    table = _find_columns(rows, int(label_column), delimiter)
    _check_shape(table, max_rows, min_rows, needs)
    return table, _read_features(table, check_scale)


def _file_facts(table: _Table) -> dict:
    """The fields of :class:`_ReadFromCsv`: the header's names (or x1..xd and "label"),
    whether there was a header, the number of data rows and the delimiter."""
    if table.names is None:
        feature_names = tuple(f"x{k + 1}" for k in range(len(table.feature_index)))
        label_name = "label"
    else:
        feature_names = tuple(table.names[j] for j in table.feature_index)
        label_name = table.names[table.label_index]
    return dict(
        feature_names=feature_names,
        has_header=table.names is not None,
        n_rows=len(table.data_rows),
        label_name=label_name,
        delimiter=table.delimiter,
    )


def _sign_of_only_class(key) -> int:
    """One class: a label that reads as a number <= 0 (-1, 0) is -1, any other +1."""
    return -1 if isinstance(key, float) and key <= 0 else 1


def parse_labelled_csv(
    data,
    *,
    max_bytes=5 * 1024 * 1024,
    max_rows=20_000,
    label_column=-1,
    check_scale=True,
    min_classes=2,
) -> LoadedData:
    """Read an uploaded CSV file of numeric features and a two-class label.

    Parameters
    ----------
    data : bytes or str
        The file's contents. UTF-8 (a byte order mark is allowed); comma,
        semicolon or tab separated (detected); cells may be quoted and padded
        with spaces; blank lines are skipped. With semicolon or tab
        delimiters a decimal comma (``1,5``) is read as a decimal point.
    max_bytes : int, default 5 MB
        Largest file accepted.
    max_rows : int, default 20000
        Most data rows accepted.
    label_column : int, default -1
        Which column holds the labels, as a Python index (0-based; negative
        counts from the end). All other columns are features.
    check_scale : bool, default True
        Refuse feature values the computations cannot represent (see
        :func:`check_drawable_scale`): any |x| above 1e150, any nonzero |x|
        below 1e-150, or a ratio above 1e150 between the largest and the
        smallest nonzero |x|. False reads every finite value (exact round trips
        of :func:`dataset_to_csv`).
    min_classes : {2, 1}, default 2
        1 accepts data of one class (and a single data row), as the core does
        (the slides' one-point quiz).

    Returns
    -------
    LoadedData

    Raises
    ------
    ValueError
        On any problem, with the row (1-based line number in the file) and
        column (1-based, with its header name) and what to do: empty file,
        not text, too big, too many rows, ragged rows, fewer than two columns
        or rows, a non-numeric / empty / NaN / infinite feature cell, a
        missing label, one class only (unless ``min_classes=1``) or more than
        two labels.

    Notes
    -----
    Header: the first row is a header if one of its feature cells holds text
    that is not a number and none of its cells (label included) is a number;
    otherwise it is data, so a typo on row 1 (``0.5x,0.3,1``) is reported
    there instead of silently becoming a header. Empty header cells are named
    ``column j``. UTF-16 files are recognised and refused with how to save
    them as UTF-8.

    Labels: ``-1/+1`` and ``0/1`` map naturally (0 -> -1); any other two
    distinct labels map the first in sorted order to -1 and the other to +1
    (numbers sort numerically, text alphabetically). Labels that all read as
    numbers are compared as numbers, so ``1`` and ``1.0`` are one class. A
    single class (``min_classes=1``) is -1 if its label is a number <= 0, else +1.
    """
    if min_classes not in (1, 2) or isinstance(min_classes, bool):
        raise ValueError(f"min_classes must be 1 or 2, got {min_classes!r:.40}.")
    needs = (
        "the perceptron needs at least one example"
        if min_classes == 1
        else "the perceptron needs at least two examples, at least one of each class"
    )
    table, X = _read_table(data, max_bytes, max_rows, label_column, check_scale, min_classes, needs)
    labels = _read_labels(table, "one of two classes")
    column = table.column(table.label_index)
    if len(labels.spelling) < min_classes:
        (only,) = labels.spelling.values()
        raise ValueError(
            f"every row has the label {only!r} (label {column}); the perceptron "
            "needs two classes: add examples of the other class."
        )
    if len(labels.spelling) > 2:
        third = list(labels.first_row.values())[2]
        raise ValueError(
            f"the label {column} holds {len(labels.spelling)} distinct labels "
            f"({_shown_labels(labels)}); the perceptron needs exactly two classes (the third "
            f"label first appears on row {third}). Keep two classes, or choose the right "
            "label column."
        )
    if check_scale:
        check_drawable_scale(X, "the feature values")  # no overflow, no lost small values
    ordered = sorted(labels.spelling)
    sign = (
        {ordered[0]: _sign_of_only_class(ordered[0])}
        if len(ordered) == 1
        else {ordered[0]: -1, ordered[1]: 1}
    )
    y = np.fromiter((sign[key] for key in labels.keys), dtype=np.int64, count=len(labels.keys))
    return LoadedData(
        X=frozen(X),
        y=frozen(y),
        label_mapping=tuple((labels.spelling[key], sign[key]) for key in ordered),
        **_file_facts(table),
    )


def parse_class_csv(
    data,
    *,
    max_bytes=5 * 1024 * 1024,
    max_rows=20_000,
    label_column=-1,
    check_scale=True,
    min_classes=2,
    max_classes=None,
) -> LoadedClasses:
    """Read an uploaded CSV file of numeric features and a label of k classes.

    The same file format, stages and messages as :func:`parse_labelled_csv`
    (delimiters, header, rows and columns named in every message); only the
    labels differ: any number of distinct labels from ``min_classes`` to
    ``max_classes``, numbered 0..k-1 in sorted order (numbers numerically, text
    alphabetically), as :func:`~perceptron_core.one_vs_all` numbers its classes.

    Parameters
    ----------
    data, max_bytes, max_rows, label_column, check_scale
        As in :func:`parse_labelled_csv`.
    min_classes : int, default 2
        Fewest distinct labels accepted (at least 1).
    max_classes : int or None, default None
        Most distinct labels accepted (None: no limit).

    Returns
    -------
    LoadedClasses

    Raises
    ------
    ValueError
        As :func:`parse_labelled_csv`, and for fewer than ``min_classes`` or more
        than ``max_classes`` distinct labels (naming the row where the first
        label over the limit appears).
    """
    min_classes = check_number(min_classes, "min_classes", low=1, integer=True)
    if max_classes is not None:
        max_classes = check_number(max_classes, "max_classes", low=min_classes, integer=True)
    needs = (
        "it needs at least one example"
        if min_classes == 1
        else "a classifier needs at least two examples, of at least two classes"
    )
    table, X = _read_table(
        data, max_bytes, max_rows, label_column, check_scale, min(2, min_classes), needs
    )
    labels = _read_labels(table, "a class")
    column, count = table.column(table.label_index), len(labels.spelling)
    if count < min_classes:
        found = (
            f"every row has the label {_shown_labels(labels)}"
            if count == 1
            else f"the label {column} holds only {count} distinct labels ({_shown_labels(labels)})"
        )
        raise ValueError(
            f"{found} (label {column}); at least {min_classes} classes are "
            "needed: add examples of another class."
        )
    if max_classes is not None and count > max_classes:
        first_over = list(labels.first_row.values())[max_classes]
        raise ValueError(
            f"the label {column} holds {count} distinct labels ({_shown_labels(labels)}); "
            f"at most {max_classes} classes are allowed (label number {max_classes + 1} "
            f"first appears on row {first_over}). Keep at most {max_classes} classes, or "
            "choose the right label column."
        )
    if check_scale:
        check_drawable_scale(X, "the feature values")
    ordered = sorted(labels.spelling)
    code = {key: k for k, key in enumerate(ordered)}
    codes = np.fromiter((code[key] for key in labels.keys), dtype=np.int64, count=len(labels.keys))
    return LoadedClasses(
        X=frozen(X),
        codes=frozen(codes),
        classes=tuple(labels.spelling[key] for key in ordered),
        **_file_facts(table),
    )


# ---------------------------------------------------------------------------
# Writing
# ---------------------------------------------------------------------------


def _writer(buffer: io.StringIO):
    return csv.writer(buffer, lineterminator="\n")


def _float_cells(values) -> list[str]:
    """repr of each float: the shortest text that reads back to the same float."""
    return [repr(float(v)) for v in values]


def _check_feature_names(feature_names, n_features: int) -> list[str]:
    if feature_names is None:
        return [f"x{k + 1}" for k in range(n_features)]
    if isinstance(feature_names, str):
        raise ValueError("feature_names must be a list of names, one per column, not one string.")
    try:
        names = list(feature_names)
    except TypeError:
        raise ValueError("feature_names must be a list of names, one per column.") from None
    if len(names) != n_features:
        raise ValueError(
            f"feature_names has {len(names)} names but X has {n_features} "
            "columns; give one name per column."
        )
    for k, name in enumerate(names):
        if not isinstance(name, str) or not name.strip():
            raise ValueError(f"feature_names[{k}] = {name!r}: names must be non-empty text.")
        if _LINE_BREAK.search(name) or _CONTROL.search(name):
            raise ValueError(
                f"feature_names[{k}] = {name!r} contains a line break or control "
                "character; use plain one-line text."
            )
        if _parse_number(name.strip(), ",") is not None:
            raise ValueError(
                f"feature_names[{k}] = {name!r} reads as a number, so the header "
                "would be read back as data; use a name with a letter in it."
            )
    return names


def dataset_to_csv(X, y, feature_names=None) -> str:
    """Write a labelled dataset as CSV text that :func:`parse_labelled_csv` reads back exactly.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
        Finite feature values.
    y : ndarray of shape (n_samples,)
        Labels in {-1, +1}.
    feature_names : sequence of str, optional
        Header names of the feature columns (default ``x1, ..., xd``); they
        must not read as numbers.

    Returns
    -------
    str
        Header ``x1,...,xd,label``, then one row per example with the labels
        as ``-1`` / ``1``; floats are written with ``repr`` (shortest exact
        form), so ``parse_labelled_csv(dataset_to_csv(X, y))`` returns the same
        ``X`` and ``y`` bit for bit (when both classes occur, as the reader
        requires).
    """
    X, y = check_dataset(X, y, both_classes=False, copy=False)
    names = _check_feature_names(feature_names, X.shape[1])
    buffer = io.StringIO()
    writer = _writer(buffer)
    writer.writerow(names + ["label"])
    for row, label in zip(X.tolist(), y.tolist()):
        writer.writerow(_float_cells(row) + [str(label)])
    return buffer.getvalue()


def _check_trace(trace, X, y) -> tuple[np.ndarray, np.ndarray]:
    """Check the trace and that ``X, y`` are the data it was run on."""
    if not isinstance(trace, Trace):
        raise ValueError(
            f"trace must be a Trace returned by run_perceptron, got {type(trace).__name__}."
        )
    X, y = check_dataset(X, y, both_classes=False, copy=False)
    n, d = X.shape
    if n != trace.n_samples:
        raise ValueError(
            f"X has {n} rows but the trace was run on {trace.n_samples} examples; "
            "pass the X and y given to run_perceptron."
        )
    if trace.weights.ndim != 2 or d != trace.weights.shape[1]:
        raise ValueError(
            f"X has {d} features but the trace's weights have "
            f"{trace.weights.shape[-1]}; pass the X and y given to run_perceptron."
        )
    for name in ("weights", "biases", "update_scores"):
        if not np.isfinite(getattr(trace, name)).all():
            raise ValueError(
                f"the trace's {name} contain NaN or infinity (the run overflowed); "
                "rescale the features and run again before exporting."
            )
    # every update is w <- w + y_i x_i (and b <- b + y_i with a bias): check the data fits
    if trace.n_updates:
        idx = trace.update_indices
        signed = y[idx, None] * X[idx]
        moved = np.diff(trace.weights, axis=0)
        scale = 1.0 + max(float(np.abs(trace.weights).max()), float(np.abs(X).max()))
        gap = np.abs(moved - signed).max(axis=1)
        bias_step = y[idx] if trace.bias else np.zeros(len(idx))
        gap = np.maximum(gap, np.abs(np.diff(trace.biases) - bias_step))
        wrong = np.flatnonzero(gap > 1e-6 * scale)
        if wrong.size:
            t = int(wrong[0]) + 1
            raise ValueError(
                f"X and y do not match this trace: update {t} (example {int(idx[t - 1])}) "
                "did not move w by y_i x_i for the data given; pass the X and y given to "
                "run_perceptron."
            )
    return X, y


def trace_to_csv(trace, X, y) -> str:
    """One CSV row per update of a perceptron run.

    Parameters
    ----------
    trace : Trace
        From :func:`~perceptron_core.run_perceptron`.
    X, y : ndarrays
        The data the run was trained on (checked against the trace).

    Returns
    -------
    str
        Columns ``t, step, index, x1..xd, y, score, w1..wd, b``: the update
        number t (1-based), the examined step at which it happened (1-based),
        the example's row index in X (0-based), the example and its label,
        its score y (w·x + b) just before the update, and w, b just after it.
        A run without updates gives only the header.
    """
    X, y = _check_trace(trace, X, y)
    d = X.shape[1]
    buffer = io.StringIO()
    writer = _writer(buffer)
    writer.writerow(
        [
            "t",
            "step",
            "index",
            *(f"x{k + 1}" for k in range(d)),
            "y",
            "score",
            *(f"w{k + 1}" for k in range(d)),
            "b",
        ]
    )
    for row in _update_rows(trace, X, y):
        t, step, index, x, label, score, w, b = row
        writer.writerow(
            [t, step, index, *_float_cells(x), label, repr(score), *_float_cells(w), repr(b)]
        )
    return buffer.getvalue()


def _update_rows(trace: Trace, X: np.ndarray, y: np.ndarray):
    """(t, step, index, x, y, score, w after, b after) per update, as Python scalars/lists."""
    idx = trace.update_indices.tolist()
    steps = trace.update_steps.tolist()
    scores = trace.update_scores.tolist()
    weights = trace.weights[1:].tolist()
    biases = trace.biases[1:].tolist()
    for t, (i, step, score, w, b) in enumerate(zip(idx, steps, scores, weights, biases), 1):
        yield (
            t,
            int(step),
            int(i),
            X[i].tolist(),
            int(y[i]),
            float(score),
            [float(v) for v in w],
            float(b),
        )


def _json_value(value):
    """``default`` of json.dumps: NumPy arrays and scalars, and other real numbers (a
    Fraction), as Python values; json.dumps then refuses NaN and infinity itself."""
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, numbers.Real) and not isinstance(value, bool):
        return float(value)
    raise TypeError(f"{type(value).__name__} is not JSON")


def _json_problem(value, path: str, depth: int = 0) -> str | None:
    """What keeps ``value`` out of JSON, naming the first bad entry by its path (or None)."""
    if depth > 100:
        return f"{path} is nested too deeply (or contains itself); pass plain settings."
    if isinstance(value, (np.ndarray, np.generic)):
        value = _json_value(value)
    if isinstance(value, numbers.Real) and not isinstance(value, (bool, numbers.Integral)):
        try:
            value = float(value)
        except OverflowError:
            return f"{path} is too large for a float; JSON needs finite numbers."
        if not math.isfinite(value):
            return (
                f"{path} is {value}; JSON cannot hold NaN or infinity: pass None "
                "or a finite number instead."
            )
    elif isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, (str, int, float, bool)) and key is not None:
                return (
                    f"{path} has the key {key!r}; JSON keys must be text or numbers "
                    "(Python str, int, float, bool or None)."
                )
            found = _json_problem(item, f"{path}[{key!r}]", depth + 1)
            if found:
                return found
    elif isinstance(value, (list, tuple)):
        for k, item in enumerate(value):
            found = _json_problem(item, f"{path}[{k}]", depth + 1)
            if found:
                return found
    elif value is not None and not isinstance(value, (str, numbers.Real)):
        return (
            f"{path} is a {type(value).__name__}, which JSON cannot hold; pass "
            "numbers, text, booleans, None, lists or dicts."
        )
    return None


def trace_to_json(trace, X, y, parameters: dict) -> str:
    """A perceptron run as JSON: settings, result, every update and the data.

    Parameters
    ----------
    trace, X, y
        As in :func:`trace_to_csv`: the run and the data it was trained on.
    parameters : dict
        Whatever the page wants recorded (data and algorithm settings).
        NumPy scalars and arrays are converted; NaN or infinity is refused.
        The dict is not modified.

    Returns
    -------
    str
        A JSON object with keys

        * ``"parameters"``: the dict given;
        * ``"run"``: the trace's own settings (order, seed, delta, bias,
          aggressive, n_samples, n_features) and the start point ``w0``, ``b0``;
        * ``"result"``: n_updates, n_examined, epochs, converged, stop_reason
          and the final ``w`` (list) and ``b``;
        * ``"updates"``: one object per update with ``t, step, index, x, y,
          score, w, b`` as in :func:`trace_to_csv` (``x`` and ``w`` as lists,
          ``w, b`` after the update);
        * ``"data"``: ``{"X": [[...], ...], "y": [...]}``.

        All numbers are plain finite JSON numbers; each update and each row of
        X is written on its own line.
    """
    X, y = _check_trace(trace, X, y)
    if not isinstance(parameters, dict):
        raise ValueError(f"parameters must be a dict of settings, got {type(parameters).__name__}.")
    try:  # NumPy values converted by _json_value; NaN and infinity refused
        params = json.dumps(parameters, default=_json_value, allow_nan=False, ensure_ascii=False)
    except (ValueError, TypeError, OverflowError, RecursionError) as error:
        raise ValueError(
            _json_problem(parameters, "parameters")
            or f"parameters cannot be written as JSON ({error})."
        ) from None
    run = {
        "order": str(trace.order),
        "seed": int(trace.seed),
        "delta": float(trace.delta),
        "bias": bool(trace.bias),
        "aggressive": bool(trace.aggressive),
        "n_samples": int(trace.n_samples),
        "n_features": int(X.shape[1]),
        "w0": [float(v) for v in trace.weights[0].tolist()],
        "b0": float(trace.biases[0]),
    }
    result = {
        "n_updates": trace.n_updates,
        "n_examined": int(trace.n_examined),
        "epochs": int(trace.epochs),
        "converged": bool(trace.converged),
        "stop_reason": str(trace.stop_reason),
        "w": [float(v) for v in trace.w.tolist()],
        "b": float(trace.b),
    }
    keys = ("t", "step", "index", "x", "y", "score", "w", "b")
    updates = [dict(zip(keys, row)) for row in _update_rows(trace, X, y)]

    def dump(value) -> str:
        return json.dumps(value, allow_nan=False, ensure_ascii=False)

    def block(items: list) -> str:
        if not items:
            return "[]"
        return "[\n    " + ",\n    ".join(dump(item) for item in items) + "\n  ]"

    return (
        "{\n"
        f'  "parameters": {params},\n'
        f'  "run": {dump(run)},\n'
        f'  "result": {dump(result)},\n'
        f'  "updates": {block(updates)},\n'
        f'  "data": {{"X": {block(X.tolist())}, "y": {dump(y.tolist())}}}\n'
        "}\n"
    )
