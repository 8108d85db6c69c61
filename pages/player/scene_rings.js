// The rings round the points a scene marks (joined after scene_plane.js): where an update
// is due on /train, on the wrong side on /kernels, the margin mistakes on /generalisation.

// Rings round many points at once: a group of SVG paths of arcs, one path per tile of an
// 8 x 8 grid over the square, rewritten only when the set of rings changes (a scene calls
// drawRings after an update, not at every step), and then only the tiles whose rings changed:
// an update moves the rings near the line it turns, so the browser parses and lays out a few
// tiles' arcs, not a thousand rings (issue 21). A canvas inside the SVG was tried: under
// DevTools' 4x CPU throttling it moved the rasterising onto the main thread and gave /train's
// n = 2 000 steps 100 ms tasks (README, issue 21). Each point's arcs are written once and
// kept (by the point's array). style = { stroke, width, dash, className }.
const RING_TILES = 8;
function ringLayer(style) {
  const node = svg("g", { fill: "none", stroke: style.stroke, "stroke-width": style.width,
                          class: style.className || "rings" });
  if (style.dash) node.setAttribute("stroke-dasharray", style.dash.join(" "));
  let arcs = new Map(), arcsFor = null;
  const tiles = [];  // tile -> { path, ids: the numbers of the arcs it draws, in order }
  // points: the centres in the plane; radius in viewBox units; returns how many were drawn
  node.drawRings = (map, points, radius) => {
    if (!arcsFor || arcsFor.map !== map || arcsFor.radius !== radius) {
      arcs = new Map();
      arcsFor = { map, radius };
    }
    const count = RING_TILES * RING_TILES;
    const parts = Array.from({ length: count }, () => []);
    // a tile is rewritten only if its list of arcs differs from the one it draws: compared
    // number by number as the points are sorted into tiles, so an unchanged tile costs no
    // text to join and compare
    const changed = new Uint8Array(count);
    for (const p of points) {
      let arc = arcs.get(p);
      if (arc === undefined) {  // the circle of this radius round p, as two half arcs, and its tile
        const cx = map.x(p[0]), cy = map.y(p[1]);
        const tile = (v) => Math.max(0, Math.min(RING_TILES - 1, Math.floor((v / 1000) * RING_TILES)));
        arc = { id: arcs.size, tile: tile(cx) + RING_TILES * tile(cy),
                text: `M${(cx - radius).toFixed(1)},${cy.toFixed(1)}a${radius},${radius} 0 1,0 ${2 * radius},0` +
                      `a${radius},${radius} 0 1,0 ${-2 * radius},0` };
        arcs.set(p, arc);
      }
      const part = parts[arc.tile], shown = tiles[arc.tile];
      if (!changed[arc.tile] && (!shown || shown.ids[part.length] !== arc.id)) changed[arc.tile] = 1;
      part.push(arc);
    }
    parts.forEach((part, index) => {
      const shown = tiles[index];
      if (!changed[index] && (!shown || shown.ids.length === part.length)) return;  // as drawn
      if (!shown) {
        tiles[index] = { path: svg("path"), ids: [] };
        node.append(tiles[index].path);
      }
      tiles[index].path.setAttribute("d", part.map((arc) => arc.text).join(""));
      tiles[index].ids = part.map((arc) => arc.id);
    });
    return points.length;
  };
  return node;
}
