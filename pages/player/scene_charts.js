// The charts under the player (joined after scene_common.js): a small line chart with
// fixed axes, a row of them with a title and caption, the two charts of the convergence
// proof, and the share of the training examples predicted correctly.

// A small line chart: fixed axes for the whole run, series drawn up to update k. Its
// viewBox is its box on screen in CSS pixels, laid out again whenever that box changes
// (a ResizeObserver; layoutMiniChart): the margins come from its type size (player.css
// sets the font-size of .mini), so tick labels, the axis title and the legend under it
// never run into each other, however small the presenter stage leaves the chart.
function miniChart(host, title, series, xMax, yRange, yFormat, xName = "update t") {
  const box = element("div", { class: "panel" });
  const root = svg("svg", { viewBox: "0 0 600 300", class: "mini", role: "img", "aria-label": title });
  const [low, high] = yRange[0] === yRange[1] ? [yRange[0] - 1, yRange[1] + 1] : yRange;
  const chart = {
    root, series, xMax, low, high, yFormat, xName, shown: 0, coords: [], px: () => 0, key: "",
    axes: svg("g", { class: "axes" }), cursor: svg("line", { class: "cursor" }),
    lines: series.map((item) => svg("polyline", {
      fill: "none", stroke: item.color, "stroke-width": 3, "stroke-dasharray": item.dash || "none" })),
  };
  root.append(chart.axes, ...chart.lines, chart.cursor);
  const legend = element("div", { class: "panel-legend" });
  for (const item of series) {
    const entry = document.createElement("span");
    entry.innerHTML = `<i style="border-top: 4px ${item.dash ? "dashed" : "solid"} ${item.color}"></i>`;
    entry.append(item.name);
    legend.append(entry);
  }
  box.append(element("div", { class: "panel-title" }, title), root, legend);
  host.append(box);
  // draw(k, again): the lines up to update k; nothing to do when k is drawn already
  chart.draw = (k, again = false) => {
    if (k === chart.shown && chart.drawn && !again) return;
    chart.shown = k;
    chart.drawn = true;
    chart.lines.forEach((node, i) => node.setAttribute("points", chart.coords[i].slice(0, k + 1).join(" ")));
    chart.cursor.setAttribute("x1", chart.px(k));
    chart.cursor.setAttribute("x2", chart.px(k));
  };
  layoutMiniChart(chart);
  if (typeof ResizeObserver === "function") new ResizeObserver(() => layoutMiniChart(chart)).observe(root);
  return chart.draw;
}

// Lay a miniChart out in its box on screen: ticks, grid, axis title, frame and the
// series' points; draws it again at the update it shows.
function layoutMiniChart(c) {
  const { root, low, high, xMax, yFormat } = c, style = getComputedStyle(root);
  const font = parseFloat(style.fontSize) || 15;
  const width = Math.max(120, Math.round(root.clientWidth || 600));
  // the presenter stage gives the chart a height (--chart-fill: 1); elsewhere it is half as tall as wide
  const fill = style.getPropertyValue("--chart-fill").trim() === "1" && root.clientHeight > 0;
  const height = Math.max(4 * font, fill ? Math.round(root.clientHeight) : Math.round(width / 2));
  const key = `${width}x${height}@${font}`;
  if (key === c.key) return;
  c.key = key;
  root.setAttribute("viewBox", `0 0 ${width} ${height}`);
  const textWidth = (text) => 0.62 * font * text.length;  // digits are about 0.6 em wide
  // under the plot: a row of x tick labels, then the axis title
  const top = Math.ceil(0.7 * font), bottom = Math.ceil(2.75 * font);
  const plotHeight = Math.max(1, height - top - bottom);
  const yStep = niceStep(high - low, Math.max(1, Math.min(4, Math.floor(plotHeight / (1.8 * font)))));
  const yValues = [];
  // ticks as multiples k·yStep with a tolerance relative to the step: an absolute one (1e-9)
  // gave 200 000 ticks to a range of 10⁻¹⁴ (a no-bias run on two nearly parallel points)
  for (let k = Math.ceil(low / yStep); k * yStep <= high + 1e-6 * yStep; k++) yValues.push(k * yStep);
  const left = Math.ceil(Math.max(...yValues.map((v) => textWidth(yFormat(v)))) + 0.7 * font);
  const lastX = String(Math.round(xMax));
  const plotWidth = Math.max(1, width - left - Math.ceil(Math.max(0.5 * font, textWidth(lastX) / 2 + 4)));
  const px = (t) => left + (t / Math.max(1, xMax)) * plotWidth;
  const py = (v) => top + ((high - v) / (high - low)) * plotHeight;
  const label = (x, y, anchor, text, attributes = {}) => {
    const node = svg("text", { x, y, "text-anchor": anchor, ...attributes });
    node.textContent = text;
    return node;
  };
  c.axes.replaceChildren();
  for (const v of yValues) {
    c.axes.append(svg("line", { x1: left, x2: left + plotWidth, y1: py(v), y2: py(v), class: "grid" }),
                  label(left - 0.4 * font, py(v) + 0.35 * font, "end", yFormat(v)));
  }
  // as many x ticks as fit side by side, a gap of about two digits between them
  const xCount = Math.max(1, Math.min(5, Math.floor(plotWidth / (textWidth(lastX) + 1.5 * font))));
  const xStep = Math.max(1, Math.round(niceStep(Math.max(1, xMax), xCount)));
  for (let t = 0; t <= xMax + 1e-9; t += xStep) {
    c.axes.append(label(px(t), top + plotHeight + 1.15 * font, "middle", String(t)));
  }
  c.axes.append(label(left + plotWidth / 2, height - 0.35 * font, "middle", c.xName, { class: "axis-title" }),
                svg("rect", { x: left, y: top, width: plotWidth, height: plotHeight, class: "frame" }));
  c.cursor.setAttribute("y1", top);
  c.cursor.setAttribute("y2", top + plotHeight);
  c.px = px;
  c.coords = c.series.map((item) => item.values.map((v, t) => `${px(t).toFixed(1)},${py(v).toFixed(1)}`));
  c.draw(c.shown, true);
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
