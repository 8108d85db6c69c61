// Numbers inside a relation (joined after scene_common.js): written so that the relation
// holds as written, by the rules of perceptron_core/shown_numbers.py (the tests check the
// two against each other). A number a student typed (δ) is written exactly, as the shortest
// decimal that reads back as it; a computed one gets the fewest digits, from `digits`
// decimals, for which "value relation other" holds between the written decimals, and a
// nonzero value never reads as 0.
const minusSign = (text) => text.replace(/e\+?/, "e").replace(/-/g, "−");
function exactText(value) {
  if (!Number.isFinite(value)) return value > 0 ? "∞" : value < 0 ? "−∞" : "undefined";
  if (value === 0) return "0";
  const exponent = Number(value.toExponential().split("e")[1]);
  // String() is the shortest round-trip decimal, positional in this range
  return minusSign(exponent > -5 && exponent < 16 ? String(value) : value.toExponential());
}
// A decimal as written here (real minus, e-notation) as the exact value m·10^e (BigInt m).
function decimalOf(text) {
  const [mantissa, power = "0"] = text.replace(/−/g, "-").split("e");
  const negative = mantissa.startsWith("-");
  const [whole, fraction = ""] = mantissa.replace("-", "").split(".");
  return { m: BigInt((negative ? "-" : "") + whole + fraction), e: Number(power) - fraction.length };
}
// The sign of a − b for two decimals of decimalOf, in exact arithmetic.
function compareDecimals(a, b) {
  const e = Math.min(a.e, b.e);
  const x = a.m * 10n ** BigInt(a.e - e), y = b.m * 10n ** BigInt(b.e - e);
  return x < y ? -1 : x > y ? 1 : 0;
}
const RELATIONS = { "≤": (c) => c <= 0, "<": (c) => c < 0, ">": (c) => c > 0, "≥": (c) => c >= 0, "=": (c) => c === 0 };
function relationText(value, relation, other, digits = 3) {
  if (!Number.isFinite(value)) return exactText(value);
  if (value === 0) return "0";
  const bound = decimalOf(other);
  const holds = (text) => {
    const shown = decimalOf(text);
    return shown.m !== 0n && RELATIONS[relation](compareDecimals(shown, bound));
  };
  if (Math.abs(value) >= 1e-4) {
    for (let places = digits; places <= 17; places++) {
      const text = minusSign(value.toFixed(places));
      if (holds(text)) return text;
    }
  } else {
    for (let significant = 2; significant <= 17; significant++) {
      const text = minusSign(value.toExponential(significant - 1));
      if (holds(text)) return text;
    }
  }
  return exactText(value);
}
// A computed value in an equality, never rounded to 0: `significant` significant digits
// (0.09706, 1.000e−7, 211.0), as perceptron_core/shown_numbers.py:significant_text.
function significantText(value, significant = 4) {
  if (!Number.isFinite(value) || value === 0) return exactText(value);
  const exponent = Math.floor(Math.log10(Math.abs(value)));
  if (exponent > -5 && exponent < 16) return minusSign(value.toFixed(Math.max(0, significant - 1 - exponent)));
  return minusSign(value.toExponential(significant - 1));
}
// value with `places` decimals, a tie away from zero (toFixed), a real minus; 0 is "0"
// (perceptron_core/shown_numbers.py:fixed_text).
function fixedText(value, places) {
  if (value === 0 || !Number.isFinite(value) || Math.abs(value) >= 1e21) return exactText(value);
  return minusSign(value.toFixed(places));
}
// Both sides of "left relation right", two computed numbers, with the same decimals: the
// fewest from `digits` up that show two significant digits of the smaller nonzero side and
// keep the relation true as written; the exact forms when none does (shown_numbers.py:
// inequality_texts).
function inequalityTexts(left, relation, right, digits = 2) {
  if (!Number.isFinite(left) || !Number.isFinite(right)) return [exactText(left), exactText(right)];
  let start = digits;
  for (const v of [left, right]) {
    if (v !== 0) start = Math.max(start, 1 - Number(Math.abs(v).toExponential().split("e")[1]));
  }
  for (let places = start; places <= 17; places++) {
    const texts = [fixedText(left, places), fixedText(right, places)];
    const shown = texts.map(decimalOf);
    const kept = shown.every((s, i) => s.m !== 0n || [left, right][i] === 0);
    if (kept && RELATIONS[relation](compareDecimals(shown[0], shown[1]))) return texts;
  }
  return [exactText(left), exactText(right)];
}
// count of total as a percentage: one decimal, more when needed so that it reads 100% only
// when count = total and 0% only when count = 0 (perceptron_core/viz/train.py:percent_text).
function percentText(count, total) {
  if (count === 0 || count === total) return count === 0 ? "0%" : "100%";
  const value = (100 * count) / total;
  let places = 1;
  while (places < 6 && [0, 100].includes(Number(value.toFixed(places)))) places++;
  return `${value.toFixed(places)}%`;
}
// "= 0.5" when the digits shown are the value itself, "≈ 0.68" when they are rounded: an
// equality on screen is true as printed (fmt's `digits` decimals either way).
const shownExactly = (value, digits) => Number(fmt(value, digits).replace("−", "-")) === value;
function equalsText(value, digits) {
  return `${shownExactly(value, digits) ? "=" : "≈"} ${fmt(value, digits)}`;
}
function equalsPair(v, digits) {
  const exact = shownExactly(v[0], digits) && shownExactly(v[1], digits);
  return `${exact ? "=" : "≈"} ${pair(v, digits)}`;
}
