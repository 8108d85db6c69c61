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
  const tiles = [];  // tile -> { path, drawn }
  // points: the centres in the plane; radius in viewBox units; returns how many were drawn
  node.drawRings = (map, points, radius) => {
    if (!arcsFor || arcsFor.map !== map || arcsFor.radius !== radius) {
      arcs = new Map();
      arcsFor = { map, radius };
    }
    const parts = Array.from({ length: RING_TILES * RING_TILES }, () => []);
    for (const p of points) {
      let arc = arcs.get(p);
      if (arc === undefined) {  // the circle of this radius round p, as two half arcs, and its tile
        const cx = map.x(p[0]), cy = map.y(p[1]);
        const tile = (v) => Math.max(0, Math.min(RING_TILES - 1, Math.floor((v / 1000) * RING_TILES)));
        arc = { tile: tile(cx) + RING_TILES * tile(cy),
                text: `M${(cx - radius).toFixed(1)},${cy.toFixed(1)}a${radius},${radius} 0 1,0 ${2 * radius},0` +
                      `a${radius},${radius} 0 1,0 ${-2 * radius},0` };
        arcs.set(p, arc);
      }
      parts[arc.tile].push(arc.text);
    }
    parts.forEach((texts, index) => {
      const path = texts.join("");
      if (!tiles[index]) {
        if (!path) return;
        tiles[index] = { path: svg("path"), drawn: "" };
        node.append(tiles[index].path);
      }
      if (tiles[index].drawn !== path) {
        tiles[index].path.setAttribute("d", path);
        tiles[index].drawn = path;
      }
    });
    return points.length;
  };
  return node;
}
