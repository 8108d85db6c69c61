// /train's predictions (joined after train_scene.js; the machinery is player_predict.js).
// Next example: will the example examined update (w, b)? When it does, and after Next
// mistake: which of three candidate lines is the new one: the true w + y·x (with b + y), and
// two wrong ones from the list TRAIN_WRONG, the first two that are other lines than the true
// one and each other. The rule is perceptron_core/viz/predict.py's, which the live class's
// poll and the tests use (they check the two agree).

// Wrong updates a student might make, in the order they are tried: [kind, why it is wrong].
// With a bias the vectors are (w, b); without one, w alone.
const TRAIN_WRONG = [
  ["minus", (L, bias) => `${L} subtracts y·x${bias ? " and y" : ""}: the update adds ${bias ? "them" : "it"}.`],
  ["keep_bias", (L) => `${L} leaves b as it was: with a bias the update also adds y to b.`],
  ["replace", (L, bias) => bias ? `${L} replaces (w, b) by (y·x, y): the update adds them to the (w, b) it has.`
    : `${L} replaces w by y·x: the update adds y·x to the w it has.`],
  ["unlabelled", (L, bias) => `${L} adds x${bias ? " and 1" : ""} without the label's sign: the update adds y·x${bias ? " and y" : ""}.`],
  ["turned", (L) => `${L} is the line along the new w: the line is perpendicular to w.`],
  ["twice", (L) => `${L} makes the update twice: one update adds y·x once.`],
];

// The (w, b) of a wrong kind, from the old (w, b), the example (x, y) and the true new (w, b).
function trainWrongLine(kind, w, b, x, y, next) {
  switch (kind) {
    case "minus": return { w: [w[0] - y * x[0], w[1] - y * x[1]], b: b - y };
    case "keep_bias": return { w: next.w, b };
    case "replace": return { w: [y * x[0], y * x[1]], b: y };
    case "unlabelled": return { w: [w[0] + x[0], w[1] + x[1]], b: b + 1 };
    case "turned": return { w: [-next.w[1], next.w[0]], b: next.b };
    default: return { w: [w[0] + 2 * y * x[0], w[1] + 2 * y * x[1]], b: b + 2 * y };
  }
}

// Whether two (w, b) draw the same line with the same side predicted +1 (one a positive
// multiple of the other), up to a relative 1e-9; `bias` false compares w alone (lines
// through 0). The same line with its sides swapped is another candidate.
function trainSameLine(a, c, bias) {
  const u = bias ? [a.w[0], a.w[1], a.b] : [a.w[0], a.w[1]];
  const v = bias ? [c.w[0], c.w[1], c.b] : [c.w[0], c.w[1]];
  const size = Math.hypot(...u) * Math.hypot(...v);
  let cross = 0, dot = 0;
  for (let i = 0; i < u.length; i++) {
    dot += u[i] * v[i];
    for (let j = i + 1; j < u.length; j++) cross = Math.max(cross, Math.abs(u[i] * v[j] - u[j] * v[i]));
  }
  return dot > 0 && cross <= 1e-9 * size;
}

// Whether two candidates read differently with two decimals: some number differs by more
// than 0.011 (then their two-decimal texts differ).
const trainReadApart = (a, c, bias) => Math.abs(a.w[0] - c.w[0]) > 0.011 ||
  Math.abs(a.w[1] - c.w[1]) > 0.011 || (bias && Math.abs(a.b - c.b) > 0.011);

// The three candidates at the k-th update (0-based) on example (x, y), from (w, b) to `next`
// = { w, b } (the run's): [{ letter, kind, w, b }] with the true one once, or null when the
// new w is 0 (no line to draw).
function trainCandidates(w, b, x, y, next, bias, k) {
  if (next.w[0] === 0 && next.w[1] === 0) return null;
  const right = { kind: "true", w: next.w, b: bias ? next.b : 0 };
  const wrong = [];
  for (const [kind] of TRAIN_WRONG) {
    if (wrong.length === 2) break;
    if (!bias && kind === "keep_bias") continue;
    const line = trainWrongLine(kind, w, bias ? b : 0, x, y, right);
    if (!bias) line.b = 0;
    if (line.w[0] === 0 && line.w[1] === 0) continue;
    if ([right, ...wrong].some((other) => trainSameLine(line, other, bias) || !trainReadApart(line, other, bias))) continue;
    wrong.push(Object.assign({ kind }, line));
  }
  return predictArrange(right, wrong, k);
}

// A number of an update's arithmetic: whole numbers as they are, others with two decimals.
const trainNumber = (v) => (Number.isInteger(v) ? String(v).replace("-", "−") : fmt(v, 2));
const trainPair = (v) => `(${trainNumber(v[0])}, ${trainNumber(v[1])})`;
const trainHundredths = (text) => Math.round(Number(text.replace("−", "-")) * 100);

// "w ← w + y·x = (…) + (−1)·(…) = (…)": "=" when the numbers as written add up, else "≈".
function trainArithmetic(w, b, x, y, next, bias) {
  const adds = (before, step, after) => trainHundredths(trainNumber(before)) + y * trainHundredths(trainNumber(step))
    === trainHundredths(trainNumber(after));
  const exact = [0, 1].every((j) => adds(w[j], x[j], next.w[j]));
  let text = `w ← w + y·x = ${trainPair(w)} + (${signed(y)})·${trainPair(x)} ${exact ? "=" : "≈"} ${trainPair(next.w)}`;
  if (bias) {
    const exactB = trainHundredths(trainNumber(b)) + y * 100 === trainHundredths(trainNumber(next.b));
    text += ` and b ← b + y = ${trainNumber(b)} + (${signed(y)}) ${exactB ? "=" : "≈"} ${trainNumber(next.b)}`;
  }
  return text;
}

// What /train asks before the move from step `from` to step `target`.
function trainQuestions(s, from, target, kind) {
  const { X, y, up, data } = s;
  const k = updatesAtStep(up.steps, from);
  const updated = k < up.steps.length && up.steps[k] === target;
  const i = s.exampleAt(target);
  const w = up.weights[k], b = up.biases[k];
  let score = updated ? up.scores[k] : y[i] * (w[0] * X[i][0] + w[1] * X[i][1] + b);
  if (Math.abs(score) <= up.slack[k]) score = 0;  // 0 up to the run's rounding, as the run takes it
  const relation = updated ? "≤" : ">";
  const test = `y(w·x + b) = ${relationText(score, relation, s.deltaValue)} ${relation} δ = ${s.deltaValue}`;
  const example = `example ${i + 1}, x ${equalsPair(X[i], 2)}, y = ${signed(y[i])}`;
  const mark = (layer) => { setShown(s.examined, false); predictMark(layer, s.map, X[i], s.r + 18); };
  const asked = [];
  if (kind === "example") {
    asked.push({
      id: "update", overlay: mark, answer: updated ? "update" : "none",
      prompt: `Step ${countText(target)} examines ${example}. Will it update w${data.bias ? " and b" : ""}?`,
      options: [{ key: "update", label: "Update", says: "an update", keys: ["y", "1"] },
                { key: "none", label: "No update", says: "no update", keys: ["n", "2"] }],
      reason: updated ? `${test}, so the update test fires.` : `${test}: the test passes, nothing changes.`,
    });
  }
  if (updated) {
    const skipped = target - from - 1;
    const intro = kind === "example" ? `Step ${countText(target)} updates.`
      : `The next update is at step ${countText(target)}: ${example}` +
        (skipped ? ` (the ${plural(skipped, "example")} before it pass${skipped === 1 ? "es" : ""} the test).` : ".");
    const line = trainLineQuestion(s, k, i, intro, test);
    if (line) asked.push(line);
  }
  return { asked, none: "" };
}

// "Which line comes next?" at the k-th update, on example i.
function trainLineQuestion(s, k, i, intro, test) {
  const { X, y, up, data, map, L } = s;
  const next = { w: up.weights[k + 1], b: up.biases[k + 1] };
  const candidates = trainCandidates(up.weights[k], up.biases[k], X[i], y[i], next, data.bias, k);
  if (!candidates) return null;
  const written = (c) => `w = ${trainPair(c.w)}` + (data.bias ? `, b = ${trainNumber(c.b)}` : "") +
    (lineInSquare(c.w, c.b, L) ? "" : " (its line is off the picture)");
  const answer = candidates.find((c) => c.kind === "true").letter;
  const dashes = ["14 8", "4 8", "22 8 4 8"];
  return {
    id: "line", answer,
    prompt: `${intro} Which line comes next? The arrow at each letter points to the side it predicts +1. ` +
      "Pick a line, on the picture or below.",
    options: candidates.map((c, index) => ({ key: c.letter, label: `${c.letter}: ${written(c)}`, says: c.letter,
                                             keys: [c.letter.toLowerCase(), String(index + 1)] })),
    reason: `${test}, so ${trainArithmetic(up.weights[k], up.biases[k], X[i], y[i], next, data.bias)}.`,
    wrong: (key) => {
      const c = candidates.find((item) => item.letter === key);
      return TRAIN_WRONG.find(([kind]) => kind === c.kind)[1](key, data.bias);
    },
    overlay: (layer, choose) => {
      for (const node of [s.oldLine, s.oldArrow, s.stepArrow, s.examined]) setShown(node, false);
      predictMark(layer, map, X[i], s.r + 18);
      candidates.forEach((c, index) => predictLine(layer, map, c, L, c.letter, choose, index, dashes[index]));
      layer.dataset.candidates = JSON.stringify(candidates.map((c) => [c.letter, c.w, c.b]));
    },
  };
}
