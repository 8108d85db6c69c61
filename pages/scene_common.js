// Drawing helpers shared by every scene of the player, joined after player.js (whose
// element() they use) and before a page's scene by pages.common: colours, SVG elements,
// numbers as a person writes them, the square view, half-planes and lines clipped to
// it, a small line chart with fixed axes and the two charts of the convergence proof,
// the square with its data and what scenes draw on it, and the info panel beside it
// (the step in words, counters, progress against a bound, the banner at the end).

const SVG_NS = "http://www.w3.org/2000/svg";
const COLORS = {
  positive: "#0072B2", negative: "#D55E00", positiveFill: "rgba(0, 114, 178, 0.10)",
  negativeFill: "rgba(213, 94, 0, 0.10)", hyperplane: "#000000", weight: "#009E73",
  step: "#E69F00", ghost: "#999999", planted: "#CC79A7", bound: "#56B4E9",
};

// A counter's text, sized to its column: a long value ("20,000 / 20,000") gets smaller
// type instead of running past the card; player.css reads --chars.
function fitText(element, text) {
  element.textContent = text;
  element.style.setProperty("--chars", String(Math.max(6, text.length)));
}

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
const pair = (v, digits) => `(${fmt(v[0], digits)}, ${fmt(v[1], digits)})`;  // a point of the plane
const outOf = (count, total) => `${count.toLocaleString("en-US")} / ${total.toLocaleString("en-US")}`;

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

// The corners of the square [-limit, limit]^2, counter-clockwise.
const squareCorners = (limit) => [[-limit, -limit], [limit, -limit], [limit, limit], [-limit, limit]];

// The part of a convex polygon where the affine function value(p) is ≥ 0
// (Sutherland–Hodgman on one edge); [] when less than a triangle is left.
function clipPolygon(corners, value) {
  const out = [];
  for (let i = 0; i < corners.length; i++) {
    const a = corners[i], c = corners[(i + 1) % corners.length];
    const va = value(a), vc = value(c);
    if (va >= 0) out.push(a);
    if ((va >= 0) !== (vc >= 0)) {
      const f = va / (va - vc);
      out.push([a[0] + f * (c[0] - a[0]), a[1] + f * (c[1] - a[1])]);
    }
  }
  return out.length >= 3 ? out : [];
}

// Polygon of {x : side (w·x + b) > 0} inside the square.
function halfPlane(w, b, limit, side) {
  const square = squareCorners(limit);
  if (w[0] === 0 && w[1] === 0) return (b > 0 ? 1 : -1) === side ? square : [];
  return clipPolygon(square, (p) => side * (w[0] * p[0] + w[1] * p[1] + b));
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

// Place an SVG line on a segment [p, q] of the plane, or hide it when there is none.
function placeSegment(node, map, seg) {
  node.style.display = seg ? "" : "none";
  if (seg) {
    node.setAttribute("x1", map.x(seg[0][0])); node.setAttribute("y1", map.y(seg[0][1]));
    node.setAttribute("x2", map.x(seg[1][0])); node.setAttribute("y2", map.y(seg[1][1]));
  }
}

// An arrow from the vector `from` to the vector `to`, both drawn at `scale`; hidden
// when it has no length.
function placeArrow(node, map, from, to, scale) {
  placeSegment(node, map, [[from[0] * scale, from[1] * scale], [to[0] * scale, to[1] * scale]]);
  node.style.display = from[0] !== to[0] || from[1] !== to[1] ? "" : "none";
}

// The points attribute of an SVG polygon with these corners in the plane.
const polygonPoints = (map, corners) => corners.map((p) => `${map.x(p[0])},${map.y(p[1])}`).join(" ");

function niceStep(span, count) {
  const raw = span / count, power = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 5, 10].map((m) => m * power).find((step) => step >= raw);
}

// A small line chart: fixed axes for the whole run, series drawn up to update k.
function miniChart(host, title, series, xMax, yRange, yFormat, xName = "update t") {
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
  xTitle.textContent = xName;
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

// A tick label of a chart: whole numbers from 100 up, one decimal below.
const chartNumber = (v) => (Math.abs(v) >= 100 ? fmt(v, 0) : fmt(v, 1));

// The chart area under the player: a title (optional), a row of panels for miniChart,
// and a caption under it (optional). Returns the row.
function chartRow(host, title, caption) {
  const row = element("div", { class: "panels" });
  if (title) host.append(element("div", { class: "chart-title" }, title));
  host.append(row);
  if (caption) host.append(element("div", { class: "caption" }, caption));
  return row;
}

// The proof of convergence as two panels up to update k: the alignment with the best
// direction against the line it stays above, and the squared norm against the line it
// stays below. `proof` names the series as the payloads do (alignment, alignment_lower,
// norm_sq, norm_sq_upper with their _title / _name); `notes` are added to the two line
// names. Returns draw(k).
function proofCharts(row, proof, xMax, notes = ["", ""]) {
  const alignments = proof.alignment.concat(proof.alignment_lower);
  const norms = proof.norm_sq.concat(proof.norm_sq_upper);
  const left = miniChart(row, proof.alignment_title, [
    { name: proof.alignment_name, values: proof.alignment, color: COLORS.weight },
    { name: proof.alignment_lower_name + notes[0], values: proof.alignment_lower, color: COLORS.bound, dash: "10 6" },
  ], xMax, [Math.min(0, ...alignments), Math.max(...alignments)], chartNumber);
  const right = miniChart(row, proof.norm_sq_title, [
    { name: proof.norm_sq_name, values: proof.norm_sq, color: COLORS.step },
    { name: proof.norm_sq_upper_name + notes[1], values: proof.norm_sq_upper, color: COLORS.negative, dash: "4 6" },
  ], xMax, [0, Math.max(...norms)], chartNumber);
  return (k) => { left(k); right(k); };
}

// The share of the training examples predicted correctly after each update.
function accuracyChart(row, accuracy, xMax) {
  return miniChart(row, "training accuracy", [
    { name: "share predicted correctly", values: accuracy, color: COLORS.step },
  ], xMax, [0, 1], (v) => `${Math.round(v * 100)}%`);
}


let planeCount = 0;  // ids of arrow heads and clip paths must be unique in a page

// The square [-limit, limit]^2 as an SVG: grid, zero lines, ticks, axis titles, arrow
// heads (url(#head-w|ghost|step-<id>)), and a clipped group `plot` to draw in.
// plot.dataLayer is where the data points go (drawPoints); draw what moves after it.
function plane(limit, present, label) {
  const id = ++planeCount;
  const map = viewMap(limit);
  const r = present ? 12 : 9;  // marker radius in viewBox units
  const root = svg("svg", { viewBox: "0 0 1000 1000", class: "plane", role: "img", "aria-label": label });
  const defs = svg("defs");
  for (const [name, color] of [["w", COLORS.weight], ["ghost", COLORS.ghost], ["step", COLORS.step]]) {
    const marker = svg("marker", { id: `head-${name}-${id}`, viewBox: "0 0 10 10", refX: 8, refY: 5,
                                   markerWidth: 5, markerHeight: 5, orient: "auto-start-reverse" });
    marker.append(svg("path", { d: "M0,0 L10,5 L0,10 z", fill: color }));
    defs.append(marker);
  }
  const clip = svg("clipPath", { id: `plot-area-${id}` });
  clip.append(svg("rect", { x: map.left, y: map.top, width: map.size, height: map.size }));
  defs.append(clip);
  root.append(defs);
  const plot = svg("g", { "clip-path": `url(#plot-area-${id})` });
  const axes = svg("g", { class: "axes" });
  const ticks = svg("g", { class: "axes" });  // outside the clipped plot area
  const tick = niceStep(2 * limit, 6);
  for (let v = Math.ceil(-limit / tick) * tick; v <= limit + 1e-9; v += tick) {
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
  const xTitle = svg("text", { x: map.left + map.size - 6, y: map.top + map.size - 10,
                               "text-anchor": "end", class: "axis-title" });
  xTitle.textContent = "x₁";
  const yTitle = svg("text", { x: map.left + 10, y: map.top + 30, class: "axis-title" });
  yTitle.textContent = "x₂";
  axes.append(xTitle, yTitle);
  plot.append(axes);
  plot.dataLayer = svg("g", { class: "data" });
  plot.append(plot.dataLayer);
  root.append(plot, ticks);
  root.arrowHead = (name) => `url(#head-${name}-${id})`;
  return { root, plot, map, r };
}

// Two classes, one path each: circles for +1, squares for -1 (colour and shape differ).
function drawPoints(plot, map, X, y, r) {
  let positive = "", negative = "";
  for (let i = 0; i < y.length; i++) {
    const cx = map.x(X[i][0]), cy = map.y(X[i][1]);
    if (y[i] > 0) positive += `M${(cx - r).toFixed(1)},${cy.toFixed(1)}a${r},${r} 0 1,0 ${2 * r},0a${r},${r} 0 1,0 ${-2 * r},0`;
    else negative += `M${(cx - r * 0.9).toFixed(1)},${(cy - r * 0.9).toFixed(1)}h${1.8 * r}v${1.8 * r}h${-1.8 * r}z`;
  }
  plot.dataLayer.append(
    svg("path", { d: positive, fill: COLORS.positive, stroke: "white", "stroke-width": 1.5, class: "class-positive" }),
    svg("path", { d: negative, fill: COLORS.negative, stroke: "white", "stroke-width": 1.5, class: "class-negative" }));
}

// The planted separator w*·x + b* = 0 (dotted) and the edges of its margin band
// w*·x + b* = ±margin (dashed), under the data.
function plantedLines(plot, map, w, b, margin, limit) {
  for (const [offset, dash, width] of [[0, "4 8", 3], [-margin, "14 8", 2], [margin, "14 8", 2]]) {
    const seg = lineInSquare(w, b + offset, limit);
    if (seg) plot.insertBefore(svg("line", { x1: map.x(seg[0][0]), y1: map.y(seg[0][1]), x2: map.x(seg[1][0]),
                                             y2: map.y(seg[1][1]), stroke: COLORS.planted, "stroke-width": width,
                                             "stroke-dasharray": dash }), plot.dataLayer);
  }
}

// A note in the corner when vectors (named `what`) are drawn shorter than they are.
function scaleNote(root, map, scale, what) {
  if (scale >= 1) return;
  const note = svg("text", { x: map.left + map.size - 8, y: map.top + 30, "text-anchor": "end", class: "note" });
  note.textContent = `${what} drawn at ${scale.toPrecision(2)}× scale`;
  root.append(note);
}

// Path data of a ring of radius R (viewBox units) round a point of the plane.
function ringAround(map, point, R) {
  return `M${(map.x(point[0]) - R).toFixed(1)},${map.y(point[1]).toFixed(1)}a${R},${R} 0 1,0 ${2 * R},0a${R},${R} 0 1,0 ${-2 * R},0`;
}

// The diamond round the example examined at a step (drawn by showStep).
const examinedMark = () => svg("path", { fill: "none", "stroke-width": 5, class: "examined" });

// The step in words (panel.say) and the diamond `examined` round the example it looked
// at: orange when the step updated, green when it did not. shown = { sentence, point,
// size (half-width in viewBox units), updated }; with no point (nothing examined yet)
// only the sentence is said.
function showStep(panel, examined, map, shown) {
  if (!shown.point) {
    examined.style.display = "none";
    panel.say(shown.sentence);
    return;
  }
  const cx = map.x(shown.point[0]), cy = map.y(shown.point[1]), d = shown.size;
  examined.setAttribute("d", `M${cx},${cy - d}L${cx + d},${cy}L${cx},${cy + d}L${cx - d},${cy}z`);
  examined.setAttribute("stroke", shown.updated ? COLORS.step : COLORS.weight);
  examined.style.display = "";
  panel.say(shown.sentence, shown.updated);
}

// A legend under a figure: entries [kind, colour, text], kind one of the .swatch styles
// (dot, square, line, dash, dot-line, arrow, ring, diamond, fill).
function legend(entries) {
  const box = document.createElement("div");
  box.className = "legend";
  for (const [kind, color, text] of entries) {
    const item = document.createElement("span");
    item.className = "item";
    const swatch = document.createElement("i");
    swatch.className = "swatch " + kind;
    swatch.style.setProperty("--c", color);
    item.append(swatch, text);
    box.append(item);
  }
  return box;
}

// The info panel beside the figure, top to bottom: the step in words, the state now,
// the counters ([label, key] pairs), a line of facts, the progress against a bound
// (with a line for its hypotheses) when asked, and the banner shown at the end.
// Returns { q, say, count, progress, banner }: q(selector) finds a part of the panel.
function infoPanel(host, counters, { progress = false, hypotheses = false } = {}) {
  const counter = ([label, key]) =>
    `<div><span class="label">${label}</span><span class="value" data-counter="${key}"></span></div>`;
  const bar = `<div class="progress"><div class="bar"><div class="fill"></div></div><div class="progress-text"></div>` +
    (hypotheses ? `<div class="hypotheses"></div>` : "") + `</div>`;
  host.innerHTML = [
    `<div class="step-text" data-testid="step-text"></div>`,
    `<div class="now"></div>`,
    `<div class="counters">${counters.map(counter).join("")}</div>`,
    `<div class="facts"></div>`,
    progress ? bar : "",
    `<div class="banner" hidden></div>`,
  ].join("\n");
  const q = (selector) => host.querySelector(selector);
  return {
    q,
    // the step in words, marked as an update (true), a step without one (false) or neither
    say(sentence, updated) {
      const text = q(".step-text");
      text.textContent = sentence;
      text.className = updated === undefined ? "step-text" : "step-text " + (updated ? "mistake" : "correct");
    },
    count: (key, text) => fitText(q(`[data-counter="${key}"]`), text),
    progress(count, limit, text) {
      q(".fill").style.width = `${Math.min(100, (100 * count) / limit)}%`;
      q(".progress-text").textContent = text;
    },
    banner(shown, success, text) {
      const banner = q(".banner");
      banner.hidden = !shown;
      banner.className = "banner " + (success ? "success" : "warning");
      banner.textContent = text;
    },
  };
}
