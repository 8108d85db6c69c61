// /relaxation's predictions (joined after relaxation_scene.js; the machinery is
// player_predict.js). A rule that decides by the iterate (cyclic, maximal distance, maximal
// residual): which inequality does it pick (tap its line, or press its number)? A rule that
// picks at random: the pick is shown, does w move? With η = 1, when w moves: where does it
// land, among three points (the projection, and two wrong ones from relaxationWrongPoints)?

const RELAXATION_DECIDED = ["cyclic", "max_distance", "max_residual"];

// Why the rule picked inequality i at iteration t (the run's pick; ties go to the lowest number).
function relaxationRuleReason(s, t, i, residual) {
  const { data } = s, n = data.c.length, label = data.labels[i];
  if (data.rule === "cyclic") {
    return `The cyclic rule takes the inequalities in turn: iteration ${t} takes number ((${t} − 1) mod ${n}) + 1, ${label}.`;
  }
  const norm = Math.hypot(data.A[i][0], data.A[i][1]);
  return data.rule === "max_residual"
    ? `The maximal-residual rule takes the largest aᵢ·w − cᵢ at w: ${label}'s, ${relaxationValue(residual, 0)}.`
    : `The maximal-distance rule takes the farthest violated half-plane, the largest (aᵢ·w − cᵢ)/‖aᵢ‖ at w: ` +
      `${label}'s, ${relaxationValue(residual / norm, 0)}.`;
}

// Whether the chosen inequality makes w move, in words.
function relaxationMoveReason(s, t) {
  const { data } = s, i = data.indices[t - 1], residual = data.residuals[t - 1];
  const head = `For ${data.labels[i]}, aᵢ·w − cᵢ = `;
  if (data.moved[t - 1]) return `${head}${relaxationValue(residual, data.tol)} > ${data.tol_text}: violated, so w moves.`;
  return residual > 0 ? `${head}${relaxationValue(residual, [0, data.tol])} ≤ ${data.tol_text}: within the tolerance, so w stays.`
    : `${head}${relaxationValue(residual, 0)} ≤ 0: satisfied, so w stays.`;
}

// What /relaxation asks before the move from iteration `from` to iteration `target`.
function relaxationQuestions(s, from, target, kind) {
  const { data } = s;
  const i = data.indices[target - 1], moved = Boolean(data.moved[target - 1]);
  const decided = RELAXATION_DECIDED.includes(data.rule);
  const skipped = target - from - 1;
  const where = kind === "example" ? `Iteration ${countText(target)}` : `The next move is at iteration ${countText(target)}` +
    (skipped ? ` (the ${plural(skipped, "iteration")} before it leave${skipped === 1 ? "s" : ""} w where it is)` : "");
  const asked = [];
  if (decided) asked.push(relaxationPickQuestion(s, target, where));
  else if (kind === "example") asked.push(relaxationMoveQuestion(s, target, where));
  const w = data.iterates[target], prev = data.iterates[target - 1];
  const changed = moved && (w[0] !== prev[0] || w[1] !== prev[1]);
  if (data.eta === 1 && changed) {
    const land = relaxationLandQuestion(s, target, i);
    if (land) asked.push(land);
  }
  const none = asked.length ? "" : `Nothing to predict at iteration ${countText(target)}: the rule ` +
    `(${data.rule_label}) picks at random, and with η = ${data.eta_text} w does not land on a line.`;
  return { asked, none };
}

// "Which inequality does the rule pick?" (tap a line, or its number).
function relaxationPickQuestion(s, t, where) {
  const { data, map, L } = s, i = data.indices[t - 1];
  return {
    id: "pick", answer: String(i),
    prompt: `${where}: which inequality does the rule (${data.rule_label}) pick? Choose its line, on the picture or below.`,
    options: data.labels.map((label, j) => ({ key: String(j), label, says: label,
                                              keys: j < 9 ? [String(j + 1)] : [`#${j + 1}`] })),
    reason: `${relaxationRuleReason(s, t, i, data.residuals[t - 1])} ${relaxationMoveReason(s, t)}`,
    overlay: (layer, choose) => {
      data.A.forEach((a, j) => {
        const seg = lineInSquare(a, -data.c[j], L);
        if (!seg) return;
        const hit = svg("line", { x1: map.x(seg[0][0]), y1: map.y(seg[0][1]), x2: map.x(seg[1][0]), y2: map.y(seg[1][1]),
                                  stroke: "transparent", "stroke-width": 60, class: "predict-hit", "data-candidate": String(j) });
        hit.addEventListener("click", () => choose(String(j)));
        layer.append(hit);
      });
    },
  };
}

// A rule that picks at random: the pick is shown; does w move?
function relaxationMoveQuestion(s, t, where) {
  const { data, map, L } = s, i = data.indices[t - 1];
  return {
    id: "moves", answer: data.moved[t - 1] ? "moves" : "stays",
    prompt: `${where}: the rule (${data.rule_label}) picks ${data.labels[i]} at random. Does w move?`,
    options: [{ key: "moves", label: "w moves", says: "w moves", keys: ["y", "1"] },
              { key: "stays", label: "w stays", says: "w stays", keys: ["n", "2"] }],
    reason: relaxationMoveReason(s, t),
    overlay: (layer) => {
      const seg = lineInSquare(data.A[i], -data.c[i], L);
      if (seg) layer.append(svg("line", { x1: map.x(seg[0][0]), y1: map.y(seg[0][1]), x2: map.x(seg[1][0]),
                                          y2: map.y(seg[1][1]), stroke: COLORS.step, "stroke-width": 8 }));
    },
  };
}

// Wrong landing points for a move from w on inequality i with residual r: [kind, point, why].
function relaxationWrongPoints(s, t, i) {
  const { data } = s, w = data.iterates[t - 1], r = data.residuals[t - 1], a = data.A[i];
  const sq = a[0] * a[0] + a[1] * a[1];
  const along = (f) => [w[0] - f * a[0], w[1] - f * a[1]];
  const out = [
    ["reflection", along((2 * r) / sq), (L) => `${L} is the reflection across the line (η = 2): with η = 1, w stops on it.`],
    ["unscaled", along(r), (L) => `${L} moves by (aᵢ·w − cᵢ)·aᵢ without dividing by ‖aᵢ‖²: it misses the line.`],
  ];
  let other = -1, most = data.tol;  // the most violated other inequality
  data.A.forEach((b, j) => {
    const rj = b[0] * w[0] + b[1] * w[1] - data.c[j];
    if (j !== i && rj > most) { most = rj; other = j; }
  });
  if (other >= 0) {
    const b = data.A[other], f = most / (b[0] * b[0] + b[1] * b[1]);
    out.push(["other", [w[0] - f * b[0], w[1] - f * b[1]],
              (L) => `${L} is the projection onto ${data.labels[other]}: the rule picked ${data.labels[i]}.`]);
  }
  out.push(["half", along((0.5 * r) / sq), (L) => `${L} goes half way (η = 0.5): with η = 1, w reaches the line.`]);
  return out;
}

// With η = 1: where does w land? Three points, A, B, C, the projection among them.
function relaxationLandQuestion(s, t, i) {
  const { data, map, L } = s, landed = data.iterates[t];
  const apart = (p, q) => Math.hypot(p[0] - q[0], p[1] - q[1]) > 0.06 * L;
  const right = { kind: "true", point: landed };
  const wrong = [];
  for (const [kind, point, why] of relaxationWrongPoints(s, t, i)) {
    if (wrong.length < 2 && [right, ...wrong].every((c) => apart(c.point, point))) wrong.push({ kind, point, why });
  }
  if (!wrong.length) return null;
  const candidates = predictArrange(right, wrong, t - 1);
  return {
    id: "land", answer: candidates.find((c) => c.kind === "true").letter,
    prompt: `w moves towards ${data.labels[i]} with η = 1. Where does it land? Pick a point, on the picture or below.`,
    options: candidates.map((c, index) => ({ key: c.letter, label: `${c.letter}: w = ${relaxationVector(c.point)}`,
                                             says: c.letter, keys: [c.letter.toLowerCase(), String(index + 1)] })),
    reason: `With η = 1 w lands on the line of ${data.labels[i]}, its projection: w ← w − (aᵢ·w − cᵢ)/‖aᵢ‖² · aᵢ = ${relaxationVector(landed)}.`,
    wrong: (key) => candidates.find((c) => c.letter === key).why(key),
    overlay: (layer, choose) => {
      for (const c of candidates) {
        const x = map.x(c.point[0]), y = map.y(c.point[1]);
        const dot = svg("circle", { cx: x, cy: y, r: 14, fill: "white", stroke: "#111", "stroke-width": 4,
                                    class: "predict-candidate", "data-candidate": c.letter });
        dot.addEventListener("click", () => choose(c.letter));
        layer.append(dot);
        const [dx, dy] = [[44, -44], [-44, -44], [44, 44]][candidates.indexOf(c)];
        predictBadge(layer, predictInside(map, [x + dx, y + dy]), c.letter, c.letter, choose);
      }
      layer.dataset.candidates = JSON.stringify(candidates.map((c) => [c.letter, c.point]));
    },
  };
}
