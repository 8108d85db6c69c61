// What /relaxation draws and says at an iteration of the relaxation method
// (Algorithm 1.37, index rules of Remark 1.38).
//
// relaxationScene(slots, data) -> { draw(view) }. data comes from
// perceptron_core/viz/relaxation.py:player_payload; view = { step, updates, atEnd }
// from player.js, where one examined step is one iteration t and an "update" is an
// iteration that moved w. Every number shown is read from the payload.
// Helpers (svg, fmt, plane, lineInSquare, legend, miniChart, infoPanel, ...) are in
// scene_common.js, scene_charts.js and scene_plane.js. The scene's functions share one
// object s: the data (A, c, L, eta, T), the figure's nodes and the panel.

function relaxationScene(slots, data) {
  const s = { data, A: data.A, c: data.c, L: data.limit, eta: data.eta, T: data.n_iter };
  Object.assign(s, relaxationFigure(slots, s));
  Object.assign(s, relaxationInfo(slots, s));
  return { draw: (view) => relaxationDraw(s, view), scene: s, facts: relaxationFacts(data) };
}

// What matters about the run, said when a setting changes it: whether the system has a
// solution, the rule and η, and the run's length.
function relaxationFacts(data) {
  return [
    ["system", data.system.feasible ? "has a solution" : "has no solution"],
    ["rule", `${data.rule_label}, η = ${fmt(data.eta, 2)}`],
    ["run", `${plural(data.n_iter, "iteration")}, ${plural(data.player.update_steps.length, "move")}`],
  ];
}

// w with three decimals; a tiny coordinate that is not 0 in powers of ten (never "0.000")
const relaxationCoordinate = (v) => (v !== 0 && Math.abs(v) < 5e-4 ? fmtBeside(v, 0, 3) : fmt(v, 3));
const relaxationVector = (w) => `(${relaxationCoordinate(w[0])}, ${relaxationCoordinate(w[1])})`;
// A residual or violation beside "> tol", "≤ tol" or "> 0": digits that keep it true.
const relaxationValue = (v, bound) => fmtBeside(v, bound, 3);

// a_i·w ≤ c_i written out as typed (viz/relaxation.py row_text: no digit rounded away)
const relaxationRowText = ({ data }, i) => data.row_texts[i];

// The figure: half-planes, the feasible set, the path of w. Returns the nodes that move.
function relaxationFigure(slots, { data, A, c, L, eta }) {
  const { root, plot, map, r } = plane(L, Boolean(data.player.present),
                                       "the inequalities, the feasible set and the iterates");
  for (const text of root.querySelectorAll(".axis-title")) {  // the unknowns are w, not x
    text.textContent = text.textContent.replace("x", "w");
  }
  const P = (p) => `${map.x(p[0]).toFixed(1)},${map.y(p[1]).toFixed(1)}`;
  if (data.polygon.length) {
    plot.insertBefore(svg("polygon", { points: data.polygon.map(P).join(" "), fill: "rgba(0, 158, 115, 0.22)",
                                       stroke: COLORS.weight, "stroke-width": 2, class: "feasible" }),
                      plot.dataLayer);
  }
  const lines = A.map((a, i) => relaxationInequality(plot, map, P, L, a, c[i], data.labels[i]));
  const nodes = {
    map, r, P, lines,
    path: svg("polyline", { fill: "none", stroke: COLORS.weight, "stroke-width": 3, opacity: 0.6, class: "path" }),
    toProjection: svg("line", { stroke: COLORS.step, "stroke-width": 4, "stroke-dasharray": "10 7" }),
    stepArrow: svg("line", { stroke: COLORS.step, "stroke-width": 5, "marker-end": root.arrowHead("step") }),
    foot: svg("path", { fill: "white", stroke: COLORS.step, "stroke-width": 4 }),
    before: svg("circle", { r: r, fill: COLORS.ghost }),
    current: svg("circle", { r: r * 1.5, fill: COLORS.weight, stroke: "white", "stroke-width": 3, class: "iterate" }),
  };
  plot.append(nodes.path, nodes.toProjection, nodes.stepArrow, nodes.foot, nodes.before, nodes.current);
  const start = svg("circle", { cx: map.x(data.iterates[0][0]), cy: map.y(data.iterates[0][1]), r: r,
                                fill: "none", stroke: "#111", "stroke-width": 3 });
  plot.append(start);
  slots.figure.append(root, legend([
    ["line", "#555", "aᵢ·w = cᵢ, ticks on the violated side"],
    ["fill", "rgba(0, 158, 115, 0.22)", "feasible set A^T w ≤ c"],
    ["line", COLORS.step, "chosen inequality"],
    ["dash", COLORS.step, "w to its projection Pᵢ(w)"],
    ["arrow", COLORS.step, `the step, η = ${data.eta_text}`],
    ["dot", COLORS.weight, "w now"], ["dot", COLORS.ghost, "w before"], ["ring", "#111", "w₀"],
  ]));
  return nodes;
}

// One inequality a·w ≤ c: its line a·w − c = 0 in the square, short ticks on the side
// that violates it (the side a points to) and its label; group.line is the line.
function relaxationInequality(plot, map, P, L, a, c, text) {
  const seg = lineInSquare(a, -c, L);
  const group = svg("g", { class: "inequality" });
  if (!seg) return group;
  const line = svg("line", { x1: map.x(seg[0][0]), y1: map.y(seg[0][1]), x2: map.x(seg[1][0]),
                             y2: map.y(seg[1][1]), stroke: "#555", "stroke-width": 3 });
  const norm = Math.hypot(a[0], a[1]);
  const nx = (a[0] / norm) * (L * 0.035), ny = (a[1] / norm) * (L * 0.035);
  const ticks = svg("path", { d: "", stroke: "#555", "stroke-width": 2, fill: "none" });
  let d = "";
  for (let k = 1; k < 12; k++) {
    const f = k / 12, px = seg[0][0] + f * (seg[1][0] - seg[0][0]), py = seg[0][1] + f * (seg[1][1] - seg[0][1]);
    d += `M${P([px, py])}L${P([px + nx, py + ny])}`;
  }
  ticks.setAttribute("d", d);
  const mid = [(seg[0][0] + seg[1][0]) / 2 - 2.2 * nx, (seg[0][1] + seg[1][1]) / 2 - 2.2 * ny];
  const label = svg("text", { x: map.x(mid[0]), y: map.y(mid[1]) + 10, "text-anchor": "middle", class: "ineq-label" });
  label.textContent = text;
  group.append(line, ticks, label);
  group.line = line;
  plot.insertBefore(group, plot.dataLayer);
  return group;
}

// The info panel, the chart below (the largest violation against the iteration) and
// the banner's text at the end. Returns { panel, chartAt, endText }.
function relaxationInfo(slots, { data, eta, T }) {
  const panel = infoPanel(slots.info, [
    ["iteration", "iteration"], ["moves (violated when chosen)", "moves"],
    [data.violated_label, "violated"], ["largest violation", "violation"],
  ]);
  panel.q(".facts").textContent = `Rule: ${data.rule_label}${data.rule === "chaotic" ? `, τ = ${data.tau}` : ""}; ` +
    `η = ${data.eta_text}; tolerance ${data.tol_text}. ${data.system.feasible ? "The system has a solution" :
    "The system has NO solution"} (${data.system.reason}).`;
  const panels = chartRow(slots.chart);
  const top = Math.max(...data.violation);
  const chartAt = miniChart(panels, "largest violation maxᵢ (aᵢ·w − cᵢ)⁺ after each iteration", [
    { name: "largest violation", color: COLORS.weight, values: data.violation },
  ], Math.max(1, T), [0, top > 0 ? top : 1], (v) => fmt(v, 2), "iteration");
  const endText = data.end_text;  // computed from the run (viz/relaxation.py end_text)
  return { panel, chartAt, endText };
}

// Iteration t ≥ 1: the chosen inequality, the step from the previous iterate towards
// its projection, and the iteration in words.
function relaxationIteration(s, t, w) {
  const { data, eta, map, r, lines, toProjection, stepArrow, foot, before, panel } = s;
  const i = data.indices[t - 1], prev = data.iterates[t - 1], proj = data.projections[t - 1];
  const residual = data.residuals[t - 1], moved = Boolean(data.moved[t - 1]);
  if (lines[i].line) { lines[i].line.setAttribute("stroke", COLORS.step); lines[i].line.setAttribute("stroke-width", 8); }
  before.setAttribute("cx", map.x(prev[0]));
  before.setAttribute("cy", map.y(prev[1]));
  placeSegment(toProjection, map, [prev, proj]);
  placeSegment(stepArrow, map, [prev, w]);
  stepArrow.style.display = moved ? "" : "none";
  toProjection.style.display = moved ? "" : "none";
  const fx = map.x(proj[0]), fy = map.y(proj[1]), h = r * 1.1;
  foot.setAttribute("d", `M${fx - h},${fy}L${fx},${fy - h}L${fx + h},${fy}L${fx},${fy + h}z`);
  foot.style.display = moved ? "" : "none";
  const e = data.eta_text;
  const what = eta === 1 ? "onto the line (projection, η = 1)" : eta === 2 ? "to its mirror image across the line (reflection, η = 2)"
    : eta < 1 ? `a fraction η = ${e} of the way to the line` : `past the line, η = ${e} times the way to it`;
  const tol = data.tol, tolText = data.tol_text;
  const head = `Iteration ${t}: the rule picks inequality ${data.labels[i]}, ${relaxationRowText(s, i)}. aᵢ·w − cᵢ = `;
  let rest;
  if (!moved) {
    rest = residual > 0 ? `${relaxationValue(residual, [0, tol])} ≤ ${tolText}: violated by no more than the tolerance, so w stays.`
      : `${relaxationValue(residual, 0)} ≤ 0: satisfied, w stays.`;
  } else if (prev[0] === w[0] && prev[1] === w[1]) {  // a move shorter than float64 can store
    const length = eta * residual / Math.hypot(data.A[i][0], data.A[i][1]);
    rest = `${relaxationValue(residual, tol)} > ${tolText}: violated, but the move ${what} is ` +
      `${relaxationValue(length, 0)} long, too short for float64 to store at this size: w stays at ${relaxationVector(w)}.`;
  } else {
    rest = `${relaxationValue(residual, tol)} > ${tolText}: violated, so w moves ${what}, from ${relaxationVector(prev)} to ${relaxationVector(w)}.`;
  }
  panel.say(head + rest, moved);
}

// Draw the view: the iterate after `view.step` iterations and the path to it.
function relaxationDraw(s, view) {
  const { data, A, c, T, map, panel } = s;
  const t = view.step, w = data.iterates[t];
  s.current.setAttribute("cx", map.x(w[0]));
  s.current.setAttribute("cy", map.y(w[1]));
  s.path.setAttribute("points", data.iterates.slice(0, t + 1).map(s.P).join(" "));
  for (const g of s.lines) if (g.line) { g.line.setAttribute("stroke", "#555"); g.line.setAttribute("stroke-width", 3); }
  const shown = t >= 1;
  for (const node of [s.toProjection, s.stepArrow, s.foot, s.before]) node.style.display = shown ? "" : "none";
  if (!shown) {
    panel.say(`Start: w₀ = ${relaxationVector(w)}. Each iteration picks one inequality by the rule and, ` +
      `if w violates it${data.tol ? ` by more than ${data.tol_text}` : ""}, moves w towards its half-plane.`);
  } else {
    relaxationIteration(s, t, w);
  }
  panel.q(".now").textContent = `w = ${relaxationVector(w)}`;
  panel.count("iteration", outOf(t, T));
  panel.count("moves", outOf(view.updates, data.player.update_steps.length));
  // both decided exactly in Python (viz/relaxation.py violations), not from float products
  panel.count("violated", `${data.violated[t]} of ${A.length}`);
  panel.count("violation", relaxationValue(data.violation[t], 0));
  panel.banner(view.atEnd, data.feasible, s.endText);
  s.chartAt(t);
}
