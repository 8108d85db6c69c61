// The SVG chart (pages/chart/): Plotly's few text tags as SVG or HTML, text widths, colours,
// dashes and marker symbols.

function decodeEntities(text) {
  return text.replace(/&(amp|lt|gt|quot|#39|nbsp);/g, (all, name) =>
    ({ amp: "&", lt: "<", gt: ">", quot: "\"", "#39": "'", nbsp: "\u00a0" })[name]);
}

// [[{text, b, i, sub, sup}, ...], ...]: one list of runs per line
function richLines(text) {
  const lines = [[]];
  const state = { b: false, i: false, sub: false, sup: false };
  const pieces = String(text ?? "").split(/(<[^>]*>)/);
  for (const piece of pieces) {
    const tag = /^<\s*(\/)?\s*([a-zA-Z]+)[^>]*>$/.exec(piece);
    if (tag) {
      const name = tag[2].toLowerCase();
      if (name === "br") lines.push([]);
      else if (name in state) state[name] = !tag[1];
      continue;
    }
    if (piece) lines[lines.length - 1].push({ text: decodeEntities(piece), ...state });
  }
  return lines;
}

function plainText(text) {
  return richLines(text).map((line) => line.map((run) => run.text).join("")).join(" ");
}

// SVG text of one or more lines; anchor start/middle/end; baseline of the first line at y
function richSvgText(parent, text, x, y, size, attributes = {}) {
  const lines = richLines(text);
  const item = node("text", { x, y, "font-size": size, ...attributes }, parent);
  lines.forEach((runs, row) => {
    let first = true;
    if (!runs.length) runs = [{ text: "\u200b" }];
    for (const run of runs) {
      const span = node("tspan", {}, item);
      if (first) { span.setAttribute("x", x); span.setAttribute("dy", row === 0 ? 0 : 1.3 * size); }
      first = false;
      if (run.b) span.setAttribute("font-weight", "bold");
      if (run.i) span.setAttribute("font-style", "italic");
      if (run.sup || run.sub) {
        span.setAttribute("font-size", 0.7 * size);
        span.setAttribute("baseline-shift", run.sup ? "super" : "sub");
      }
      span.textContent = run.text;
    }
  });
  return { item, lines: lines.length };
}

function richHtml(parent, text) {
  richLines(text).forEach((runs, row) => {
    if (row) parent.appendChild(document.createElement("br"));
    for (const run of runs) {
      let item = document.createTextNode(run.text);
      for (const [flag, tag] of [["b", "b"], ["i", "i"], ["sub", "sub"], ["sup", "sup"]]) {
        if (run[flag]) { const wrap = document.createElement(tag); wrap.appendChild(item); item = wrap; }
      }
      parent.appendChild(item);
    }
  });
}

// the width of a text in px, measured on a canvas (no layout of the page is forced: a
// measure in the SVG would lay out every rect of a heatmap again for each label)
const CHART_FONT = "\"Open Sans\", verdana, arial, sans-serif";
let measureContext = null;
function textWidth(root, text, size) {
  if (!measureContext) measureContext = document.createElement("canvas").getContext("2d");
  let widest = 0;
  for (const runs of richLines(text)) {
    let width = 0;
    for (const run of runs) {
      const runSize = run.sup || run.sub ? 0.7 * size : size;
      if (measureContext) {
        measureContext.font = `${run.b ? "bold " : ""}${runSize}px ${CHART_FONT}`;
        width += measureContext.measureText(run.text).width;
      } else width += 0.55 * runSize * run.text.length;
    }
    widest = Math.max(widest, width);
  }
  return widest;
}

// ---------------------------------------------------------------------------------------
// Colours, dashes and marker symbols
// ---------------------------------------------------------------------------------------

function dashArray(dash, width) {
  const w = width || 2;
  if (!dash || dash === "solid") return undefined;
  if (dash === "dash") return `${3 * w},${3 * w}`;
  if (dash === "dot") return `${w},${2 * w}`;
  if (dash === "dashdot") return `${3 * w},${w},${w},${w}`;
  if (dash === "longdash") return `${5 * w},${2 * w}`;
  if (dash === "longdashdot") return `${5 * w},${2 * w},${w},${2 * w}`;
  return String(dash).replace(/px/g, "");
}

function parseColor(color) {
  const text = String(color || "").trim();
  let m = /^#([0-9a-f]{3})$/i.exec(text);
  if (m) return [...m[1]].map((c) => parseInt(c + c, 16)).concat(1);
  m = /^#([0-9a-f]{6})$/i.exec(text);
  if (m) return [0, 2, 4].map((k) => parseInt(m[1].slice(k, k + 2), 16)).concat(1);
  m = /^rgba?\(([^)]*)\)$/i.exec(text);
  if (m) {
    const parts = m[1].split(",").map((s) => parseFloat(s));
    return [parts[0], parts[1], parts[2], parts.length > 3 ? parts[3] : 1];
  }
  return [0, 0, 0, 1];
}

// the colour of value z on a Plotly colour scale [[stop, colour], ...] between zmin and zmax
function scaleColor(scale, z, zmin, zmax) {
  const t = zmax > zmin ? Math.min(1, Math.max(0, (z - zmin) / (zmax - zmin))) : 0;
  let k = 0;
  while (k < scale.length - 2 && scale[k + 1][0] < t) k++;
  const [s0, c0] = scale[k], [s1, c1] = scale[Math.min(k + 1, scale.length - 1)];
  if (t <= s0 || s1 <= s0) return c0;
  if (t >= s1) return c1;
  const a = parseColor(c0), b = parseColor(c1), u = (t - s0) / (s1 - s0);
  const mix = a.map((v, i) => v + u * (b[i] - v));
  return `rgba(${Math.round(mix[0])}, ${Math.round(mix[1])}, ${Math.round(mix[2])}, ${+mix[3].toFixed(3)})`;
}

const NAMED_SCALES = {
  Viridis: [[0, "#440154"], [0.5, "#21918c"], [1, "#fde725"]],
  RdBu: [[0, "rgb(5,10,172)"], [0.5, "rgb(190,190,190)"], [1, "rgb(178,10,28)"]],
  Greys: [[0, "rgb(0,0,0)"], [1, "rgb(255,255,255)"]],
};

// a marker of Plotly's symbol family at (0, 0), diameter size: [path or circle, open?]
function symbolShape(symbol, size) {
  let name = String(symbol ?? "circle");
  const open = name.endsWith("-open") || name.endsWith("-open-dot");
  name = name.replace(/-open(-dot)?$/, "").replace(/-dot$/, "");
  const r = size / 2;
  const f = (v) => +v.toFixed(2);
  switch (name) {
    case "square": return { d: `M${f(r)},${f(r)}H${f(-r)}V${f(-r)}H${f(r)}Z`, open };
    case "diamond": { const d = 1.3 * r; return { d: `M${f(d)},0L0,${f(d)}L${f(-d)},0L0,${f(-d)}Z`, open }; }
    case "triangle-up": case "triangle-down": {
      const rt = (2 * r) / Math.sqrt(3), r2 = r / 2, s = name === "triangle-up" ? 1 : -1;
      return { d: `M${f(-rt)},${f(s * r2)}H${f(rt)}L0,${f(-s * r)}Z`, open };
    }
    case "triangle-left": case "triangle-right": {
      const rt = (2 * r) / Math.sqrt(3), r2 = r / 2, s = name === "triangle-left" ? 1 : -1;
      return { d: `M${f(s * r2)},${f(-rt)}V${f(rt)}L${f(-s * r)},0Z`, open };
    }
    case "cross": case "x": {
      const a = 0.4 * r, b = 1.2 * r;
      const d = `M${f(b)},${f(a)}H${f(a)}V${f(b)}H${f(-a)}V${f(a)}H${f(-b)}V${f(-a)}H${f(-a)}V${f(-b)}H${f(a)}V${f(-a)}H${f(b)}Z`;
      return { d, open, rotate: name === "x" ? 45 : 0 };
    }
    case "x-thin": case "cross-thin": {
      const d = name === "x-thin" ? `M${f(r)},${f(r)}L${f(-r)},${f(-r)}M${f(r)},${f(-r)}L${f(-r)},${f(r)}`
        : `M0,${f(r * 1.4)}V${f(-r * 1.4)}M${f(r * 1.4)},0H${f(-r * 1.4)}`;
      return { d, open: true, thin: true };
    }
    case "star": {
      const outer = 1.4 * r, inner = 0.55 * r, points = [];
      for (let k = 0; k < 10; k++) {
        const angle = (Math.PI * k) / 5 - Math.PI / 2, radius = k % 2 ? inner : outer;
        points.push(`${f(radius * Math.cos(angle))},${f(radius * Math.sin(angle))}`);
      }
      return { d: "M" + points.join("L") + "Z", open };
    }
    default: return { circle: r, open };
  }
}

function drawMarker(parent, x, y, symbol, size, color, line, opacity) {
  const shape = symbolShape(symbol, size);
  const lineWidth = line && line.width !== undefined ? line.width : (shape.open ? 2 : 0);
  const attributes = {
    fill: shape.open ? "none" : color,
    stroke: shape.open ? color : (lineWidth ? (line && line.color) || "#444" : "none"),
    "stroke-width": shape.open ? Math.max(1, lineWidth || 2) : lineWidth || undefined,
    opacity: opacity === undefined || opacity === 1 ? undefined : opacity,
  };
  if (shape.circle !== undefined) return node("circle", { cx: x, cy: y, r: shape.circle, ...attributes }, parent);
  const transform = `translate(${x.toFixed(2)},${y.toFixed(2)})` + (shape.rotate ? ` rotate(${shape.rotate})` : "");
  return node("path", { d: shape.d, transform, ...attributes }, parent);
}

// ---------------------------------------------------------------------------------------
// Axes: ranges (given or from the data), equal scales, ticks
// ---------------------------------------------------------------------------------------
