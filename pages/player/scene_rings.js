// Many marks drawn as a few paths (joined after scene_plane.js): the rings round the points a
// scene marks (where an update is due on /train, on the wrong side on /kernels, the margin
// mistakes on /generalisation) and /kernels' full-strength marks and αᵢ halos.

// A group of SVG paths, one per tile of an 8 x 8 grid over the square, each the marks of its
// tile joined into one path; rewritten only when the set of marks changes (a scene draws after
// an update, not at every step), and then only the tiles whose marks changed: an update moves
// the marks near the line it turns, so the browser parses and lays out a few tiles' paths, not
// a thousand elements. A canvas inside the SVG was tried for the rings: under
// DevTools' 4x CPU throttling it moved the rasterising onto the main thread and gave /train's
// n = 2 000 steps 100 ms tasks (docs/benchmarks-history.md). attributes: the group's (fill, stroke, ...).
// node.drawMarks(marks): a mark is { id, x, y, text }: a number naming its text (the same id,
// the same text), its centre in viewBox units (which tile) and its path text.
const RING_TILES = 8;
function tiledPaths(attributes) {
  const node = svg("g", attributes);
  const tiles = [];  // tile -> { path, ids: the ids of the marks it draws, in order }
  const tileOf = (v) => Math.max(0, Math.min(RING_TILES - 1, Math.floor((v / 1000) * RING_TILES)));
  node.drawMarks = (marks) => {
    const count = RING_TILES * RING_TILES;
    const parts = Array.from({ length: count }, () => []);
    // a tile is rewritten only if its list of marks differs from the one it draws: compared
    // id by id as the marks are sorted into tiles, so an unchanged tile costs no text to join
    const changed = new Uint8Array(count);
    for (const mark of marks) {
      const tile = tileOf(mark.x) + RING_TILES * tileOf(mark.y);
      const part = parts[tile], shown = tiles[tile];
      if (!changed[tile] && (!shown || shown.ids[part.length] !== mark.id)) changed[tile] = 1;
      part.push(mark);
    }
    parts.forEach((part, index) => {
      const shown = tiles[index];
      if (!changed[index] && (!shown || shown.ids.length === part.length)) return;  // as drawn
      if (!shown) {
        tiles[index] = { path: svg("path"), ids: [] };
        node.append(tiles[index].path);
      }
      tiles[index].path.setAttribute("d", part.map((mark) => mark.text).join(""));
      tiles[index].ids = part.map((mark) => mark.id);
    });
    return marks.length;
  };
  return node;
}

// The path text of a circle of radius r round (cx, cy) (two half arcs), and of a square of
// side 1.8 r centred there: the two classes' marks.
function circlePath(cx, cy, r) {
  return `M${(cx - r).toFixed(1)},${cy.toFixed(1)}a${r},${r} 0 1,0 ${2 * r},0a${r},${r} 0 1,0 ${-2 * r},0`;
}
function squarePath(cx, cy, r) {
  return `M${(cx - r * 0.9).toFixed(1)},${(cy - r * 0.9).toFixed(1)}h${1.8 * r}v${1.8 * r}h${-1.8 * r}z`;
}
// A point's mark of class `label` at (cx, cy) in viewBox units: a circle (+1) or a square (−1).
const markPath = (label, cx, cy, r) => (label > 0 ? circlePath(cx, cy, r) : squarePath(cx, cy, r));

// Rings round many points at once (tiledPaths). style = { stroke, width, dash, className }.
// node.drawRings(map, points, radius): points are the centres in the plane, radius in viewBox
// units; each point's ring is written once and kept (by the point's array); returns how many.
function ringLayer(style) {
  const node = tiledPaths({ fill: "none", stroke: style.stroke, "stroke-width": style.width,
                            class: style.className || "rings" });
  if (style.dash) node.setAttribute("stroke-dasharray", style.dash.join(" "));
  let rings = new Map(), ringsFor = null;
  node.drawRings = (map, points, radius) => {
    if (!ringsFor || ringsFor.map !== map || ringsFor.radius !== radius) {
      rings = new Map();
      ringsFor = { map, radius };
    }
    return node.drawMarks(points.map((p) => {
      let ring = rings.get(p);
      if (ring === undefined) {
        const cx = map.x(p[0]), cy = map.y(p[1]);
        ring = { id: rings.size, x: cx, y: cy, text: circlePath(cx, cy, radius) };
        rings.set(p, ring);
      }
      return ring;
    }));
  };
  return node;
}
