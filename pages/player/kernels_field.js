// The figure of /kernels (joined after kernels_scene.js): the decision function f as a
// picture on the grid, its zero curve f = 0, the data, αᵢ as a shaded halo beneath each
// point, the rings round the points on the wrong side, and the legend.

// Build the figure into slots.figure. Returns { map, r, context, pixels,
// rings, curve, examined, marks, strong, halos, radiusFor } for the other functions of the scene.
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
  const { marks, strong, halos } = kernelsMarks(plot, map, { X, y, n }, r, [curve, rings, examined]);
  const entries = [
    ["dot", COLORS.positive, "class +1"], ["square", COLORS.negative, "class −1"],
    ["line", COLORS.hyperplane, "f(x) = 0"],
    ["ring", "black", "y f(x) ≤ 0: on the wrong side (a mistake if examined)"],
    ["diamond", COLORS.step, "example examined"],
    ["fill", "rgba(0, 114, 178, 0.35)", "f > 0: predicted +1, plain (darker: larger |f|)"],
    ["hatch", "rgba(213, 94, 0, 0.55)", "f ≤ 0: predicted −1, striped"],
  ];
  const sizeNote = document.createElement("div");
  sizeNote.className = "caption";
  sizeNote.textContent = "The light halo round a point grows with αᵢ, the number of updates example i " +
    "caused; it is drawn beneath the points, so it hides none. Faint points have αᵢ = 0 and do not enter f.";
  slots.figure.append(root, legend(entries), sizeNote);
  const context = canvas.getContext("2d");
  return { map, r, context, pixels: context.createImageData(G, G), rings, curve,
           examined, marks, strong, halos, shownAlpha: new Int32Array(n).fill(-1),
           // the halo's radius: grows as √αᵢ, at most 4 marker radii (so at most a few neighbours' spacing)
           radiusFor: (a) => (a > 0 ? Math.min(r * (1.4 + 0.8 * Math.sqrt(a)), 4 * r) : r) };
}

// The marks of the data (kernelsFigure): αᵢ's halos beneath, the zero curve, the points drawn
// once and never touched again (faint: αᵢ = 0), above them the same marks at full strength
// for the points with αᵢ > 0 (shown as αᵢ changes), then the rings and the examined mark
// (`above`). A step changes a few elements of small groups, not one of the n marks the
// browser would walk again. Returns { marks, strong, halos }, one element per point each.
function kernelsMarks(plot, map, { X, y, n }, r, above) {
  const [curve, ...top] = above;
  const marks = [], halos = [], strong = [];
  const points = svg("g", { class: "data" }), haloLayer = svg("g", { class: "alpha-halos" });
  const support = svg("g", { class: "support" });
  const shape = (i, size, attributes) => (y[i] > 0
    ? svg("circle", { cx: map.x(X[i][0]), cy: map.y(X[i][1]), r: size, ...attributes })
    : svg("rect", { x: map.x(X[i][0]) - 0.9 * size, y: map.y(X[i][1]) - 0.9 * size,
                    width: 1.8 * size, height: 1.8 * size, ...attributes }));
  for (let i = 0; i < n; i++) {
    const colour = y[i] > 0 ? COLORS.positive : COLORS.negative;
    marks.push(shape(i, r, { fill: colour, stroke: "white", "stroke-width": 1.5, "fill-opacity": 0.6 }));
    strong.push(shape(i, r, { fill: colour, stroke: "white", "stroke-width": 1.5, display: "none" }));
    halos.push(shape(i, r, { fill: colour, "fill-opacity": 0.22, stroke: colour, "stroke-width": 2.5,
                             display: "none" }));
  }
  points.append(...marks);
  support.append(...strong);
  haloLayer.append(...halos);
  // the marks that never change sit in an SVG of their own inside a foreignObject, composited
  // on its own (will-change, as scene_plane.js's stillLayer): the browser rasterises them
  // once instead of at every step (raster per step about a third of what it was, issue 21)
  const still = svg("foreignObject", { x: 0, y: 0, width: 1000, height: 1000, class: "still" });
  const stillSvg = svg("svg", { viewBox: "0 0 1000 1000", width: 1000, height: 1000 });
  stillSvg.style.cssText = "display: block; overflow: visible; will-change: transform";
  still.style.pointerEvents = "none";
  stillSvg.style.pointerEvents = "none";
  points.style.pointerEvents = "auto";
  stillSvg.append(points);
  still.append(stillSvg);
  plot.append(haloLayer, curve, still, support, ...top);
  return { marks, strong, halos };
}

// The halo of point i grows with αᵢ and is hidden while αᵢ = 0; points with αᵢ = 0 are faint
// (their mark alone), the others full strength (their strong mark over it).
// Only the points whose αᵢ changed since the last draw are touched (one per update).
function kernelsSizeMarks({ X, y, n, map, strong, halos, radiusFor, sums, shownAlpha }) {
  for (let i = 0; i < n; i++) {
    const a = sums.alpha[i], halo = halos[i], rr = radiusFor(a);
    if (shownAlpha[i] === a) continue;
    shownAlpha[i] = a;
    halo.setAttribute("display", a > 0 ? "inline" : "none");
    if (a > 0 && y[i] > 0) halo.setAttribute("r", rr);
    else if (a > 0) {
      const side = rr * 0.9;
      halo.setAttribute("x", map.x(X[i][0]) - side); halo.setAttribute("y", map.y(X[i][1]) - side);
      halo.setAttribute("width", 2 * side); halo.setAttribute("height", 2 * side);
    }
    strong[i].setAttribute("display", a > 0 ? "inline" : "none");
  }
}

const KERNELS_BLUE = [0, 114, 178], KERNELS_ORANGE = [213, 94, 0];

// f = s + b on the grid as a picture in five bands per sign, scaled by the largest |f| shown.
// The side f <= 0 is striped as well as orange (every third diagonal of cells darker), so
// the two predicted regions stay apart in greyscale and for every kind of colour vision.
function kernelsPaint({ sums, pixels, context, G }, b) {
  const gridSum = sums.gridSum;
  let largest = 0;
  for (let j = 0; j < gridSum.length; j++) largest = Math.max(largest, Math.abs(gridSum[j] + b));
  for (let j = 0; j < gridSum.length; j++) {
    const f = gridSum[j] + b;
    const band = largest > 0 ? Math.min(4, Math.floor((5 * Math.abs(f)) / largest)) : 0;
    const stripe = f <= 0 && (Math.floor(j / G) + (j % G)) % 3 === 0 ? 0.2 : 0;
    const colour = f > 0 ? KERNELS_BLUE : KERNELS_ORANGE, weight = 0.1 + 0.07 * band + stripe;
    for (let c = 0; c < 3; c++) pixels.data[4 * j + c] = Math.round(255 - weight * (255 - colour[c]));
    pixels.data[4 * j + 3] = 255;
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
