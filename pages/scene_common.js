// Drawing helpers shared by every scene of the player (joined after player.js and
// before a page's scene by pages/common.py): colours, SVG elements, numbers as a
// person writes them, the square view, half-planes and lines clipped to it, and a
// small line chart with fixed axes.

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
