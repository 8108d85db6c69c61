// The charts under the player (joined after scene_common.js): a small line chart with
// fixed axes, a row of them with a title and caption, the two charts of the convergence
// proof, and the share of the training examples predicted correctly. Every chart can be
// walked by keyboard (walkMiniChart), and the row says its values at the shown update in
// words (the row's .chart-now line, read into the picture's description and by the P key).

// How to walk a chart by keyboard, said once as its description.
const WALK_HELP = "Tab to the chart, then ← → walk the points up to the current step, " +
  "↑ ↓ switch line, Home and End go to the first and last point.";
let miniChartCount = 0;

function miniChart(host, title, series, xMax, yRange, yFormat, xName = "update t") {
  const box = element("div", { class: "panel" });
  const help = element("div", { class: "walk-help", id: `mini-help-${++miniChartCount}` }, WALK_HELP);
  const root = svg("svg", { viewBox: "0 0 600 300", class: "mini", role: "img", "aria-label": title,
                            tabindex: "0", "data-walk": "", "aria-describedby": help.id });
  const [low, high] = yRange[0] === yRange[1] ? [yRange[0] - 1, yRange[1] + 1] : yRange;
  const chart = {
    root, series, xMax, low, high, yFormat, xName, shown: 0, coords: [], px: () => 0, key: "",
    axes: svg("g", { class: "axes" }), cursor: svg("line", { class: "cursor" }),
    lines: series.map((item) => svg("polyline", {
      fill: "none", stroke: item.color, "stroke-width": 3, "stroke-dasharray": item.dash || "none" })),
    mark: svg("circle", { r: 7, class: "walk-mark", fill: "none", stroke: "#111", "stroke-width": 3 }),
    py: () => 0, row: host, letter: xName.split(" ").pop(),
  };
  chart.mark.style.display = "none";
  root.append(chart.axes, ...chart.lines, chart.cursor, chart.mark);
  const legend = element("div", { class: "panel-legend" });
  for (const item of series) {
    const entry = document.createElement("span");
    entry.innerHTML = `<i style="border-top: 4px ${item.dash ? "dashed" : "solid"} ${item.color}"></i>`;
    entry.append(item.name);
    legend.append(entry);
  }
  // a live region of its own (the player's, role status, says the steps)
  chart.live = element("div", { class: "walk-live", "aria-live": "polite" });
  box.append(element("div", { class: "panel-title" }, title), root, legend, help, chart.live);
  host.append(box);
  if (host.charts) host.charts.push(chart);
  // draw(k, again): the lines up to update k; nothing to do when k is drawn already
  chart.draw = (k, again = false) => {
    if (host.sayNow) host.sayNow(k);
    if (k === chart.shown && chart.drawn && !again) return;
    chart.shown = k;
    chart.drawn = true;
    chart.lines.forEach((node, i) => node.setAttribute("points", chart.coords[i].slice(0, k + 1).join(" ")));
    chart.cursor.setAttribute("x1", chart.px(k));
    chart.cursor.setAttribute("x2", chart.px(k));
  };
  layoutMiniChart(chart);
  if (typeof ResizeObserver === "function") new ResizeObserver(() => layoutMiniChart(chart)).observe(root);
  walkMiniChart(chart);
  return chart.draw;
}

// A share as a percentage with one decimal, more when needed so that it reads 100% only
// when it is 1 and 0% only when it is 0 (as percentText does for a count).
function shareText(v) {
  if (v === 0 || v === 1) return v === 0 ? "0%" : "100%";
  let places = 1;
  while (places < 6 && [0, 100].includes(Number((100 * v).toFixed(places)))) places++;
  return `${(100 * v).toFixed(places)}%`;
}

// A value on a chart in words: four significant digits, or the series' own format.
const chartValueText = (item, v) => (item.text ? item.text(v)
  : Math.abs(v) >= 1000 ? countText(Math.round(v)) : minusSign(String(Number(v.toPrecision(4)))));

// The keyboard walk of a miniChart: focus says the point at the shown update; ← → move
// along the line (up to the shown update), ↑ ↓ switch line, Home and End jump to the ends,
// Escape hides the mark. Each point is said in the chart's live region: the line's name,
// the position ("3 of 6") and the value; a mark rings it on the chart.
function walkMiniChart(chart) {
  const at = { line: 0, index: null };
  const say = () => {
    const item = chart.series[at.line], count = chart.shown + 1;
    at.index = Math.max(0, Math.min(chart.shown, at.index ?? chart.shown));
    const v = item.values[at.index];
    setAttr(chart.mark, "cx", chart.px(at.index));
    setAttr(chart.mark, "cy", chart.py(v));
    setAttr(chart.mark, "stroke", item.color);
    chart.mark.style.display = "";
    chart.live.textContent = `${item.name}, point ${at.index + 1} of ${count}: ` +
      `${chart.letter} = ${at.index}, ${chartValueText(item, v)}.`;
  };
  chart.root.addEventListener("focus", () => { at.index = null; say(); });
  chart.root.addEventListener("blur", () => { chart.mark.style.display = "none"; });
  chart.root.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const lines = chart.series.length, last = chart.shown;
    const moves = {
      ArrowRight: () => { at.index = Math.min(last, (at.index ?? last) + 1); },
      ArrowLeft: () => { at.index = Math.max(0, (at.index ?? last) - 1); },
      ArrowDown: () => { at.line = (at.line + 1) % lines; },
      ArrowUp: () => { at.line = (at.line + lines - 1) % lines; },
      Home: () => { at.index = 0; }, End: () => { at.index = last; },
    };
    if (event.key === "Escape") { chart.mark.style.display = "none"; return; }
    if (!moves[event.key]) return;
    event.preventDefault();
    moves[event.key]();
    say();
  });
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
  c.py = py;
  c.coords = c.series.map((item) => item.values.map((v, t) => `${px(t).toFixed(1)},${py(v).toFixed(1)}`));
  c.draw(c.shown, true);
}

// A tick label of a chart: whole numbers from 100 up, one decimal below.
const chartNumber = (v) => (Math.abs(v) >= 100 ? fmt(v, 0) : fmt(v, 1));

// The chart area under the player: a title (optional), a row of panels for miniChart,
// the charts' values at the shown update in words (.chart-now), and a caption under it
// (optional). Returns the row; row.nowText(k), when set (proofCharts), writes the words,
// else each line's value is listed.
function chartRow(host, title, caption) {
  const row = element("div", { class: "panels" });
  const now = element("p", { class: "chart-now", "data-testid": "chart-now" });
  if (title) host.append(element("div", { class: "chart-title" }, title));
  host.append(row, now);
  if (caption) host.append(element("div", { class: "caption" }, caption));
  row.charts = [];
  row.sayNow = (k) => {
    const lines = row.charts.flatMap((c) => c.series.map((item) => `${item.name} = ${chartValueText(item, item.values[k])}`));
    const letter = row.charts.length ? row.charts[0].letter : "t";
    setText(now, row.nowText ? row.nowText(k) : `${letter} = ${countText(k)}: ${lines.join("; ")}.`);
  };
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
  row.nowText = (k) => proofNow(proof, k);
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

// The proof's two inequalities at update k in words, every number with the digits that
// keep its inequality true as written (inequalityTexts): "t = 5: ⟨(w_t, b_t), w*⟩ = 0.52 ≥
// t·γ₂ = 0.49; ‖(w_t, b_t)‖² = 6.10 ≤ t(max‖aᵢ‖²) = 9.95."
function proofNow(proof, k) {
  const name = (text) => text.split(" = ")[0];  // "‖wₖ‖² = Σ …" is said as "‖wₖ‖²"
  const [a, low] = inequalityTexts(proof.alignment[k], "≥", proof.alignment_lower[k]);
  const [n, high] = inequalityTexts(proof.norm_sq[k], "≤", proof.norm_sq_upper[k]);
  return `${proof.counter || "t"} = ${countText(k)}: ${name(proof.alignment_name)} = ${a} ≥ ` +
    `${proof.alignment_lower_name} = ${low}; ${name(proof.norm_sq_name)} = ${n} ≤ ` +
    `${proof.norm_sq_upper_name} = ${high}.`;
}

// The share of the training examples predicted correctly after each update.
function accuracyChart(row, accuracy, xMax) {
  return miniChart(row, "training accuracy", [
    { name: "share predicted correctly", values: accuracy, color: COLORS.step,
      text: shareText },
  ], xMax, [0, 1], (v) => `${Math.round(v * 100)}%`);
}
