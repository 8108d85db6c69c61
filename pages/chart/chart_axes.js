// The SVG chart (pages/chart/): axis ranges (given, or from the data as Plotly's autorange
// finds them) and ticks.

function axisName(id, letter) { return letter + "axis" + (id.length > 1 ? id.slice(1) : ""); }

// Plotly's tick step: the rough step span/count rounded up to 2, 5 or 10 times its power of
// ten (strictly above: its Lib.roundUp over [2, 5, 10])
function niceTickStep(span, count) {
  const raw = span / Math.max(1, count);
  const power = 10 ** Math.floor(Math.log10(raw));
  const unit = raw / power;
  return (unit < 2 ? 2 : unit < 5 ? 5 : 10) * power;
}

function toAxis(axis, value) {
  if (!isNumber(value)) return NaN;
  if (axis.type === "log") return value > 0 ? Math.log10(value) : NaN;
  return value;
}

// What each axis must show: {name: {low, high, values: [[v, pad px, padded]], zero, barPad}}
// from the visible traces and the shapes drawn in data coordinates. As Plotly's scatter
// autorange: a marker needs max(size / 1.6, 3) px; a "padded" value also 5 % of the axis'
// length (y always, unless filled to zero; x only with markers, text or error bars).
function dataExtents(layout, traces, axes) {
  const extents = {};
  const grow = (name, values, pad, padded = false) => {
    const e = extents[name] || (extents[name] = { low: Infinity, high: -Infinity, values: [], zero: false });
    for (const v of values) if (Number.isFinite(v)) {
      e.low = Math.min(e.low, v); e.high = Math.max(e.high, v);
      if (pad || padded) e.values.push([v, pad, padded]);
    }
    return e;
  };
  for (const trace of traces) {
    if (trace.visible === false || trace.visible === "legendonly") continue;
    const xn = axisName(trace.xaxis || "x", "x"), yn = axisName(trace.yaxis || "y", "y");
    const xs = axes[xn], ys = axes[yn], x = trace.x || [], y = trace.y || [];
    if (trace.type === "heatmap") {  // the outer edges of the cells
      const edges = (centres) => {
        const c = centres.filter(isNumber);
        if (c.length < 2) return c;
        return [c[0] - (c[1] - c[0]) / 2, c[c.length - 1] + (c[c.length - 1] - c[c.length - 2]) / 2];
      };
      grow(xn, edges(x).map((v) => toAxis(xs, v)), 0);
      grow(yn, edges(y).map((v) => toAxis(ys, v)), 0);
    } else if (trace.type === "bar") {  // the bars' widths, and zero
      const step = minStep(x);
      grow(xn, x.flatMap((v) => [v - 0.5 * step, v + 0.5 * step]).map((v) => toAxis(xs, v)), 0);
      Object.assign(grow(yn, y.map((v) => toAxis(ys, v)), 0), { zero: true, barPad: true });
    } else {
      const mode = trace.mode || (x.length < 20 ? "lines+markers" : "lines");
      const size = Math.max(...[].concat((trace.marker && trace.marker.size) ?? 6).filter(isNumber), 0);
      const markers = /markers/.test(mode), errors = trace.error_y && trace.error_y.visible !== false;
      const pad = markers ? Math.max(size / 1.6, 3) : 0;
      const toZero = trace.fill === "tozeroy" || trace.fill === "tonexty";
      grow(xn, x.map((v) => toAxis(xs, v)), pad, !toZero && (markers || /text/.test(mode) || errors));
      const e = grow(yn, y.map((v) => toAxis(ys, v)), pad, !toZero);
      if (errors) {
        grow(yn, errorBars(trace).flatMap(([low, high]) => [toAxis(ys, low), toAxis(ys, high)]), pad, !toZero);
      }
      if (trace.fill === "tozeroy") e.zero = true;
    }
  }
  for (const shape of layout.shapes || []) {  // as Plotly's autorange: shapes fit too
    for (const letter of ["x", "y"]) {
      const ref = shape[letter + "ref"] || letter;
      const name = axisName(ref, letter);
      if (/paper|domain|container/.test(ref) || !axes[name]) continue;
      grow(name, [shape[letter + "0"], shape[letter + "1"]].map((v) => toAxis(axes[name], v)), 0);
    }
  }
  return extents;
}

// An axis' range from what it must show: zero when asked, then wider until every marker's
// radius fits inside (the px per unit change as the range grows: three rounds settle it)
function autoRange(axis, e, paper) {
  let low = e.low, high = e.high;
  if (!Number.isFinite(low)) { low = axis.type === "log" ? 0 : -1; high = axis.type === "log" ? 1 : 6; }
  if ((e.zero || axis.rangemode === "tozero") && axis.type !== "log") { low = Math.min(low, 0); high = Math.max(high, 0); }
  if (low === high) { low -= 1; high += 1; }
  const length = Math.max(50, (axis.domain[1] - axis.domain[0]) * (axis.letter === "x" ? paper.width : paper.height));
  for (let round = 0; round < 3 && e.values.length; round++) {
    const unit = (high - low) / length;  // axis units per px
    let newLow = low, newHigh = high;
    for (const [v, pad, padded] of e.values) {
      const px = pad + (padded ? 0.05 * length : 0);
      newLow = Math.min(newLow, v - px * unit);
      newHigh = Math.max(newHigh, v + px * unit);
    }
    if (e.zero && low === 0 && axis.type !== "log") newLow = 0;
    low = newLow; high = newHigh;
  }
  if (e.barPad) { const span = high - low; if (low < 0) low -= 0.05 * span; if (high > 0) high += 0.05 * span; }
  return [low, high];
}

// Every axis' range (axis.lo, axis.hi, in log10 units on a log axis): the figure's, or auto
function computeRanges(layout, traces, axes, paper) {
  const extents = dataExtents(layout, traces, axes);
  for (const [name, axis] of Object.entries(axes)) {
    const given = Array.isArray(axis.range) && axis.range.length === 2 && axis.range.every(isNumber);
    [axis.lo, axis.hi] = given ? axis.range
      : autoRange(axis, extents[name] || { low: NaN, high: NaN, values: [] }, paper);
  }
  for (const axis of Object.values(axes)) {  // axes that "match" share one range
    const other = axis.matches && axes[axisName(axis.matches, axis.letter)];
    if (other && !Array.isArray(axis.range)) {
      const low = Math.min(axis.lo, other.lo), high = Math.max(axis.hi, other.hi);
      axis.lo = other.lo = low; axis.hi = other.hi = high;
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
  // as many ticks as Plotly puts: a rough step of span / (clamp(length / 40 px (y) or 80 px
  // (x), 4, 9) + 1)
  const count = Math.min(9, Math.max(4, length / (axis.letter === "x" ? 80 : 40))) + 1;
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
