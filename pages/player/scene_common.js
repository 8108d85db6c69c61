// Drawing helpers shared by every scene of the player, joined after the player's files
// (whose element() they use) and before a page's scene: colours, SVG elements, numbers
// as a person writes them, the square view, and half-planes and lines clipped to it.
// scene_charts.js: the small line charts under the player; scene_plane.js: the square
// with its data and what scenes draw on it, and the info panel beside it.

const SVG_NS = "http://www.w3.org/2000/svg";
const COLORS = {
  positive: "#0072B2", negative: "#D55E00", positiveFill: "rgba(0, 114, 178, 0.10)",
  negativeFill: "rgba(213, 94, 0, 0.10)", hyperplane: "#000000", weight: "#009E73",
  step: "#E69F00", ghost: "#999999", planted: "#CC79A7", bound: "#56B4E9",
};

// Writes that leave the page alone when nothing changes: a step rewrites only the texts and
// attributes that differ from what is shown, so the browser lays out and paints only those
// (the step's work at n = 2 000 on a slow phone).
function setText(node, text) {
  if (node.textContent !== text) node.textContent = text;
}
function setAttr(node, name, value) {
  value = String(value);
  if (node.getAttribute(name) !== value) node.setAttribute(name, value);
}
function setShown(node, shown) {
  const display = shown ? "" : "none";
  if (node.style.display !== display) node.style.display = display;
}

// A counter's text, sized to its column: a long value ("20,000 / 20,000") gets smaller
// type instead of running past the card; player.css reads --chars.
function fitText(element, text) {
  if (element.textContent === text) return;
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
// A number written beside (in)equality signs: `digits` decimals (at least three
// significant digits), or as many more as it takes for the number shown to stand on the
// same side of every bound as the value (0.9996 beside "< 1" is not "1.000", 0.0002 beside
// "> 0" is not "0.000"); a whole number exactly; below 5e−4 in size as 3.66e−4.
// `bounds` is a number or a list of them.
function fmtBeside(value, bounds, digits) {
  if (!Number.isFinite(value)) return fmt(value, digits);
  if (Number.isInteger(value) && Math.abs(value) < 1e15) return String(value).replace("-", "−");
  const all = [].concat(bounds);
  const read = (text) => Number(text.replaceAll("−", "-"));
  const holds = (text) => all.every((b) => Math.sign(read(text) - b) === Math.sign(value - b));
  if (Math.abs(value) >= 5e-4) {
    const least = Math.max(digits, 2 - Math.floor(Math.log10(Math.abs(value))));
    for (let d = least; d <= 17; d++) if (holds(fmt(value, d))) return fmt(value, d);
  }
  for (let d = 2; d <= 16; d++) {
    const text = value.toExponential(d).replaceAll("-", "−");
    if (holds(text)) return text;
  }
  return String(value).replaceAll("-", "−");
}
const signed = (label) => (label > 0 ? "+1" : "−1");

// A count with thousands separators (2,000). One formatter for every count: toLocaleString
// builds a new one at each call, a tenth of a millisecond under 4x throttling, ten per step.
const COUNT_FORMAT = new Intl.NumberFormat("en-US");
const countText = (value) => COUNT_FORMAT.format(value);
const plural = (value, word) => `${countText(value)} ${word}${value === 1 ? "" : "s"}`;
const pair = (v, digits) => `(${fmt(v[0], digits)}, ${fmt(v[1], digits)})`;  // a point of the plane
// A counter with the run's total under it ("run total: 42"), not "0 / 42", which reads like
// a bound: panel.count (scene_plane.js) shows the two on two lines.
const outOf = (value, total) => ({ value: countText(value), total: `run total: ${countText(total)}` });

// Decode the example examined at each step: cyclic order needs no table.
function examinedIndex(data) {
  const table = data.examined;
  if (table.encoding === "cyclic") return (s) => (s - 1) % data.y.length;
  const bytes = Uint8Array.from(atob(table.data), (c) => c.charCodeAt(0));
  const values = table.encoding === "uint16" ? new Uint16Array(bytes.buffer) : new Uint32Array(bytes.buffer);
  return (s) => values[s - 1];
}

// The square view [-L, L]^2 in a 1000 x 1000 viewBox with room for the axes.
// `left` is the room for the y axis' tick labels ("−1.0"), wider for presenter mode's type.
function viewMap(limit, left = 78) {
  const top = 12, size = 1000 - left - top;
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
  setShown(node, Boolean(seg));
  if (seg) {
    setAttr(node, "x1", map.x(seg[0][0])); setAttr(node, "y1", map.y(seg[0][1]));
    setAttr(node, "x2", map.x(seg[1][0])); setAttr(node, "y2", map.y(seg[1][1]));
  }
}

// An arrow from the vector `from` to the vector `to`, both drawn at `scale`; hidden
// when it has no length.
function placeArrow(node, map, from, to, scale) {
  placeSegment(node, map, [[from[0] * scale, from[1] * scale], [to[0] * scale, to[1] * scale]]);
  setShown(node, from[0] !== to[0] || from[1] !== to[1]);
}

// The points attribute of an SVG polygon with these corners in the plane.
const polygonPoints = (map, corners) => corners.map((p) => `${map.x(p[0])},${map.y(p[1])}`).join(" ");

function niceStep(span, count) {
  const raw = span / count, power = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 5, 10].map((m) => m * power).find((step) => step >= raw);
}
