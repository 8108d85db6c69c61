// A static 2-D chart drawn in SVG from a Plotly figure's JSON, so that a page with only
// such charts never downloads Plotly's chart bundle. pages/chart/chart_component.py
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
