// The charts under the player (joined after scene_common.js): a small line chart with
// fixed axes, a row of them with a title and caption, the two charts of the convergence
// proof, and the share of the training examples predicted correctly.

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
