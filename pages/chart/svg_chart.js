// A static 2-D chart drawn in SVG from a Plotly figure's JSON, so that a page with only
// such charts never downloads Plotly's chart bundle (issue 21). pages/chart/chart_component.py
// decides which figures it can draw (svg_drawable) and sends the figure once, at mount;
// nothing is sent back (no rerun on mount, hover or play).
//
// What it draws: scatter (lines, markers, text; dash, width, symbols, sizes, colours, marker
// line, fill toself/tozeroy/tonexty, error_y), bar, heatmap (as runs of rects); up to two
// subplots (xaxis2/yaxis2 with domains; "matches"); linear and log axes with ranges, titles,
// tick values/text, dtick, grid and zero lines, frame lines (showline/mirror/ticks); equal
// scales (scaleanchor with constrain "domain"); the title, annotations (<b> <i> <br> <sub>
// <sup>), line and rect shapes, the legend where the layout puts it; hover text on pointer
// and on keyboard focus (arrow keys walk the points); a figure's frames with a slider and
// Play/Pause; a PNG download.

const CHART_NS = "http://www.w3.org/2000/svg";
const CHART_COLORWAY = ["#636efa", "#EF553B", "#00cc96", "#ab63fa", "#FFA15A", "#19d3f3",
  "#FF6692", "#B6E880", "#FF97FF", "#FECB52"];
// Plotly's plotly_white template, the app's base (perceptron_core/viz/style.py)
const CHART_INK = "#2a3f5f", CHART_GRID = "#EBF0F8";

function node(tag, attributes, parent) {
  const item = document.createElementNS(CHART_NS, tag);
  for (const [name, value] of Object.entries(attributes || {})) {
    if (value !== undefined && value !== null) item.setAttribute(name, value);
  }
  if (parent) parent.appendChild(item);
  return item;
}

function htmlNode(tag, attributes, parent, text) {
  const item = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes || {})) item.setAttribute(name, value);
  if (text !== undefined) item.textContent = text;
  if (parent) parent.appendChild(item);
  return item;
}

// ---------------------------------------------------------------------------------------
// Data: Plotly's typed arrays ({dtype, bdata, shape}) and lists, as plain arrays
// ---------------------------------------------------------------------------------------

const TYPED = { f8: Float64Array, f4: Float32Array, i1: Int8Array, u1: Uint8Array,
  i2: Int16Array, u2: Uint16Array, i4: Int32Array, u4: Uint32Array };

function decodeArray(value) {
  if (value && typeof value === "object" && !Array.isArray(value) && "bdata" in value) {
    const bytes = Uint8Array.from(atob(value.bdata), (c) => c.charCodeAt(0));
    const Kind = TYPED[value.dtype] || Float64Array;
    const flat = Array.from(new Kind(bytes.buffer, 0, bytes.length / Kind.BYTES_PER_ELEMENT));
    if (!value.shape) return flat;
    const [rows, cols] = String(value.shape).split(",").map((s) => parseInt(s, 10));
    const out = [];
    for (let r = 0; r < rows; r++) out.push(flat.slice(r * cols, (r + 1) * cols));
    return out;
  }
  return value;
}

// every array of a trace (x, y, z, text, customdata, marker sizes, error bars) decoded once
function decodeTrace(trace) {
  const out = { ...trace };
  for (const key of ["x", "y", "z", "text", "hovertext", "customdata"]) {
    if (key in out) out[key] = decodeArray(out[key]);
  }
  if (out.marker) {
    out.marker = { ...out.marker };
    for (const key of ["size", "color", "symbol", "opacity"]) {
      if (out.marker[key] !== undefined) out.marker[key] = decodeArray(out.marker[key]);
    }
  }
  if (out.error_y) out.error_y = { ...out.error_y, array: decodeArray(out.error_y.array),
    arrayminus: decodeArray(out.error_y.arrayminus) };
  return out;
}

const isNumber = (v) => typeof v === "number" && Number.isFinite(v);
const pick = (value, i) => (Array.isArray(value) ? value[i] : value);

// ---------------------------------------------------------------------------------------
// Numbers as Plotly writes them: d3-format's common specifiers, SI suffixes, powers of ten
// ---------------------------------------------------------------------------------------

function minus(text) { return text.replace(/^-/, "−").replace(/e-/, "e−"); }

function formatSpec(value, spec) {
  if (typeof value !== "number") return value === undefined || value === null ? "" : String(value);
  if (!Number.isFinite(value)) return String(value);
  const match = /^([+\-( ])?(,)?(?:\.(\d+))?([a-z%])?$/.exec(spec || "");
  if (!match) return minus(String(value));
  const [, sign, comma, precisionText, type] = match;
  const precision = precisionText === undefined ? undefined : parseInt(precisionText, 10);
  let text;
  if (type === "f") text = value.toFixed(precision ?? 6);
  else if (type === "d") text = Math.round(value).toFixed(0);
  else if (type === "e") text = value.toExponential(precision ?? 6);
  else if (type === "%") text = (100 * value).toFixed(precision ?? 6) + "%";
  else if (type === "g") text = value.toPrecision(Math.max(1, precision ?? 6));  // d3 keeps the zeros
  else if (type === undefined) text = precision === undefined ? String(value) : String(+value.toPrecision(Math.max(1, precision)));
  else text = String(value);
  if (comma) {
    const [whole, part] = text.replace("-", "").split(".");
    text = (value < 0 ? "-" : "") + whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",") + (part !== undefined ? "." + part : "");
  }
  if (sign === "+" && value >= 0) text = "+" + text;
  return minus(text);
}

// a hover value with no format: up to 6 significant digits
function plainNumber(value) {
  if (typeof value !== "number") return value === undefined || value === null ? "" : String(value);
  return minus(String(+value.toPrecision(6)));
}

const SI = [[1e9, "B"], [1e6, "M"], [1e3, "k"]];
function tickNumber(value, step, axis) {
  if (value === 0) return "0";
  const format = axis.exponentformat;
  const size = Math.abs(value);
  if (axis.type === "log" && format === "power" && (size >= 100 || size < 0.1)) {  // 1, 10, 10², …
    return "10<sup>" + minus(String(Math.round(Math.log10(size)))) + "</sup>";
  }
  if (format !== "none" && format !== "power" && size >= 1e4) {
    for (const [scale, suffix] of SI) {
      if (size >= scale) return minus(String(+(value / scale).toPrecision(6))) + suffix;
    }
  }
  if (axis.type === "log") return minus(String(+value.toPrecision(6)));
  const digits = Math.max(0, Math.min(10, -Math.floor(Math.log10(step) + 1e-9)));
  return minus(String(+value.toFixed(digits)));  // 1 and 0.5, not 1.0 (as Plotly)
}

// Plotly's hovertemplate: %{x}, %{y:.3g}, %{customdata[1]:.2g}, %{text}; <extra>…</extra>
function hoverText(trace, i) {
  const values = {
    x: pick(trace.x, i), y: pick(trace.y, i), text: pick(trace.text, i),
    customdata: pick(trace.customdata, i), hovertext: pick(trace.hovertext, i),
  };
  const info = trace.hoverinfo;
  let template = pick(trace.hovertemplate, i);
  if (template) {
    let extra = "";
    template = template.replace(/<extra>([\s\S]*?)<\/extra>/, (all, inner) => { extra = inner; return ""; });
    let text = template.replace(/%\{([^}:]+)(?::([^}]*))?\}/g, (all, path, spec) => {
      const m = /^(\w+)(?:\[(\d+)\])?$/.exec(path.trim());
      if (!m) return "";
      let value = m[1] === "fullData.name" ? trace.name : values[m[1]];
      if (m[2] !== undefined && value !== undefined && value !== null) value = value[parseInt(m[2], 10)];
      return spec !== undefined ? formatSpec(value, spec) : plainNumber(value);
    });
    if (extra.trim()) text += " (" + extra.replace(/%\{[^}]*\}/g, trace.name || "") + ")";
    return text;
  }
  if (info === "name") return trace.name || "";
  if (values.hovertext !== undefined && values.hovertext !== null) return String(values.hovertext);
  const parts = [];
  if (trace.name) parts.push(trace.name);
  if (values.text !== undefined && values.text !== null && values.text !== "") parts.push(String(values.text));
  parts.push(`(${plainNumber(values.x)}, ${plainNumber(values.y)})`);
  return parts.join("<br>");
}

// ---------------------------------------------------------------------------------------
// Text: Plotly's few tags (<b> <i> <br> <sub> <sup>), as SVG tspans or as HTML
// ---------------------------------------------------------------------------------------

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

function axisName(id, letter) { return letter + "axis" + (id.length > 1 ? id.slice(1) : ""); }

function niceTickStep(span, count) {
  const raw = span / Math.max(1, count);
  const power = 10 ** Math.floor(Math.log10(raw));
  const unit = raw / power;
  return (unit >= 5 ? 10 : unit >= 2 ? 5 : unit >= 1.5 ? 2 : 1) * power;
}

function toAxis(axis, value) {
  if (!isNumber(value)) return NaN;
  if (axis.type === "log") return value > 0 ? Math.log10(value) : NaN;
  return value;
}

function computeRanges(layout, traces, axes, paper) {
  const extents = {};
  // pad: px a value needs on either side (a marker's radius); 0 for a line's vertex
  const grow = (name, values, pad) => {
    const e = extents[name] || (extents[name] = { low: Infinity, high: -Infinity, padLow: 0, padHigh: 0,
      values: [], zero: false });
    for (const v of values) if (Number.isFinite(v)) {
      e.low = Math.min(e.low, v); e.high = Math.max(e.high, v);
      if (pad) e.values.push([v, pad]);
    }
  };
  for (const trace of traces) {
    if (trace.visible === false || trace.visible === "legendonly") continue;
    const xn = axisName(trace.xaxis || "x", "x"), yn = axisName(trace.yaxis || "y", "y");
    const xs = axes[xn], ys = axes[yn];
    if (trace.type === "heatmap") {
      const edges = (centres) => {
        const c = centres.filter(isNumber);
        if (c.length < 2) return c;
        return [c[0] - (c[1] - c[0]) / 2, c[c.length - 1] + (c[c.length - 1] - c[c.length - 2]) / 2];
      };
      grow(xn, edges(trace.x || []).map((v) => toAxis(xs, v)), 0);
      grow(yn, edges(trace.y || []).map((v) => toAxis(ys, v)), 0);
      continue;
    }
    const x = trace.x || [], y = trace.y || [];
    const mode = trace.mode || (x.length < 20 ? "lines+markers" : "lines");
    const size = Math.max(6, ...[].concat((trace.marker && trace.marker.size) ?? 6).filter(isNumber));
    const markers = /markers/.test(mode) ? size / 2 + 2 : /text/.test(mode) ? 10 : 0;
    if (trace.type === "bar") {
      const step = minStep(x);
      grow(xn, x.flatMap((v) => [v - 0.5 * step, v + 0.5 * step]).map((v) => toAxis(xs, v)), 0);
      grow(yn, y.map((v) => toAxis(ys, v)), 0);
      extents[yn].zero = true;
      extents[yn].barPad = true;
      continue;
    }
    grow(xn, x.map((v) => toAxis(xs, v)), markers);
    const ey = trace.error_y && trace.error_y.visible !== false ? errorBars(trace) : null;
    grow(yn, y.map((v, i) => toAxis(ys, v)), markers);
    if (ey) grow(yn, ey.flatMap(([low, high]) => [toAxis(ys, low), toAxis(ys, high)]), markers);
    if (trace.fill === "tozeroy") { extents[yn].zero = true; }
  }
  // a shape drawn in data coordinates widens the range to fit it (as Plotly's autorange)
  for (const shape of layout.shapes || []) {
    for (const letter of ["x", "y"]) {
      const ref = shape[letter + "ref"] || letter;
      if (/paper|domain|container/.test(ref)) continue;
      const name = axisName(ref, letter);
      if (axes[name]) grow(name, [shape[letter + "0"], shape[letter + "1"]].map((v) => toAxis(axes[name], v)), 0);
    }
  }
  for (const [name, axis] of Object.entries(axes)) {
    if (Array.isArray(axis.range) && axis.range.length === 2 && axis.range.every(isNumber)) {
      axis.lo = axis.range[0]; axis.hi = axis.range[1];
      continue;
    }
    const e = extents[name] || { low: 0, high: 1 };
    let low = e.low, high = e.high;
    if (!Number.isFinite(low)) { low = axis.type === "log" ? 0 : -1; high = axis.type === "log" ? 1 : 6; }
    if ((e.zero || axis.rangemode === "tozero") && axis.type !== "log") { low = Math.min(low, 0); high = Math.max(high, 0); }
    if (low === high) { low -= 1; high += 1; }
    // room for each marker's radius: the range grows until every marker fits inside
    const length = Math.max(50, axis.letter === "x" ? (axis.domain[1] - axis.domain[0]) * paper.width
      : (axis.domain[1] - axis.domain[0]) * paper.height);
    for (let round = 0; round < 3 && (e.values || []).length; round++) {
      const unit = (high - low) / length;  // axis units per px
      let newLow = low, newHigh = high;
      for (const [v, pad] of e.values) {
        newLow = Math.min(newLow, v - pad * unit);
        newHigh = Math.max(newHigh, v + pad * unit);
      }
      if (e.zero && low === 0 && axis.type !== "log") newLow = 0;
      low = newLow; high = newHigh;
    }
    if (e.barPad) { const span = high - low; if (low < 0) low -= 0.05 * span; if (high > 0) high += 0.05 * span; }
    axis.lo = low; axis.hi = high;
  }
  // axes that "match" share one range
  for (const axis of Object.values(axes)) {
    if (axis.matches) {
      const other = axes[axisName(axis.matches, axis.letter)];
      if (other && !Array.isArray(axis.range)) {
        const low = Math.min(axis.lo, other.lo), high = Math.max(axis.hi, other.hi);
        axis.lo = other.lo = low; axis.hi = other.hi = high;
      }
    }
  }
}

function minStep(values) {
  const sorted = values.filter(isNumber).slice().sort((a, b) => a - b);
  let step = Infinity;
  for (let k = 1; k < sorted.length; k++) if (sorted[k] > sorted[k - 1]) step = Math.min(step, sorted[k] - sorted[k - 1]);
  return Number.isFinite(step) ? step : 1;
}

function errorBars(trace) {
  const e = trace.error_y, y = trace.y || [];
  const plus = e.array || [], minusArray = e.arrayminus || plus;
  return y.map((v, i) => {
    if (!isNumber(v)) return [NaN, NaN];
    let up = 0, down = 0;
    if (e.type === "percent") { up = down = Math.abs(v) * (e.value || 10) / 100; }
    else if (e.type === "constant") { up = down = e.value || 0; }
    else { up = pick(plus, i) || 0; down = e.symmetric === false ? pick(minusArray, i) || 0 : up; }
    return [v - down, v + up];
  });
}

function ticksOf(axis, length, font) {
  const lo = Math.min(axis.lo, axis.hi), hi = Math.max(axis.lo, axis.hi);
  const values = [];
  if (axis.tickmode === "array" || Array.isArray(axis.tickvals)) {
    const vals = decodeArray(axis.tickvals) || [], texts = decodeArray(axis.ticktext) || [];
    vals.forEach((v, i) => {
      const position = toAxis(axis, v);
      if (position >= lo - 1e-9 && position <= hi + 1e-9) values.push({ position, text: texts[i] !== undefined ? String(texts[i]) : tickNumber(v, 1, axis) });
    });
    return values;
  }
  // about as many ticks as Plotly puts: a y tick every 30 px or more (4 to 9 gaps), x ticks
  // spaced for their labels
  const count = axis.letter === "x" ? Math.max(2, Math.min(10, Math.round(length / (5 * font))))
    : Math.min(9, Math.max(4, length / 30)) + 1;
  if (axis.type === "log") {
    let step = isNumber(axis.dtick) ? axis.dtick : Math.max(1, Math.floor((hi - lo) / count));
    if (!isNumber(axis.dtick) && hi - lo < 2.2) {  // under two decades: 1, 2, 5 of each
      for (let p = Math.floor(lo); p <= Math.ceil(hi); p++) {
        for (const m of [1, 2, 5]) {
          const position = p + Math.log10(m);
          if (position >= lo - 1e-9 && position <= hi + 1e-9) values.push({ position, text: tickNumber(m * 10 ** p, 1, axis) });
        }
      }
      return values;
    }
    for (let p = Math.ceil(lo / step) * step; p <= hi + 1e-9; p += step) values.push({ position: p, text: tickNumber(10 ** p, 1, axis) });
    return values;
  }
  const step = isNumber(axis.dtick) ? axis.dtick : niceTickStep(hi - lo, count);
  const start = isNumber(axis.tick0) ? axis.tick0 + Math.ceil((lo - axis.tick0) / step - 1e-9) * step : Math.ceil(lo / step - 1e-9) * step;
  for (let v = start, k = 0; v <= hi + 1e-9 && k < 60; k++, v = start + k * step) {
    const value = Math.abs(v) < step * 1e-9 ? 0 : v;
    values.push({ position: value, text: tickNumber(value, step, axis) });
  }
  return values;
}

// ---------------------------------------------------------------------------------------
// The chart
// ---------------------------------------------------------------------------------------

function buildAxes(layout, traces) {
  const axes = {};
  const add = (name) => {
    if (axes[name]) return;
    const given = layout[name] || {};
    const letter = name[0];
    axes[name] = { ...given, letter, name, type: given.type || "linear", domain: given.domain || [0, 1],
      id: letter + name.slice(5) };
  };
  add("xaxis"); add("yaxis");
  for (const key of Object.keys(layout)) if (/^[xy]axis\d+$/.test(key)) add(key);
  for (const trace of traces) { add(axisName(trace.xaxis || "x", "x")); add(axisName(trace.yaxis || "y", "y")); }
  for (const axis of Object.values(axes)) {
    if (axis.type === "linear" || !axis.type) {
      // a log axis is only ever asked for; "-" (auto) stays linear for numbers
      axis.type = "linear";
    }
  }
  return axes;
}

function paperBox(size, margin) {
  return { left: margin.l, top: margin.t, width: Math.max(10, size.width - margin.l - margin.r),
    height: Math.max(10, size.height - margin.t - margin.b) };
}

// where each axis lies on screen (px), with equal scales where a y axis anchors its scale to x
function placeAxes(axes, paper) {
  for (const axis of Object.values(axes)) {
    const [d0, d1] = axis.domain;
    if (axis.letter === "x") { axis.start = paper.left + d0 * paper.width; axis.length = (d1 - d0) * paper.width; }
    else { axis.start = paper.top + (1 - d1) * paper.height; axis.length = (d1 - d0) * paper.height; }
  }
  for (const axis of Object.values(axes)) {
    const other = axis.scaleanchor && axes[axisName(axis.scaleanchor, axis.scaleanchor[0])];
    if (!other || other === axis) continue;
    const ratio = axis.scaleratio || 1;
    const pxA = axis.length / Math.abs(axis.hi - axis.lo);  // px per unit of this axis
    const pxB = other.length / Math.abs(other.hi - other.lo);
    const unit = Math.min(pxA / ratio, pxB);  // px per unit of the anchor axis
    const shrink = (item, perUnit) => {
      const wanted = perUnit * Math.abs(item.hi - item.lo);
      item.start += (item.length - wanted) / 2;
      item.length = wanted;
    };
    shrink(axis, unit * ratio);
    shrink(other, unit);
  }
  for (const axis of Object.values(axes)) {
    const span = axis.hi - axis.lo;
    axis.px = axis.letter === "x"
      ? (v) => axis.start + ((v - axis.lo) / span) * axis.length
      : (v) => axis.start + axis.length - ((v - axis.lo) / span) * axis.length;
    axis.at = (value) => axis.px(toAxis(axis, value));
  }
}

function anchorOf(axes, axis) {
  const letter = axis.letter === "x" ? "y" : "x";
  const anchor = axis.anchor && axis.anchor !== "free" ? axis.anchor : letter;
  return axes[axisName(anchor, letter)] || axes[letter + "axis"];
}

function drawAxes(root, axes, font, layer) {
  const g = node("g", { class: "axes" }, root);
  const labels = node("g", { class: "ticks" }, layer);
  for (const axis of Object.values(axes)) {
    const other = anchorOf(axes, axis);
    const size = (axis.tickfont && axis.tickfont.size) || font;
    const ticks = ticksOf(axis, axis.length, size);
    axis.tickList = ticks;
    const x = axis.letter === "x";
    const a0 = other.start, a1 = other.start + other.length;
    if (axis.showgrid !== false) {
      for (const tick of ticks) {
        const p = axis.px(tick.position);
        node("line", { ...(x ? { x1: p, x2: p, y1: a0, y2: a1 } : { x1: a0, x2: a1, y1: p, y2: p }),
          stroke: axis.gridcolor || CHART_GRID, "stroke-width": axis.gridwidth || 1 }, g);
      }
    }
    const hasZero = axis.type !== "log" && Math.min(axis.lo, axis.hi) < 0 && Math.max(axis.lo, axis.hi) > 0;
    if (axis.zeroline !== false && hasZero) {
      const p = axis.px(0);
      node("line", x ? { x1: p, x2: p, y1: a0, y2: a1 } : { x1: a0, x2: a1, y1: p, y2: p }, g).setAttribute("stroke", axis.zerolinecolor || CHART_GRID);
      g.lastChild.setAttribute("stroke-width", axis.zerolinewidth || 2);
    }
    // the frame: the axis line at its anchor's edge, and the opposite edge when mirrored
    const edge = x ? a1 : a0;
    const far = x ? a0 : a1;
    const b0 = axis.start, b1 = axis.start + axis.length;
    if (axis.showline) {
      const stroke = axis.linecolor || "#444", width = axis.linewidth || 1;
      for (const e of axis.mirror ? [edge, far] : [edge]) {
        node("line", x ? { x1: b0, x2: b1, y1: e, y2: e } : { x1: e, x2: e, y1: b0, y2: b1 }, g).setAttribute("stroke", stroke);
        g.lastChild.setAttribute("stroke-width", width);
      }
    }
    const marks = layoutTickStyle(axis);
    let widest = 0;
    for (const tick of ticks) {
      const p = axis.px(tick.position);
      if (marks.length) {
        const sign = marks.outside ? 1 : -1;
        node("line", { ...(x ? { x1: p, x2: p, y1: edge, y2: edge + sign * marks.length } : { x1: edge, x2: edge - sign * marks.length, y1: p, y2: p }),
          stroke: axis.tickcolor || axis.linecolor || "#444", "stroke-width": 1 }, g);
      }
      if (axis.showticklabels === false) continue;
      const gap = 4 + (marks.outside ? marks.length : 0);
      const label = x
        ? richSvgText(labels, tick.text, p, edge + gap + 0.85 * size, size, { "text-anchor": "middle", fill: CHART_INK })
        : richSvgText(labels, tick.text, edge - gap - 2, p + 0.35 * size, size, { "text-anchor": "end", fill: CHART_INK });
      if (!x) widest = Math.max(widest, textWidth(labels, tick.text, size));
    }
    axis.labelRoom = axis.showticklabels === false ? 0 : (x ? 1.1 * size : widest) + 4 + (marks.outside ? marks.length : 0);
    axis.edge = edge;
  }
}

function layoutTickStyle(axis) {
  const on = axis.ticks === "outside" || axis.ticks === "inside";
  return { length: on ? (axis.ticklen || 5) : 0, outside: axis.ticks === "outside" };
}

function drawAxisTitles(layer, axes, font) {
  for (const axis of Object.values(axes)) {
    const title = axis.title && (typeof axis.title === "string" ? axis.title : axis.title.text);
    if (!title) continue;
    const size = (axis.title.font && axis.title.font.size) || Math.round(1.2 * font);
    if (axis.letter === "x") {
      const y = axis.edge + axis.labelRoom + 0.4 * size + 0.8 * size;
      richSvgText(layer, title, axis.start + axis.length / 2, y, size, { "text-anchor": "middle", fill: CHART_INK });
    } else {
      const lines = richLines(title).length;
      // left of the tick labels, but never past the figure's left edge (a phone's narrow margin)
      const x = Math.max(axis.edge - axis.labelRoom - 0.45 * size, 1.05 * size + 1 + (lines - 1) * 1.3 * size);
      const cy = axis.start + axis.length / 2;
      const group = node("g", { transform: `translate(${x.toFixed(1)},${cy.toFixed(1)}) rotate(-90)` }, layer);
      richSvgText(group, title, 0, -(lines - 1) * 1.3 * size, size, { "text-anchor": "middle", fill: CHART_INK });
    }
  }
}

// a reference (x, xref) to a px position: data on an axis, the plot's paper, an axis' domain
function refPosition(axes, paper, value, ref, letter, size) {
  const r = ref || (letter === "x" ? "x" : "y");
  if (r === "paper") return letter === "x" ? paper.left + value * paper.width : paper.top + (1 - value) * paper.height;
  if (r === "container") return letter === "x" ? value * size.width : (1 - value) * size.height;
  const domain = / domain$/.test(r);
  const axis = axes[axisName(r.replace(/ domain$/, ""), letter)];
  if (!axis) return NaN;
  if (domain) return letter === "x" ? axis.start + value * axis.length : axis.start + (1 - value) * axis.length;
  return axis.at(value);
}

function drawShapes(parent, shapes, axes, paper, size) {
  for (const shape of shapes || []) {
    if (shape.visible === false) continue;
    const x0 = refPosition(axes, paper, shape.x0, shape.xref, "x", size), x1 = refPosition(axes, paper, shape.x1, shape.xref, "x", size);
    const y0 = refPosition(axes, paper, shape.y0, shape.yref, "y", size), y1 = refPosition(axes, paper, shape.y1, shape.yref, "y", size);
    if (![x0, x1, y0, y1].every(Number.isFinite)) continue;
    const line = shape.line || {};
    const width = line.width === undefined ? 2 : line.width;
    const attributes = {
      stroke: width ? line.color || "#444" : "none", "stroke-width": width || undefined,
      "stroke-dasharray": dashArray(line.dash, width), opacity: shape.opacity,
    };
    if (shape.type === "line") node("line", { x1: x0, y1: y0, x2: x1, y2: y1, ...attributes }, parent);
    else if (shape.type === "rect") {
      node("rect", { x: Math.min(x0, x1), y: Math.min(y0, y1), width: Math.abs(x1 - x0), height: Math.abs(y1 - y0),
        fill: shape.fillcolor || "none", ...attributes }, parent);
    } else if (shape.type === "circle") {
      node("ellipse", { cx: (x0 + x1) / 2, cy: (y0 + y1) / 2, rx: Math.abs(x1 - x0) / 2, ry: Math.abs(y1 - y0) / 2,
        fill: shape.fillcolor || "none", ...attributes }, parent);
    }
  }
}

function drawAnnotations(parent, notes, axes, paper, size, font) {
  for (const note of notes || []) {
    if (note.visible === false || note.text === undefined) continue;
    const px = refPosition(axes, paper, note.x ?? 0.5, note.xref, "x", size);
    const py = refPosition(axes, paper, note.y ?? 0.5, note.yref, "y", size);
    if (!Number.isFinite(px) || !Number.isFinite(py)) continue;
    const fontSize = (note.font && note.font.size) || font;
    const color = (note.font && note.font.color) || CHART_INK;
    const arrow = note.showarrow !== false;
    // with an arrow, the text sits at (ax, ay) px from the point, the arrow points at it
    const tx = arrow ? px + (note.ax ?? -10) : px, ty = arrow ? py + (note.ay ?? -30) : py;
    const lines = richLines(note.text).length;
    const width = textWidth(parent, note.text, fontSize), height = 1.3 * fontSize * lines;
    const xanchor = note.xanchor && note.xanchor !== "auto" ? note.xanchor : "center";
    const yanchor = note.yanchor && note.yanchor !== "auto" ? note.yanchor : "middle";
    const left = xanchor === "left" ? tx : xanchor === "right" ? tx - width - 6 : tx - width / 2 - 3;
    const top = yanchor === "top" ? ty : yanchor === "bottom" ? ty - height - 4 : ty - height / 2 - 2;
    if (arrow) {
      node("line", { x1: tx, y1: ty, x2: px, y2: py, stroke: note.arrowcolor || CHART_INK, "stroke-width": note.arrowwidth || 1 }, parent);
      const angle = Math.atan2(py - ty, px - tx), head = 7;
      const points = [[px, py], [px - head * Math.cos(angle - 0.4), py - head * Math.sin(angle - 0.4)], [px - head * Math.cos(angle + 0.4), py - head * Math.sin(angle + 0.4)]];
      node("polygon", { points: points.map((p) => p.map((v) => v.toFixed(1)).join(",")).join(" "), fill: note.arrowcolor || CHART_INK }, parent);
    }
    if (note.bgcolor) node("rect", { x: left, y: top, width: width + 6, height: height + 4, fill: note.bgcolor }, parent);
    const anchor = note.align === "left" ? "start" : note.align === "right" ? "end" : "middle";
    const textX = anchor === "start" ? left + 3 : anchor === "end" ? left + width + 3 : left + width / 2 + 3;
    richSvgText(parent, note.text, textX, top + 2 + 0.95 * fontSize, fontSize, { "text-anchor": anchor, fill: color });
  }
}

// which traces the legend lists, in order, and whether it is shown at all
function legendEntries(layout, traces) {
  const listed = traces.filter((t) => t.name && t.visible !== false &&
    !(t.type === "scatter" && !(t.x && t.x.length) && !(t.y && t.y.length)) &&
    (t.type === "heatmap" ? t.showlegend === true : t.showlegend !== false));
  const shown = layout.showlegend === undefined ? listed.length > 1 || listed.some((t) => t.showlegend === true) : layout.showlegend;
  return shown ? listed : [];
}

function legendSample(parent, trace, x, y, font) {
  const mode = trace.mode || "lines";
  if (trace.type === "bar" || trace.type === "heatmap" || (trace.fill && trace.fill !== "none" && !(trace.line && trace.line.width))) {
    const color = trace.type === "heatmap"
      ? scaleColor(trace.colorscale || NAMED_SCALES.Viridis, 1, 0, 1)
      : trace.fillcolor || (trace.marker && pick(trace.marker.color, 0)) || trace._color;
    node("rect", { x: x + 8, y: y - 7, width: 24, height: 14, fill: color, stroke: trace.type === "heatmap" ? "#999" : "none" }, parent);
    return;
  }
  const line = trace.line || {};
  if (/lines/.test(mode) && line.width !== 0) {
    const width = Math.min(line.width ?? 2, 5);
    node("line", { x1: x + 5, x2: x + 35, y1: y, y2: y, stroke: line.color || trace._color, "stroke-width": width,
      "stroke-dasharray": dashArray(line.dash, width) }, parent);
  }
  if (/markers/.test(mode)) {
    const marker = trace.marker || {};
    const size = Math.min(16, Math.max(6, pick(marker.size, 0) || 6));
    drawMarker(parent, x + 20, y, pick(marker.symbol, 0), size, pick(marker.color, 0) || trace._color, marker.line, undefined);
  } else if (mode === "text") {
    node("text", { x: x + 20, y: y + 5, "text-anchor": "middle", "font-size": 0.8 * font, fill: CHART_INK }, parent).textContent = "Aa";
  }
}

function drawLegend(root, layout, traces, paper, size, font) {
  const entries = legendEntries(layout, traces);
  if (!entries.length) return;
  const legend = layout.legend || {};
  const fontSize = (legend.font && legend.font.size) || font;
  const horizontal = legend.orientation === "h";
  const group = node("g", { class: "legend" }, root);
  const itemHeights = entries.map((t) => Math.max(1, richLines(t.name).length) * 1.3 * fontSize + 4);
  const textWidths = entries.map((t) => textWidth(root, t.name, fontSize));
  const sample = 40, pad = 6;
  const positions = [];
  let width = 0, height = 0;
  if (!horizontal) {
    let y = pad;
    entries.forEach((t, k) => { positions.push([pad, y]); y += itemHeights[k]; });
    width = pad * 2 + sample + Math.max(...textWidths) + 4;
    height = y + pad - 4;
  } else {
    const fraction = legend.entrywidthmode === "fraction" && legend.entrywidth ? legend.entrywidth * paper.width : 0;
    const fixed = legend.entrywidthmode !== "fraction" && legend.entrywidth ? legend.entrywidth + sample : 0;
    const room = Math.max(paper.width, 100);
    let x = pad, y = pad, row = 0;
    entries.forEach((t, k) => {
      const w = fraction || fixed || sample + textWidths[k] + 12;
      if (x > pad && x - pad + w > room + 1) { x = pad; y += row; row = 0; }
      positions.push([x, y]);
      x += w; row = Math.max(row, itemHeights[k]);
      width = Math.max(width, x);
    });
    height = y + row + pad - 4;
    width = fraction ? Math.min(room, width) : width + pad;
  }
  // x and y in the plot's paper (the default) or in the whole figure ("container")
  const lx = legend.xref === "container" ? (legend.x ?? 0) * size.width
    : paper.left + (legend.x ?? (horizontal ? 0 : 1.02)) * paper.width;
  const ly = legend.yref === "container" ? (1 - (legend.y ?? 1)) * size.height
    : paper.top + (1 - (legend.y ?? 1)) * paper.height;
  const xanchor = legend.xanchor && legend.xanchor !== "auto" ? legend.xanchor : (legend.x ?? 1.02) > 2 / 3 ? "right" : (legend.x ?? 0) > 1 / 3 ? "center" : "left";
  const yanchor = legend.yanchor && legend.yanchor !== "auto" ? legend.yanchor : "top";
  const left = xanchor === "right" ? lx - width : xanchor === "center" ? lx - width / 2 : lx;
  const top = yanchor === "bottom" ? ly - height : yanchor === "middle" ? ly - height / 2 : ly;
  group.setAttribute("transform", `translate(${left.toFixed(1)},${top.toFixed(1)})`);
  node("rect", { x: 0, y: 0, width, height, fill: legend.bgcolor || "rgba(255,255,255,0)",
    stroke: legend.borderwidth ? legend.bordercolor || "#444" : "none", "stroke-width": legend.borderwidth || undefined }, group);
  entries.forEach((trace, k) => {
    const [x, y] = positions[k];
    const middle = y + 0.65 * fontSize + 2;
    legendSample(group, trace, x, middle, fontSize);
    richSvgText(group, trace.name, x + sample, middle + 0.35 * fontSize, fontSize, { fill: CHART_INK });
  });
}

function drawTitle(root, layout, size, font) {
  const title = layout.title;
  const text = title && (typeof title === "string" ? title : title.text);
  if (!text) return;
  const fontSize = (title.font && title.font.size) || Math.round(1.4 * font);
  const margin = layout.margin || {};
  const x = (title.x ?? 0.05) * size.width;
  const anchor = title.xanchor === "center" ? "middle" : title.xanchor === "right" ? "end" : (title.xanchor === "left" || title.x === undefined || title.x < 1 / 3) ? "start" : "middle";
  const lines = richLines(text).length;
  let y;
  if (isNumber(title.y)) {
    const top = (1 - title.y) * size.height;
    y = title.yanchor === "top" ? top + 0.9 * fontSize : title.yanchor === "bottom" ? top - (lines - 1) * 1.3 * fontSize - 0.25 * fontSize : top - ((lines - 1) * 1.3 * fontSize) / 2 + 0.35 * fontSize;
  } else {
    y = Math.max(0.9 * fontSize, (margin.t ?? 100) / 2 - ((lines - 1) * 1.3 * fontSize) / 2 + 0.35 * fontSize);
  }
  richSvgText(root, text, Math.max(4, x), y, fontSize, { "text-anchor": anchor, fill: CHART_INK, class: "title" });
}

// ---------------------------------------------------------------------------------------
// Traces
// ---------------------------------------------------------------------------------------

function tracePoints(trace, axes) {
  const xa = axes[axisName(trace.xaxis || "x", "x")], ya = axes[axisName(trace.yaxis || "y", "y")];
  const x = trace.x || [], y = trace.y || [];
  const points = [];
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const px = xa.at(x[i]), py = ya.at(y[i]);
    points.push(Number.isFinite(px) && Number.isFinite(py) ? [px, py] : null);
  }
  return { points, xa, ya };
}

// the vertices a line of shape "hv" (across, then up), "vh", "hvh" or "vhv" passes through
function stepped(run, shape) {
  if (!shape || shape === "linear" || shape === "spline") return run;
  const out = [run[0]];
  for (let k = 1; k < run.length; k++) {
    const [x0, y0] = run[k - 1], [x1, y1] = run[k];
    if (shape === "hv") out.push([x1, y0]);
    else if (shape === "vh") out.push([x0, y1]);
    else if (shape === "hvh") out.push([(x0 + x1) / 2, y0], [(x0 + x1) / 2, y1]);
    else if (shape === "vhv") out.push([x0, (y0 + y1) / 2], [x1, (y0 + y1) / 2]);
    out.push(run[k]);
  }
  return out;
}

function polyline(points, connect, shape) {
  const runs = [];
  let run = [];
  for (const p of points) {
    if (p) run.push(p);
    else if (!connect && run.length) { runs.push(run); run = []; }
  }
  if (run.length) runs.push(run);
  return runs.map((r) => "M" + stepped(r, shape).map((p) => p[0].toFixed(2) + "," + p[1].toFixed(2)).join("L")).join("");
}

function drawHeatmap(parent, trace, axes) {
  const xa = axes[axisName(trace.xaxis || "x", "x")], ya = axes[axisName(trace.yaxis || "y", "y")];
  const z = trace.z || [], x = trace.x || [], y = trace.y || [];
  const scale = Array.isArray(trace.colorscale) ? trace.colorscale : NAMED_SCALES[trace.colorscale] || NAMED_SCALES.Viridis;
  const values = z.flat().filter(isNumber);
  const zmin = isNumber(trace.zmin) ? trace.zmin : Math.min(...values), zmax = isNumber(trace.zmax) ? trace.zmax : Math.max(...values);
  const edges = (centres, count) => {
    const c = centres.length ? centres : Array.from({ length: count }, (_, k) => k);
    const out = [];
    for (let k = 0; k <= c.length; k++) {
      if (k === 0) out.push(c[0] - ((c[1] ?? c[0] + 1) - c[0]) / 2);
      else if (k === c.length) out.push(c[k - 1] + (c[k - 1] - (c[k - 2] ?? c[k - 1] - 1)) / 2);
      else out.push((c[k - 1] + c[k]) / 2);
    }
    return out;
  };
  if (drawHeatmapImage(parent, trace, axes, z, x, y, scale, zmin, zmax)) return;
  // cell edges snapped to whole pixels: neighbouring rects neither overlap (a translucent
  // colour would darken there) nor leave a hairline between them
  const xe = edges(x, z[0] ? z[0].length : 0).map((v) => Math.round(xa.at(v)));
  const ye = edges(y, z.length).map((v) => Math.round(ya.at(v)));
  const group = node("g", { class: "heatmap", opacity: trace.opacity, "shape-rendering": "crispEdges" }, parent);
  // one rect per run of equal colours along a row: the app's regions are piecewise constant
  for (let r = 0; r < z.length; r++) {
    const row = z[r];
    const top = Math.min(ye[r], ye[r + 1]), rowHeight = Math.abs(ye[r + 1] - ye[r]);
    if (!rowHeight) continue;
    let start = 0, color = null;
    const flush = (end) => {
      if (color && xe[end] !== xe[start]) node("rect", { x: Math.min(xe[start], xe[end]), y: top,
        width: Math.abs(xe[end] - xe[start]), height: rowHeight, fill: color }, group);
    };
    for (let c = 0; c <= row.length; c++) {
      const next = c < row.length && isNumber(row[c]) ? scaleColor(scale, row[c], zmin, zmax) : null;
      if (c === row.length || next !== color) { flush(c); start = c; color = next; }
    }
  }
}

// centres evenly spaced (a grid of the plane): then one pixel per cell, scaled up
function evenlySpaced(values) {
  if (values.length < 2) return false;
  const step = (values[values.length - 1] - values[0]) / (values.length - 1);
  return step !== 0 && values.every((v, k) => Math.abs(v - (values[0] + k * step)) <= 1e-6 * Math.abs(step) * values.length);
}

// A heatmap on an even grid as one image: a canvas with a pixel per cell, drawn with its
// cells kept sharp (image-rendering: pixelated); false when the grid is not even.
function drawHeatmapImage(parent, trace, axes, z, x, y, scale, zmin, zmax) {
  const rows = z.length, cols = rows ? z[0].length : 0;
  if (!rows || !cols || x.length !== cols || y.length !== rows || !evenlySpaced(x) || !evenlySpaced(y)) return false;
  const canvas = document.createElement("canvas");
  canvas.width = cols; canvas.height = rows;
  const context = canvas.getContext("2d");
  if (!context) return false;
  const image = context.createImageData(cols, rows);
  const colours = new Map();
  for (let r = 0; r < rows; r++) {
    const row = z[r];
    const target = y[1] > y[0] ? rows - 1 - r : r;  // the image's first row is the top
    for (let c = 0; c < cols; c++) {
      const v = row[c];
      if (!isNumber(v)) continue;
      let rgba = colours.get(v);
      if (!rgba) { rgba = parseColor(scaleColor(scale, v, zmin, zmax)); colours.set(v, rgba); }
      const at = 4 * (target * cols + (x[1] > x[0] ? c : cols - 1 - c));
      image.data[at] = rgba[0]; image.data[at + 1] = rgba[1]; image.data[at + 2] = rgba[2];
      image.data[at + 3] = Math.round(255 * rgba[3]);
    }
  }
  context.putImageData(image, 0, 0);
  const xa = axes[axisName(trace.xaxis || "x", "x")], ya = axes[axisName(trace.yaxis || "y", "y")];
  const dx = (x[cols - 1] - x[0]) / (cols - 1), dy = (y[rows - 1] - y[0]) / (rows - 1);
  const left = xa.at(Math.min(x[0], x[cols - 1]) - Math.abs(dx) / 2), right = xa.at(Math.max(x[0], x[cols - 1]) + Math.abs(dx) / 2);
  const top = ya.at(Math.max(y[0], y[rows - 1]) + Math.abs(dy) / 2), bottom = ya.at(Math.min(y[0], y[rows - 1]) - Math.abs(dy) / 2);
  node("image", { href: canvas.toDataURL("image/png"), x: left, y: top, width: right - left, height: bottom - top,
    preserveAspectRatio: "none", opacity: trace.opacity, style: "image-rendering: pixelated", class: "heatmap" }, parent);
  return true;
}

function drawBars(parent, trace, axes, hover) {
  const { xa, ya } = tracePoints(trace, axes);
  const x = trace.x || [], y = trace.y || [];
  const step = minStep(x) * (trace.width || 0.8);
  const marker = trace.marker || {};
  const base = ya.type === "log" ? ya.lo : 0;
  const group = node("g", { class: "bars" }, parent);
  x.forEach((v, i) => {
    if (!isNumber(v) || !isNumber(y[i])) return;
    const left = xa.at(v - step / 2), right = xa.at(v + step / 2);
    const top = ya.at(y[i]), bottom = ya.type === "log" ? ya.px(base) : ya.at(0);
    const color = pick(marker.color, i) || trace._color;
    const rect = node("rect", { x: Math.min(left, right), y: Math.min(top, bottom), width: Math.abs(right - left),
      height: Math.max(0.5, Math.abs(bottom - top)), fill: color, opacity: marker.opacity }, group);
    hover(trace, i, (left + right) / 2, top, color, rect);
  });
}

function drawScatter(parent, trace, axes, hover, previous) {
  const { points } = tracePoints(trace, axes);
  const mode = trace.mode || (points.length < 20 ? "lines+markers" : "lines");
  const color = trace._color;
  const line = trace.line || {};
  const group = node("g", { class: "trace", opacity: trace.opacity }, parent);
  const fill = trace.fill && trace.fill !== "none" ? trace.fill : null;
  if (fill) {
    const fillColor = trace.fillcolor || (() => { const c = parseColor(line.color || color); return `rgba(${c[0]}, ${c[1]}, ${c[2]}, 0.5)`; })();
    const valid = points.filter(Boolean);
    let d = "";
    if (fill === "toself" && valid.length) d = polyline(points, trace.connectgaps) + "Z";
    else if (fill === "tozeroy" && valid.length) {
      const ya = axes[axisName(trace.yaxis || "y", "y")], zero = ya.type === "log" ? ya.px(ya.lo) : ya.at(0);
      d = `M${valid[0][0]},${zero}L` + valid.map((p) => p.join(",")).join("L") + `L${valid[valid.length - 1][0]},${zero}Z`;
    } else if (fill === "tonexty" && valid.length) {
      const under = (previous || []).filter(Boolean).slice().reverse();
      d = "M" + valid.map((p) => p.join(",")).concat(under.map((p) => p.join(","))).join("L") + "Z";
    }
    if (d) node("path", { d, fill: fillColor, stroke: "none", class: "fill" }, group);
  }
  if (/lines/.test(mode) && line.width !== 0 && points.filter(Boolean).length > 1) {
    const width = line.width ?? 2;
    node("path", { d: polyline(points, trace.connectgaps, line.shape), fill: "none", stroke: line.color || color, "stroke-width": width,
      "stroke-dasharray": dashArray(line.dash, width), "stroke-linejoin": "round", class: "line" }, group);
  }
  const marker = trace.marker || {};
  const showMarkers = /markers/.test(mode);
  const text = trace.text;
  const textfont = trace.textfont || {};
  points.forEach((p, i) => {
    if (!p) return;
    let item = null;
    const size = pick(marker.size, i) ?? 6;
    const markerColor = pick(marker.color, i) || color;
    if (showMarkers) {
      item = drawMarker(group, p[0], p[1], pick(marker.symbol, i), size, markerColor, marker.line, pick(marker.opacity, i));
      item.setAttribute("class", "point");
    }
    if (/text/.test(mode) && pick(text, i) !== undefined && pick(text, i) !== null && pick(text, i) !== "") {
      const fontSize = pick(textfont.size, i) || trace._font;
      const position = pick(trace.textposition, i) || "middle center";
      const [vertical, horizontal] = position.split(" ");
      const offset = showMarkers ? size / 2 + 2 : 0;
      const lines = richLines(pick(text, i)).length;
      const ty = vertical === "top" ? p[1] - offset - (lines - 1) * 1.3 * fontSize - 0.3 * fontSize
        : vertical === "bottom" ? p[1] + offset + 0.9 * fontSize : p[1] + 0.35 * fontSize;
      const tx = horizontal === "left" ? p[0] - offset - 2 : horizontal === "right" ? p[0] + offset + 2 : p[0];
      richSvgText(group, pick(text, i), tx, ty, fontSize, { "text-anchor": horizontal === "left" ? "end" : horizontal === "right" ? "start" : "middle",
        fill: pick(textfont.color, i) || CHART_INK, class: "point-text" });
    }
    if (trace.error_y && trace.error_y.visible !== false) {
      const ya = axes[axisName(trace.yaxis || "y", "y")];
      const [low, high] = errorBars(trace)[i];
      const y0 = ya.at(low), y1 = ya.at(high), half = trace.error_y.width ?? 4;
      if (Number.isFinite(y0) && Number.isFinite(y1)) {
        const stroke = trace.error_y.color || markerColor, width = trace.error_y.thickness ?? 2;
        node("path", { d: `M${p[0]},${y0}V${y1}M${p[0] - half},${y0}H${p[0] + half}M${p[0] - half},${y1}H${p[0] + half}`,
          stroke, "stroke-width": width, fill: "none", class: "error" }, group);
      }
    }
    hover(trace, i, p[0], p[1], markerColor, item);
  });
  return points;
}

// ---------------------------------------------------------------------------------------
// Mount: draw into the component's box, again when its width changes
// ---------------------------------------------------------------------------------------

function prepareFigure(figure) {
  const layout = { ...(figure.layout || {}) };
  delete layout.template;
  const traces = (figure.data || []).map(decodeTrace);
  return { layout, traces, frames: figure.frames || [] };
}

function drawChart(state) {
  const { host, layout, label } = state;
  const traces = state.traces;
  const font = (layout.font && layout.font.size) || 12;
  const width = Math.max(200, Math.round(host.clientWidth || 600));
  const height = Math.round(layout.height || 450);
  const size = { width, height };
  const margin = { l: 80, r: 80, t: 100, b: 80, ...(layout.margin || {}) };
  const paper = paperBox(size, margin);
  traces.forEach((trace, k) => {
    trace._color = (trace.line && trace.line.color) || (trace.marker && typeof trace.marker.color === "string" && trace.marker.color)
      || CHART_COLORWAY[k % CHART_COLORWAY.length];
    trace._font = (trace.textfont && trace.textfont.size) || font;
  });
  const axes = buildAxes(layout, traces);
  computeRanges(layout, traces, axes, paper);
  placeAxes(axes, paper);
  const root = node("svg", { class: "svg-chart", width, height, viewBox: `0 0 ${width} ${height}`, role: "img",
    "aria-label": label || plainText(layout.title && layout.title.text) || "chart", tabindex: 0,
    "font-family": CHART_FONT, "data-traces": traces.length });
  node("title", {}, root).textContent = label || plainText(layout.title && layout.title.text) || "chart";
  node("rect", { x: 0, y: 0, width, height, fill: layout.paper_bgcolor || "white" }, root);
  if (layout.plot_bgcolor && layout.plot_bgcolor !== "white") {
    node("rect", { x: paper.left, y: paper.top, width: paper.width, height: paper.height, fill: layout.plot_bgcolor }, root);
  }
  // the SVG must be on screen for text to be measured: the old one is replaced at the end
  const old = state.svg;
  if (old && old.parentNode) old.parentNode.insertBefore(root, old); else state.figureBox.appendChild(root);
  const below = node("g", { class: "shapes-below" }, root);
  const textLayer = node("g", { class: "labels" });
  drawAxes(root, axes, font, textLayer);
  drawShapes(below, (layout.shapes || []).filter((s) => s.layer === "below"), axes, paper, size);
  // the plot area of each pair of axes clips what is drawn in it
  const defs = node("defs", {}, root);
  const clips = {};
  const clipOf = (trace) => {
    const xa = axes[axisName(trace.xaxis || "x", "x")], ya = axes[axisName(trace.yaxis || "y", "y")];
    const id = `${state.uid}-${xa.name}-${ya.name}`;
    if (!clips[id]) {
      const clip = node("clipPath", { id }, defs);
      node("rect", { x: xa.start - 2, y: ya.start - 2, width: xa.length + 4, height: ya.length + 4 }, clip);
      clips[id] = node("g", { "clip-path": `url(#${id})` }, root);
      const markers = node("g", {}, root);  // markers are not clipped at the edge (as Plotly)
      clips[id].markers = markers;
    }
    return clips[id];
  };
  const hovers = [];
  const hover = (trace, i, x, y, color, item) => {
    const info = trace.hoverinfo;
    if (info === "skip" || info === "none" || trace.hovertemplate === false) return;
    if (!Number.isFinite(x) || !Number.isFinite(y)) return;
    const text = hoverText(trace, i);
    if (!text) return;
    hovers.push({ x, y, text, color });
    if (item) node("title", {}, item).textContent = plainText(text);
  };
  let previous = null;
  for (const trace of traces) {
    if (trace.visible === false || trace.visible === "legendonly") continue;
    const layer = clipOf(trace);
    if (trace.type === "heatmap") drawHeatmap(layer, trace, axes);
    else if (trace.type === "bar") drawBars(layer, trace, axes, hover);
    else {
      const lineOnly = !/markers|text/.test(trace.mode || "lines");
      previous = drawScatter(lineOnly ? layer : layer.markers, trace, axes, hover, previous);
    }
  }
  drawShapes(root, (layout.shapes || []).filter((s) => s.layer !== "below"), axes, paper, size);
  root.appendChild(textLayer);
  drawAxisTitles(root, axes, font);
  drawAnnotations(root, layout.annotations, axes, paper, size, font);
  drawLegend(root, layout, traces, paper, size, font);
  drawTitle(root, layout, size, font);
  if (old) old.remove();
  if (state.frameBar) {  // where the figure puts its slider: under the axis, in the bottom margin
    const slider = (layout.sliders || [])[0] || {};
    const y = isNumber(slider.y) ? slider.y : -0.12;
    state.frameBar.style.top = `${Math.round(paper.top + (1 - y) * paper.height)}px`;
    state.frameBar.style.left = `${Math.round(Math.min(paper.left, 0.1 * width))}px`;
    state.frameBar.style.width = `${Math.round(Math.max(160, paper.width))}px`;
  }
  state.svg = root;
  state.hovers = hovers;
  state.width = width;
  // a tab stop only for a chart with points to tell (← → walk them)
  if (!hovers.length) root.removeAttribute("tabindex");
  attachHover(state);
}

function showTip(state, item) {
  const tip = state.tip;
  if (!item) { tip.hidden = true; state.live.textContent = ""; return; }
  tip.replaceChildren();
  richHtml(tip, item.text);
  tip.style.borderColor = item.color || "#444";
  tip.hidden = false;
  const box = state.figureBox.getBoundingClientRect(), svgBox = state.svg.getBoundingClientRect();
  const scale = svgBox.width / state.width || 1;
  const x = svgBox.left - box.left + item.x * scale, y = svgBox.top - box.top + item.y * scale;
  const tipWidth = tip.offsetWidth, tipHeight = tip.offsetHeight;
  let left = x + 12;
  if (left + tipWidth > box.width) left = Math.max(0, x - 12 - tipWidth);
  let top = y - tipHeight - 10;
  if (top < 0) top = y + 12;
  tip.style.left = `${left}px`;
  tip.style.top = `${top}px`;
  state.live.textContent = plainText(item.text);
  if (state.ring) {
    state.ring.setAttribute("cx", item.x); state.ring.setAttribute("cy", item.y);
    state.ring.setAttribute("visibility", "visible");
  }
}

function attachHover(state) {
  const root = state.svg;
  state.ring = node("circle", { r: 9, fill: "none", stroke: "#111", "stroke-width": 2, visibility: "hidden", class: "focus-ring" }, root);
  const hide = () => { showTip(state, null); state.ring.setAttribute("visibility", "hidden"); };
  const nearest = (event) => {
    const box = root.getBoundingClientRect();
    const scale = state.width / box.width || 1;
    const x = (event.clientX - box.left) * scale, y = (event.clientY - box.top) * scale;
    let best = null, distance = 30 * scale;
    for (const item of state.hovers) {
      const d = Math.hypot(item.x - x, item.y - y);
      if (d < distance) { distance = d; best = item; }
    }
    return best;
  };
  root.addEventListener("pointermove", (event) => {
    const item = nearest(event);
    if (item) showTip(state, item); else hide();
  });
  root.addEventListener("pointerleave", hide);
  // the keyboard: focus shows the first point; ← → (↑ ↓) walk the points; Escape hides
  root.addEventListener("focus", () => {
    if (!state.hovers.length) return;
    state.cursor = Math.min(state.cursor || 0, state.hovers.length - 1);
    showTip(state, state.hovers[state.cursor]);
  });
  root.addEventListener("blur", hide);
  root.addEventListener("keydown", (event) => {
    if (!state.hovers.length) return;
    const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[event.key];
    if (event.key === "Escape") { hide(); return; }
    if (!step) return;
    event.preventDefault();
    const count = state.hovers.length;
    state.cursor = ((state.cursor || 0) + step + count) % count;
    showTip(state, state.hovers[state.cursor]);
  });
}

// a figure's frames (Plotly's animate): a slider over them and Play/Pause
function applyFrame(state, index) {
  const frame = state.frames[index];
  if (!frame) return;
  state.frameIndex = index;
  const traces = state.baseTraces.slice();
  (frame.data || []).forEach((update, k) => {
    const target = frame.traces ? frame.traces[k] : k;
    traces[target] = decodeTrace({ ...state.baseFigure.data[target], ...update });
  });
  state.traces = traces;
  const layout = { ...state.baseLayout };
  for (const [key, value] of Object.entries(frame.layout || {})) {
    layout[key] = value && typeof value === "object" && !Array.isArray(value) && layout[key] && typeof layout[key] === "object"
      ? { ...layout[key], ...value } : value;
  }
  state.layout = layout;
  drawChart(state);
  if (state.slider) {
    state.slider.value = String(index);
    state.slider.setAttribute("aria-valuetext", state.stepLabels[index]);
    state.current.textContent = state.prefix + state.stepLabels[index];
  }
}

function buildFrameControls(state, figure) {
  const layout = figure.layout || {};
  const slider = (layout.sliders || [])[0] || {};
  const steps = slider.steps || state.frames.map((f, k) => ({ label: f.name ?? String(k + 1), args: [[f.name]] }));
  const byName = new Map(state.frames.map((f, k) => [String(f.name), k]));
  state.stepFrames = steps.map((s, k) => byName.get(String(((s.args || [])[0] || [])[0])) ?? k);
  state.stepLabels = steps.map((s, k) => String(s.label ?? k + 1));
  state.prefix = (slider.currentvalue && slider.currentvalue.prefix) || "";
  const menu = ((layout.updatemenus || [])[0] || {}).buttons || [];
  const playArgs = menu.length && menu[0].args && menu[0].args[1];
  state.frameDuration = (playArgs && playArgs.frame && playArgs.frame.duration) || 500;
  const bar = htmlNode("div", { class: "svg-chart-frames" }, state.figureBox);
  state.frameBar = bar;
  const play = htmlNode("button", { type: "button", class: "svg-chart-button", "aria-pressed": "false" }, bar, "Play");
  const current = htmlNode("span", { class: "svg-chart-current", "aria-hidden": "true" }, bar);
  const input = htmlNode("input", { type: "range", min: 0, max: Math.max(0, steps.length - 1), step: 1, value: 0,
    "aria-label": `${state.prefix.replace(/[=:]\s*$/, "").trim() || "frame"}: which frame is shown` }, bar);
  state.slider = input; state.current = current;
  current.textContent = state.prefix + (state.stepLabels[0] ?? "");
  input.setAttribute("aria-valuetext", state.stepLabels[0] ?? "");
  const stop = () => {
    if (state.timer) clearInterval(state.timer);
    state.timer = null; play.textContent = "Play"; play.setAttribute("aria-pressed", "false");
  };
  state.stop = stop;
  input.addEventListener("input", () => { stop(); applyFrame(state, state.stepFrames[+input.value]); });
  play.addEventListener("click", () => {
    if (state.timer) { stop(); return; }
    let k = +input.value;
    if (k >= steps.length - 1) { k = 0; applyFrame(state, state.stepFrames[0]); input.value = "0"; }
    play.textContent = "Pause"; play.setAttribute("aria-pressed", "true");
    state.timer = setInterval(() => {
      k += 1;
      if (k >= steps.length) { stop(); return; }
      input.value = String(k);
      applyFrame(state, state.stepFrames[k]);
    }, state.frameDuration);
  });
}

function downloadPng(state) {
  const clone = state.svg.cloneNode(true);
  clone.setAttribute("xmlns", CHART_NS);
  clone.querySelectorAll(".focus-ring").forEach((n) => n.remove());
  const text = new XMLSerializer().serializeToString(clone);
  const url = URL.createObjectURL(new Blob([text], { type: "image/svg+xml" }));
  const image = new Image();
  image.onload = () => {
    const canvas = document.createElement("canvas");
    canvas.width = 2 * state.width; canvas.height = 2 * (state.layout.height || 450);
    const context = canvas.getContext("2d");
    context.scale(2, 2);
    context.drawImage(image, 0, 0);
    URL.revokeObjectURL(url);
    canvas.toBlob((blob) => {
      const link = document.createElement("a");
      link.href = URL.createObjectURL(blob);
      link.download = `${state.filename || "chart"}.png`;
      document.body.appendChild(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(link.href), 1000);
    }, "image/png");
  };
  image.src = url;
}

let svgChartCount = 0;

function mountSvgChart(host, data) {
  const old = host.__svgChart;
  if (old) {
    if (old.json === data.json_key) return old.cleanup;
    old.cleanup();
  }
  // Streamlit keeps the component's <style> in the same element: remove only our own box
  for (const box of host.querySelectorAll(":scope > .svg-chart-box")) box.remove();
  const figure = data.figure || {};
  const { layout, traces, frames } = prepareFigure(figure);
  const box = htmlNode("div", { class: "svg-chart-box" }, host);
  const figureBox = htmlNode("div", { class: "svg-chart-figure" }, box);
  const state = { host: box, box, figureBox, layout, traces, frames, label: data.label, filename: data.filename,
    uid: `svgchart${++svgChartCount}`, json: data.json_key, baseFigure: figure, baseLayout: layout, baseTraces: traces };
  state.tip = htmlNode("div", { class: "svg-chart-tip", hidden: "" }, figureBox);
  state.live = htmlNode("div", { class: "svg-chart-live", "aria-live": "polite" }, box);
  if (data.png !== false) {
    const button = htmlNode("button", { type: "button", class: "svg-chart-download", title: "Download this chart as a PNG (2× size, for slides)" }, figureBox, "PNG");
    button.setAttribute("aria-label", "Download this chart as a PNG");
    button.addEventListener("click", () => downloadPng(state));
  }
  if (frames.length) {
    const first = (figure.layout.sliders && figure.layout.sliders[0] && figure.layout.sliders[0].active) || 0;
    buildFrameControls(state, figure);
    drawChart(state);
    if (first) applyFrame(state, state.stepFrames[first]);
  } else drawChart(state);
  let pending = 0;
  const observer = typeof ResizeObserver === "function" ? new ResizeObserver(() => {
    cancelAnimationFrame(pending);
    pending = requestAnimationFrame(() => {
      if (Math.round(box.clientWidth) !== state.width && box.clientWidth > 0) drawChart(state);
    });
  }) : null;
  if (observer) observer.observe(box);
  state.cleanup = () => {
    if (observer) observer.disconnect();
    if (state.stop) state.stop();
    host.__svgChart = null;
  };
  host.__svgChart = state;
  return state.cleanup;
}
