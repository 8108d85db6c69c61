// What /generalisation draws and says at a step of the margin perceptron.
//
// generalisationScene(slots, data) -> { draw(view) }. data comes from
// perceptron_core/viz/generalisation.py:margin_player_payload; view = { step,
// updates, atEnd } from player.js. A margin mistake is y x·β < 1: either on the
// wrong side (y x·β ≤ 0) or right but inside the band between x·β = −1 and
// x·β = +1. Helpers (plane, drawPoints, legend, proofCharts, infoPanel, showStep,
// fmt, ...) are in scene_common.js.

function generalisationScene(slots, data) {
  const X = data.X, y = data.y, n = y.length, L = data.limit, scale = data.scale;
  const up = data.updates, present = Boolean(data.player.present);
  const gamma = data.planted.margin, star = data.planted.beta;
  const exampleAt = examinedIndex(data);
  const margin = (w, i) => y[i] * (w[0] * X[i][0] + w[1] * X[i][1]);

  const { root, plot, map, r } = plane(L, present, "unit-length data, the hyperplane β·x = 0 and its margin band");
  // the band |x·β| < 1 where a right-side point still counts as a margin mistake
  const band = svg("polygon", { fill: "rgba(230, 159, 0, 0.13)", class: "band" });
  plot.prepend(band);
  const circle = svg("circle", { cx: map.x(0), cy: map.y(0), r: map.x(1) - map.x(0), fill: "none",
                                 stroke: "#bbb", "stroke-width": 2, "stroke-dasharray": "3 6" });
  plot.insertBefore(circle, plot.dataLayer);
  plantedLines(plot, map, star, 0, gamma, L);
  drawPoints(plot, map, X, y, r);
  const ringsWrong = svg("path", { fill: "none", stroke: "black", "stroke-width": 3, class: "rings-wrong" });
  const ringsClose = svg("path", { fill: "none", stroke: COLORS.step, "stroke-width": 3.5,
                                   "stroke-dasharray": "7 5", class: "rings-close" });
  const bandLow = svg("line", { stroke: COLORS.step, "stroke-width": 3, "stroke-dasharray": "12 8" });
  const bandHigh = svg("line", { stroke: COLORS.step, "stroke-width": 3, "stroke-dasharray": "12 8" });
  const line = svg("line", { stroke: COLORS.hyperplane, "stroke-width": 5, class: "hyperplane" });
  const stepArrow = svg("line", { stroke: COLORS.step, "stroke-width": 5, "marker-end": root.arrowHead("step") });
  const arrow = svg("line", { stroke: COLORS.weight, "stroke-width": 6, "marker-end": root.arrowHead("w"), class: "weight" });
  const examined = examinedMark();
  plot.append(ringsWrong, ringsClose, bandLow, bandHigh, line, stepArrow, arrow, examined);
  scaleNote(root, map, scale, "β");
  slots.figure.append(root, legend([
    ["dot", COLORS.positive, "class +1"], ["square", COLORS.negative, "class −1"],
    ["line", COLORS.hyperplane, "β·x = 0"], ["dash", COLORS.step, "band edges β·x = ±1"],
    ["arrow", COLORS.weight, "β"], ["arrow", COLORS.step, "update y·x"],
    ["ring", "black", "wrong side: y x·β ≤ 0"], ["ring", COLORS.step, "right side, inside the band: 0 < y x·β < 1"],
    ["diamond", COLORS.step, "example examined"],
    ["dot-line", COLORS.planted, `planted β*·x = 0, no data within γ = ${gamma}`],
  ]));

  const panel = infoPanel(slots.info, [
    ["margin mistakes t", "updates"], ["examples examined", "examined"],
    ["of them on the wrong side", "wrong"], ["right but inside the band", "close"],
  ], { progress: true, hypotheses: true });
  const q = panel.q;
  q(".facts").setAttribute("data-testid", "state-now");
  q(".hypotheses").textContent = `It holds because ${data.bound.hypotheses}.`;

  // the Lemma's two quantities against their lines
  const p = data.proof;
  const chartAt = proofCharts(chartRow(slots.chart, p.title, p.caption), p, up.steps.length,
                              [" (at least)", " (at most)"]);

  const wrongBefore = [0], closeBefore = [0];  // counts of each kind after k updates
  for (const kind of up.kinds) {
    wrongBefore.push(wrongBefore[wrongBefore.length - 1] + (kind === "wrong side" ? 1 : 0));
    closeBefore.push(closeBefore[closeBefore.length - 1] + (kind === "wrong side" ? 0 : 1));
  }

  const setSeg = (node, seg) => placeSegment(node, map, seg);
  const setArrow = (node, from, to) => placeArrow(node, map, from, to, scale);

  // the step in words and the example it examined, for showStep
  function describe(step, k, updated) {
    const i = exampleAt(step);
    const before = updated ? k - 1 : k;
    const m = updated ? up.scores[k - 1] : margin(up.weights[before], i);
    const head = `Step ${step.toLocaleString("en-US")}: example ${i}, x = ${pair(X[i], 2)}, y = ${signed(y[i])}. y x·β = ${fmt(m, 3)}`;
    const kind = m <= 0 ? "≤ 0: on the wrong side (or on the line), a margin mistake"
      : "is > 0 but < 1: right side, yet inside the band, a margin mistake all the same";
    const sentence = updated ? `${head} ${kind}. So β ← β + y·x = ${pair(up.weights[k], 2)}.`
      : `${head} ≥ 1: right side and outside the band, no update.`;
    return { sentence, point: X[i], size: r + 18, updated };
  }

  function draw(view) {
    const k = view.updates, step = view.step;
    const w = up.weights[k];
    const updated = step > 0 && k > 0 && up.steps[k - 1] === step;
    const zero = w[0] === 0 && w[1] === 0;
    const norm2 = w[0] * w[0] + w[1] * w[1];
    // the band {x : |x·β| < 1}: everything while β = 0
    band.setAttribute("points", polygonPoints(map, zero ? squareCorners(L) : clipBand(w, L)));
    setSeg(line, zero ? null : lineInSquare(w, 0, L));
    setSeg(bandLow, zero ? null : lineInSquare(w, 1, L));
    setSeg(bandHigh, zero ? null : lineInSquare(w, -1, L));
    let wrongPath = "", closePath = "", wrongNow = 0, closeNow = 0;
    for (let i = 0; i < n; i++) {
      const m = margin(w, i);
      if (m <= 0) { wrongPath += ringAround(map, X[i], r + 8); wrongNow++; }
      else if (m < 1) { closePath += ringAround(map, X[i], r + 9); closeNow++; }
    }
    ringsWrong.setAttribute("d", wrongPath);
    ringsClose.setAttribute("d", closePath);
    setArrow(arrow, [0, 0], w);
    if (updated) setArrow(stepArrow, up.weights[k - 1], w); else stepArrow.style.display = "none";
    showStep(panel, examined, map, step === 0
      ? { sentence: "Nothing examined yet: β = 0, so every point has y x·β = 0 < 1. Press Next mistake or Next example (or → / ↓)." }
      : describe(step, k, updated));
    q(".now").textContent = `Now β = ${pair(w, 3)}, ‖β‖² = ${fmt(norm2, 2)}, β·β* = ${fmt(p.alignment[k], 3)}`;
    panel.count("updates", outOf(k, up.steps.length));
    panel.count("examined", outOf(step, data.player.n_examined));
    panel.count("wrong", String(wrongBefore[k]));
    panel.count("close", String(closeBefore[k]));
    q(".facts").textContent = `With this β: ${plural(wrongNow, "point")} on the wrong side, ${plural(closeNow, "point")} right but inside the band, ${plural(n - wrongNow - closeNow, "point")} with y x·β ≥ 1.`;
    panel.progress(k, data.bound.value, `${plural(k, "margin mistake")} of at most 3/γ² = ${data.bound.value_text} (the Lemma)`);
    panel.banner(view.atEnd, data.converged, data.end_text);
    chartAt(k);
  }
  return { draw };
}

// The strip {x : −1 ≤ x·w ≤ 1} inside the square: the square clipped by a·x ≤ 1 for a = w
// and for a = −w.
function clipBand(w, limit) {
  const below = (a) => (p) => 1 - (a[0] * p[0] + a[1] * p[1]);
  return clipPolygon(clipPolygon(squareCorners(limit), below(w)), below([-w[0], -w[1]]));
}
