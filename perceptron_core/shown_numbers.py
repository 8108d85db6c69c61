"""Numbers as a page writes them where a sentence compares them.

A relation a page shows ("y(w·x + b) = 0.0002 > δ = 0") must hold for the numbers as
written, not only for the floats behind them: 0.005 written with two decimals reads
"0.01", and "0.000 ≤ δ = 0.01" is then false on the screen. Two rules, here and in the
player's ``exactText`` / ``relationText`` (pages/player/scene_numbers.js):

* a number the student typed (δ) is written exactly: the shortest decimal that reads
  back as the same float (Python's ``repr``), so "δ = 0.005" is δ;
* a computed number inside a relation gets the fewest digits (from ``digits``
  decimals) for which the relation holds between the written decimals; a nonzero
  number never reads as 0 (it goes to scientific notation instead);
* two computed numbers on the two sides of a relation (a proof's quantity against its
  line) get the same number of decimals, from ``digits`` up, enough for two significant
  digits of the smaller one and for the relation to hold as written
  (:func:`inequality_texts`).

Plain strings and ``fractions.Fraction`` only (the standard library).
"""

from __future__ import annotations

import math
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

#: relation sign -> the comparison it states between two exact decimals
RELATIONS = {
    "≤": lambda a, b: a <= b,
    "<": lambda a, b: a < b,
    ">": lambda a, b: a > b,
    "≥": lambda a, b: a >= b,
    "=": lambda a, b: a == b,
}
#: the most digits a number is given before its exact (shortest round-trip) form is used
MOST_DIGITS = 17


def _minus(text: str) -> str:
    """A real minus sign, and an exponent without "+" or leading zeros (2.5e−7)."""
    if "e" in text:
        mantissa, exponent = text.split("e")
        text = f"{mantissa}e{int(exponent)}"
    return text.replace("-", "−")


def decimal_value(text: str) -> Fraction:
    """The exact value of a number as written here (real minus, e-notation)."""
    return Fraction(Decimal(text.replace("−", "-")))


def exact_text(value: float) -> str:
    """The shortest decimal that reads back as the float ``value``: what a student typed.

    Positional from 10⁻⁴ up to 10¹⁶ (0.005, 0.1234567, 2.5), scientific outside
    (2.5e−7); 0 is "0", whole numbers have no ".0". Infinity is "∞".
    """
    value = float(value)
    if not math.isfinite(value):
        return "∞" if value > 0 else ("−∞" if value < 0 else "undefined")
    if value == 0:
        return "0"
    shortest = Decimal(repr(value))
    exponent = shortest.adjusted()  # the power of ten of the first digit
    if -5 < exponent < 16:
        text = format(shortest, "f")
        if "." in text:
            text = text.rstrip("0").rstrip(".")
        return _minus(text)
    digits = shortest.as_tuple().digits
    mantissa = str(digits[0]) + ("." + "".join(map(str, digits[1:])) if len(digits) > 1 else "")
    return _minus(("-" if value < 0 else "") + f"{mantissa}e{exponent}")


def _candidates(value: float, digits: int):
    """Texts of ``value`` with more and more digits: ``digits`` decimals and up (0.0002 for
    2·10⁻⁴), or below 10⁻⁴ 2 significant digits and up (2.0e−7)."""
    if abs(value) >= 1e-4:
        for places in range(digits, MOST_DIGITS + 1):
            yield _minus(f"{value:.{places}f}")
    else:
        for significant in range(2, MOST_DIGITS + 1):
            yield _minus(f"{value:.{significant - 1}e}")


def relation_text(value: float, relation: str, other: str, digits: int = 3) -> str:
    """``value`` written so that "value ``relation`` other" holds as written.

    Parameters
    ----------
    value : float, a computed number (a score)
    relation : one of ``RELATIONS`` ("≤", "<", ">", "≥", "=")
    other : str, the other side as the page writes it (``exact_text(delta)``)
    digits : int, decimals to try first

    Returns
    -------
    str: ``value`` with ``digits`` decimals if the relation holds between the written
    decimals, else with more; 0 is "0"; a nonzero value never reads as 0. When no
    rounding keeps the relation (the relation is false for the floats themselves),
    the exact form of ``value``.
    """
    if relation not in RELATIONS:
        raise ValueError(f"relation must be one of {', '.join(RELATIONS)}; got {relation!r}.")
    value = float(value)
    if not math.isfinite(value):
        return exact_text(value)
    if value == 0:
        return "0"
    bound = decimal_value(other)
    for text in _candidates(value, digits):
        if decimal_value(text) != 0 and RELATIONS[relation](decimal_value(text), bound):
            return text
    return exact_text(value)


def significant_text(value: float, significant: int = 4) -> str:
    """A computed value in an equality, never rounded to 0: ``significant`` significant
    digits (0.09706, 1.000e−7, 211.0), with a real minus."""
    value = float(value)
    if not math.isfinite(value) or value == 0:
        return exact_text(value)
    exponent = math.floor(math.log10(abs(value)))
    if -5 < exponent < 16:
        places = max(0, significant - 1 - exponent)
        return _minus(f"{value:.{places}f}")
    return _minus(f"{value:.{significant - 1}e}")


def _exponent(value: float) -> int:
    """The power of ten of the first digit of the shortest decimal of ``value`` (≠ 0)."""
    return Decimal(repr(float(value))).adjusted()


def fixed_text(value: float, places: int) -> str:
    """``value`` with ``places`` decimals, a tie rounded away from zero (as JavaScript's
    ``toFixed`` rounds the exact binary value), a real minus; 0 is "0" (and from 10²¹ up,
    where ``toFixed`` gives up, the exact form)."""
    value = float(value)
    if value == 0 or not math.isfinite(value) or abs(value) >= 1e21:
        return exact_text(value)
    text = format(Decimal(value).quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP), "f")
    return _minus(text)


def inequality_texts(left: float, relation: str, right: float, digits: int = 2) -> tuple[str, str]:
    """Both sides of "left ``relation`` right", two computed numbers, as written.

    Parameters
    ----------
    left, right : float, the two sides (a proof's quantity and its line at one update)
    relation : one of ``RELATIONS``
    digits : int, the fewest decimals

    Returns
    -------
    (str, str): both with the same number of decimals, the fewest from ``digits`` up
    that show two significant digits of the smaller nonzero side and for which the
    relation holds between the written decimals; 0 is "0", a nonzero side never reads
    as 0. Rounding both sides to the same decimals keeps "≤", "≥" and "=" whenever the
    floats satisfy them; when no rounding keeps the relation, the exact forms.
    """
    if relation not in RELATIONS:
        raise ValueError(f"relation must be one of {', '.join(RELATIONS)}; got {relation!r}.")
    left, right = float(left), float(right)
    if not (math.isfinite(left) and math.isfinite(right)):
        return exact_text(left), exact_text(right)
    nonzero = [abs(v) for v in (left, right) if v != 0]
    start = max([digits] + [1 - _exponent(v) for v in nonzero])
    for places in range(start, MOST_DIGITS + 1):
        texts = fixed_text(left, places), fixed_text(right, places)
        shown = [decimal_value(text) for text in texts]
        if all(s != 0 or v == 0 for s, v in zip(shown, (left, right), strict=True)) and RELATIONS[
            relation
        ](*shown):
            return texts
    return exact_text(left), exact_text(right)
