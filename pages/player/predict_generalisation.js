// /generalisation's predictions (joined after generalisation_scene.js; the machinery is
// player_predict.js): where is the next example for the w on screen, on the wrong side
// (y x·w ≤ 0), right but inside the band (0 < y x·w < 1), or fine (y x·w ≥ 1)? The first two
// are margin mistakes, which update w.

function generalisationQuestions(s, from, target, kind) {
  const { X, y, up } = s;
  const k = updatesAtStep(up.steps, from);
  const updated = k < up.steps.length && up.steps[k] === target;
  const i = s.exampleAt(target);
  const m = updated ? up.scores[k] : s.margin(up.weights[k], i, k);
  const answer = !updated ? "fine" : m <= 0 ? "wrong" : "band";
  // the margin with the digits that keep each comparison true (0.9996 is not "1.000")
  const reason = answer === "fine" ? `y x·w = ${fmtBeside(m, 1, 3)} ≥ 1: right side and outside the band, not a margin mistake, so w stays.`
    : answer === "wrong" ? `y x·w = ${fmtBeside(m, 0, 3)} ≤ 0: on the wrong side (or on the line), a margin mistake, so w ← w + y·x.`
    : `y x·w = ${fmtBeside(m, [0, 1], 3)} is > 0 but < 1: right side, yet inside the band, a margin mistake all the same, so w ← w + y·x.`;
  const skipped = target - from - 1;
  const intro = kind === "example" ? `Step ${countText(target)} examines` : `The next margin mistake is at step ${countText(target)}:`;
  const passed = kind === "mistake" && skipped
    ? ` (the ${plural(skipped, "example")} before it ${skipped === 1 ? "has" : "have"} y x·w ≥ 1)` : "";
  return {
    none: "",
    asked: [{
      id: "kind", answer, reason,
      prompt: `${intro} example ${i + 1}, x ${equalsPair(X[i], 2)}, y = ${signed(y[i])}${passed}. For the w on screen, where is it?`,
      options: [
        { key: "wrong", label: "Wrong side (y x·w ≤ 0)", says: "on the wrong side", keys: ["1", "a"] },
        { key: "band", label: "Inside the band (0 < y x·w < 1)", says: "inside the band", keys: ["2", "b"] },
        { key: "fine", label: "Fine (y x·w ≥ 1)", says: "fine, outside the band", keys: ["3", "c"] },
      ],
      overlay: (layer) => { setShown(s.examined, false); predictMark(layer, s.map, X[i], s.r + 20); },
    }],
  };
}
