// What /train draws and says at a step of the perceptron (Algorithm 1.16).
//
// trainScene(slots, data) -> { draw(view) }. data comes from
// perceptron_core/viz/train.py:player_payload; view = { step, updates, atEnd }
// from player.js. Every number shown is read from the payload (tested in
// pytest) or is y(w·x + b) of one example, computed here the same way.
// Helpers (svg, fmt, plane, halfPlane, lineInSquare, miniChart, proofCharts,
// infoPanel, showStep, ...) are in scene_common.js.

function trainScene(slots, data) {
  const X = data.X, y = data.y, n = y.length, L = data.limit, scale = data.scale;
  const up = data.updates, delta = data.delta, present = Boolean(data.player.present);
  const exampleAt = examinedIndex(data);

  // -- the figure: the square with its axes and data (scene_common.js), then what moves
  const { root, plot, map, r } = plane(L, present,
                                       "the data, the hyperplane and the weight vector");
  const fillPositive = svg("polygon", { fill: COLORS.positiveFill });
  const fillNegative = svg("polygon", { fill: COLORS.negativeFill });
  plot.prepend(fillPositive, fillNegative);  // under the grid and the data
  if (data.planted && data.show_planted) {
    plantedLines(plot, map, data.planted.w, data.planted.b, data.planted.margin, L);
  }
  drawPoints(plot, map, X, y, r);
  const rings = svg("path", { fill: "none", stroke: "black", "stroke-width": 2.5, class: "rings" });
  const oldLine = svg("line", { stroke: COLORS.ghost, "stroke-width": 4, "stroke-dasharray": "12 8" });
  const line = svg("line", { stroke: COLORS.hyperplane, "stroke-width": 5, class: "hyperplane" });
  const oldArrow = svg("line", { stroke: COLORS.ghost, "stroke-width": 4, "marker-end": root.arrowHead("ghost") });
  const stepArrow = svg("line", { stroke: COLORS.step, "stroke-width": 5, "marker-end": root.arrowHead("step") });
  const arrow = svg("line", { stroke: COLORS.weight, "stroke-width": 6, "marker-end": root.arrowHead("w"), class: "weight" });
  const examined = examinedMark();
  plot.append(rings, oldLine, line, oldArrow, stepArrow, arrow, examined);
  scaleNote(root, map, scale, "vectors");
  const entries = [
    ["dot", COLORS.positive, "class +1"], ["square", COLORS.negative, "class −1"],
    ["line", COLORS.hyperplane, "hyperplane w·x + b = 0"], ["arrow", COLORS.weight, "w"],
    ["arrow", COLORS.step, "update y·x"], ["dash", COLORS.ghost, "before the update"],
    ["ring", "black", `y(w·x + b) ≤ δ: an update is due`],
    ["diamond", COLORS.step, "example examined"],
    ["fill", COLORS.positiveFill, "predicted +1"], ["fill", COLORS.negativeFill, "predicted −1 (also on the line: sign(0) = −1)"],
  ];
  if (data.planted && data.show_planted) entries.push(["dot-line", COLORS.planted, `planted w*·x + b* = 0, band ±${data.planted.margin}`]);
  slots.figure.append(root, legend(entries));

  // -- the info panel: step in words, w and b, counters, bound, end banner
  const panel = infoPanel(slots.info, [
    ["updates", "updates"], ["examples examined", "examined"], ["epoch", "epoch"],
    ["training accuracy", "accuracy"],
  ], { progress: true, hypotheses: true });
  const q = panel.q;
  q(".facts").textContent = data.facts;
  const bound = data.bound;
  if (!bound) q(".progress").hidden = true;
  else q(".hypotheses").textContent = `It holds because: ${bound.hypotheses}.`;

  // -- the chart below: the proof (separable) or bounded weights (not separable)
  let chartAt = () => {};
  if (data.proof) {
    chartAt = proofCharts(chartRow(slots.chart, data.proof.title, data.proof.caption), data.proof,
                          up.steps.length);
  } else if (data.path) {
    const p = data.path;
    const row = chartRow(slots.chart, p.title, p.caption);
    const left = miniChart(row, p.norm_title, [{ name: p.norm_name, values: p.norms, color: COLORS.weight }],
                           up.steps.length, [0, Math.max(...p.norms)], (v) => fmt(v, 1));
    const right = accuracyChart(row, p.accuracy, up.steps.length);
    chartAt = (k) => { left(k); right(k); };
  }

  const setLine = (node, w, b) => placeSegment(node, map, lineInSquare(w, b, L));
  const setArrow = (node, from, to) => placeArrow(node, map, from, to, scale);
  const polygon = (node, corners) => node.setAttribute("points", polygonPoints(map, corners));

  const deltaText = `δ = ${fmt(delta, 2).replace(/\.?0+$/, "") || "0"}`;

  // the step in words and the example it examined, for showStep
  function describe(step, k, updated) {
    const i = exampleAt(step);
    // the (w, b) in force when example i was examined: before this step's update
    const before = updated ? k - 1 : k;
    const w = up.weights[before], b = up.biases[before];
    const score = updated ? up.scores[k - 1] : y[i] * (w[0] * X[i][0] + w[1] * X[i][1] + b);
    const head = `Step ${step.toLocaleString("en-US")}: example ${i}, x = ${pair(X[i], 2)}, y = ${signed(y[i])}. ` +
      `y(w·x + b) = ${fmt(score, 3)}`;
    let rule = `w ← w + y·x = ${pair(up.weights[k], 2)}`;
    if (data.bias) rule += `, b ← b + y = ${fmt(up.biases[k], 2)}`;
    const sentence = updated ? `${head} ≤ ${deltaText}: a mistake by the update test, so ${rule}.`
      : `${head} > ${deltaText}: correct, no update.`;
    return { sentence, point: X[i], size: r + 16, updated };
  }

  function draw(view) {
    const k = view.updates, step = view.step;
    const w = up.weights[k], b = up.biases[k];
    const updated = step > 0 && k > 0 && up.steps[k - 1] === step;
    polygon(fillPositive, halfPlane(w, b, L, 1));
    polygon(fillNegative, halfPlane(w, b, L, -1));
    setLine(line, w, b);
    let ringPath = "";
    for (let i = 0; i < n; i++) {
      if (y[i] * (w[0] * X[i][0] + w[1] * X[i][1] + b) <= delta) ringPath += ringAround(map, X[i], r + 8);
    }
    rings.setAttribute("d", ringPath);
    setArrow(arrow, [0, 0], w);
    if (updated) {
      setLine(oldLine, up.weights[k - 1], up.biases[k - 1]);
      setArrow(oldArrow, [0, 0], up.weights[k - 1]);
      setArrow(stepArrow, up.weights[k - 1], w);
    } else {
      oldLine.style.display = oldArrow.style.display = stepArrow.style.display = "none";
    }
    showStep(panel, examined, map, step === 0
      ? { sentence: "Nothing examined yet. Press Next mistake or Next example (or → / ↓)." }
      : describe(step, k, updated));
    q(".now").textContent = `Now w = ${pair(w, 3)}` + (data.bias ? `, b = ${fmt(b, 3)}` : " (no bias: b = 0)");
    panel.count("updates", outOf(k, up.steps.length));
    panel.count("examined", outOf(step, data.player.n_examined));
    panel.count("epoch", step === 0 ? "—" : String(Math.ceil(step / n)));
    panel.count("accuracy", `${(100 * up.accuracy[k]).toFixed(1)}%`);
    if (bound) panel.progress(k, bound.value, `${plural(k, "update")} of at most ${bound.value_text} (${bound.name})`);
    panel.banner(view.atEnd, data.converged, data.end_text);
    chartAt(k);
  }
  return { draw };
}
