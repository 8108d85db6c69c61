// What /train draws and says at a step of the perceptron (Algorithm 1.16).
//
// trainScene(slots, data) -> { draw(view) }. data comes from
// perceptron_core/viz/train.py:player_payload; view = { step, updates, atEnd }
// from player.js. Every number shown is read from the payload (tested in
// pytest) or is y(w·x + b) of one example, computed here the same way.

const SVG_NS = "http://www.w3.org/2000/svg";
const COLORS = {
  positive: "#0072B2", negative: "#D55E00", positiveFill: "rgba(0, 114, 178, 0.10)",
  negativeFill: "rgba(213, 94, 0, 0.10)", hyperplane: "#000000", weight: "#009E73",
  step: "#E69F00", ghost: "#999999", planted: "#CC79A7", bound: "#56B4E9",
};

function svg(tag, attributes) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attributes || {})) node.setAttribute(name, value);
  return node;
}

// Numbers as a person writes them: a true minus sign, no "-0.000".
function fmt(value, digits) {
  if (!Number.isFinite(value)) return String(value);
  const text = Math.abs(value) < 0.5 * 10 ** -digits ? (0).toFixed(digits) : value.toFixed(digits);
  return text.replace("-", "−");
}
const signed = (label) => (label > 0 ? "+1" : "−1");
const plural = (count, word) => `${count.toLocaleString("en-US")} ${word}${count === 1 ? "" : "s"}`;

// Decode the example examined at each step: cyclic order needs no table.
function examinedIndex(data) {
  const table = data.examined;
  if (table.encoding === "cyclic") return (s) => (s - 1) % data.y.length;
  const bytes = Uint8Array.from(atob(table.data), (c) => c.charCodeAt(0));
  const values = table.encoding === "uint16" ? new Uint16Array(bytes.buffer) : new Uint32Array(bytes.buffer);
  return (s) => values[s - 1];
}

// The square view [-L, L]^2 in a 1000 x 1000 viewBox with room for the axes.
function viewMap(limit) {
  const left = 78, top = 12, size = 1000 - left - top;
  return {
    x: (v) => left + ((v + limit) / (2 * limit)) * size,
    y: (v) => top + ((limit - v) / (2 * limit)) * size,
    left, top, size,
  };
}

// Polygon of {x : side (w·x + b) > 0} inside the square (Sutherland–Hodgman on one edge).
function halfPlane(w, b, limit, side) {
  const square = [[-limit, -limit], [limit, -limit], [limit, limit], [-limit, limit]];
  if (w[0] === 0 && w[1] === 0) return (b > 0 ? 1 : -1) === side ? square : [];
  const value = (p) => side * (w[0] * p[0] + w[1] * p[1] + b);
  const out = [];
  for (let i = 0; i < 4; i++) {
    const a = square[i], c = square[(i + 1) % 4];
    const va = value(a), vc = value(c);
    if (va >= 0) out.push(a);
    if ((va >= 0) !== (vc >= 0)) {
      const f = va / (va - vc);
      out.push([a[0] + f * (c[0] - a[0]), a[1] + f * (c[1] - a[1])]);
    }
  }
  return out.length >= 3 ? out : [];
}

// End points of the line w·x + b = 0 inside the square, or null.
function lineInSquare(w, b, limit) {
  const points = [];
  if (w[1] !== 0) {
    for (const x of [-limit, limit]) {
      const y = -(b + w[0] * x) / w[1];
      if (y >= -limit && y <= limit) points.push([x, y]);
    }
  }
  if (w[0] !== 0) {
    for (const y of [-limit, limit]) {
      const x = -(b + w[1] * y) / w[0];
      if (x > -limit && x < limit) points.push([x, y]);
    }
  }
  return points.length >= 2 ? [points[0], points[1]] : null;
}

function niceStep(span, count) {
  const raw = span / count, power = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 5, 10].map((m) => m * power).find((step) => step >= raw);
}

// A small line chart: fixed axes for the whole run, series drawn up to update k.
function miniChart(host, title, series, xMax, yRange, yFormat) {
  const width = 600, height = 300, left = 74, right = 14, top = 14, bottom = 44;
  const box = document.createElement("div");
  box.className = "panel";
  const heading = document.createElement("div");
  heading.className = "panel-title";
  heading.textContent = title;
  const root = svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "mini", role: "img",
                            "aria-label": title });
  const [low, high] = yRange[0] === yRange[1] ? [yRange[0] - 1, yRange[1] + 1] : yRange;
  const px = (t) => left + (t / Math.max(1, xMax)) * (width - left - right);
  const py = (v) => top + ((high - v) / (high - low)) * (height - top - bottom);
  const axes = svg("g", { class: "axes" });
  const yStep = niceStep(high - low, 4);
  for (let v = Math.ceil(low / yStep) * yStep; v <= high + 1e-9; v += yStep) {
    axes.append(svg("line", { x1: left, x2: width - right, y1: py(v), y2: py(v), class: "grid" }));
    const label = svg("text", { x: left - 8, y: py(v) + 6, "text-anchor": "end" });
    label.textContent = yFormat(v);
    axes.append(label);
  }
  const xStep = niceStep(Math.max(1, xMax), 5);
  for (let t = 0; t <= xMax + 1e-9; t += Math.max(1, Math.round(xStep))) {
    const label = svg("text", { x: px(t), y: height - bottom + 22, "text-anchor": "middle" });
    label.textContent = String(t);
    axes.append(label);
  }
  const xTitle = svg("text", { x: (left + width - right) / 2, y: height - 4, "text-anchor": "middle" });
  xTitle.textContent = "update t";
  axes.append(xTitle, svg("rect", { x: left, y: top, width: width - left - right,
                                     height: height - top - bottom, class: "frame" }));
  root.append(axes);
  const lines = series.map((item) => {
    const node = svg("polyline", { fill: "none", stroke: item.color, "stroke-width": 4,
                                   "stroke-dasharray": item.dash || "none" });
    root.append(node);
    return node;
  });
  const cursor = svg("line", { y1: top, y2: height - bottom, class: "cursor" });
  root.append(cursor);
  const legend = document.createElement("div");
  legend.className = "panel-legend";
  for (const item of series) {
    const entry = document.createElement("span");
    entry.innerHTML = `<i style="border-top: 4px ${item.dash ? "dashed" : "solid"} ${item.color}"></i>`;
    entry.append(item.name);
    legend.append(entry);
  }
  box.append(heading, root, legend);
  host.append(box);
  const coords = series.map((item) => item.values.map((v, t) => `${px(t).toFixed(1)},${py(v).toFixed(1)}`));
  return (k) => {
    lines.forEach((node, i) => node.setAttribute("points", coords[i].slice(0, k + 1).join(" ")));
    cursor.setAttribute("x1", px(k));
    cursor.setAttribute("x2", px(k));
  };
}

function trainScene(slots, data) {
  const X = data.X, y = data.y, n = y.length, L = data.limit, scale = data.scale;
  const up = data.updates, delta = data.delta, present = Boolean(data.player.present);
  const exampleAt = examinedIndex(data);
  const map = viewMap(L);
  const r = present ? 12 : 9;  // marker radius in viewBox units

  // -- the figure: static layers (axes, planted line, data), then what moves
  const root = svg("svg", { viewBox: "0 0 1000 1000", class: "plane", role: "img",
                            "aria-label": "the data, the hyperplane and the weight vector" });
  const defs = svg("defs");
  for (const [name, color] of [["w", COLORS.weight], ["ghost", COLORS.ghost], ["step", COLORS.step]]) {
    const marker = svg("marker", { id: "head-" + name, viewBox: "0 0 10 10", refX: 8, refY: 5,
                                   markerWidth: 5, markerHeight: 5, orient: "auto-start-reverse" });
    marker.append(svg("path", { d: "M0,0 L10,5 L0,10 z", fill: color }));
    defs.append(marker);
  }
  const clip = svg("clipPath", { id: "plot-area" });
  clip.append(svg("rect", { x: map.left, y: map.top, width: map.size, height: map.size }));
  defs.append(clip);
  root.append(defs);
  const plot = svg("g", { "clip-path": "url(#plot-area)" });
  const fillPositive = svg("polygon", { fill: COLORS.positiveFill });
  const fillNegative = svg("polygon", { fill: COLORS.negativeFill });
  plot.append(fillPositive, fillNegative);
  // axes: grid, zero lines, ticks
  const axes = svg("g", { class: "axes" });
  const ticks = svg("g", { class: "axes" });  // outside the clipped plot area
  const tick = niceStep(2 * L, 6);
  for (let v = Math.ceil(-L / tick) * tick; v <= L + 1e-9; v += tick) {
    const zero = Math.abs(v) < 1e-9;
    axes.append(svg("line", { x1: map.x(v), x2: map.x(v), y1: map.top, y2: map.top + map.size,
                              class: zero ? "zero" : "grid" }));
    axes.append(svg("line", { y1: map.y(v), y2: map.y(v), x1: map.left, x2: map.left + map.size,
                              class: zero ? "zero" : "grid" }));
    const tx = svg("text", { x: map.x(v), y: map.top + map.size + 34, "text-anchor": "middle" });
    tx.textContent = fmt(v, tick < 0.1 ? 2 : 1);
    const ty = svg("text", { x: map.left - 10, y: map.y(v) + 9, "text-anchor": "end" });
    ty.textContent = fmt(v, tick < 0.1 ? 2 : 1);
    ticks.append(tx, ty);
  }
  const xTitle = svg("text", { x: map.left + map.size - 6, y: map.top + map.size - 10, "text-anchor": "end", class: "axis-title" });
  xTitle.textContent = "x₁";
  const yTitle = svg("text", { x: map.left + 10, y: map.top + 30, class: "axis-title" });
  yTitle.textContent = "x₂";
  axes.append(xTitle, yTitle);
  plot.append(axes);
  if (data.planted && data.show_planted) {
    const p = data.planted;
    for (const [offset, dash, width] of [[0, "4 8", 3], [-p.margin, "14 8", 2], [p.margin, "14 8", 2]]) {
      const seg = lineInSquare(p.w, p.b + offset, L);
      if (seg) plot.append(svg("line", { x1: map.x(seg[0][0]), y1: map.y(seg[0][1]), x2: map.x(seg[1][0]),
                                          y2: map.y(seg[1][1]), stroke: COLORS.planted, "stroke-width": width,
                                          "stroke-dasharray": dash }));
    }
  }
  // data: one path per class (circles for +1, squares for -1)
  let positive = "", negative = "";
  for (let i = 0; i < n; i++) {
    const cx = map.x(X[i][0]), cy = map.y(X[i][1]);
    if (y[i] > 0) positive += `M${(cx - r).toFixed(1)},${cy.toFixed(1)}a${r},${r} 0 1,0 ${2 * r},0a${r},${r} 0 1,0 ${-2 * r},0`;
    else negative += `M${(cx - r * 0.9).toFixed(1)},${(cy - r * 0.9).toFixed(1)}h${1.8 * r}v${1.8 * r}h${-1.8 * r}z`;
  }
  plot.append(svg("path", { d: positive, fill: COLORS.positive, stroke: "white", "stroke-width": 1.5, class: "class-positive" }));
  plot.append(svg("path", { d: negative, fill: COLORS.negative, stroke: "white", "stroke-width": 1.5, class: "class-negative" }));
  const rings = svg("path", { fill: "none", stroke: "black", "stroke-width": 2.5, class: "rings" });
  const oldLine = svg("line", { stroke: COLORS.ghost, "stroke-width": 4, "stroke-dasharray": "12 8" });
  const line = svg("line", { stroke: COLORS.hyperplane, "stroke-width": 5, class: "hyperplane" });
  const oldArrow = svg("line", { stroke: COLORS.ghost, "stroke-width": 4, "marker-end": "url(#head-ghost)" });
  const stepArrow = svg("line", { stroke: COLORS.step, "stroke-width": 5, "marker-end": "url(#head-step)" });
  const arrow = svg("line", { stroke: COLORS.weight, "stroke-width": 6, "marker-end": "url(#head-w)", class: "weight" });
  const examined = svg("path", { fill: "none", "stroke-width": 5, class: "examined" });
  plot.append(rings, oldLine, line, oldArrow, stepArrow, arrow, examined);
  root.append(plot, ticks);
  if (scale < 1) {
    const note = svg("text", { x: map.left + map.size - 8, y: map.top + 30, "text-anchor": "end", class: "note" });
    note.textContent = `vectors drawn at ${scale.toPrecision(2)}× scale`;
    root.append(note);
  }
  const legend = document.createElement("div");
  legend.className = "legend";
  const entries = [
    ["dot", COLORS.positive, "class +1"], ["square", COLORS.negative, "class −1"],
    ["line", COLORS.hyperplane, "hyperplane w·x + b = 0"], ["arrow", COLORS.weight, "w"],
    ["arrow", COLORS.step, "update y·x"], ["dash", COLORS.ghost, "before the update"],
    ["ring", "black", `y(w·x + b) ≤ δ: the update test fails`],
    ["diamond", COLORS.step, "example examined"],
    ["fill", COLORS.positiveFill, "predicted +1"], ["fill", COLORS.negativeFill, "predicted −1 (also on the line: sign(0) = −1)"],
  ];
  if (data.planted && data.show_planted) entries.push(["dot-line", COLORS.planted, `planted w*·x + b* = 0, band ±${data.planted.margin}`]);
  for (const [kind, color, text] of entries) {
    const item = document.createElement("span");
    item.className = "item";
    const swatch = document.createElement("i");
    swatch.className = "swatch " + kind;
    swatch.style.setProperty("--c", color);
    item.append(swatch, text);
    legend.append(item);
  }
  slots.figure.append(root, legend);

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
    q('[data-counter="updates"]').textContent = `${k.toLocaleString("en-US")} / ${up.steps.length.toLocaleString("en-US")}`;
    q('[data-counter="examined"]').textContent = `${step.toLocaleString("en-US")} / ${data.player.n_examined.toLocaleString("en-US")}`;
    q('[data-counter="epoch"]').textContent = step === 0 ? "—" : String(Math.ceil(step / n));
    q('[data-counter="accuracy"]').textContent = `${(100 * up.accuracy[k]).toFixed(1)}%`;
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
