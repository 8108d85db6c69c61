// What /generalisation draws and says at a step of the margin perceptron.
//
// generalisationScene(slots, data) -> { draw(view) }. data comes from
// perceptron_core/viz/generalisation.py:margin_player_payload; view = { step,
// updates, atEnd } from player.js. A margin mistake is y x·β < 1: either on the
// wrong side (y x·β ≤ 0) or right but inside the band between x·β = −1 and
// x·β = +1. Helpers (plane, drawPoints, legend, proofCharts, infoPanel, showStep,
// fmt, ...) are in scene_common.js, scene_charts.js and scene_plane.js. The scene's
// functions share one object s: the data (X, y, n, L, up), the figure's nodes and the panel.

function generalisationScene(slots, data) {
  const s = { data, X: data.X, y: data.y, n: data.y.length, L: data.limit, up: data.updates,
              exampleAt: examinedIndex(data) };
  // the margin y x·w of example i after k updates; while w is k times the first updated
  // example's y x (k ≤ own.until), that example's margin is exactly k (‖x‖ = 1), not the
  // float product of its rounded coordinates (perceptron_core OwnScore)
  const own = data.own;
  s.margin = (w, i, k) => (k >= 1 && k <= own.until && i === own.index ? k
    : s.y[i] * (w[0] * s.X[i][0] + w[1] * s.X[i][1]));
  Object.assign(s, generalisationFigure(slots, s));
  Object.assign(s, generalisationInfo(slots, s));
  return { draw: (view) => generalisationDraw(s, view), scene: s, facts: generalisationFacts(data) };
}

// What matters about the run, said when a setting changes it: the margin, the Lemma's
// bound and the run's length.
function generalisationFacts(data) {
  return [
    ["margin", `γ = ${exactText(data.planted.margin)}`],
    ["bound", `3/γ² = ${data.bound.value_text} margin mistakes`],
    ["run", `${plural(data.updates.steps.length, "margin mistake")} in ${plural(data.player.n_examined, "examined step")}`],
  ];
}

// The figure: the margin band, the unit circle, the planted β* and its margin, the
// data, the rings of the two kinds of margin mistake, β and the update. Returns the
// nodes that move.
function generalisationFigure(slots, { data, X, y, L }) {
  const gamma = data.planted.margin;
  const { root, plot, map, r } = plane(L, Boolean(data.player.present),
                                       "unit-length data, the hyperplane w·x = 0 and its margin band");
  // the band |x·β| < 1 where a right-side point still counts as a margin mistake
  const band = svg("polygon", { fill: "rgba(230, 159, 0, 0.13)", class: "band" });
  plot.prepend(band);
  const circle = svg("circle", { cx: map.x(0), cy: map.y(0), r: map.x(1) - map.x(0), fill: "none",
                                 stroke: "#bbb", "stroke-width": 2, "stroke-dasharray": "3 6" });
  plot.insertBefore(circle, plot.dataLayer);
  plantedLines(plot, map, data.planted.beta, 0, gamma, L);
  drawPoints(plot, map, X, y, r);
  const nodes = {
    map, r, band,
    ringsWrong: ringLayer({ stroke: "black", width: 3, className: "rings-wrong" }),
    ringsClose: ringLayer({ stroke: COLORS.step, width: 3.5, dash: [7, 5], className: "rings-close" }),
    bandLow: svg("line", { stroke: COLORS.step, "stroke-width": 3, "stroke-dasharray": "12 8" }),
    bandHigh: svg("line", { stroke: COLORS.step, "stroke-width": 3, "stroke-dasharray": "12 8" }),
    line: svg("line", { stroke: COLORS.hyperplane, "stroke-width": 5, class: "hyperplane" }),
    stepArrow: svg("line", { stroke: COLORS.step, "stroke-width": 5, "marker-end": root.arrowHead("step") }),
    arrow: svg("line", { stroke: COLORS.weight, "stroke-width": 6, "marker-end": root.arrowHead("w"), class: "weight" }),
    examined: examinedMark(),
  };
  plot.append(nodes.ringsWrong, nodes.ringsClose, nodes.bandLow, nodes.bandHigh, nodes.line,
              nodes.stepArrow, nodes.arrow, nodes.examined);
  scaleNote(root, map, data.scale, "w");
  slots.figure.append(root, legend([
    ["dot", COLORS.positive, "class +1"], ["square", COLORS.negative, "class −1"],
    ["line", COLORS.hyperplane, "w·x = 0"], ["dash", COLORS.step, "band edges w·x = ±1"],
    ["arrow", COLORS.weight, "w"], ["arrow", COLORS.step, "update y·x"],
    ["ring", "black", "wrong side: y x·w ≤ 0"], ["ring", COLORS.step, "right side, inside the band: 0 < y x·w < 1"],
    ["diamond", COLORS.step, "example examined"],
    ["dot-line", COLORS.planted, `planted w*·x = 0, no data within γ = ${data.planted.margin_text}`],
  ]));
  return nodes;
}

// The info panel, the Lemma's two quantities against their lines, and the counts of
// each kind of margin mistake after k updates. Returns { panel, chartAt, wrongBefore, closeBefore }.
function generalisationInfo(slots, { data, up }) {
  const panel = infoPanel(slots.info, [
    ["margin mistakes t", "updates"], ["examples examined", "examined"],
    ["of them on the wrong side", "wrong"], ["right but inside the band", "close"],
  ], { progress: true, hypotheses: true });
  panel.q(".facts").setAttribute("data-testid", "state-now");
  panel.q(".hypotheses").textContent = `It holds because ${data.bound.hypotheses}.`;
  const p = data.proof;
  const chartAt = proofCharts(chartRow(slots.chart, p.title, p.caption), p, up.steps.length,
                              [" (at least)", " (at most)"]);
  const wrongBefore = [0], closeBefore = [0];
  for (const kind of up.kinds) {
    wrongBefore.push(wrongBefore[wrongBefore.length - 1] + (kind === "wrong side" ? 1 : 0));
    closeBefore.push(closeBefore[closeBefore.length - 1] + (kind === "wrong side" ? 0 : 1));
  }
  return { panel, chartAt, wrongBefore, closeBefore };
}

// The step in words and the example it examined, for showStep.
function generalisationDescribe({ X, y, up, r, exampleAt, margin }, step, k, updated) {
  const i = exampleAt(step);  // 0-based index into X; a person reads example i + 1 (x₁ … xₙ)
  const before = updated ? k - 1 : k;
  const m = updated ? up.scores[k - 1] : margin(up.weights[before], i, before);
  const head = `Step ${countText(step)}: example ${i + 1}, x ${equalsPair(X[i], 2)}, y = ${signed(y[i])}. y x·w`;
  // the margin written with the digits that keep each comparison true (0.9996 is not "1.000")
  const kind = m <= 0 ? `= ${fmtBeside(m, 0, 3)} ≤ 0: on the wrong side (or on the line), a margin mistake`
    : `= ${fmtBeside(m, [0, 1], 3)} is > 0 but < 1: right side, yet inside the band, a margin mistake all the same`;
  const sentence = updated ? `${head} ${kind}. So w ← w + y·x ${equalsPair(up.weights[k], 2)}.`
    : `${head} = ${fmtBeside(m, 1, 3)} ≥ 1: right side and outside the band, no update.`;
  return { sentence, point: X[i], size: r + 18, updated };
}

// Draw the view: β after k updates, its band, the rings, the step, counts and charts.
function generalisationDraw(s, view) {
  const { data, X, n, L, up, map, r, panel } = s;
  const setSeg = (node, seg) => placeSegment(node, map, seg);
  const k = view.updates, step = view.step;
  const w = up.weights[k];
  const updated = step > 0 && k > 0 && up.steps[k - 1] === step;
  const zero = w[0] === 0 && w[1] === 0;
  const norm2 = w[0] * w[0] + w[1] * w[1];
  // the band {x : |x·β| < 1}: everything while β = 0
  s.band.setAttribute("points", polygonPoints(map, zero ? squareCorners(L) : clipBand(w, L)));
  setSeg(s.line, zero ? null : lineInSquare(w, 0, L));
  setSeg(s.bandLow, zero ? null : lineInSquare(w, 1, L));
  setSeg(s.bandHigh, zero ? null : lineInSquare(w, -1, L));
  const wrong = [], close = [];  // the two kinds of margin mistake w would make now
  for (let i = 0; i < n; i++) {
    const m = s.margin(w, i, k);
    if (m <= 0) wrong.push(X[i]);
    else if (m < 1) close.push(X[i]);
  }
  if (s.ringsAt !== k) {  // the rings change only with an update
    s.ringsWrong.drawRings(map, wrong, r + 8);
    s.ringsClose.drawRings(map, close, r + 9);
    s.ringsAt = k;
  }
  const wrongNow = wrong.length, closeNow = close.length;
  placeArrow(s.arrow, map, [0, 0], w, data.scale);
  if (updated) placeArrow(s.stepArrow, map, up.weights[k - 1], w, data.scale);
  else s.stepArrow.style.display = "none";
  showStep(panel, s.examined, map, step === 0
    ? { sentence: `Nothing examined yet: w = 0, so every point has y x·w = 0 < 1. ${moveHint()}` }
    : generalisationDescribe(s, step, k, updated));
  panel.q(".now").textContent = `Now w ${equalsPair(w, 3)}, ‖w‖² ${equalsText(norm2, 2)}, w·w* ${equalsText(data.proof.alignment[k], 3)}`;
  panel.count("updates", outOf(k, up.steps.length));
  panel.count("examined", outOf(step, data.player.n_examined));
  panel.count("wrong", String(s.wrongBefore[k]));
  panel.count("close", String(s.closeBefore[k]));
  panel.q(".facts").textContent = `With this w: ${plural(wrongNow, "point")} on the wrong side, ${plural(closeNow, "point")} right but inside the band, ${plural(n - wrongNow - closeNow, "point")} with y x·w ≥ 1.`;
  panel.progress(k, data.bound.value, `${plural(k, "margin mistake")} of at most 3/γ² ${data.bound.relation} (the Lemma)`);
  panel.banner(view.atEnd, data.converged, data.end_text);
  s.chartAt(k);
}

// The strip {x : −1 ≤ x·w ≤ 1} inside the square: the square clipped by a·x ≤ 1 for a = w
// and for a = −w.
function clipBand(w, limit) {
  const below = (a) => (p) => 1 - (a[0] * p[0] + a[1] * p[1]);
  return clipPolygon(clipPolygon(squareCorners(limit), below(w)), below([-w[0], -w[1]]));
}
