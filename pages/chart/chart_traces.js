// The SVG chart (pages/chart/): bars, and scatter traces (fill, line, markers, text, error
// bars) with each point's hover text.

function drawBars(parent, trace, axes, hover) {
  const { xa, ya } = tracePoints(trace, axes);
  const x = trace.x || [], y = trace.y || [];
  const step = minStep(x) * (trace.width || 0.8);
  const marker = trace.marker || {};
  const base = ya.type === "log" ? ya.lo : 0;
  const group = node("g", { class: "bars" }, parent);
  x.forEach((v, i) => {
    if (!isNumber(v) || !isNumber(y[i])) return;
    const left = xa.at(v - step / 2), right = xa.at(v + step / 2);
    const top = ya.at(y[i]), bottom = ya.type === "log" ? ya.px(base) : ya.at(0);
    const color = pick(marker.color, i) || trace._color;
    const rect = node("rect", { x: Math.min(left, right), y: Math.min(top, bottom), width: Math.abs(right - left),
      height: Math.max(0.5, Math.abs(bottom - top)), fill: color, opacity: marker.opacity }, group);
    hover(trace, i, (left + right) / 2, top, color, rect);
  });
}

// The area a scatter trace fills: its own outline ("toself"), down to y = 0 ("tozeroy"), or
// down to the trace before it ("tonexty"); Plotly's half-opaque line colour by default
function drawFill(group, trace, points, axes, previous) {
  const fill = trace.fill && trace.fill !== "none" ? trace.fill : null;
  const valid = points.filter(Boolean);
  if (!fill || !valid.length) return;
  const c = parseColor((trace.line && trace.line.color) || trace._color);
  const fillColor = trace.fillcolor || `rgba(${c[0]}, ${c[1]}, ${c[2]}, 0.5)`;
  const joined = (list) => list.map((p) => p.join(",")).join("L");
  let d = "";
  if (fill === "toself") d = polyline(points, trace.connectgaps) + "Z";
  else if (fill === "tozeroy") {
    const ya = axes[axisName(trace.yaxis || "y", "y")], zero = ya.type === "log" ? ya.px(ya.lo) : ya.at(0);
    d = `M${valid[0][0]},${zero}L${joined(valid)}L${valid[valid.length - 1][0]},${zero}Z`;
  } else if (fill === "tonexty") {
    const under = (previous || []).filter(Boolean).slice().reverse();
    d = "M" + joined(valid.concat(under)) + "Z";
  }
  if (d) node("path", { d, fill: fillColor, stroke: "none", class: "fill" }, group);
}

function drawScatter(parent, trace, axes, hover, previous) {
  const { points } = tracePoints(trace, axes);
  const mode = trace.mode || (points.length < 20 ? "lines+markers" : "lines");
  const color = trace._color;
  const line = trace.line || {};
  const group = node("g", { class: "trace", opacity: trace.opacity }, parent);
  drawFill(group, trace, points, axes, previous);
  if (/lines/.test(mode) && line.width !== 0 && points.filter(Boolean).length > 1) {
    const width = line.width ?? 2;
    node("path", { d: polyline(points, trace.connectgaps, line.shape), fill: "none", stroke: line.color || color, "stroke-width": width,
      "stroke-dasharray": dashArray(line.dash, width), "stroke-linejoin": "round", class: "line" }, group);
  }
  const marker = trace.marker || {};
  const showMarkers = /markers/.test(mode);
  const text = trace.text;
  const textfont = trace.textfont || {};
  points.forEach((p, i) => {
    if (!p) return;
    let item = null;
    const size = pick(marker.size, i) ?? 6;
    const markerColor = pick(marker.color, i) || color;
    if (showMarkers) {
      item = drawMarker(group, p[0], p[1], pick(marker.symbol, i), size, markerColor, marker.line, pick(marker.opacity, i));
      item.setAttribute("class", "point");
    }
    if (/text/.test(mode) && pick(text, i) !== undefined && pick(text, i) !== null && pick(text, i) !== "") {
      const fontSize = pick(textfont.size, i) || trace._font;
      const position = pick(trace.textposition, i) || "middle center";
      const [vertical, horizontal] = position.split(" ");
      const offset = showMarkers ? size / 2 + 2 : 0;
      const lines = richLines(pick(text, i)).length;
      const ty = vertical === "top" ? p[1] - offset - (lines - 1) * 1.3 * fontSize - 0.3 * fontSize
        : vertical === "bottom" ? p[1] + offset + 0.9 * fontSize : p[1] + 0.35 * fontSize;
      const tx = horizontal === "left" ? p[0] - offset - 2 : horizontal === "right" ? p[0] + offset + 2 : p[0];
      richSvgText(group, pick(text, i), tx, ty, fontSize, { "text-anchor": horizontal === "left" ? "end" : horizontal === "right" ? "start" : "middle",
        fill: pick(textfont.color, i) || CHART_INK, class: "point-text" });
    }
    if (trace.error_y && trace.error_y.visible !== false) {
      const ya = axes[axisName(trace.yaxis || "y", "y")];
      const [low, high] = errorBars(trace)[i];
      const y0 = ya.at(low), y1 = ya.at(high), half = trace.error_y.width ?? 4;
      if (Number.isFinite(y0) && Number.isFinite(y1)) {
        const stroke = trace.error_y.color || markerColor, width = trace.error_y.thickness ?? 2;
        node("path", { d: `M${p[0]},${y0}V${y1}M${p[0] - half},${y0}H${p[0] + half}M${p[0] - half},${y1}H${p[0] + half}`,
          stroke, "stroke-width": width, fill: "none", class: "error" }, group);
      }
    }
    hover(trace, i, p[0], p[1], markerColor, item);
  });
  return points;
}

// ---------------------------------------------------------------------------------------
// Mount: draw into the component's box, again when its width changes
// ---------------------------------------------------------------------------------------
