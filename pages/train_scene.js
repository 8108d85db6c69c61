// What /train draws and says at a step of the perceptron (Algorithm 1.16).
//
// trainScene(slots, data) -> { draw(view) }. data comes from
// perceptron_core/viz/train.py:player_payload; view = { step, updates, atEnd }
// from player.js. Every number shown is read from the payload (tested in
// pytest) or is y(w·x + b) of one example, computed here the same way.
// Helpers (svg, fmt, viewMap, halfPlane, lineInSquare, miniChart, ...) are in
// scene_common.js.

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
    const p = data.planted;
    for (const [offset, dash, width] of [[0, "4 8", 3], [-p.margin, "14 8", 2], [p.margin, "14 8", 2]]) {
      const seg = lineInSquare(p.w, p.b + offset, L);
      if (seg) plot.insertBefore(svg("line", { x1: map.x(seg[0][0]), y1: map.y(seg[0][1]), x2: map.x(seg[1][0]),
                                          y2: map.y(seg[1][1]), stroke: COLORS.planted, "stroke-width": width,
                                          "stroke-dasharray": dash }), plot.dataLayer);
    }
  }
  drawPoints(plot, map, X, y, r);
  const rings = svg("path", { fill: "none", stroke: "black", "stroke-width": 2.5, class: "rings" });
  const oldLine = svg("line", { stroke: COLORS.ghost, "stroke-width": 4, "stroke-dasharray": "12 8" });
  const line = svg("line", { stroke: COLORS.hyperplane, "stroke-width": 5, class: "hyperplane" });
  const oldArrow = svg("line", { stroke: COLORS.ghost, "stroke-width": 4, "marker-end": root.arrowHead("ghost") });
  const stepArrow = svg("line", { stroke: COLORS.step, "stroke-width": 5, "marker-end": root.arrowHead("step") });
  const arrow = svg("line", { stroke: COLORS.weight, "stroke-width": 6, "marker-end": root.arrowHead("w"), class: "weight" });
  const examined = svg("path", { fill: "none", "stroke-width": 5, class: "examined" });
  plot.append(rings, oldLine, line, oldArrow, stepArrow, arrow, examined);
  if (scale < 1) {
    const note = svg("text", { x: map.left + map.size - 8, y: map.top + 30, "text-anchor": "end", class: "note" });
    note.textContent = `vectors drawn at ${scale.toPrecision(2)}× scale`;
    root.append(note);
  }
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
  slots.info.innerHTML = `
    <div class="step-text" data-testid="step-text"></div>
    <div class="now"></div>
    <div class="counters">
      <div><span class="label">updates</span><span class="value" data-counter="updates"></span></div>
      <div><span class="label">examples examined</span><span class="value" data-counter="examined"></span></div>
      <div><span class="label">epoch</span><span class="value" data-counter="epoch"></span></div>
      <div><span class="label">training accuracy</span><span class="value" data-counter="accuracy"></span></div>
    </div>
    <div class="facts"></div>
    <div class="progress"><div class="bar"><div class="fill"></div></div><div class="progress-text"></div>
      <div class="hypotheses"></div></div>
    <div class="banner" hidden></div>`;
  const q = (selector) => slots.info.querySelector(selector);
  q(".facts").textContent = data.facts;
  const bound = data.bound;
  if (!bound) q(".progress").hidden = true;
  else q(".hypotheses").textContent = `It holds because: ${bound.hypotheses}.`;

  // -- the chart below: the proof (separable) or bounded weights (not separable)
  let chartAt = () => {};
  if (data.proof) {
    const p = data.proof;
    const both = p.alignment.concat(p.alignment_lower);
    const both2 = p.norm_sq.concat(p.norm_sq_upper);
    const heading = document.createElement("div");
    heading.className = "chart-title";
    heading.textContent = p.title;
    const row = document.createElement("div");
    row.className = "panels";
    slots.chart.append(heading, row);
    const digits = (v) => (Math.abs(v) >= 100 ? fmt(v, 0) : fmt(v, 1));
    const left = miniChart(row, p.alignment_title, [
      { name: p.alignment_name, values: p.alignment, color: COLORS.weight },
      { name: p.alignment_lower_name, values: p.alignment_lower, color: COLORS.bound, dash: "10 6" },
    ], up.steps.length, [Math.min(0, ...both), Math.max(...both)], digits);
    const right = miniChart(row, p.norm_sq_title, [
      { name: p.norm_sq_name, values: p.norm_sq, color: COLORS.step },
      { name: p.norm_sq_upper_name, values: p.norm_sq_upper, color: COLORS.negative, dash: "4 6" },
    ], up.steps.length, [0, Math.max(...both2)], digits);
    const caption = document.createElement("div");
    caption.className = "caption";
    caption.textContent = p.caption;
    slots.chart.append(caption);
    chartAt = (k) => { left(k); right(k); };
  } else if (data.path) {
    const p = data.path;
    const heading = document.createElement("div");
    heading.className = "chart-title";
    heading.textContent = p.title;
    const row = document.createElement("div");
    row.className = "panels";
    slots.chart.append(heading, row);
    const left = miniChart(row, p.norm_title, [{ name: p.norm_name, values: p.norms, color: COLORS.weight }],
                           up.steps.length, [0, Math.max(...p.norms)], (v) => fmt(v, 1));
    const right = miniChart(row, "training accuracy", [{ name: "share predicted correctly", values: p.accuracy, color: COLORS.step }],
                            up.steps.length, [0, 1], (v) => `${Math.round(v * 100)}%`);
    const caption = document.createElement("div");
    caption.className = "caption";
    caption.textContent = p.caption;
    slots.chart.append(caption);
    chartAt = (k) => { left(k); right(k); };
  }

  const setLine = (node, w, b) => {
    const seg = lineInSquare(w, b, L);
    node.style.display = seg ? "" : "none";
    if (seg) {
      node.setAttribute("x1", map.x(seg[0][0])); node.setAttribute("y1", map.y(seg[0][1]));
      node.setAttribute("x2", map.x(seg[1][0])); node.setAttribute("y2", map.y(seg[1][1]));
    }
  };
  const setArrow = (node, from, to) => {
    const visible = from[0] !== to[0] || from[1] !== to[1];
    node.style.display = visible ? "" : "none";
    node.setAttribute("x1", map.x(from[0] * scale)); node.setAttribute("y1", map.y(from[1] * scale));
    node.setAttribute("x2", map.x(to[0] * scale)); node.setAttribute("y2", map.y(to[1] * scale));
  };
  const polygon = (node, points) => node.setAttribute("points", points.map((p) => `${map.x(p[0])},${map.y(p[1])}`).join(" "));
  const vector = (w) => `(${fmt(w[0], 2)}, ${fmt(w[1], 2)})`;

  function describe(step, k, updated) {
    const i = exampleAt(step);
    // the (w, b) in force when example i was examined: before this step's update
    const before = updated ? k - 1 : k;
    const w = up.weights[before], b = up.biases[before];
    const score = updated ? up.scores[k - 1] : y[i] * (w[0] * X[i][0] + w[1] * X[i][1] + b);
    const head = `Step ${step.toLocaleString("en-US")}: example ${i}, x = ${vector(X[i])}, y = ${signed(y[i])}. ` +
      `y(w·x + b) = ${fmt(score, 3)}`;
    if (!updated) return [i, `${head} > δ = ${fmt(delta, 2).replace(/\.?0+$/, "") || "0"}: correct, no update.`];
    let rule = `w ← w + y·x = ${vector(up.weights[k])}`;
    if (data.bias) rule += `, b ← b + y = ${fmt(up.biases[k], 2)}`;
    return [i, `${head} ≤ δ = ${fmt(delta, 2).replace(/\.?0+$/, "") || "0"}: a mistake by the update test, so ${rule}.`];
  }

  function draw(view) {
    const k = view.updates, step = view.step;
    const w = up.weights[k], b = up.biases[k];
    const updated = step > 0 && k > 0 && up.steps[k - 1] === step;
    polygon(fillPositive, halfPlane(w, b, L, 1));
    polygon(fillNegative, halfPlane(w, b, L, -1));
    setLine(line, w, b);
    let ringPath = "";
    const R = r + 8;
    for (let i = 0; i < n; i++) {
      if (y[i] * (w[0] * X[i][0] + w[1] * X[i][1] + b) <= delta) {
        ringPath += `M${(map.x(X[i][0]) - R).toFixed(1)},${map.y(X[i][1]).toFixed(1)}a${R},${R} 0 1,0 ${2 * R},0a${R},${R} 0 1,0 ${-2 * R},0`;
      }
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
    const text = q(".step-text");
    if (step === 0) {
      examined.style.display = "none";
      text.textContent = "Nothing examined yet. Press Next mistake or Next example (or → / ↓).";
      text.className = "step-text";
    } else {
      const [i, sentence] = describe(step, k, updated);
      const cx = map.x(X[i][0]), cy = map.y(X[i][1]), d = r + 16;
      examined.setAttribute("d", `M${cx},${cy - d}L${cx + d},${cy}L${cx},${cy + d}L${cx - d},${cy}z`);
      examined.setAttribute("stroke", updated ? COLORS.step : COLORS.weight);
      examined.style.display = "";
      text.textContent = sentence;
      text.className = "step-text " + (updated ? "mistake" : "correct");
    }
    q(".now").textContent = `Now w = (${fmt(w[0], 3)}, ${fmt(w[1], 3)})` + (data.bias ? `, b = ${fmt(b, 3)}` : " (no bias: b = 0)");
    fitText(q('[data-counter="updates"]'), `${k.toLocaleString("en-US")} / ${up.steps.length.toLocaleString("en-US")}`);
    fitText(q('[data-counter="examined"]'), `${step.toLocaleString("en-US")} / ${data.player.n_examined.toLocaleString("en-US")}`);
    fitText(q('[data-counter="epoch"]'), step === 0 ? "—" : String(Math.ceil(step / n)));
    fitText(q('[data-counter="accuracy"]'), `${(100 * up.accuracy[k]).toFixed(1)}%`);
    if (bound) {
      q(".fill").style.width = `${Math.min(100, (100 * k) / bound.value)}%`;
      q(".progress-text").textContent = `${plural(k, "update")} of at most ${bound.value_text} (${bound.name})`;
    }
    const banner = q(".banner");
    banner.hidden = !view.atEnd;
    banner.className = "banner " + (data.converged ? "success" : "warning");
    banner.textContent = data.end_text;
    chartAt(k);
  }
  return { draw };
}
