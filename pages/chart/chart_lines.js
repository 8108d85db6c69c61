// The SVG chart (pages/chart/): a trace's points on screen, lines (with gaps and steps),
// and heatmaps (one image for an even grid, else runs of rects).

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
