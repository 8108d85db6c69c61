// What /generalisation draws and says at a step of the margin perceptron.
//
// generalisationScene(slots, data) -> { draw(view) }. data comes from
// perceptron_core/viz/generalisation.py:margin_player_payload; view = { step,
// updates, atEnd } from player.js. A margin mistake is y x·β < 1: either on the
// wrong side (y x·β ≤ 0) or right but inside the band between x·β = −1 and
// x·β = +1. Helpers (plane, drawPoints, legend, miniChart, fmt, ...) are in
// scene_common.js.

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
  for (const [offset, dash, width] of [[0, "4 8", 3], [-gamma, "14 8", 2], [gamma, "14 8", 2]]) {
    const seg = lineInSquare(star, offset, L);
    if (seg) plot.insertBefore(svg("line", { x1: map.x(seg[0][0]), y1: map.y(seg[0][1]), x2: map.x(seg[1][0]),
                                             y2: map.y(seg[1][1]), stroke: COLORS.planted, "stroke-width": width,
                                             "stroke-dasharray": dash }), plot.dataLayer);
  }
  drawPoints(plot, map, X, y, r);
  const ringsWrong = svg("path", { fill: "none", stroke: "black", "stroke-width": 3, class: "rings-wrong" });
  const ringsClose = svg("path", { fill: "none", stroke: COLORS.step, "stroke-width": 3.5,
                                   "stroke-dasharray": "7 5", class: "rings-close" });
  const bandLow = svg("line", { stroke: COLORS.step, "stroke-width": 3, "stroke-dasharray": "12 8" });
  const bandHigh = svg("line", { stroke: COLORS.step, "stroke-width": 3, "stroke-dasharray": "12 8" });
  const line = svg("line", { stroke: COLORS.hyperplane, "stroke-width": 5, class: "hyperplane" });
  const stepArrow = svg("line", { stroke: COLORS.step, "stroke-width": 5, "marker-end": root.arrowHead("step") });
  const arrow = svg("line", { stroke: COLORS.weight, "stroke-width": 6, "marker-end": root.arrowHead("w"), class: "weight" });
  const examined = svg("path", { fill: "none", "stroke-width": 5, class: "examined" });
  plot.append(ringsWrong, ringsClose, bandLow, bandHigh, line, stepArrow, arrow, examined);
  if (scale < 1) {
    const note = svg("text", { x: map.left + map.size - 8, y: map.top + 30, "text-anchor": "end", class: "note" });
    note.textContent = `β drawn at ${scale.toPrecision(2)}× scale`;
    root.append(note);
  }
  slots.figure.append(root, legend([
    ["dot", COLORS.positive, "class +1"], ["square", COLORS.negative, "class −1"],
    ["line", COLORS.hyperplane, "β·x = 0"], ["dash", COLORS.step, "band edges β·x = ±1"],
    ["arrow", COLORS.weight, "β"], ["arrow", COLORS.step, "update y·x"],
    ["ring", "black", "wrong side: y x·β ≤ 0"], ["ring", COLORS.step, "right side, inside the band: 0 < y x·β < 1"],
    ["diamond", COLORS.step, "example examined"],
    ["dot-line", COLORS.planted, `planted β*·x = 0, no data within γ = ${gamma}`],
  ]));

  slots.info.innerHTML = `
    <div class="step-text" data-testid="step-text"></div>
    <div class="now"></div>
    <div class="counters">
      <div><span class="label">margin mistakes t</span><span class="value" data-counter="updates"></span></div>
      <div><span class="label">examples examined</span><span class="value" data-counter="examined"></span></div>
      <div><span class="label">of them on the wrong side</span><span class="value" data-counter="wrong"></span></div>
      <div><span class="label">right but inside the band</span><span class="value" data-counter="close"></span></div>
    </div>
    <div class="facts" data-testid="state-now"></div>
    <div class="progress"><div class="bar"><div class="fill"></div></div><div class="progress-text"></div>
      <div class="hypotheses"></div></div>
    <div class="banner" hidden></div>`;
  const q = (selector) => slots.info.querySelector(selector);
  q(".hypotheses").textContent = `It holds because ${data.bound.hypotheses}.`;

  // the Lemma's two quantities against their lines
  const p = data.proof;
  const heading = document.createElement("div");
  heading.className = "chart-title";
  heading.textContent = p.title;
  const row = document.createElement("div");
  row.className = "panels";
  slots.chart.append(heading, row);
  const digits = (v) => (Math.abs(v) >= 100 ? fmt(v, 0) : fmt(v, 1));
  const both = p.alignment.concat(p.alignment_lower), both2 = p.norm_sq.concat(p.norm_sq_upper);
  const left = miniChart(row, p.alignment_title, [
    { name: p.alignment_name, values: p.alignment, color: COLORS.weight },
    { name: p.alignment_lower_name + " (at least)", values: p.alignment_lower, color: COLORS.bound, dash: "10 6" },
  ], up.steps.length, [Math.min(0, ...both), Math.max(...both)], digits);
  const right = miniChart(row, p.norm_sq_title, [
    { name: p.norm_sq_name, values: p.norm_sq, color: COLORS.step },
    { name: p.norm_sq_upper_name + " (at most)", values: p.norm_sq_upper, color: COLORS.negative, dash: "4 6" },
  ], up.steps.length, [0, Math.max(...both2)], digits);
  const caption = document.createElement("div");
  caption.className = "caption";
  caption.textContent = p.caption;
  slots.chart.append(caption);

  const wrongBefore = [0], closeBefore = [0];  // counts of each kind after k updates
  for (const kind of up.kinds) {
    wrongBefore.push(wrongBefore[wrongBefore.length - 1] + (kind === "wrong side" ? 1 : 0));
    closeBefore.push(closeBefore[closeBefore.length - 1] + (kind === "wrong side" ? 0 : 1));
  }

  const setSeg = (node, seg) => {
    node.style.display = seg ? "" : "none";
    if (seg) {
      node.setAttribute("x1", map.x(seg[0][0])); node.setAttribute("y1", map.y(seg[0][1]));
      node.setAttribute("x2", map.x(seg[1][0])); node.setAttribute("y2", map.y(seg[1][1]));
    }
  };
  const setArrow = (node, from, to) => {
    node.style.display = from[0] !== to[0] || from[1] !== to[1] ? "" : "none";
    node.setAttribute("x1", map.x(from[0] * scale)); node.setAttribute("y1", map.y(from[1] * scale));
    node.setAttribute("x2", map.x(to[0] * scale)); node.setAttribute("y2", map.y(to[1] * scale));
  };
  const vector = (w) => `(${fmt(w[0], 2)}, ${fmt(w[1], 2)})`;
  const ring = (i, R) => `M${(map.x(X[i][0]) - R).toFixed(1)},${map.y(X[i][1]).toFixed(1)}a${R},${R} 0 1,0 ${2 * R},0a${R},${R} 0 1,0 ${-2 * R},0`;

  function describe(step, k, updated) {
    const i = exampleAt(step);
    const before = updated ? k - 1 : k;
    const m = updated ? up.scores[k - 1] : margin(up.weights[before], i);
    const head = `Step ${step.toLocaleString("en-US")}: example ${i}, x = ${vector(X[i])}, y = ${signed(y[i])}. y x·β = ${fmt(m, 3)}`;
    if (!updated) return [i, `${head} ≥ 1: right side and outside the band, no update.`];
    const kind = m <= 0 ? "≤ 0: on the wrong side (or on the line), a margin mistake"
      : "is > 0 but < 1: right side, yet inside the band, a margin mistake all the same";
    return [i, `${head} ${kind}. So β ← β + y·x = ${vector(up.weights[k])}.`];
  }

  function draw(view) {
    const k = view.updates, step = view.step;
    const w = up.weights[k];
    const updated = step > 0 && k > 0 && up.steps[k - 1] === step;
    const zero = w[0] === 0 && w[1] === 0;
    const norm2 = w[0] * w[0] + w[1] * w[1];
    // the band {x : |x·β| < 1}: everything while β = 0
    if (zero) band.setAttribute("points", [[-L, -L], [L, -L], [L, L], [-L, L]].map((pt) => `${map.x(pt[0])},${map.y(pt[1])}`).join(" "));
    else band.setAttribute("points", clipBand(w, L).map((pt) => `${map.x(pt[0])},${map.y(pt[1])}`).join(" "));
    setSeg(line, zero ? null : lineInSquare(w, 0, L));
    setSeg(bandLow, zero ? null : lineInSquare(w, 1, L));
    setSeg(bandHigh, zero ? null : lineInSquare(w, -1, L));
    let wrongPath = "", closePath = "", wrongNow = 0, closeNow = 0;
    for (let i = 0; i < n; i++) {
      const m = margin(w, i);
      if (m <= 0) { wrongPath += ring(i, r + 8); wrongNow++; }
      else if (m < 1) { closePath += ring(i, r + 9); closeNow++; }
    }
    ringsWrong.setAttribute("d", wrongPath);
    ringsClose.setAttribute("d", closePath);
    setArrow(arrow, [0, 0], w);
    if (updated) setArrow(stepArrow, up.weights[k - 1], w); else stepArrow.style.display = "none";
    const text = q(".step-text");
    if (step === 0) {
      examined.style.display = "none";
      text.textContent = "Nothing examined yet: β = 0, so every point has y x·β = 0 < 1. Press Next mistake or Next example (or → / ↓).";
      text.className = "step-text";
    } else {
      const [i, sentence] = describe(step, k, updated);
      const cx = map.x(X[i][0]), cy = map.y(X[i][1]), d = r + 18;
      examined.setAttribute("d", `M${cx},${cy - d}L${cx + d},${cy}L${cx},${cy + d}L${cx - d},${cy}z`);
      examined.setAttribute("stroke", updated ? COLORS.step : COLORS.weight);
      examined.style.display = "";
      text.textContent = sentence;
      text.className = "step-text " + (updated ? "mistake" : "correct");
    }
    q(".now").textContent = `Now β = (${fmt(w[0], 3)}, ${fmt(w[1], 3)}), ‖β‖² = ${fmt(norm2, 2)}, β·β* = ${fmt(p.alignment[k], 3)}`;
    fitText(q('[data-counter="updates"]'), `${k.toLocaleString("en-US")} / ${up.steps.length.toLocaleString("en-US")}`);
    fitText(q('[data-counter="examined"]'), `${step.toLocaleString("en-US")} / ${data.player.n_examined.toLocaleString("en-US")}`);
    fitText(q('[data-counter="wrong"]'), String(wrongBefore[k]));
    fitText(q('[data-counter="close"]'), String(closeBefore[k]));
    q(".facts").textContent = `With this β: ${plural(wrongNow, "point")} on the wrong side, ${plural(closeNow, "point")} right but inside the band, ${plural(n - wrongNow - closeNow, "point")} with y x·β ≥ 1.`;
    q(".fill").style.width = `${Math.min(100, (100 * k) / data.bound.value)}%`;
    q(".progress-text").textContent = `${plural(k, "margin mistake")} of at most 3/γ² = ${data.bound.value_text} (the Lemma)`;
    const banner = q(".banner");
    banner.hidden = !view.atEnd;
    banner.className = "banner " + (data.converged ? "success" : "warning");
    banner.textContent = data.end_text;
    left(k); right(k);
  }
  return { draw };
}

// The strip {x : −1 ≤ x·w ≤ 1} inside the square: clip the square by both half-planes.
function clipBand(w, limit) {
  let poly = [[-limit, -limit], [limit, -limit], [limit, limit], [-limit, limit]];
  for (const [a, c] of [[w, 1], [[-w[0], -w[1]], 1]]) {  // a·x ≤ c
    const out = [];
    for (let i = 0; i < poly.length; i++) {
      const p = poly[i], s = poly[(i + 1) % poly.length];
      const vp = c - (a[0] * p[0] + a[1] * p[1]), vs = c - (a[0] * s[0] + a[1] * s[1]);
      if (vp >= 0) out.push(p);
      if ((vp >= 0) !== (vs >= 0)) {
        const f = vp / (vp - vs);
        out.push([p[0] + f * (s[0] - p[0]), p[1] + f * (s[1] - p[1])]);
      }
    }
    poly = out;
    if (poly.length < 3) return [];
  }
  return poly;
}
