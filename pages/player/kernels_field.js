// The figure of /kernels (joined after kernels_scene.js): the decision function f as a
// picture on the grid, its zero curve f = 0, the data, αᵢ as a shaded halo beneath each
// point, the rings round the points on the wrong side, and the legend.

// Build the figure into slots.figure. Returns { map, r, context, pixels,
// rings, curve, examined, strong, halos, radiusFor } for the other functions of the scene.
// Every point keeps its own marker at one size, on top; αᵢ is the size of a light halo
// of its class's shape drawn beneath all the points, so a large αᵢ never hides a neighbour.
function kernelsFigure(slots, { data, X, y, n, L, G }) {
  const { root, plot, map, r } = plane(L, Boolean(data.player.present),
                                       "the data and the kernel perceptron's decision function");
  // f on the grid, one canvas pixel per grid point, drawn inside the SVG (a foreignObject:
  // no PNG to encode at each step) and stretched smoothly over the square; grid cells are
  // centred on the grid points
  const half = (L * map.size) / (G - 1) / (2 * L);
  const image = svg("foreignObject", { x: map.x(-L) - half, y: map.y(L) - half,
                                       width: map.size + 2 * half, height: map.size + 2 * half,
                                       class: "field" });
  image.style.pointerEvents = "none";
  const canvas = document.createElement("canvas");
  canvas.width = G; canvas.height = G;
  canvas.style.cssText = "width: 100%; height: 100%; display: block";
  image.append(canvas);
  plot.prepend(image);
  const rings = ringLayer({ stroke: "black", width: 2.5 });
  const curve = svg("path", { fill: "none", stroke: COLORS.hyperplane, "stroke-width": 5, class: "zero-curve" });
  const examined = examinedMark();
  const { strong, halos } = kernelsMarks(plot, map, { X, y, n }, r, [curve, rings, examined]);
  const entries = [
    ["dot", COLORS.positive, "class +1"], ["square", COLORS.negative, "class −1"],
    ["line", COLORS.hyperplane, "f(x) = 0"],
    ["ring", "black", "y f(x) ≤ 0: an update if examined (wrong side, or f(x) = 0)"],
    ["diamond", COLORS.step, "example examined"],
    ["fill", "rgba(0, 114, 178, 0.35)", "f > 0: predicted +1, plain (darker: larger |f|)"],
    ["hatch", "rgba(213, 94, 0, 0.55)", "f ≤ 0: predicted −1, striped"],
  ];
  const sizeNote = document.createElement("div");
  sizeNote.className = "caption";
  sizeNote.textContent = "The light halo round a point grows with αᵢ, the number of updates example i " +
    "caused; it is drawn beneath the points, so it hides none. Faint points have αᵢ = 0 and do not enter f.";
  // the picture in words for a screen reader (kernelsWords): where f > 0, which αᵢ > 0
  const words = element("p", { class: "picture-words" });
  slots.figure.append(root, legend(entries), sizeNote, words);
  const context = canvas.getContext("2d");
  const pixels = context.createImageData(G, G);
  // the same pixels as 32-bit words, one per grid cell (kernelsPaint writes a cell whole)
  return { map, r, context, pixels, pixelWords: new Uint32Array(pixels.data.buffer), rings, curve, words,
           examined, strong, halos, shownAlpha: new Int32Array(n).fill(-1),
           shownMarks: { strong: new Array(n), halo: new Array(n) },
           // the halo's radius: grows as √αᵢ, at most 4 marker radii (so at most a few neighbours' spacing)
           radiusFor: (a) => (a > 0 ? Math.min(r * (1.4 + 0.8 * Math.sqrt(a)), 4 * r) : r) };
}

// The marks of the data (kernelsFigure): αᵢ's halos beneath, the zero curve, the points drawn
// once and never touched again (faint: αᵢ = 0), above them the same marks at full strength
// for the points with αᵢ > 0 (shown as αᵢ changes), then the rings and the examined mark
// (`above`). Each kind is a few paths per class, not an element per point: the faint marks
// one path per class, the full-strength marks and the halos in tiles (tiledPaths, as the
// rings), so a step rewrites a tile's path or two and the browser lays out and layerizes
// tens of elements, not the 2 000 to 6 000 one element per mark made.
// Returns { strong, halos }: per class (+1, −1) the tiled layers.
function kernelsMarks(plot, map, { X, y }, r, above) {
  const [curve, ...top] = above;
  const faint = svg("g", { class: "data" }), haloLayer = svg("g", { class: "alpha-halos" });
  const support = svg("g", { class: "support" });
  const classes = [[1, COLORS.positive, "positive"], [-1, COLORS.negative, "negative"]];
  const strong = {}, halos = {};
  faint.append(...pointPaths(map, X, y, r, { "fill-opacity": 0.6 }));
  for (const [label, colour, name] of classes) {
    strong[label] = tiledPaths({ fill: colour, stroke: "white", "stroke-width": 1.5, class: `class-${name}` });
    halos[label] = tiledPaths({ fill: colour, "fill-opacity": 0.22, stroke: colour, "stroke-width": 2.5,
                                class: `class-${name}` });
    support.append(strong[label]);
    haloLayer.append(halos[label]);
  }
  // the faint marks never change: they sit in an SVG of their own inside a foreignObject,
  // composited on its own (will-change), so the browser rasterises them once instead of at
  // every step (raster per step about a third of what it was)
  const still = svg("foreignObject", { x: 0, y: 0, width: 1000, height: 1000, class: "still" });
  const stillSvg = svg("svg", { viewBox: "0 0 1000 1000", width: 1000, height: 1000 });
  stillSvg.style.cssText = "display: block; overflow: visible; will-change: transform";
  still.style.pointerEvents = "none";
  stillSvg.style.pointerEvents = "none";
  stillSvg.append(faint);
  still.append(stillSvg);
  plot.append(haloLayer, curve, still, support, ...top);
  return { strong, halos };
}

// The points with αᵢ > 0 are shown at full strength (their strong mark over the faint one)
// with a halo whose size grows with αᵢ; the others are faint, their mark alone. A mark's id
// names its text: i for the strong mark, i + n·αᵢ for the halo. Only the points whose αᵢ
// changed since the last draw get a new halo text (one per update), and only the tiles whose
// marks changed are rewritten.
function kernelsSizeMarks({ X, y, n, map, r, strong, halos, radiusFor, sums, shownAlpha, shownMarks }) {
  const shown = { 1: [], [-1]: [] }, haloShown = { 1: [], [-1]: [] };  // by class, in index order
  for (let i = 0; i < n; i++) {
    const a = sums.alpha[i];
    if (shownAlpha[i] !== a) {  // αᵢ changed: its halo's text (and the first time, its strong mark's)
      shownAlpha[i] = a;
      if (a > 0) {
        const cx = map.x(X[i][0]), cy = map.y(X[i][1]);
        shownMarks.strong[i] ||= { id: i, x: cx, y: cy, text: markPath(y[i], cx, cy, r) };
        shownMarks.halo[i] = { id: i + n * a, x: cx, y: cy, text: markPath(y[i], cx, cy, radiusFor(a)) };
      }
    }
    if (a <= 0) continue;
    const label = y[i] > 0 ? 1 : -1;
    shown[label].push(shownMarks.strong[i]);
    haloShown[label].push(shownMarks.halo[i]);
  }
  for (const label of [1, -1]) {
    strong[label].drawMarks(shown[label]);
    halos[label].drawMarks(haloShown[label]);
  }
}

const KERNELS_BLUE = [0, 114, 178], KERNELS_ORANGE = [213, 94, 0];

// The field's colours: a cell's colour is its class colour mixed with white by weight
// 0.1 + 0.07·band (+ 0.2 on a stripe). Each shade is one 32-bit word whose bytes lie in
// memory as R, G, B, A on a little-endian machine (every platform browsers run on), so a
// cell is written whole; index 10·stripe + 5·(f > 0) + band.
const KERNELS_SHADES = (() => {
  const shades = new Uint32Array(20);
  for (const stripe of [0, 1]) {
    for (const positive of [0, 1]) {
      for (let band = 0; band < 5; band++) {
        const colour = positive ? KERNELS_BLUE : KERNELS_ORANGE, weight = 0.1 + 0.07 * band + 0.2 * stripe;
        const [red, green, blue] = colour.map((c) => Math.round(255 - weight * (255 - c)));
        shades[10 * stripe + 5 * positive + band] = ((255 << 24) | (blue << 16) | (green << 8) | red) >>> 0;
      }
    }
  }
  return shades;
})();

// f = s + b on the grid as a picture in five bands per sign, scaled by the largest |f| shown.
// The side f <= 0 is striped as well as orange (every third diagonal of cells darker), so
// the two predicted regions stay apart in greyscale and for every kind of colour vision.
function kernelsPaint({ sums, pixels, pixelWords, context, G }, b) {
  const gridSum = sums.gridSum;
  let largest = 0;
  for (let j = 0; j < gridSum.length; j++) largest = Math.max(largest, Math.abs(gridSum[j] + b));
  for (let row = 0, j = 0; row < G; row++) {
    for (let col = 0; col < G; col++, j++) {
      const f = gridSum[j] + b;
      const band = largest > 0 ? Math.min(4, Math.floor((5 * Math.abs(f)) / largest)) : 0;
      const stripe = f <= 0 && (row + col) % 3 === 0 ? 1 : 0;
      pixelWords[j] = KERNELS_SHADES[10 * stripe + 5 * (f > 0 ? 1 : 0) + band];
    }
  }
  context.putImageData(pixels, 0, 0);
}

// The curve f = 0: marching squares with linear interpolation along each cell edge.
function kernelsZeroCurve({ sums, G, L, map, curve }, b) {
  let path = "";
  const value = (row, col) => sums.gridSum[row * G + col] + b;
  const px = (col) => map.x(-L + (2 * L * col) / (G - 1)), py = (row) => map.y(L - (2 * L * row) / (G - 1));
  const segment = (a, c) => `M${a[0].toFixed(1)},${a[1].toFixed(1)}L${c[0].toFixed(1)},${c[1].toFixed(1)}`;
  for (let row = 0; row < G - 1; row++) {
    for (let col = 0; col < G - 1; col++) {
      const v0 = value(row, col), v1 = value(row, col + 1), v2 = value(row + 1, col + 1), v3 = value(row + 1, col);
      const positive = (v0 > 0) + (v1 > 0) + (v2 > 0) + (v3 > 0);
      if (positive === 0 || positive === 4) continue;  // the curve does not cross this cell
      const corners = [[row, col], [row, col + 1], [row + 1, col + 1], [row + 1, col]];
      const v = [v0, v1, v2, v3];
      const crossings = [];
      for (let e = 0; e < 4; e++) {
        const a = v[e], c = v[(e + 1) % 4];
        if ((a > 0) !== (c > 0)) {
          const t = a / (a - c), [r0, c0] = corners[e], [r1, c1] = corners[(e + 1) % 4];
          crossings.push([px(c0 + t * (c1 - c0)), py(r0 + t * (r1 - r0))]);
        }
      }
      if (crossings.length === 2) {
        path += segment(crossings[0], crossings[1]);
      } else if (crossings.length === 4) {  // a saddle: pair the crossings by the centre's sign
        const centre = (v[0] + v[1] + v[2] + v[3]) / 4 > 0, first = (v[0] > 0) === centre ? 1 : 0;
        for (let p = 0; p < 2; p++) {
          path += segment(crossings[(first + 2 * p) % 4], crossings[(first + 2 * p + 1) % 4]);
        }
      }
    }
  }
  curve.setAttribute("d", path);
}

// The picture in words after an update: where f > 0 and f ≤ 0 lie in the square (so where
// the boundary f = 0 runs: regionWords, scene_plane.js) and the examples with αᵢ > 0, the
// ones f is made of, most updates first (the first eight named, the rest counted).
function kernelsWords(s, b) {
  const { G, X, y, n } = s, { gridSum, alpha } = s.sums;
  const regions = regionWords((row, col) => (gridSum[row * G + col] + b > 0 ? 1 : -1), G,
                              [[1, "f > 0 (predicted +1)"], [-1, "f ≤ 0 (predicted −1)"]]);
  const support = [];
  for (let i = 0; i < n; i++) if (alpha[i] > 0) support.push(i);
  if (!support.length) return `${regions} No example has αᵢ > 0 yet: f = b everywhere.`;
  support.sort((i, j) => alpha[j] - alpha[i] || i - j);
  const named = support.slice(0, 8).map((i) =>
    `x${sub(i + 1)} = ${pair(X[i], 2)}, class ${signed(y[i])}, α = ${alpha[i]}`);
  const more = support.length - named.length;
  return `${regions} The ${plural(support.length, "example")} with αᵢ > 0 make f` +
    `${support.length > 8 ? ", most updates first" : ""}: ${named.join("; ")}` +
    (more > 0 ? `; and ${countText(more)} more.` : ".");
}
