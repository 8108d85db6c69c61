"""perceptron_core.io: CSV upload parsing, dataset export, trace export (CSV and JSON)."""

from __future__ import annotations

import copy
import csv
import dataclasses
import io
import json

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from perceptron_core import make_separable, make_xor, run_perceptron
from perceptron_core.io import (
    LoadedClasses,
    LoadedData,
    dataset_to_csv,
    parse_class_csv,
    parse_labelled_csv,
    trace_to_csv,
    trace_to_json,
)

PROPERTY = settings(
    max_examples=60,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)


def _valid(result: LoadedData) -> None:
    """Invariants of every LoadedData the parser hands out."""
    assert isinstance(result, LoadedData)
    n, d = result.X.shape
    assert n >= 2 and d >= 1 and result.n_rows == n == result.n
    assert result.X.dtype == np.float64 and result.y.dtype == np.int64
    assert result.y.shape == (n,)
    assert np.isfinite(result.X).all()
    assert set(result.y.tolist()) == {-1, 1}
    assert not result.X.flags.writeable and not result.y.flags.writeable
    assert len(result.feature_names) == d == result.dim
    assert [sign for _, sign in result.label_mapping] == [-1, 1]
    assert all(isinstance(text, str) and text for text, _ in result.label_mapping)


# ---------------------------------------------------------------------------
# parse_labelled_csv: good files
# ---------------------------------------------------------------------------


def test_header_is_detected_and_names_kept():
    r = parse_labelled_csv(b"height,weight,species\n1.5,2,cat\n3,-4e-1,dog\n0,0,cat\n")
    _valid(r)
    assert r.has_header and r.feature_names == ("height", "weight")
    assert r.label_name == "species" and r.delimiter == ","
    np.testing.assert_array_equal(r.X, [[1.5, 2.0], [3.0, -0.4], [0.0, 0.0]])
    np.testing.assert_array_equal(r.y, [-1, 1, -1])
    assert r.label_mapping == (("cat", -1), ("dog", 1))


def test_no_header_gets_default_names():
    r = parse_labelled_csv("1,2,1\n3,4,-1\n")
    _valid(r)
    assert not r.has_header and r.feature_names == ("x1", "x2") and r.label_name == "label"
    np.testing.assert_array_equal(r.X, [[1, 2], [3, 4]])
    np.testing.assert_array_equal(r.y, [1, -1])


def test_header_row_with_typo_below_reports_the_typo_row():
    with pytest.raises(ValueError, match=r"row 3, column 2 \('b'\) holds 'oops'"):
        parse_labelled_csv("a,b,label\n1,2,1\n3,oops,-1\n")
    # the second row is not numeric but every feature cell of row 1 is text: still a header
    with pytest.raises(ValueError, match=r"row 2, column 1 \('a'\) holds 'x'"):
        parse_labelled_csv("a,b,label\nx,2,1\n3,4,-1\n")


def test_first_row_with_an_empty_cell_is_data_not_a_header():
    with pytest.raises(ValueError, match=r"row 1, column 2 is empty"):
        parse_labelled_csv("1,,1\n2,3,-1\n4,5,1\n")


def test_empty_header_cell_is_named_by_its_column():
    r = parse_labelled_csv(",b,label\n1,2,1\n3,4,-1\n")
    assert r.has_header and r.feature_names == ("column 1", "b")


@pytest.mark.parametrize(
    "text, delimiter",
    [
        ("x1,x2,y\n1.5,2,1\n3,4,-1\n", ","),
        ("x1;x2;y\n1.5;2;1\n3;4;-1\n", ";"),
        ("x1\tx2\ty\n1.5\t2\t1\n3\t4\t-1\n", "\t"),
        ("x1;x2;y\n1,5;2;1\n3;4;-1\n", ";"),  # European: decimal comma
        ("1,5;2,0;1\n3,0;4,0;-1\n", ";"),  # decimal commas everywhere: still semicolons
        ("x1\tx2\ty\n1,5\t2\t1\n3\t4\t-1\n", "\t"),
        ("  x1 ,  x2 , y \n 1.5 ,2 ,  1\n3,   4, -1   \n", ","),  # surrounding whitespace
        ('"x1","x2","y"\n"1.5","2","1"\n"3","4","-1"\n', ","),  # quoted cells
        ("x1,x2,y\r\n1.5,2,1\r\n3,4,-1\r\n", ","),  # Windows line ends
        ("x1,x2,y\r1.5,2,1\r3,4,-1\r", ","),  # old Mac line ends
        ("x1,x2,y\n1.5,2,1\n3,4,-1\n\n  \n\n", ","),  # blank trailing lines
    ],
)
def test_delimiters_whitespace_quotes_and_line_ends(text, delimiter):
    for data in (text, text.encode("utf-8")):
        r = parse_labelled_csv(data)
        _valid(r)
        has_header = "x1" in text
        assert r.delimiter == delimiter and r.has_header == has_header
        if has_header:
            assert r.feature_names == ("x1", "x2") and r.label_name == "y"
        np.testing.assert_array_equal(r.X, [[1.5, 2.0], [3.0, 4.0]])
        np.testing.assert_array_equal(r.y, [1, -1])


def test_blank_lines_inside_are_skipped_and_rows_keep_file_numbers():
    text = "x1,x2,y\n1,2,1\n\n3,4,-1\n\n5,zz,1\n"
    with pytest.raises(ValueError, match=r"row 6, column 2 \('x2'\) holds 'zz'"):
        parse_labelled_csv(text)
    r = parse_labelled_csv(text.replace("zz", "6"))
    assert r.n_rows == 3


@pytest.mark.parametrize(
    "data",
    [
        b"\xef\xbb\xbfx1,x2,y\n1,2,1\n3,4,-1\n",
        "\ufeffx1,x2,y\n1,2,1\n3,4,-1\n",
        "x1,x2,y\n1,2,1\n3,4,-1\n".encode("utf-8-sig"),
    ],
)
def test_utf8_bom_is_ignored(data):
    r = parse_labelled_csv(data)
    assert r.has_header and r.feature_names == ("x1", "x2")
    np.testing.assert_array_equal(r.X, [[1, 2], [3, 4]])


def test_non_ascii_header_names():
    r = parse_labelled_csv("länge,größe,klasse\n1,2,ja\n3,4,nein\n".encode())
    assert r.feature_names == ("länge", "größe") and r.label_name == "klasse"
    assert r.label_mapping == (("ja", -1), ("nein", 1))


@pytest.mark.parametrize(
    "labels, mapping, y",
    [
        (["-1", "1", "1", "-1"], (("-1", -1), ("1", 1)), [-1, 1, 1, -1]),
        (["1", "-1", "+1", "-1.0"], (("1", 1), ("-1", -1)), [1, -1, 1, -1]),
        (["0", "1", "1", "0"], (("0", -1), ("1", 1)), [-1, 1, 1, -1]),
        (["1", "0.0", "1.0", "0"], (("1", 1), ("0.0", -1)), [1, -1, 1, -1]),
        (["cat", "dog", "dog", "cat"], (("cat", -1), ("dog", 1)), [-1, 1, 1, -1]),
        (["dog", "cat", "dog", "cat"], (("cat", -1), ("dog", 1)), [1, -1, 1, -1]),
        (["7", "2", "2", "7"], (("2", -1), ("7", 1)), [1, -1, -1, 1]),
        (["10", "9", "9", "10"], (("9", -1), ("10", 1)), [1, -1, -1, 1]),  # numeric order
        (["yes", "no", "no", "yes"], (("no", -1), ("yes", 1)), [1, -1, -1, 1]),
        (["1", "a", "a", "1"], (("1", -1), ("a", 1)), [-1, 1, 1, -1]),  # mixed: as text
    ],
)
def test_label_mappings(labels, mapping, y):
    rows = "\n".join(f"{k},{2 * k},{label}" for k, label in enumerate(labels))
    r = parse_labelled_csv(rows)
    _valid(r)
    assert r.label_mapping == tuple(sorted(mapping, key=lambda pair: pair[1]))
    np.testing.assert_array_equal(r.y, y)


def test_label_column_can_be_first():
    r = parse_labelled_csv("class,a,b\nspam,1,2\nham,3,4\n", label_column=0)
    assert r.feature_names == ("a", "b") and r.label_name == "class"
    np.testing.assert_array_equal(r.X, [[1, 2], [3, 4]])
    assert r.label_mapping == (("ham", -1), ("spam", 1))
    np.testing.assert_array_equal(r.y, [1, -1])


def test_one_feature_column_and_many_rows_within_limits():
    text = "x,y\n" + "".join(f"{k / 7!r},{1 if k % 2 else -1}\n" for k in range(2000))
    r = parse_labelled_csv(text, max_rows=2000)
    _valid(r)
    assert r.X.shape == (2000, 1)
    np.testing.assert_array_equal(r.X[:, 0], np.arange(2000) / 7)


# ---------------------------------------------------------------------------
# parse_labelled_csv: every problem is a ValueError that says where and what
# ---------------------------------------------------------------------------

GOOD = "x1,x2,label\n1,2,1\n3,4,-1\n"

BAD_FILES = {
    "empty bytes": (b"", r"the file is empty"),
    "empty str": ("", r"the file is empty"),
    "only blank lines": ("  \n\n\t\n", r"the file is empty"),
    "only a BOM": (b"\xef\xbb\xbf\n", r"the file is empty"),
    "NUL bytes": (b"x,y\n1\x002,1\n", r"not a text CSV file.*NUL"),
    "NUL in str": ("x,y\n1\x002,1\n", r"not a text CSV file.*row 2"),
    "invalid UTF-8": (b"x1,x2,label\n1,2,1\n\xff\xfe\x00", r"not a text CSV file"),
    "latin-1 on row 3": (
        b"x1,x2,label\n1,2,1\n3,4,caf\xe9\n",
        r"not a text CSV file.*row 3.*UTF-8",
    ),
    "binary (PNG header)": (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", r"not a text CSV file"),
    "zip / xlsx": (b"PK\x03\x04\x14\x00\x06\x00", r"not a text CSV file"),
    "control character": ("a,b\n1,2\x07,1\n", r"not a text CSV file.*row 2.*U\+0007"),
    "lone surrogate": ("x,y\n1,\ud800\n", r"not a text CSV file"),
    "one column": ("1\n2\n3\n", r"row 1 has only one column.*at least two columns"),
    "one column with header": ("x\n1\n2\n", r"row 1 has only one column"),
    "ragged short": ("x1,x2,label\n1,2,1\n3,4\n", r"row 3 has 2 columns, expected 3"),
    "ragged long": ("1,2,1\n3,4,-1\n\n5,6,7,1\n", r"row 4 has 4 columns, expected 3"),
    "ragged header": ("x1,x2\n1,2,1\n3,4,-1\n", r"row 2 has 3 columns, expected 2"),
    "text feature": (GOOD + "5,abc,1\n", r"row 4, column 2 \('x2'\) holds 'abc'.*not a number"),
    "text feature no header": (
        "1,2,1\n3,4,-1\nfive,6,1\n",
        r"row 3, column 1 holds 'five'.*not a number",
    ),
    "unicode digits": ("1,2,1\n3,\u0664,-1\n", r"row 2, column 2 holds .*not a number"),
    "underscore number": ("1,2,1\n3,1_000,-1\n", r"row 2, column 2 holds '1_000'"),
    "decimal comma with commas": ('1,2,1\n"3,5",4,-1\n', r"row 2, column 1 holds '3,5'"),
    "empty feature": (GOOD + "5,,1\n", r"row 4, column 2 \('x2'\) is empty"),
    "nan": (GOOD + "nan,1,1\n", r"row 4, column 1 \('x1'\) holds 'nan'.*NaN or infinite"),
    "NaN": ("1,2,1\n3,NaN,-1\n", r"row 2, column 2 holds 'NaN'.*NaN or infinite"),
    "inf": (GOOD + "1,inf,1\n", r"row 4, column 2 \('x2'\) holds 'inf'"),
    "-Infinity": (GOOD + "-Infinity,0,1\n", r"row 4, column 1 \('x1'\) holds '-Infinity'"),
    "overflow": (GOOD + "1e999,0,1\n", r"row 4, column 1 \('x1'\) holds '1e999'.*too large"),
    "empty label": (GOOD + "5,6,\n", r"row 4, column 3 \('label'\) is empty"),
    "nan label": (GOOD + "5,6,nan\n", r"row 4, column 3 \('label'\) holds the label 'nan'"),
    "inf text label": ("1,2,cat\n3,4,inf\n", r"row 2, column 3 holds the label 'inf'"),
    "one class": (
        "x1,x2,label\n1,2,1\n3,4,1\n5,6,1.0\n",
        r"every row has the label '1' \(label column 3 \('label'\)\).*two classes",
    ),
    "one text class": ("1,2,cat\n3,4,cat\n", r"label 'cat'.*two classes"),
    "three labels": (
        "1,2,a\n3,4,b\n5,6,a\n7,8,c\n",
        r"3 distinct labels \('a', 'b', 'c'\).*exactly two.*row 4",
    ),
    "many labels": (
        "".join(f"{k},{k},{k}\n" for k in range(9)),
        r"9 distinct labels \('0', '1', '2', '3', '4', \.\.\.\)",
    ),
    "one data row": ("1,2,1\n", r"only one data row \(row 1\).*at least two"),
    "header and one row": ("\n\nx,y,l\n\n1,2,1\n", r"only one data row \(row 5\)"),
    "header only": ("x1,x2,label\n", r"only a header \(row 1\) and no data rows"),
    "unterminated quote": ('1,2,1\n"3,4,-1\n', r"row 2 has 1 columns, expected 3"),
    "huge cell": ("1,2,1\n" + "9" * 200_000 + ",1,-1\n", r"row 2 could not be read"),
}


@pytest.mark.parametrize("name", list(BAD_FILES))
def test_bad_files_raise_value_error_naming_the_place(name):
    data, pattern = BAD_FILES[name]
    with pytest.raises(ValueError, match=pattern):
        parse_labelled_csv(data)


def test_file_over_the_size_limit():
    big = b"1,2,1\n" * (5 * 1024 * 1024 // 6 + 1)
    assert len(big) > 5 * 1024 * 1024
    with pytest.raises(ValueError, match=r"over the 5 MB limit"):
        parse_labelled_csv(big)
    with pytest.raises(ValueError, match=r"over the 5 MB limit"):
        parse_labelled_csv(big.decode())
    with pytest.raises(ValueError, match=r"over the 5 MB limit"):  # multi-byte characters
        parse_labelled_csv("é" * (3 * 1024 * 1024))
    with pytest.raises(ValueError, match=r"the file is 18 bytes, over the 10 bytes limit"):
        parse_labelled_csv(GOOD[:18], max_bytes=10)
    assert parse_labelled_csv(GOOD, max_bytes=len(GOOD)).n_rows == 2  # exactly at the limit


def test_too_many_rows():
    text = "x1,x2,label\n" + "1,2,1\n3,4,-1\n" * 3
    assert parse_labelled_csv(text, max_rows=6).n_rows == 6
    with pytest.raises(ValueError, match=r"6 data rows, over the limit of 5 \(row 7 is data r"):
        parse_labelled_csv(text, max_rows=5)


@pytest.mark.parametrize(
    "kwargs, pattern",
    [
        ({"data": 12}, r"data must be the file's contents as bytes or str, got int"),
        ({"data": None}, r"bytes or str, got NoneType"),
        ({"data": GOOD, "max_bytes": 0}, r"max_bytes must be >= 1"),
        ({"data": GOOD, "max_rows": 1.5}, r"max_rows must be a whole number"),
        ({"data": GOOD, "label_column": "label"}, r"label_column must be a whole number"),
        ({"data": GOOD, "label_column": True}, r"label_column must be a whole number"),
        ({"data": GOOD, "label_column": 3}, r"label_column = 3 but the file has 3 columns"),
        ({"data": GOOD, "label_column": -4}, r"label_column = -4"),
    ],
)
def test_bad_arguments(kwargs, pattern):
    data = kwargs.pop("data")
    with pytest.raises(ValueError, match=pattern):
        parse_labelled_csv(data, **kwargs)


def test_bytearray_and_memoryview_accepted_and_not_modified():
    raw = bytearray(GOOD.encode())
    before = bytes(raw)
    assert parse_labelled_csv(raw).n_rows == 2
    assert parse_labelled_csv(memoryview(raw)).n_rows == 2
    assert bytes(raw) == before


# ---------------------------------------------------------------------------
# Garbage in: only ValueError out, or a valid result
# ---------------------------------------------------------------------------


def _parse_or_value_error(data):
    try:
        result = parse_labelled_csv(data, max_rows=50)
    except ValueError as exc:
        assert str(exc)
        return None
    _valid(result)
    return result


@PROPERTY
@given(st.binary(max_size=300))
def test_random_bytes_never_crash(data):
    _parse_or_value_error(data)


@PROPERTY
@given(st.text(max_size=200))
def test_random_text_never_crashes(text):
    _parse_or_value_error(text)


GARBAGE = st.sampled_from(
    [
        "1e999",
        "nan",
        "NaN",
        "inf",
        "-inf",
        "",
        " ",
        "cat",
        "a b",
        '"',
        "1,5",
        "0x10",
        "1_0",
        "\ufeff",
        "\t",
        ";",
        ",",
        "é",
        "\x85",
    ]
)
NUMBERS = st.one_of(
    st.sampled_from(["1", "-1", "0", "+1", "1.0", "-0", ".5", "5.", "1e308", "1e-320", '"2"']),
    st.floats(allow_nan=False, allow_infinity=False).map(repr),
    st.integers(-(10**6), 10**6).map(str),
)
LABELS = st.sampled_from(["1", "-1", "0", "1.0", "cat", "dog", "2", "7"])


@PROPERTY
@given(
    rows=st.lists(
        st.lists(st.one_of(NUMBERS, LABELS, GARBAGE), min_size=1, max_size=5), max_size=12
    ),
    delimiter=st.sampled_from([",", ";", "\t", ", "]),
    line_end=st.sampled_from(["\n", "\r\n", "\r"]),
)
def test_random_rows_of_mixed_tokens(rows, delimiter, line_end):
    text = line_end.join(delimiter.join(row) for row in rows)
    result = _parse_or_value_error(text)
    again = _parse_or_value_error(text.encode("utf-8"))
    assert (result is None) == (again is None)


@PROPERTY
@given(
    width=st.integers(2, 4),
    data=st.data(),
    header=st.booleans(),
    delimiter=st.sampled_from([",", ";", "\t", " ,  "]),
    line_end=st.sampled_from(["\n", "\r\n"]),
)
def test_nearly_valid_files_load_or_raise_value_error(width, data, header, delimiter, line_end):
    # rectangular rows of numbers and two labels, then a few cells spoilt at random
    pair = data.draw(st.sampled_from([("1", "-1"), ("0", "1.0"), ("cat", "dog"), ("2", "7")]))
    row = st.tuples(
        st.lists(NUMBERS, min_size=width - 1, max_size=width - 1), st.sampled_from(pair)
    ).map(lambda r: [*r[0], r[1]])
    rows = data.draw(st.lists(row, min_size=1, max_size=10))
    for _ in range(data.draw(st.sampled_from([0, 0, 1, 2]))):
        i = data.draw(st.integers(0, len(rows) - 1))
        j = data.draw(st.integers(0, width - 1))
        rows[i][j] = data.draw(GARBAGE)
    if header:
        rows.insert(0, [f"c{k}" for k in range(width)])
    text = line_end.join(delimiter.join(r) for r in rows) + line_end
    result = _parse_or_value_error(text)
    if result is not None and header:  # the header fixes the width: spoilt rows are ragged
        assert result.has_header and result.label_name == f"c{width - 1}"
        assert result.feature_names == tuple(f"c{k}" for k in range(width - 1))


@PROPERTY
@given(
    n=st.integers(2, 12),
    d=st.integers(1, 4),
    seed=st.integers(0, 2**32 - 1),
    labels=st.sampled_from([("-1", "1"), ("0", "1"), ("cat", "dog"), ("2", "7")]),
    delimiter=st.sampled_from([",", ";", "\t"]),
    header=st.booleans(),
)
def test_well_formed_files_always_load(n, d, seed, labels, delimiter, header):
    rng = np.random.default_rng(seed)
    X = np.round(rng.normal(size=(n, d)) * 10.0 ** rng.integers(-5, 5), 6)
    y = rng.integers(0, 2, size=n)
    y[:2] = [0, 1]
    lines = [delimiter.join([*(f"f{k}" for k in range(d)), "class"])] if header else []
    lines += [delimiter.join([*map(repr, row.tolist()), labels[c]]) for row, c in zip(X, y)]
    r = parse_labelled_csv("\n".join(lines) + "\n")
    _valid(r)
    assert r.has_header == header and r.delimiter == delimiter
    np.testing.assert_array_equal(r.X, X)
    np.testing.assert_array_equal(r.y, 2 * y - 1)
    assert r.label_mapping == ((labels[0], -1), (labels[1], 1))


# ---------------------------------------------------------------------------
# one class (min_classes=1) and k classes (parse_class_csv): the same stages
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "labels, mapping",
    [
        (["1", "1.0", "+1"], (("1", 1),)),
        (["-1", "-1"], (("-1", -1),)),
        (["0", "0.0"], (("0", -1),)),
        (["cat", "cat"], (("cat", 1),)),
        (["7"], (("7", 1),)),
    ],
)
def test_one_class_is_read_when_asked_for(labels, mapping):
    text = "".join(f"{k},{-k},{label}\n" for k, label in enumerate(labels))
    r = parse_labelled_csv(text, min_classes=1)
    assert r.label_mapping == mapping and r.n_rows == len(labels)
    np.testing.assert_array_equal(r.y, [mapping[0][1]] * len(labels))
    with pytest.raises(ValueError, match=r"needs two classes|at least two examples"):
        parse_labelled_csv(text)  # the default still asks for both classes


def test_one_class_still_refuses_empty_files_and_three_labels():
    with pytest.raises(
        ValueError,
        match=r"only a header \(row 1\) and no data rows; the "
        r"perceptron needs at least one example",
    ):
        parse_labelled_csv("x1,x2,label\n", min_classes=1)
    with pytest.raises(ValueError, match=r"3 distinct labels"):
        parse_labelled_csv("1,2,a\n3,4,b\n5,6,c\n", min_classes=1)
    for bad in (0, 3, True, "1", 1.5):
        with pytest.raises(ValueError, match=r"min_classes must be 1 or 2"):
            parse_labelled_csv(GOOD, min_classes=bad)


def test_class_file_with_header_numbers_classes_in_sorted_order():
    r = parse_class_csv(
        "petal,sepal,species\n1,2,setosa\n3,4,virginica\n5,6,versicolor\n7,8,setosa\n"
    )
    assert isinstance(r, LoadedClasses)
    assert r.classes == ("setosa", "versicolor", "virginica") and r.n_classes == 3
    np.testing.assert_array_equal(r.codes, [0, 2, 1, 0])
    assert r.feature_names == ("petal", "sepal") and r.label_name == "species"
    assert r.has_header and r.n == r.n_rows == 4 and r.dim == 2
    assert not r.X.flags.writeable and not r.codes.flags.writeable


def test_class_labels_that_are_numbers_compare_as_numbers():
    r = parse_class_csv("0,0,10\n1,1,9\n2,2,1.0\n3,3,1\n4,4,-2\n")
    assert r.classes == ("-2", "1.0", "9", "10")  # numeric order, first spelling kept
    np.testing.assert_array_equal(r.codes, [3, 2, 1, 1, 0])


def test_class_count_limits_name_the_row_of_the_first_extra_label():
    text = "".join(f"{k},{k},{'abcdefgh'[k]}\n" for k in range(8))
    with pytest.raises(
        ValueError,
        match=r"column 3 holds 8 distinct labels \('a', 'b', 'c', "
        r"'d', 'e', \.\.\.\); at most 6 classes are allowed "
        r"\(label number 7 first appears on row 7\)",
    ):
        parse_class_csv(text, max_classes=6)
    assert parse_class_csv(text, max_classes=8).n_classes == 8
    with pytest.raises(
        ValueError,
        match=r"every row has the label 'a' \(label column 3\); at "
        r"least 2 classes are needed",
    ):
        parse_class_csv("1,2,a\n3,4,a\n")
    with pytest.raises(
        ValueError,
        match=r"holds only 2 distinct labels \('a', 'b'\).*at "
        r"least 3 classes",
    ):
        parse_class_csv("1,2,a\n3,4,b\n", min_classes=3)
    assert parse_class_csv("1,2,a\n", min_classes=1).classes == ("a",)
    with pytest.raises(ValueError, match=r"max_classes must be >= 3"):
        parse_class_csv(GOOD, min_classes=3, max_classes=2)


#: files whose problem is not the number of labels: both readers give the same message
SHARED_STAGES = [name for name in BAD_FILES if "label" not in name and "class" not in name]


@pytest.mark.parametrize("name", SHARED_STAGES)
def test_class_reader_reports_every_file_problem_as_the_binary_reader(name):
    data, pattern = BAD_FILES[name]
    with pytest.raises(ValueError) as binary:
        parse_labelled_csv(data)
    with pytest.raises(ValueError, match=pattern) as classes:
        parse_class_csv(data)
    if "only one data row" not in str(binary.value) and "only a header" not in str(binary.value):
        assert str(classes.value) == str(binary.value)


@PROPERTY
@given(
    rows=st.lists(
        st.lists(st.one_of(NUMBERS, LABELS, GARBAGE), min_size=1, max_size=5), max_size=12
    ),
    delimiter=st.sampled_from([",", ";", "\t"]),
    max_classes=st.integers(2, 6),
)
def test_class_reader_gives_a_result_or_a_value_error_on_any_rows(rows, delimiter, max_classes):
    text = "\n".join(delimiter.join(row) for row in rows)
    try:
        r = parse_class_csv(text, max_rows=50, max_classes=max_classes)
    except ValueError as exc:
        assert str(exc)
        return
    assert 2 <= r.n_classes <= max_classes and np.isfinite(r.X).all()
    assert sorted(set(r.codes.tolist())) == list(range(r.n_classes))


@PROPERTY
@given(
    n=st.integers(2, 15),
    d=st.integers(1, 3),
    k=st.integers(2, 6),
    seed=st.integers(0, 999),
    text_labels=st.booleans(),
    delimiter=st.sampled_from([",", ";", "\t"]),
    header=st.booleans(),
)
def test_class_reader_matches_a_plain_csv_reading(n, d, k, seed, text_labels, delimiter, header):
    rng = np.random.default_rng(seed)
    X = np.round(rng.normal(size=(n, d)), 4)
    names = [f"class {c}" for c in "pqrstu"] if text_labels else [str(3 * c - 4) for c in range(6)]
    drawn = [names[c] for c in rng.integers(0, k, size=n)]
    drawn[:2] = names[:2]  # at least two classes, as the reader asks by default
    lines = [delimiter.join([*(f"f{j}" for j in range(d)), "label"])] if header else []
    lines += [delimiter.join([*map(repr, row.tolist()), label]) for row, label in zip(X, drawn)]
    r = parse_class_csv("\n".join(lines) + "\n", max_classes=6)
    # the reference: the csv module and np.unique (numbers sorted as numbers)
    rows = list(csv.reader(io.StringIO("\n".join(lines)), delimiter=delimiter))[int(header) :]
    values = [row[-1] if text_labels else float(row[-1]) for row in rows]
    classes, codes = np.unique(values, return_inverse=True)
    np.testing.assert_array_equal(r.X, [[float(v) for v in row[:-1]] for row in rows])
    np.testing.assert_array_equal(r.codes, codes)
    assert [c if text_labels else float(c) for c in r.classes] == classes.tolist()


# ---------------------------------------------------------------------------
# dataset_to_csv
# ---------------------------------------------------------------------------

FINITE = st.floats(allow_nan=False, allow_infinity=False, allow_subnormal=True, width=64)
MAGNITUDES = st.sampled_from([1e-320, 1e-300, 1e-20, 1e-3, 1.0, 1e3, 1e20, 1e300, 1.7e308])


@PROPERTY
@given(n=st.integers(2, 15), d=st.integers(1, 5), data=st.data())
def test_dataset_csv_round_trip_is_exact(n, d, data):
    values = data.draw(
        st.lists(
            st.one_of(FINITE, MAGNITUDES, MAGNITUDES.map(lambda v: -v), st.just(-0.0)),
            min_size=n * d,
            max_size=n * d,
        )
    )
    X = np.array(values, dtype=np.float64).reshape(n, d)
    y = np.array(data.draw(st.lists(st.sampled_from([-1, 1]), min_size=n, max_size=n)))
    y[0], y[1] = -1, 1
    X_before, y_before = X.copy(), y.copy()
    text = dataset_to_csv(X, y)
    assert text.splitlines()[0] == ",".join([*(f"x{k + 1}" for k in range(d)), "label"])
    r = parse_labelled_csv(text, check_scale=False)  # 1e300 and 1e-320 included
    assert r.X.tobytes() == X.tobytes()  # bit for bit, -0.0 and subnormals included
    np.testing.assert_array_equal(r.y, y)
    assert r.has_header and r.feature_names == tuple(f"x{k + 1}" for k in range(d))
    assert r.label_mapping == (("-1", -1), ("1", 1))
    np.testing.assert_array_equal(X, X_before)
    np.testing.assert_array_equal(y, y_before)


def test_dataset_csv_format_and_names():
    ds = make_separable(n=20, margin=0.1, seed=3)
    text = dataset_to_csv(ds.X, ds.y, feature_names=["length (cm)", 'width, "max"'])
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0] == ["length (cm)", 'width, "max"', "label"]
    assert len(rows) == 21 and all(row[2] in ("-1", "1") for row in rows[1:])
    assert [float(v) for v in rows[1][:2]] == ds.X[0].tolist()
    r = parse_labelled_csv(text)
    assert r.feature_names == ("length (cm)", 'width, "max"')
    np.testing.assert_array_equal(r.X, ds.X)
    np.testing.assert_array_equal(r.y, ds.y)
    # lists and integer arrays work too
    assert dataset_to_csv([[1, 2], [3, 4]], [1, -1]) == "x1,x2,label\n1.0,2.0,1\n3.0,4.0,-1\n"


@pytest.mark.parametrize(
    "X, y, names, pattern",
    [
        (np.ones((3, 2)), np.array([1, -1]), None, r"y has 2 labels but X has 3 rows"),
        (np.ones(3), np.array([1, -1, 1]), None, r"X is 1-D"),
        (np.array([[1.0, np.nan], [0, 0]]), np.array([1, -1]), None, r"X contains NaN"),
        (np.ones((2, 2)), np.array([0, 1]), None, r"labels must be -1 or \+1"),
        (np.ones((2, 2)), np.array([1, -1]), ["a"], r"feature_names has 1 names but X has 2"),
        (np.ones((2, 2)), np.array([1, -1]), "ab", r"feature_names must be a list"),
        (np.ones((2, 2)), np.array([1, -1]), ["a", ""], r"feature_names\[1\] = ''"),
        (np.ones((2, 2)), np.array([1, -1]), ["a", 3], r"feature_names\[1\] = 3"),
        (
            np.ones((2, 2)),
            np.array([1, -1]),
            ["a", "1.5"],
            r"feature_names\[1\].*reads as a number",
        ),
        (np.ones((2, 2)), np.array([1, -1]), ["a", "b\nc"], r"feature_names\[1\].*line break"),
    ],
)
def test_dataset_csv_bad_input(X, y, names, pattern):
    with pytest.raises(ValueError, match=pattern):
        dataset_to_csv(X, y, feature_names=names)


# ---------------------------------------------------------------------------
# trace_to_csv / trace_to_json
# ---------------------------------------------------------------------------


def _runs():
    sep = make_separable(n=25, margin=0.05, dim=3, seed=1)
    xor = make_xor(n=16, seed=2)
    return {
        "cyclic": (sep.X, sep.y, run_perceptron(sep.X, sep.y)),
        "permuted, delta": (
            sep.X,
            sep.y,
            run_perceptron(sep.X, sep.y, order="permuted", seed=5, delta=0.1),
        ),
        "no bias, w0": (
            sep.X,
            sep.y,
            run_perceptron(sep.X, sep.y, bias=False, w0=[0.5, -0.2, 0.1]),
        ),
        "greedy": (sep.X, sep.y, run_perceptron(sep.X, sep.y, order="max_distance")),
        "aggressive": (sep.X, sep.y, run_perceptron(sep.X, sep.y, aggressive=True, max_updates=60)),
        "not separable": (xor.X, xor.y, run_perceptron(xor.X, xor.y, max_updates=40)),
        "no updates": (
            np.array([[1.0], [-1.0]]),
            np.array([1, -1]),
            run_perceptron(np.array([[1.0], [-1.0]]), np.array([1, -1]), w0=[1.0]),
        ),
    }


RUNS = _runs()


@pytest.mark.parametrize("name", list(RUNS))
def test_trace_csv_matches_the_trace(name):
    X, y, trace = RUNS[name]
    X_before, y_before = X.copy(), y.copy()
    text = trace_to_csv(trace, X, y)
    rows = list(csv.DictReader(io.StringIO(text)))
    d = X.shape[1]
    header = text.splitlines()[0].split(",")
    assert header == [
        "t",
        "step",
        "index",
        *(f"x{k}" for k in range(1, d + 1)),
        "y",
        "score",
        *(f"w{k}" for k in range(1, d + 1)),
        "b",
    ]
    assert len(rows) == trace.n_updates
    for k, row in enumerate(rows):
        i = int(trace.update_indices[k])
        assert int(row["t"]) == k + 1
        assert int(row["step"]) == int(trace.update_steps[k])
        assert int(row["index"]) == i
        assert [float(row[f"x{j}"]) for j in range(1, d + 1)] == X[i].tolist()
        assert int(row["y"]) == int(y[i])
        assert float(row["score"]) == float(trace.update_scores[k])
        assert [float(row[f"w{j}"]) for j in range(1, d + 1)] == trace.weights[k + 1].tolist()
        assert float(row["b"]) == float(trace.biases[k + 1])
    if rows:  # the last row holds the final weights
        assert [float(rows[-1][f"w{j}"]) for j in range(1, d + 1)] == trace.w.tolist()
    np.testing.assert_array_equal(X, X_before)
    np.testing.assert_array_equal(y, y_before)


@pytest.mark.parametrize("name", list(RUNS))
def test_trace_json_matches_the_trace(name):
    X, y, trace = RUNS[name]
    parameters = {
        "dataset": "separable",
        "n": np.int64(25),
        "margin": np.float64(0.05),
        "orders": ("cyclic", "permuted"),
        "extra": {"w0": np.array([0.5, 1.0]), "note": None, 3: True},
    }
    params_before = copy.deepcopy(parameters)
    text = trace_to_json(trace, X, y, parameters)
    assert "NaN" not in text and "Infinity" not in text
    doc = json.loads(text)
    assert set(doc) == {"parameters", "run", "result", "updates", "data"}
    assert doc["parameters"] == {
        "dataset": "separable",
        "n": 25,
        "margin": 0.05,
        "orders": ["cyclic", "permuted"],
        "extra": {"w0": [0.5, 1.0], "note": None, "3": True},
    }
    result = doc["result"]
    assert result["n_updates"] == trace.n_updates
    assert result["n_examined"] == trace.n_examined and result["epochs"] == trace.epochs
    assert result["converged"] is trace.converged
    assert result["stop_reason"] == trace.stop_reason
    assert result["w"] == trace.w.tolist() and result["b"] == trace.b
    run = doc["run"]
    assert (run["order"], run["seed"], run["delta"], run["bias"], run["aggressive"]) == (
        trace.order,
        trace.seed,
        trace.delta,
        trace.bias,
        trace.aggressive,
    )
    assert run["w0"] == trace.weights[0].tolist() and run["b0"] == float(trace.biases[0])
    assert len(doc["updates"]) == trace.n_updates
    for k, update in enumerate(doc["updates"]):
        i = int(trace.update_indices[k])
        assert update == {
            "t": k + 1,
            "step": int(trace.update_steps[k]),
            "index": i,
            "x": X[i].tolist(),
            "y": int(y[i]),
            "score": float(trace.update_scores[k]),
            "w": trace.weights[k + 1].tolist(),
            "b": float(trace.biases[k + 1]),
        }
    assert doc["data"] == {"X": X.tolist(), "y": y.tolist()}
    # the CSV rows and the JSON updates agree
    csv_rows = list(csv.DictReader(io.StringIO(trace_to_csv(trace, X, y))))
    assert [int(r["index"]) for r in csv_rows] == [u["index"] for u in doc["updates"]]
    # the parameters dict was not modified
    assert parameters.keys() == params_before.keys()
    assert parameters["extra"]["w0"].tolist() == [0.5, 1.0]
    assert type(parameters["n"]) is np.int64 and parameters["orders"] == ("cyclic", "permuted")


def test_trace_json_plain_types_and_empty_parameters():
    X, y, trace = RUNS["cyclic"]
    doc = json.loads(trace_to_json(trace, X, y, {}))
    assert doc["parameters"] == {}
    assert all(isinstance(v, float) for v in doc["result"]["w"])
    assert isinstance(doc["updates"][0]["index"], int)
    X0, y0, trace0 = RUNS["no updates"]
    doc0 = json.loads(trace_to_json(trace0, X0, y0, {}))
    assert doc0["updates"] == [] and doc0["result"]["n_updates"] == 0
    assert trace_to_csv(trace0, X0, y0) == "t,step,index,x1,y,score,w1,b\n"


def test_trace_exports_check_their_inputs():
    X, y, trace = RUNS["cyclic"]
    other = make_separable(n=25, margin=0.05, dim=3, seed=99)
    for export in (lambda *a: trace_to_csv(*a), lambda *a: trace_to_json(*a, {})):
        with pytest.raises(ValueError, match=r"trace must be a Trace.*got dict"):
            export({}, X, y)
        with pytest.raises(ValueError, match=r"X has 24 rows but the trace was run on 25"):
            export(trace, X[:24], y[:24])
        with pytest.raises(ValueError, match=r"X has 2 features but the trace's weights have 3"):
            export(trace, X[:, :2], y)
        with pytest.raises(ValueError, match=r"y has 24 labels but X has 25 rows"):
            export(trace, X, y[:24])
        with pytest.raises(ValueError, match=r"do not match this trace: update 1"):
            export(trace, other.X, other.y)
        with pytest.raises(ValueError, match=r"labels must be -1 or \+1"):
            export(trace, X, (y + 1) // 2)
    with pytest.raises(ValueError, match=r"parameters must be a dict"):
        trace_to_json(trace, X, y, [("a", 1)])
    with pytest.raises(ValueError, match=r"parameters\['margin'\] is nan.*JSON cannot hold NaN"):
        trace_to_json(trace, X, y, {"margin": float("nan")})
    with pytest.raises(ValueError, match=r"parameters\['a'\]\[1\] is inf"):
        trace_to_json(trace, X, y, {"a": [1.0, np.inf]})
    with pytest.raises(ValueError, match=r"parameters\['s'\] is a set"):
        trace_to_json(trace, X, y, {"s": {1, 2}})
    with pytest.raises(ValueError, match=r"JSON keys must be text"):
        trace_to_json(trace, X, y, {(1, 2): 3})


def test_overflowed_trace_is_refused():
    X = np.array([[1e308], [1e308]])
    y = np.array([1, -1])
    with np.errstate(all="ignore"):
        trace = run_perceptron(X, y, max_updates=5)
    assert not np.isfinite(trace.update_scores).all()  # y(w·x + b) overflowed to -inf
    with pytest.raises(ValueError, match=r"update_scores contain NaN or infinity \(the run over"):
        trace_to_csv(trace, X, y)
    with pytest.raises(ValueError, match=r"NaN or infinity"):
        trace_to_json(trace, X, y, {})
    _, _, good = RUNS["cyclic"]
    broken = dataclasses.replace(
        good, weights=np.where(good.weights == good.weights[-1], np.inf, good.weights)
    )
    with pytest.raises(ValueError, match=r"weights contain NaN or infinity"):
        trace_to_json(broken, *RUNS["cyclic"][:2], {})
