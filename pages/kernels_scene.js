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
// proofCharts, infoPanel, showStep, ...) are in scene_common.js.

function kernelKernel(spec) {
  const g = spec.gamma, c = spec.coef0, d = spec.degree;
  if (spec.name === "linear") return (a, b) => a[0] * b[0] + a[1] * b[1];
  if (spec.name === "poly") return (a, b) => (g * (a[0] * b[0] + a[1] * b[1]) + c) ** d;
  // rbf: exp(-γ ‖a − b‖²)
  return (a, b) => { const u = a[0] - b[0], v = a[1] - b[1]; return Math.exp(-g * (u * u + v * v)); };
}

// A whole number as subscript digits (α₁₂).
const sub = (value) => String(value).replace(/[0-9]/g, (d) => "₀₁₂₃₄₅₆₇₈₉"[d]);

function kernelsScene(slots, data) {
  const X = data.X, y = data.y, n = y.length, L = data.limit, G = data.grid;
  const up = data.updates, present = Boolean(data.player.present), M = up.indices.length;
  const exampleAt = examinedIndex(data);
  const K = kernelKernel(data.kernel);

  // -- the grid and the two running sums: s(x) = Σ αᵢ yᵢ K(xᵢ, x) (f = s + b)
  const cells = [];
  for (let row = 0; row < G; row++) {
    for (let col = 0; col < G; col++) cells.push([-L + (2 * L * col) / (G - 1), L - (2 * L * row) / (G - 1)]);
  }
  const gridSum = new Float64Array(G * G), pointSum = new Float64Array(n), alpha = new Int32Array(n);
  let current = 0;  // updates the sums hold
  function apply(i, sign) {
    const xi = X[i], c = sign * y[i];
    for (let j = 0; j < cells.length; j++) gridSum[j] += c * K(xi, cells[j]);
    for (let j = 0; j < n; j++) pointSum[j] += c * K(xi, X[j]);
    alpha[i] += sign;
  }
  function moveSums(k) {
    if (k < current - k) {  // nearer to zero than to where we are: start again
      gridSum.fill(0); pointSum.fill(0); alpha.fill(0); current = 0;
    }
    while (current < k) apply(up.indices[current++], 1);
    while (current > k) apply(up.indices[--current], -1);
  }

  // -- the figure: a filled picture of f, the curve f = 0, the data with α as size
  const { root, plot, map, r } = plane(L, present, "the data and the kernel perceptron's decision function");
  const canvas = document.createElement("canvas");
  canvas.width = G; canvas.height = G;
  const image = svg("image", { x: map.x(-L), y: map.y(L), width: map.size, height: map.size,
                               preserveAspectRatio: "none" });
  const half = (L * map.size) / (G - 1) / (2 * L);  // grid cells are centred on the grid points
  image.setAttribute("x", map.x(-L) - half); image.setAttribute("y", map.y(L) - half);
  image.setAttribute("width", map.size + 2 * half); image.setAttribute("height", map.size + 2 * half);
  plot.prepend(image);
  const rings = svg("path", { fill: "none", stroke: "black", "stroke-width": 2.5, class: "rings" });
  const curve = svg("path", { fill: "none", stroke: COLORS.hyperplane, "stroke-width": 5, class: "zero-curve" });
  const examined = examinedMark();
  const marks = [];
  const points = svg("g", { class: "data" });
  for (let i = 0; i < n; i++) {
    const node = y[i] > 0
      ? svg("circle", { cx: map.x(X[i][0]), cy: map.y(X[i][1]), r, fill: COLORS.positive })
      : svg("rect", { fill: COLORS.negative });
    node.setAttribute("stroke", "white");
    node.setAttribute("stroke-width", 1.5);
    marks.push(node);
    points.append(node);
  }
  plot.append(curve, points, rings, examined);
  const radiusFor = (a) => r * (a > 0 ? 1.2 + 0.9 * Math.sqrt(a) : 0.9);
  function sizeMarks() {
    for (let i = 0; i < n; i++) {
      const rr = Math.min(radiusFor(alpha[i]), 5 * r), node = marks[i];
      if (y[i] > 0) node.setAttribute("r", rr);
      else {
        const s = rr * 0.9;
        node.setAttribute("x", map.x(X[i][0]) - s); node.setAttribute("y", map.y(X[i][1]) - s);
        node.setAttribute("width", 2 * s); node.setAttribute("height", 2 * s);
      }
      node.setAttribute("fill-opacity", alpha[i] > 0 ? 1 : 0.6);
    }
  }
  const entries = [
    ["dot", COLORS.positive, "class +1"], ["square", COLORS.negative, "class −1"],
    ["line", COLORS.hyperplane, "f(x) = 0"],
    ["ring", "black", "y f(x) ≤ 0: on the wrong side (a mistake if examined)"],
    ["diamond", COLORS.step, "example examined"],
    ["fill", "rgba(0, 114, 178, 0.35)", "f > 0: predicted +1 (darker: larger |f|)"],
    ["fill", "rgba(213, 94, 0, 0.35)", "f ≤ 0: predicted −1"],
  ];
  const sizeNote = document.createElement("div");
  sizeNote.className = "caption";
  sizeNote.textContent = "Marker size grows with αᵢ, the number of updates example i caused; faint points have αᵢ = 0 and do not enter f.";
  slots.figure.append(root, legend(entries), sizeNote);

  // f on the grid as a picture in five bands per sign, scaled by the largest |f| shown
  const context = canvas.getContext("2d");
  const pixels = context.createImageData(G, G);
  const BLUE = [0, 114, 178], ORANGE = [213, 94, 0];
  function paint(b) {
    let largest = 0;
    for (let j = 0; j < gridSum.length; j++) largest = Math.max(largest, Math.abs(gridSum[j] + b));
    for (let j = 0; j < gridSum.length; j++) {
      const f = gridSum[j] + b;
      const band = largest > 0 ? Math.min(4, Math.floor((5 * Math.abs(f)) / largest)) : 0;
      const colour = f > 0 ? BLUE : ORANGE, weight = 0.1 + 0.07 * band;
      for (let c = 0; c < 3; c++) pixels.data[4 * j + c] = Math.round(255 - weight * (255 - colour[c]));
      pixels.data[4 * j + 3] = 255;
    }
    context.putImageData(pixels, 0, 0);
    image.setAttribute("href", canvas.toDataURL());
  }
  // the curve f = 0: marching squares with linear interpolation along each cell edge
  function zeroCurve(b) {
    let path = "";
    const value = (row, col) => gridSum[row * G + col] + b;
    const px = (col) => map.x(-L + (2 * L * col) / (G - 1)), py = (row) => map.y(L - (2 * L * row) / (G - 1));
    for (let row = 0; row < G - 1; row++) {
      for (let col = 0; col < G - 1; col++) {
        const corners = [[row, col], [row, col + 1], [row + 1, col + 1], [row + 1, col]];
        const v = corners.map(([a, c]) => value(a, c));
        const crossings = [];
        for (let e = 0; e < 4; e++) {
          const a = v[e], c = v[(e + 1) % 4];
          if ((a > 0) !== (c > 0)) {
            const t = a / (a - c), [r0, c0] = corners[e], [r1, c1] = corners[(e + 1) % 4];
            crossings.push([px(c0 + t * (c1 - c0)), py(r0 + t * (r1 - r0))]);
          }
        }
        if (crossings.length === 2) {
          path += `M${crossings[0][0].toFixed(1)},${crossings[0][1].toFixed(1)}L${crossings[1][0].toFixed(1)},${crossings[1][1].toFixed(1)}`;
        } else if (crossings.length === 4) {  // a saddle: pair the crossings by the centre's sign
          const centre = (v[0] + v[1] + v[2] + v[3]) / 4 > 0, first = (v[0] > 0) === centre ? 1 : 0;
          for (let p = 0; p < 2; p++) {
            const a = crossings[(first + 2 * p) % 4], c = crossings[(first + 2 * p + 1) % 4];
            path += `M${a[0].toFixed(1)},${a[1].toFixed(1)}L${c[0].toFixed(1)},${c[1].toFixed(1)}`;
          }
        }
      }
    }
    curve.setAttribute("d", path);
  }

  // -- the info panel
  const panel = infoPanel(slots.info, [
    ["updates", "updates"], ["examples examined", "examined"], ["examples with α > 0", "support"],
    ["training accuracy", "accuracy"],
  ], { progress: true });
  const q = panel.q;
  q(".facts").textContent = data.facts;
  const bound = data.bound;
  if (!bound) q(".progress").hidden = true;

  // -- the chart below: the proof's two quantities in feature space (or accuracy)
  const row = chartRow(slots.chart, bound
    ? "Why it stops (Theorem 1.28 in feature space): each update adds at least γ_Φ to ⟨w, u⟩ and at most R_Φ² to ‖w‖²"
    : "‖w‖² in feature space and the training accuracy");
  const normTitle = "‖wₖ‖² in feature space", normName = "‖wₖ‖² = Σ αᵢ αⱼ yᵢ yⱼ K̃(xᵢ, xⱼ)";
  let chartAt;
  if (bound) {
    chartAt = proofCharts(row, {
      alignment_title: "⟨wₖ, u⟩ (u: the best unit direction)", alignment_name: "⟨wₖ, u⟩",
      alignment: up.alignment, alignment_lower_name: "k·γ_Φ",
      alignment_lower: up.alignment.map((_, k) => k * bound.margin),
      norm_sq_title: normTitle, norm_sq_name: normName, norm_sq: up.norm_sq, norm_sq_upper_name: "k·R_Φ²",
      norm_sq_upper: up.norm_sq.map((_, k) => k * bound.radius ** 2),
    }, M);
  } else {
    const left = accuracyChart(row, up.accuracy, M);
    const right = miniChart(row, normTitle, [{ name: normName, values: up.norm_sq, color: COLORS.step }], M,
                            [0, Math.max(...up.norm_sq, 0)], chartNumber);
    chartAt = (k) => { left(k); right(k); };
  }

  // the step in words and the example it examined, for showStep; b is the bias in force then
  function describe(step, k, updated, b) {
    const i = exampleAt(step);
    const before = updated ? k - 1 : k;  // the f in force when example i was examined
    const score = updated ? up.scores[k - 1] : y[i] * (pointSum[i] + b);
    const head = `Step ${step.toLocaleString("en-US")}: example ${i}, x = ${pair(X[i], 2)}, ` +
      `y = ${signed(y[i])}. After ${plural(before, "update")}, y f(x) = ${fmt(score, 3)}`;
    let rule = `α${sub(i)} ← α${sub(i)} + 1 = ${alpha[i]}`;
    if (data.bias) rule += `, b ← b + y = ${fmt(up.biases[k], 0)}`;
    const sentence = updated ? `${head} ≤ 0: a mistake, so ${rule}. Every f(x) gains y·K(x${sub(i)}, x)${data.bias ? " + y" : ""}.`
      : `${head} > 0: correct, no update.`;
    return { sentence, point: X[i], size: radiusFor(alpha[i]) + 14, updated };
  }

  function draw(view) {
    const started = performance.now();
    const k = view.updates, step = view.step, b = up.biases[k];
    const updated = step > 0 && k > 0 && up.steps[k - 1] === step;
    moveSums(k);
    paint(b);
    zeroCurve(b);
    sizeMarks();
    let ringPath = "";
    for (let i = 0; i < n; i++) {
      if (y[i] * (pointSum[i] + b) <= 0) ringPath += ringAround(map, X[i], r + 8);
    }
    rings.setAttribute("d", ringPath);
    showStep(panel, examined, map, step === 0
      ? { sentence: "Nothing examined yet: every αᵢ = 0, so f = 0 everywhere and every point is predicted −1. Press Next mistake or Next example (or → / ↓)." }
      : describe(step, k, updated, updated ? up.biases[k - 1] : b));
    let support = 0;
    for (let i = 0; i < n; i++) if (alpha[i] > 0) support++;
    q(".now").textContent = `Now f(x) = Σ αᵢ yᵢ K(xᵢ, x)` + (data.bias ? ` + b, b = ${fmt(b, 0)}` : " (no bias)") +
      `; ${plural(up.wrong_side[k], "training example")} with y f(x) ≤ 0.`;
    panel.count("updates", outOf(k, M));
    panel.count("examined", outOf(step, data.player.n_examined));
    panel.count("support", `${support} of ${n}`);
    panel.count("accuracy", `${(100 * up.accuracy[k]).toFixed(1)}%`);
    if (bound) {
      panel.progress(k, bound.value, `${plural(k, "update")} of at most ${bound.value_text} = (R_Φ/γ_Φ)² = ` +
                     `(${fmt(bound.radius, 3)} / ${fmt(bound.margin, 4)})²`);
    }
    panel.banner(view.atEnd, data.converged, data.end_text);
    chartAt(k);
    // for tests and the benchmark: f on the grid after k updates, and the time this draw took
    slots.root.kernelField = { updates: k, bias: b, values: gridSum, points: pointSum };
    slots.root.dataset.drawMs = (performance.now() - started).toFixed(1);
  }
  return { draw };
}
