// The SVG chart (pages/chart/): drawing a figure into its box (drawChart: axes, traces,
// notes, legend, title, at the box's width) and telling a point's values on hover and on
// keyboard focus (a visible tooltip, a live region for a screen reader).

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
  traces.forEach((trace, k) => {
    trace._color = (trace.line && trace.line.color) || (trace.marker && typeof trace.marker.color === "string" && trace.marker.color)
      || CHART_COLORWAY[k % CHART_COLORWAY.length];
    trace._font = (trace.textfont && trace.textfont.size) || font;
  });
  const axes = buildAxes(layout, traces);
  const paper = fitMargins(layout, traces, axes, size, margin, font);
  const root = node("svg", { class: "svg-chart", width, height, viewBox: `0 0 ${width} ${height}`, role: "img",
    "aria-label": label || plainText(layout.title && layout.title.text) || "chart", tabindex: 0,
    "font-family": CHART_FONT, "data-traces": traces.length });
  node("title", {}, root).textContent = label || plainText(layout.title && layout.title.text) || "chart";
  node("rect", { x: 0, y: 0, width, height, fill: layout.paper_bgcolor || "white" }, root);
  if (layout.plot_bgcolor && layout.plot_bgcolor !== "white") {
    node("rect", { x: paper.left, y: paper.top, width: paper.width, height: paper.height, fill: layout.plot_bgcolor }, root);
  }
  // drawn beside the old SVG, which is removed once the new one is complete (no flicker)
  const old = state.svg;
  if (old && old.parentNode) old.parentNode.insertBefore(root, old); else state.figureBox.appendChild(root);
  const below = node("g", { class: "shapes-below" }, root);
  const textLayer = node("g", { class: "labels" });
  drawAxes(root, axes, font, textLayer);
  drawShapes(below, (layout.shapes || []).filter((s) => s.layer === "below"), axes, paper, size);
  const hovers = drawTraces(root, traces, axes, state.uid);
  drawShapes(root, (layout.shapes || []).filter((s) => s.layer !== "below"), axes, paper, size);
  root.appendChild(textLayer);
  drawAxisTitles(root, axes, font);
  drawAnnotations(root, layout.annotations, axes, paper, size, font);
  drawLegend(root, layout, traces, paper, size, font);
  drawTitle(root, layout, size, font);
  if (old) old.remove();
  if (state.frameBar) placeFrameBar(state.frameBar, layout, paper);
  state.svg = root;
  state.hovers = hovers;
  state.width = width;
  // a tab stop only for a chart with points to tell (← → walk them)
  if (!hovers.length) root.removeAttribute("tabindex");
  attachHover(state);
}

// Every visible trace, each pair of axes clipping its lines to its plot area (markers are
// drawn above, unclipped); returns the points with hover text: [{x, y, text, color, series,
// seriesName}] (series: the trace's number, for the keyboard walk)
function drawTraces(root, traces, axes, uid) {
  const defs = node("defs", {}, root);
  const clips = {};
  const clipOf = (trace) => {
    const xa = axes[axisName(trace.xaxis || "x", "x")], ya = axes[axisName(trace.yaxis || "y", "y")];
    const id = `${uid}-${xa.name}-${ya.name}`;
    if (!clips[id]) {
      const clip = node("clipPath", { id }, defs);
      node("rect", { x: xa.start - 2, y: ya.start - 2, width: xa.length + 4, height: ya.length + 4 }, clip);
      clips[id] = node("g", { "clip-path": `url(#${id})` }, root);
      clips[id].markers = node("g", {}, root);
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
    hovers.push({ x, y, text, color, series: traces.indexOf(trace),
                  seriesName: plainText(trace.name || "") || `line ${traces.indexOf(trace) + 1}` });
    if (item) node("title", {}, item).textContent = plainText(text);
  };
  let previous = null;  // the points of the trace before (fill "tonexty")
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
  return hovers;
}

// The frames' slider and Play where the figure puts its slider: under the axis, in the
// bottom margin it keeps for them
function placeFrameBar(bar, layout, paper) {
  const slider = (layout.sliders || [])[0] || {};
  const y = isNumber(slider.y) ? slider.y : -0.12;
  bar.style.top = `${Math.round(paper.top + (1 - y) * paper.height + 8)}px`;  // Plotly's pad
  bar.style.left = `${Math.round(paper.left)}px`;
  bar.style.width = `${Math.round(Math.max(160, paper.width))}px`;
}

function showTip(state, item, said) {
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
  state.live.textContent = said || plainText(item.text);
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
  const point = (event) => {
    const item = nearest(event);
    if (item) showTip(state, item); else hide();
  };
  root.addEventListener("pointermove", point);
  root.addEventListener("pointerdown", point);  // a tap on a phone (no pointer moves there)
  root.addEventListener("pointerleave", hide);
  walkChart(state);
}

// How to walk a chart by keyboard: its description (aria-describedby), and said with the
// first point
const CHART_WALK_HELP = "← → walk the points of a line or series, ↑ ↓ switch to the next " +
  "one, Home and End go to its first and last point, Escape hides the point.";

// The chart's points grouped by series, in the order drawn: [{name, items}]
function walkSeries(hovers) {
  const groups = new Map();
  for (const item of hovers) {
    if (!groups.has(item.series)) groups.set(item.series, { name: item.seriesName, items: [] });
    groups.get(item.series).items.push(item);
  }
  return Array.from(groups.values());
}

// The keyboard walk (a tab stop when the chart has points): focus says the first point,
// with the keys; ← → walk the points of one series, ↑ ↓ switch series, Home and End jump
// to its ends, Escape hides. Each point is said with its series and position ("median over
// seeds, 3 of 8: …") in the live region, and shown in the tooltip.
function walkChart(state) {
  const root = state.svg;
  const help = state.help;
  if (help) root.setAttribute("aria-describedby", help.id);
  const series = walkSeries(state.hovers);
  const at = state.walk = state.walk && state.walk.line < series.length ? state.walk : { line: 0, index: 0 };
  const say = (withHelp) => {
    const group = series[at.line];
    at.index = Math.max(0, Math.min(group.items.length - 1, at.index));
    const item = group.items[at.index];
    let text = plainText(String(item.text).replace(/<br\s*\/?>/gi, ", "));
    if (text.startsWith(group.name)) text = text.slice(group.name.length).replace(/^[:,\s]+/, "");
    const said = `${group.name}, ${at.index + 1} of ${group.items.length}: ${text}.` +
      (withHelp ? ` ${series.length > 1 ? `${series.length} series. ` : ""}${CHART_WALK_HELP}` : "");
    showTip(state, item, said);
  };
  root.addEventListener("focus", () => { if (series.length) say(!state.helped); state.helped = true; });
  root.addEventListener("blur", () => { showTip(state, null); state.ring.setAttribute("visibility", "hidden"); });
  root.addEventListener("keydown", (event) => {
    if (!series.length || event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.key === "Escape") { showTip(state, null); state.ring.setAttribute("visibility", "hidden"); return; }
    const last = series[at.line].items.length - 1;
    const moves = {
      ArrowRight: () => { at.index = Math.min(last, at.index + 1); },
      ArrowLeft: () => { at.index = Math.max(0, at.index - 1); },
      ArrowDown: () => { at.line = (at.line + 1) % series.length; },
      ArrowUp: () => { at.line = (at.line + series.length - 1) % series.length; },
      Home: () => { at.index = 0; }, End: () => { at.index = last; },
    };
    if (!moves[event.key]) return;
    event.preventDefault();
    moves[event.key]();
    say(false);
  });
}
