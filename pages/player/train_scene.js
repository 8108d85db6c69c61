// What /train draws and says at a step of the perceptron (Algorithm 1.16).
//
// trainScene(slots, data) -> { draw(view) }. data comes from
// perceptron_core/viz/train.py:player_payload; view = { step, updates, atEnd }
// from player.js. Every number shown is read from the payload (tested in
// pytest) or is y(w·x + b) of one example, computed here the same way.
// Helpers (svg, fmt, plane, halfPlane, lineInSquare, miniChart, proofCharts,
// infoPanel, showStep, ...) are in scene_common.js, scene_charts.js and scene_plane.js.
// The scene's functions share one object s: the data (X, y, n, L, up, delta), the
// figure's nodes (trainFigure) and the panel with the chart (trainInfo).

function trainScene(slots, data) {
  const s = {
    data, X: data.X, y: data.y, n: data.y.length, L: data.limit, up: data.updates,
    delta: data.delta, exampleAt: examinedIndex(data),
    deltaValue: exactText(data.delta),  // δ as the student typed it, never rounded
  };
  Object.assign(s, trainFigure(slots, s));
  Object.assign(s, trainInfo(slots, s));
  return { draw: (view) => trainDraw(s, view), scene: s, facts: trainFacts(data) };
}

// What matters about the run, said when a setting changes it: the best margin, the bound
// that holds and the run's length.
function trainFacts(data) {
  const gamma = data.bias ? "γ₂" : "γ", bound = data.bound;
  return [
    ["best margin", data.proof ? `${gamma} = ${significantText(data.proof.margin)}` : "none: no line separates the data"],
    ["bound", bound ? `${bound.name.split(" = ")[0]} = ${bound.value_text} updates` : "none holds"],
    ["run", `${plural(data.updates.steps.length, "update")} in ${plural(data.player.n_examined, "examined step")}`],
  ];
}

// The figure: the square with its axes and data (scene_plane.js), then what moves:
// the half-planes, the hyperplane, w, the update y·x with the old w and line ghosted,
// the rings where an update is due and the examined example; and the legend.
function trainFigure(slots, { data, X, y, L }) {
  const { root, plot, map, r } = plane(L, Boolean(data.player.present),
                                       "the data, the hyperplane and the weight vector");
  const nodes = { map, r, fillPositive: svg("polygon", { fill: COLORS.positiveFill }),
                  fillNegative: svg("polygon", { fill: COLORS.negativeFill }) };
  plot.prepend(nodes.fillPositive, nodes.fillNegative);  // under the grid and the data
  const planted = data.planted && data.show_planted ? data.planted : null;
  if (planted) plantedLines(plot, map, planted.w, planted.b, planted.margin, L);
  drawPoints(plot, map, X, y, r);
  Object.assign(nodes, {
    rings: ringLayer({ stroke: "black", width: 2.5 }),
    oldLine: svg("line", { stroke: COLORS.ghost, "stroke-width": 4, "stroke-dasharray": "12 8" }),
    line: svg("line", { stroke: COLORS.hyperplane, "stroke-width": 5, class: "hyperplane" }),
    oldArrow: svg("line", { stroke: COLORS.ghost, "stroke-width": 4, "marker-end": root.arrowHead("ghost") }),
    stepArrow: svg("line", { stroke: COLORS.step, "stroke-width": 5, "marker-end": root.arrowHead("step") }),
    arrow: svg("line", { stroke: COLORS.weight, "stroke-width": 6, "marker-end": root.arrowHead("w"), class: "weight" }),
    examined: examinedMark(),
  });
  plot.append(nodes.rings, nodes.oldLine, nodes.line, nodes.oldArrow, nodes.stepArrow, nodes.arrow,
              nodes.examined);
  scaleNote(root, map, data.scale, "vectors");
  const entries = [
    ["dot", COLORS.positive, "class +1"], ["square", COLORS.negative, "class −1"],
    ["line", COLORS.hyperplane, "hyperplane w·x + b = 0"], ["arrow", COLORS.weight, "w"],
    ["arrow", COLORS.step, "update y·x"], ["dash", COLORS.ghost, "before the update"],
    ["ring", "black", `y(w·x + b) ≤ δ: an update is due`],
    ["diamond", COLORS.step, "example examined"],
    ["fill", COLORS.positiveFill, "predicted +1"], ["fill", COLORS.negativeFill, "predicted −1 (also on the line: sign(0) = −1)"],
  ];
  if (planted) entries.push(["dot-line", COLORS.planted, `planted line (the generator's), band ±γ = ${planted.margin}`]);
  slots.figure.append(root, legend(entries));
  return nodes;
}

// The info panel (step in words, w and b, counters, bound, end banner) and the chart
// below: the proof (separable) or bounded weights (not separable). Returns { panel, chartAt }.
function trainInfo(slots, { data, up }) {
  const panel = infoPanel(slots.info, [
    ["updates", "updates"], ["examples examined", "examined"], ["epoch", "epoch"],
    ["training accuracy", "accuracy"],
  ], { progress: true, hypotheses: true });
  panel.q(".facts").textContent = data.facts;
  if (!data.bound) panel.q(".progress").hidden = true;
  else panel.q(".hypotheses").textContent = `It holds because: ${data.bound.hypotheses}.`;
  if (data.proof) {
    return { panel, chartAt: proofCharts(chartRow(slots.chart, data.proof.title, data.proof.caption),
                                         data.proof, up.steps.length) };
  }
  if (!data.path) return { panel, chartAt: () => {} };
  const p = data.path;
  const row = chartRow(slots.chart, p.title, p.caption);
  const left = miniChart(row, p.norm_title, [{ name: p.norm_name, values: p.norms, color: COLORS.weight }],
                         up.steps.length, [0, Math.max(...p.norms)], (v) => fmt(v, 1));
  const right = accuracyChart(row, p.accuracy, up.steps.length);
  return { panel, chartAt: (k) => { left(k); right(k); } };
}

// The step in words and the example it examined, for showStep. The score is the run's (0
// when within rounding of 0, as the run takes it), written with the digits that keep its
// comparison with δ true as written (relationText).
function trainDescribe({ data, X, y, up, r, exampleAt, deltaValue }, step, k, updated) {
  const i = exampleAt(step);  // 0-based index into X; a person reads example i + 1 (x₁ … xₙ)
  // the (w, b) in force when example i was examined: before this step's update
  const before = updated ? k - 1 : k;
  const w = up.weights[before], b = up.biases[before];
  let score = updated ? up.scores[k - 1] : y[i] * (w[0] * X[i][0] + w[1] * X[i][1] + b);
  if (Math.abs(score) <= up.slack[before]) score = 0;
  const relation = updated ? "≤" : ">";
  const head = `Step ${countText(step)}: example ${i + 1}, x ${equalsPair(X[i], 2)}, y = ${signed(y[i])}. ` +
    `y(w·x + b) = ${relationText(score, relation, deltaValue)} ${relation} δ = ${deltaValue}`;
  let rule = `w ← w + y·x ${equalsPair(up.weights[k], 2)}`;
  if (data.bias) rule += `, b ← b + y ${equalsText(up.biases[k], 2)}`;
  const sentence = updated ? `${head}: a mistake by the update test, so ${rule}.`
    : `${head}: correct, no update.`;
  return { sentence, point: X[i], size: r + 16, updated };
}

// Draw the view: after k updates, at examined step `step`.
function trainDraw(s, view) {
  const { data, X, y, n, L, up, delta, map, r, panel } = s;
  const setLine = (node, w, b) => placeSegment(node, map, lineInSquare(w, b, L));
  const setArrow = (node, from, to) => placeArrow(node, map, from, to, data.scale);
  const k = view.updates, step = view.step;
  const w = up.weights[k], b = up.biases[k];
  const updated = step > 0 && k > 0 && up.steps[k - 1] === step;
  if (s.drawnAt !== k) {  // the half-planes, the hyperplane, w and the rings depend on (w, b) only
    s.fillPositive.setAttribute("points", polygonPoints(map, halfPlane(w, b, L, 1)));
    s.fillNegative.setAttribute("points", polygonPoints(map, halfPlane(w, b, L, -1)));
    setLine(s.line, w, b);
    const due = [];  // y(w·x + b) ≤ δ, up to the run's rounding allowance: an update is due
    const limit = delta + up.slack[k];
    for (let i = 0; i < n; i++) {
      if (y[i] * (w[0] * X[i][0] + w[1] * X[i][1] + b) <= limit) due.push(X[i]);
    }
    s.rings.drawRings(map, due, r + 8);
    setArrow(s.arrow, [0, 0], w);
    s.drawnAt = k;
  }
  if (updated) {
    setLine(s.oldLine, up.weights[k - 1], up.biases[k - 1]);
    setArrow(s.oldArrow, [0, 0], up.weights[k - 1]);
    setArrow(s.stepArrow, up.weights[k - 1], w);
  } else {
    for (const node of [s.oldLine, s.oldArrow, s.stepArrow]) setShown(node, false);
  }
  showStep(panel, s.examined, map, step === 0
    ? { sentence: `Nothing examined yet. ${moveHint()}` }
    : trainDescribe(s, step, k, updated));
  setText(panel.q(".now"), `Now w ${equalsPair(w, 3)}` + (data.bias ? `, b ${equalsText(b, 3)}` : " (no bias: b = 0)"));
  panel.count("updates", outOf(k, up.steps.length));
  panel.count("examined", outOf(step, data.player.n_examined));
  panel.count("epoch", step === 0 ? "—" : String(Math.ceil(step / n)));
  panel.count("accuracy", percentText(Math.round(up.accuracy[k] * n), n));
  const bound = data.bound;
  if (bound) panel.progress(k, bound.value, `${plural(k, "update")} of at most ${bound.value_text} (${bound.name})`);
  panel.banner(view.atEnd, data.converged, data.end_text);
  s.chartAt(k);
}
