// What /kernels draws and says at a step of the kernel perceptron (§2.3 of the kernel notes).
//
// kernelsScene(slots, data) -> { draw(view) }. data comes from
// perceptron_core/viz/kernels.py:player_payload; view = { step, updates, atEnd }.
// The decision function f(x) = Σ_i αᵢ yᵢ K(xᵢ, x) + b (eq. 2) is evaluated here,
// on a grid and at the training points, from the list of updates: after k updates
// αᵢ counts the i's among the first k update indices. Moving from k to k ± 1 adds or
// removes one kernel column, so a step costs one column, not a whole sum.
// Every other number (accuracy, counts on the wrong side, ‖w‖², bound) comes from
// the payload (tested in pytest). Helpers (svg, fmt, plane, legend, miniChart,
// proofCharts, infoPanel, showStep, ...) are in scene_common.js, scene_charts.js and
// scene_plane.js; the picture of f and the data marks in kernels_field.js.
//
// The scene's functions share one object s: the data (X, y, n, L, G, up, M), the kernel
// K, the running sums (kernelsSums), the figure's nodes (kernelsFigure) and the panel.

// K(x, z) for x = (ax, ay), z = (bx, by), by the kernel's name (as in perceptron_core's
// kernel table); coordinates as numbers, so a column of K runs over flat arrays.
const KERNELS = {
  linear: () => (ax, ay, bx, by) => ax * bx + ay * by,
  // (κ x·z + c)^degree
  poly: (spec) => {
    const scale = spec.scale, coef0 = spec.coef0, degree = spec.degree;
    return (ax, ay, bx, by) => (scale * (ax * bx + ay * by) + coef0) ** degree;
  },
  // exp(-κ ‖x − z‖²)
  rbf: (spec) => {
    const scale = spec.scale;
    return (ax, ay, bx, by) => { const u = ax - bx, v = ay - by; return Math.exp(-scale * (u * u + v * v)); };
  },
};
const kernelKernel = (spec) => (KERNELS[spec.name] || KERNELS.rbf)(spec);

// A whole number as subscript digits (α₁₂).
const sub = (value) => String(value).replace(/[0-9]/g, (d) => "₀₁₂₃₄₅₆₇₈₉"[d]);

function kernelsScene(slots, data) {
  const s = {
    data, X: data.X, y: data.y, n: data.y.length, L: data.limit, G: data.grid,
    up: data.updates, M: data.updates.indices.length, exampleAt: examinedIndex(data),
  };
  s.sums = kernelsSums(s, kernelKernel(data.kernel));
  Object.assign(s, kernelsFigure(slots, s));
  Object.assign(s, kernelsInfo(slots, s));
  return { draw: (view) => kernelsDraw(slots, s, view), scene: s, facts: kernelsFacts(data, s.M) };
}

// What matters about the run, said when a setting changes it: the margin in feature
// space, the bound and the run's length.
function kernelsFacts(data, M) {
  const bound = data.bound;
  return [
    ["margin in feature space", bound ? `γ_Φ = ${significantText(bound.margin)}` : "none: not separable there"],
    ["bound", bound ? `(R_Φ/γ_Φ)² = ${bound.value_text} updates` : "none holds"],
    ["run", `${plural(M, "update")} in ${plural(data.player.n_examined, "examined step")}`],
  ];
}

// The grid and the two running sums s(x) = Σ αᵢ yᵢ K(xᵢ, x) (f = s + b), on the grid
// (gridSum) and at the training points (pointSum), with α; moveTo(k) makes them hold
// the first k updates, one kernel column per update added or removed.
function kernelsSums({ X, y, n, L, G, up }, K) {
  // the grid's points (row by row from the top) and the data, as flat coordinate arrays
  const cellX = new Float64Array(G * G), cellY = new Float64Array(G * G);
  for (let row = 0; row < G; row++) {
    for (let col = 0; col < G; col++) {
      cellX[row * G + col] = -L + (2 * L * col) / (G - 1);
      cellY[row * G + col] = L - (2 * L * row) / (G - 1);
    }
  }
  const pointX = Float64Array.from(X, (x) => x[0]), pointY = Float64Array.from(X, (x) => x[1]);
  const gridSum = new Float64Array(G * G), pointSum = new Float64Array(n), alpha = new Int32Array(n);
  let current = 0;  // updates the sums hold
  // one update of example i added (sign +1) or removed (−1): s(x) ± yᵢ K(xᵢ, x) everywhere
  function apply(i, sign) {
    const xi = pointX[i], yi = pointY[i], c = sign * y[i];
    for (let j = 0; j < gridSum.length; j++) gridSum[j] += c * K(xi, yi, cellX[j], cellY[j]);
    for (let j = 0; j < n; j++) pointSum[j] += c * K(xi, yi, pointX[j], pointY[j]);
    alpha[i] += sign;
  }
  function moveTo(k) {
    if (k < current - k) {  // nearer to zero than to where we are: start again
      gridSum.fill(0); pointSum.fill(0); alpha.fill(0); current = 0;
    }
    while (current < k) apply(up.indices[current++], 1);
    while (current > k) apply(up.indices[--current], -1);
  }
  return { gridSum, pointSum, alpha, moveTo };
}

// The info panel and the chart below it: the proof's two quantities in feature space
// when a bound holds, else ‖w‖² and the training accuracy. Returns { panel, chartAt }.
function kernelsInfo(slots, { data, up, M }) {
  const panel = infoPanel(slots.info, [
    ["updates", "updates"], ["examples examined", "examined"], ["examples with α > 0", "support"],
    ["training accuracy", "accuracy"],
  ], { progress: true });
  panel.q(".facts").textContent = data.facts;
  const bound = data.bound;
  if (!bound) panel.q(".progress").hidden = true;
  const row = chartRow(slots.chart, bound
    ? "Why it stops (Theorem 1.28 in feature space): each update adds at least γ_Φ to ⟨w, u⟩ and at most R_Φ² to ‖w‖²"
    : "‖w‖² in feature space and the training accuracy");
  // w in feature space after t updates, t counting updates as on the charts' axes
  const normTitle = "‖w_t‖² in feature space";
  const normName = `‖w_t‖² = Σ αᵢ αⱼ yᵢ yⱼ ${data.bias ? "(K(xᵢ, xⱼ) + 1)" : "K(xᵢ, xⱼ)"}`;
  if (bound) {
    return { panel, chartAt: proofCharts(row, {
      alignment_title: `⟨w_t, u⟩ (u: the unit separating direction ${bound.best ? "with the best margin" : "found"})`,
      alignment_name: "⟨w_t, u⟩",
      alignment: up.alignment, alignment_lower_name: "t·γ_Φ",
      alignment_lower: up.alignment.map((_, t) => t * bound.margin),
      norm_sq_title: normTitle, norm_sq_name: normName, norm_sq: up.norm_sq, norm_sq_upper_name: "t·R_Φ²",
      norm_sq_upper: up.norm_sq.map((_, t) => t * bound.radius ** 2),
    }, M) };
  }
  const left = accuracyChart(row, up.accuracy, M);
  const right = miniChart(row, normTitle, [{ name: normName, values: up.norm_sq, color: COLORS.step }], M,
                          [0, Math.max(...up.norm_sq, 0)], chartNumber);
  return { panel, chartAt: (k) => { left(k); right(k); } };
}

// The step in words and the example it examined, for showStep; b is the bias in force then.
function kernelsDescribe(s, step, k, updated, b) {
  const { data, X, y, up } = s, { pointSum, alpha } = s.sums;
  const i = s.exampleAt(step), number = i + 1;  // index into X; a person reads x₁ … xₙ
  const before = updated ? k - 1 : k;  // the f in force when example i was examined
  const score = updated ? up.scores[k - 1] : y[i] * (pointSum[i] + b);
  const head = `Step ${countText(step)}: example ${countText(number)}, x ≈ ${pair(X[i], 2)}, ` +
    `y = ${signed(y[i])}. After ${plural(before, "update")}, y f(x) = ${relationText(score, updated ? "≤" : ">", "0")}`;
  let rule = `α${sub(number)} ← α${sub(number)} + 1 = ${alpha[i]}`;
  if (data.bias) rule += `, b ← b + y = ${fmt(up.biases[k], 0)}`;
  // y f(x) ≤ 0 is the update rule; it is a wrong prediction unless f(x) = 0 on a −1 example
  // (sign(0) = −1 predicts it right, and the rule still updates)
  const why = score === 0 && y[i] < 0
    ? "f(x) = 0 predicts −1 (sign(0) = −1), which is right, but the rule updates whenever y f(x) ≤ 0"
    : "a mistake";
  const sentence = updated ? `${head} ≤ 0: ${why}, so ${rule}. Every f(x) gains y·K(x${sub(number)}, x)${data.bias ? " + y" : ""}.`
    : `${head} > 0: correct, no update.`;
  return { sentence, point: X[i], size: s.radiusFor(alpha[i]) + 14, updated };
}

// Draw the view: f after k updates on the grid and its zero curve, the marks, the rings
// on the wrong side, the step in words, the counters, the progress and the chart.
function kernelsDraw(slots, s, view) {
  const started = performance.now();
  const { data, X, y, n, up, M, map, r, panel } = s, { gridSum, pointSum, alpha } = s.sums;
  const k = view.updates, step = view.step, b = up.biases[k];
  const updated = step > 0 && k > 0 && up.steps[k - 1] === step;
  s.sums.moveTo(k);
  if (s.fieldAt !== k) {  // f, its zero curve, α and the rings change only with an update
    kernelsPaint(s, b);
    kernelsZeroCurve(s, b);
    kernelsSizeMarks(s);
    const wrong = [];
    for (let i = 0; i < n; i++) if (y[i] * (pointSum[i] + b) <= 0) wrong.push(X[i]);
    s.rings.drawRings(map, wrong, r + 8);
    setText(s.words, kernelsWords(s, b));
    s.fieldAt = k;
  }
  showStep(panel, s.examined, map, step === 0
    ? { sentence: `Nothing examined yet: every αᵢ = 0${data.bias ? " and b = 0" : ""}, so f = 0 everywhere and every point is predicted −1 (sign(0) = −1). ${moveHint()}` }
    : kernelsDescribe(s, step, k, updated, updated ? up.biases[k - 1] : b));
  let support = 0;
  for (let i = 0; i < n; i++) if (alpha[i] > 0) support++;
  setText(panel.q(".now"), `Now f(x) = Σ αᵢ yᵢ K(xᵢ, x)` + (data.bias ? ` + b, b = ${fmt(b, 0)}` : " (no bias)") +
    `; ${plural(up.wrong_side[k], "training example")} with y f(x) ≤ 0.`);
  // the run's totals, not bounds: this run made M updates over its examined examples
  panel.count("updates", outOf(k, M));
  panel.count("examined", outOf(step, data.player.n_examined));
  panel.count("support", `${countText(support)} of ${countText(n)}`);
  panel.count("accuracy", percentText(Math.round(up.accuracy[k] * n), n));
  const bound = data.bound;
  if (bound) {
    panel.progress(k, bound.value, `${plural(k, "update")} of at most ${bound.most_text} (Theorem 1.28: ` +
                   `(R_Φ/γ_Φ)² ${bound.value_text}, R_Φ ${bound.radius_text}, γ_Φ ${bound.margin_text})`);
  }
  panel.banner(view.atEnd, data.converged, data.end_text);
  s.chartAt(k);
  // for tests and the benchmark: f on the grid after k updates, and the time this draw took
  slots.root.kernelField = { updates: k, bias: b, values: gridSum, points: pointSum };
  slots.root.dataset.drawMs = (performance.now() - started).toFixed(1);
}
