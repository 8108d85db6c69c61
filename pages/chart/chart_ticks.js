// The SVG chart (pages/chart/): tick labels that never run together, axis titles that fit
// their axis, and the room the left axis' labels and title need (the left margin grows to
// it, as Plotly's automargin), whatever the range and the width of the window.

function axisTitleText(axis) {
  return axis.title && (typeof axis.title === "string" ? axis.title : axis.title.text);
}

function axisTitleSize(axis, font) {
  return (axis.title && axis.title.font && axis.title.font.size) || Math.round(1.2 * font);
}

// A title broken between words into lines no wider than ``width`` px (a title that has
// its own line breaks, or fits, is kept as it is)
function wrapText(text, width, size) {
  if (/<br\s*\/?>/i.test(text) || textWidth(null, text, size) <= width) return text;
  const lines = [];
  let line = "";
  for (const word of text.split(" ")) {
    const longer = line ? `${line} ${word}` : word;
    if (line && textWidth(null, longer, size) > width) { lines.push(line); line = word; }
    else line = longer;
  }
  if (line) lines.push(line);
  return lines.join("<br>");
}

// Each axis' title as drawn (axis.titleShown): a y title on as many lines as it needs to
// fit along the plot's height, an x title (centred under the plot) within the figure
function fitTitles(axes, font, width) {
  for (const axis of Object.values(axes)) {
    const title = axisTitleText(axis);
    const centre = axis.start + axis.length / 2;
    const room = axis.letter === "y" ? 0.95 * axis.length : 2 * Math.min(centre, width - centre) - 8;
    axis.titleShown = title ? wrapText(String(title), room, axisTitleSize(axis, font)) : "";
  }
}

// px a tick label takes along its axis: its width on an x axis, its lines' height on a y axis
function tickExtent(axis, tick, size) {
  return axis.letter === "x" ? textWidth(null, tick.text, size) : 1.25 * size * richLines(tick.text).length;
}

// The ticks whose labels are drawn: every one when no two neighbours come closer than half
// the font size, else the largest regular subset that keeps them apart: on a log axis the
// powers of ten first, then every k-th tick (counted from 0 or a power of ten)
function labelledTicks(axis, ticks, size) {
  const gap = 0.5 * size;
  const placed = ticks.map((tick) => ({ ...tick, p: axis.px(tick.position), half: tickExtent(axis, tick, size) / 2 }))
    .sort((a, b) => a.p - b.p);
  const fits = (list) => list.every((t, k) => k === 0 || t.p - list[k - 1].p >= t.half + list[k - 1].half + gap);
  if (fits(placed)) return placed;
  const round = (t) => Math.abs(t.position - Math.round(t.position)) < 1e-9;
  let base = placed;
  if (axis.type === "log" && placed.filter(round).length >= 2) {
    base = placed.filter(round);
    if (fits(base)) return base;
  }
  const anchor = Math.max(0, base.findIndex((t) => (axis.type === "log" ? round(t) : Math.abs(t.position) < 1e-12)));
  for (let stride = 2; stride < base.length; stride++) {
    const list = base.filter((_, k) => (k - anchor) % stride === 0);
    if (fits(list)) return list;
  }
  return base.slice(anchor, anchor + 1);
}

// The left margin the y axes at the figure's left edge need: their widest drawn tick label,
// the tick marks, and their title's lines (drawAxisTitles puts the title there)
function leftRoom(axes, font) {
  let room = 0;
  for (const axis of Object.values(axes)) {
    if (axis.letter !== "y" || (axis.showticklabels === false && !axisTitleText(axis))) continue;
    const other = anchorOf(axes, axis);
    if (Math.abs(other.start - Math.min(...Object.values(axes).filter((a) => a.letter === "x").map((a) => a.start))) > 1) continue;
    const size = (axis.tickfont && axis.tickfont.size) || font;
    const marks = layoutTickStyle(axis);
    const labels = axis.showticklabels === false ? [] : labelledTicks(axis, ticksOf(axis, axis.length, size), size);
    const widest = Math.max(0, ...labels.map((t) => textWidth(null, t.text, size)));
    const title = axis.titleShown ? axisTitleSize(axis, font) * (1.5 + 1.3 * (richLines(axis.titleShown).length - 1)) + 3 : 0;
    room = Math.max(room, widest + 6 + (marks.outside ? marks.length : 0) + title);
  }
  return Math.ceil(room);
}

// How far the lowest x title would reach below the figure's bottom edge (px, 0 if it fits):
// under its axis' tick labels, one line of 1.3 × its size after the first
function bottomOverflow(axes, font, height) {
  let lowest = 0;
  for (const axis of Object.values(axes)) {
    if (axis.letter !== "x" || !axis.titleShown) continue;
    const other = anchorOf(axes, axis);
    const size = (axis.tickfont && axis.tickfont.size) || font;
    const marks = layoutTickStyle(axis);
    const labels = axis.showticklabels === false ? 0 : 1.1 * size + 4 + (marks.outside ? marks.length : 0);
    const title = axisTitleSize(axis, font);
    const lines = richLines(axis.titleShown).length;
    lowest = Math.max(lowest, other.start + other.length + labels + 1.2 * title + 1.3 * title * (lines - 1) + 0.6 * title);
  }
  return Math.max(0, Math.ceil(lowest - height));
}

// The plot's box, the axes placed in it and their titles fitted: the left margin grows to
// the y axis' labels and title (at most to 45 % of the width), the bottom one to an x title
// broken onto more lines than it had room for; each change moves the axes, so the titles
// are fitted again (two rounds settle it). ``margin`` is updated in place.
function fitMargins(layout, traces, axes, size, margin, font) {
  let paper = paperBox(size, margin);
  computeRanges(layout, traces, axes, paper);
  placeAxes(axes, paper);
  fitTitles(axes, font, size.width);
  for (let round = 0; round < 3; round++) {
    const room = Math.min(leftRoom(axes, font), Math.round(0.45 * size.width));
    const overflow = Math.min(bottomOverflow(axes, font, size.height), Math.round(0.25 * size.height));
    if (room <= margin.l && overflow <= 0) break;
    margin.l = Math.max(margin.l, room);
    margin.b += overflow;
    paper = paperBox(size, margin);
    computeRanges(layout, traces, axes, paper);
    placeAxes(axes, paper);
    fitTitles(axes, font, size.width);
  }
  return paper;
}
