// The SVG chart (pages/chart/): shapes, annotations, the legend and the title, placed by
// Plotly's references (data, paper, an axis' domain, the container).

// a reference (x, xref) to a px position: data on an axis, the plot's paper, an axis' domain
// (an annotation on a log axis gives its position in log10 units, as Plotly: logged = true)
function refPosition(axes, paper, value, ref, letter, size, logged = false) {
  const r = ref || (letter === "x" ? "x" : "y");
  if (r === "paper") return letter === "x" ? paper.left + value * paper.width : paper.top + (1 - value) * paper.height;
  if (r === "container") return letter === "x" ? value * size.width : (1 - value) * size.height;
  const domain = / domain$/.test(r);
  const axis = axes[axisName(r.replace(/ domain$/, ""), letter)];
  if (!axis) return NaN;
  if (domain) return letter === "x" ? axis.start + value * axis.length : axis.start + (1 - value) * axis.length;
  return logged && axis.type === "log" ? axis.px(value) : axis.at(value);
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
    const px = refPosition(axes, paper, note.x ?? 0.5, note.xref, "x", size, true);
    const py = refPosition(axes, paper, note.y ?? 0.5, note.yref, "y", size, true);
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
