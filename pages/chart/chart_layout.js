// The SVG chart (pages/chart/): where the axes lie on screen (domains, equal scales) and
// drawing them: grid, zero line, frame, tick labels, titles.

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
    // a label for every tick whose label keeps clear of its neighbours' (chart_ticks.js)
    const labelled = new Set(axis.showticklabels === false ? [] : labelledTicks(axis, ticks, size).map((t) => t.position));
    let widest = 0;
    for (const tick of ticks) {
      const p = axis.px(tick.position);
      if (marks.length) {
        const sign = marks.outside ? 1 : -1;
        node("line", { ...(x ? { x1: p, x2: p, y1: edge, y2: edge + sign * marks.length } : { x1: edge, x2: edge - sign * marks.length, y1: p, y2: p }),
          stroke: axis.tickcolor || axis.linecolor || "#444", "stroke-width": 1 }, g);
      }
      if (!labelled.has(tick.position)) continue;
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
    const title = axis.titleShown;  // broken into lines that fit the axis (fitTitles)
    if (!title) continue;
    const size = axisTitleSize(axis, font);
    if (axis.letter === "x") {
      const y = axis.edge + axis.labelRoom + 0.4 * size + 0.8 * size;
      richSvgText(layer, title, axis.start + axis.length / 2, y, size, { "text-anchor": "middle", fill: CHART_INK, class: "axis-title" });
    } else {
      const lines = richLines(title).length;
      // left of the tick labels, but never past the figure's left edge (a phone's narrow margin)
      const x = Math.max(axis.edge - axis.labelRoom - 0.45 * size, 1.05 * size + 1 + (lines - 1) * 1.3 * size);
      const cy = axis.start + axis.length / 2;
      const group = node("g", { transform: `translate(${x.toFixed(1)},${cy.toFixed(1)}) rotate(-90)` }, layer);
      richSvgText(group, title, 0, -(lines - 1) * 1.3 * size, size, { "text-anchor": "middle", fill: CHART_INK, class: "axis-title" });
    }
  }
}
