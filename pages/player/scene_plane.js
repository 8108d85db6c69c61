// The square and the info panel (joined after scene_charts.js): the square view as an
// SVG with grid and axes, the data points, the planted separator and its band, the
// examined example's mark and the step in words, a legend, and the info panel beside
// the figure (counters, progress against a bound, the banner at the end).

let planeCount = 0;  // ids of arrow heads and clip paths must be unique in a page

// The square [-limit, limit]^2 as an SVG: grid, zero lines, ticks, axis titles, arrow
// heads (url(#head-w|ghost|step-<id>)), and a clipped group `plot` to draw in.
// plot.dataLayer is where the data points go (drawPoints); draw what moves after it.
function plane(limit, present, label) {
  const id = ++planeCount;
  const map = viewMap(limit, present ? 124 : 78);
  const r = present ? 12 : 9;  // marker radius in viewBox units
  const root = svg("svg", { viewBox: "0 0 1000 1000", class: "plane", role: "img", "aria-label": label });
  const defs = svg("defs");
  for (const [name, color] of [["w", COLORS.weight], ["ghost", COLORS.ghost], ["step", COLORS.step]]) {
    const marker = svg("marker", { id: `head-${name}-${id}`, viewBox: "0 0 10 10", refX: 8, refY: 5,
                                   markerWidth: 5, markerHeight: 5, orient: "auto-start-reverse" });
    marker.append(svg("path", { d: "M0,0 L10,5 L0,10 z", fill: color }));
    defs.append(marker);
  }
  const clip = svg("clipPath", { id: `plot-area-${id}` });
  clip.append(svg("rect", { x: map.left, y: map.top, width: map.size, height: map.size }));
  defs.append(clip);
  root.append(defs);
  const plot = svg("g", { "clip-path": `url(#plot-area-${id})` });
  const axes = svg("g", { class: "axes" });
  const ticks = svg("g", { class: "axes" });  // outside the clipped plot area
  const tick = niceStep(2 * limit, 6);
  for (let k = Math.ceil(-limit / tick); k * tick <= limit + 1e-6 * tick; k++) {
    const v = k * tick, zero = k === 0;  // multiples of the step, however small the square
    axes.append(svg("line", { x1: map.x(v), x2: map.x(v), y1: map.top, y2: map.top + map.size,
                              class: zero ? "zero" : "grid" }));
    axes.append(svg("line", { y1: map.y(v), y2: map.y(v), x1: map.left, x2: map.left + map.size,
                              class: zero ? "zero" : "grid" }));
    const tx = svg("text", { x: map.x(v), y: map.top + map.size + 34, "text-anchor": "middle" });
    tx.textContent = fmt(v, tick < 0.1 ? 2 : 1);
    const ty = svg("text", { x: map.left - 10, y: map.y(v) + 9, "text-anchor": "end" });
    ty.textContent = fmt(v, tick < 0.1 ? 2 : 1);
    ticks.append(tx, ty);
  }
  // raised by a third of its own size: the subscript stays inside the plot, clear of the
  // tick labels under it however large presenter mode makes the title
  const xTitle = svg("text", { x: map.left + map.size - 6, y: map.top + map.size - 10,
                               dy: "-0.35em", "text-anchor": "end", class: "axis-title" });
  xTitle.textContent = "x₁";
  const yTitle = svg("text", { x: map.left + 10, y: map.top + 30, class: "axis-title" });
  yTitle.textContent = "x₂";
  axes.append(xTitle, yTitle);
  plot.append(axes);
  plot.dataLayer = svg("g", { class: "data" });
  plot.append(plot.dataLayer);
  root.append(plot, ticks);
  root.arrowHead = (name) => `url(#head-${name}-${id})`;
  return { root, plot, map, r };
}

// Two classes, one path each: circles for +1, squares for -1 (colour and shape differ).
// pointPaths returns the two paths ([+1, −1]; `attributes` added to both); drawPoints puts
// them in the plot's data layer.
function pointPaths(map, X, y, r, attributes = {}) {
  let positive = "", negative = "";
  for (let i = 0; i < y.length; i++) {
    const mark = markPath(y[i], map.x(X[i][0]), map.y(X[i][1]), r);
    if (y[i] > 0) positive += mark;
    else negative += mark;
  }
  return [
    svg("path", { d: positive, fill: COLORS.positive, stroke: "white", "stroke-width": 1.5, class: "class-positive", ...attributes }),
    svg("path", { d: negative, fill: COLORS.negative, stroke: "white", "stroke-width": 1.5, class: "class-negative", ...attributes })];
}
function drawPoints(plot, map, X, y, r) {
  plot.dataLayer.append(...pointPaths(map, X, y, r));
}

// The planted separator w*·x + b* = 0 (dotted) and the edges of its margin band
// w*·x + b* = ±margin (dashed), under the data.
function plantedLines(plot, map, w, b, margin, limit) {
  for (const [offset, dash, width] of [[0, "4 8", 3], [-margin, "14 8", 2], [margin, "14 8", 2]]) {
    const seg = lineInSquare(w, b + offset, limit);
    if (seg) plot.insertBefore(svg("line", { x1: map.x(seg[0][0]), y1: map.y(seg[0][1]), x2: map.x(seg[1][0]),
                                             y2: map.y(seg[1][1]), stroke: COLORS.planted, "stroke-width": width,
                                             "stroke-dasharray": dash }), plot.dataLayer);
  }
}

// A note in the corner when vectors (named `what`) are drawn shorter than they are.
function scaleNote(root, map, scale, what) {
  if (scale >= 1) return;
  const note = svg("text", { x: map.left + map.size - 8, y: map.top + 30, "text-anchor": "end", class: "note" });
  note.textContent = `${what} drawn at ${scale.toPrecision(2)}× scale`;
  root.append(note);
}

// The diamond round the example examined at a step (drawn by showStep).
const examinedMark = () => svg("path", { fill: "none", "stroke-width": 5, class: "examined" });

// The step in words (panel.say) and the diamond `examined` round the example it looked
// at: orange when the step updated, green when it did not. shown = { sentence, point,
// size (half-width in viewBox units), updated }; with no point (nothing examined yet)
// only the sentence is said.
function showStep(panel, examined, map, shown) {
  if (!shown.point) {
    setShown(examined, false);
    panel.say(shown.sentence);
    return;
  }
  const cx = map.x(shown.point[0]), cy = map.y(shown.point[1]), d = shown.size;
  setAttr(examined, "d", `M${cx},${cy - d}L${cx + d},${cy}L${cx},${cy + d}L${cx - d},${cy}z`);
  setAttr(examined, "stroke", shown.updated ? COLORS.step : COLORS.weight);
  setShown(examined, true);
  panel.say(shown.sentence, shown.updated);
}

// A legend under a figure: entries [kind, colour, text], kind one of the .swatch styles
// (dot, square, line, dash, dot-line, arrow, ring, diamond, fill).
function legend(entries) {
  const box = document.createElement("div");
  box.className = "legend";
  for (const [kind, color, text] of entries) {
    const item = document.createElement("span");
    item.className = "item";
    const swatch = document.createElement("i");
    swatch.className = "swatch " + kind;
    swatch.style.setProperty("--c", color);
    item.append(swatch, text);
    box.append(item);
  }
  return box;
}

// The info panel beside the figure, top to bottom: the step in words, the state now,
// the counters ([label, key] pairs), a line of facts, the progress against a bound
// (with a line for its hypotheses) when asked, and the banner shown at the end.
// Returns { q, say, count, progress, banner }: q(selector) finds a part of the panel.
function infoPanel(host, counters, { progress = false, hypotheses = false } = {}) {
  const counter = ([label, key]) => `<div><span class="label">${label}</span><span class="value" ` +
    `data-counter="${key}"></span><span class="total" data-total="${key}"></span></div>`;
  const bar = `<div class="progress"><div class="bar"><div class="fill"></div></div><div class="progress-text"></div>` +
    (hypotheses ? `<div class="hypotheses"></div>` : "") + `</div>`;
  host.innerHTML = [
    `<div class="step-text" data-testid="step-text"></div>`,
    `<div class="now"></div>`,
    `<div class="counters">${counters.map(counter).join("")}</div>`,
    `<div class="facts"></div>`,
    progress ? bar : "",
    `<div class="banner" hidden></div>`,
  ].join("\n");
  const found = new Map();  // the parts, looked up once
  const q = (selector) => {
    if (!found.has(selector)) found.set(selector, host.querySelector(selector));
    return found.get(selector);
  };
  return {
    q,
    // the step in words, marked as an update (true), a step without one (false) or neither
    say(sentence, updated) {
      const text = q(".step-text");
      setText(text, sentence);
      const name = updated === undefined ? "step-text" : "step-text " + (updated ? "mistake" : "correct");
      if (text.className !== name) text.className = name;
    },
    // a counter's value: a text, or { value, total } from outOf (the run's total under it)
    count(key, shown) {
      fitText(q(`[data-counter="${key}"]`), typeof shown === "string" ? shown : shown.value);
      setText(q(`[data-total="${key}"]`), typeof shown === "string" ? "" : shown.total);
    },
    progress(count, limit, text) {
      const width = `${Math.min(100, (100 * count) / limit)}%`, fill = q(".fill");
      if (fill.style.width !== width) fill.style.width = width;
      setText(q(".progress-text"), text);
    },
    banner(shown, success, text) {
      const banner = q(".banner"), name = "banner " + (success ? "success" : "warning");
      if (banner.hidden !== !shown) banner.hidden = !shown;
      if (banner.className !== name) banner.className = name;
      setText(banner, text);
    },
  };
}

// Where a picture's regions lie, in words (the twin of perceptron_core/viz/region_words.py,
// tested against it): for each label in `names` ([label, name] pairs, in order) the share of
// the square it covers, the zones of a 3 × 3 cut it covers most of, and its pieces
// (4-neighbours), enclosed or reaching the edge. labelAt(row, col) is a cell's label, row 0
// at the top of the square, on a G × G grid.
const REGION_ZONES = [["top left", "top", "top right"], ["left", "centre", "right"],
  ["bottom left", "bottom", "bottom right"]];
function regionWords(labelAt, G, names) {
  const grid = new Array(G * G);
  for (let r = 0; r < G; r++) for (let c = 0; c < G; c++) grid[r * G + c] = labelAt(r, c);
  const cuts = G < 3 ? [0, Math.min(1, G), Math.min(2, G), G] : [0, Math.floor(G / 3), G - Math.floor(G / 3), G];
  const bounds = [0, 1, 2].map((i) => [cuts[i], Math.max(cuts[i] + 1, cuts[i + 1])]);
  const owner = {};
  bounds.forEach(([r0, r1], i) => bounds.forEach(([c0, c1], j) => {
    const counts = new Map();  // every label in the zone, named or not
    for (let r = r0; r < Math.min(r1, G); r++) for (let c = c0; c < Math.min(c1, G); c++) {
      counts.set(grid[r * G + c], (counts.get(grid[r * G + c]) || 0) + 1);
    }
    let best = -1, bestCount = 0;
    names.forEach(([label], k) => { if ((counts.get(label) || 0) > bestCount) { bestCount = counts.get(label); best = k; } });
    const named = new Set(names.map(([label]) => label));
    const unnamed = Math.max(0, ...Array.from(counts).filter(([label]) => !named.has(label)).map(([, n]) => n));
    // a zone is a label's when no other label, named or not, covers more of it
    owner[REGION_ZONES[i][j]] = best >= 0 && bestCount >= unnamed ? names[best][0] : null;
  }));
  const share = (count) => (count === 0 ? "0%" : count === G * G ? "100%"
    : `${Math.min(99, Math.max(1, Math.floor(100 * count / (G * G) + 0.5)))}%`);
  const join = (items) => (items.length === 1 ? items[0] : `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`);
  const sentences = [];
  for (const [label, name] of names) {
    const pieces = regionPieces(grid, G, label);
    const count = grid.filter((value) => value === label).length;
    if (count === 0) continue;
    const zones = REGION_ZONES.flat().filter((zone) => owner[zone] === label);
    const where = zones.length === 9 ? "most of every zone" : zones.length ? `most of the ${join(zones)}`
      : "in none of the nine zones mostly";
    const enclosed = pieces.filter((border) => !border).length;
    const shape = `in ${pieces.length} piece${pieces.length === 1 ? "" : "s"}` +
      (enclosed && pieces.length > 1 ? `, ${enclosed} of them enclosed (a closed boundary round it)`
        : enclosed ? ", enclosed (a closed boundary round it)" : "");
    sentences.push(`${name} covers about ${share(count)} of the square, ${where}, ${shape}.`);
  }
  return sentences.join(" ");
}
// The pieces of the cells labelled `label` (4-neighbours), each as whether it touches the
// grid's border, in the order their first cell comes row by row.
function regionPieces(grid, G, label) {
  const seen = new Uint8Array(G * G), pieces = [];
  for (let start = 0; start < G * G; start++) {
    if (grid[start] !== label || seen[start]) continue;
    seen[start] = 1;
    const queue = [start];
    let border = false;
    while (queue.length) {
      const at = queue.pop(), r = Math.floor(at / G), c = at % G;
      if (r === 0 || r === G - 1 || c === 0 || c === G - 1) border = true;
      for (const [nr, nc] of [[r - 1, c], [r + 1, c], [r, c - 1], [r, c + 1]]) {
        const next = nr * G + nc;
        if (nr >= 0 && nr < G && nc >= 0 && nc < G && grid[next] === label && !seen[next]) { seen[next] = 1; queue.push(next); }
      }
    }
    pieces.push(border);
  }
  return pieces;
}
