// /kernels' predictions (joined after kernels_field.js; the machinery is player_predict.js).
// Next example: does the example examined update? When it does, and after Next mistake:
// which αᵢ grows? The candidates are the example examined (the answer), its nearest other
// example, the nearest example of the other class, the example with the largest α so far and
// the one furthest on the wrong side: the first two that are other examples than the answer
// and each other, marked A, B, C on the picture.

// The other examples to offer beside example i, in the order tried.
function kernelsWrongExamples(s, i, b) {
  const { X, y, n } = s, { pointSum, alpha } = s.sums;
  const distance = (j) => (X[j][0] - X[i][0]) ** 2 + (X[j][1] - X[i][1]) ** 2;
  const best = (keep, value) => {  // the lowest value among the kept examples, lowest index on ties
    let found = -1;
    for (let j = 0; j < n; j++) if (j !== i && keep(j) && (found < 0 || value(j) < value(found))) found = j;
    return found;
  };
  return [
    best(() => true, distance),
    best((j) => y[j] !== y[i], distance),
    best((j) => alpha[j] > 0, (j) => -alpha[j]),
    best(() => true, (j) => y[j] * (pointSum[j] + b)),
  ].filter((j, index, all) => j >= 0 && all.indexOf(j) === index).slice(0, 2);
}

// What /kernels asks before the move from step `from` to step `target`.
function kernelsQuestions(s, from, target, kind) {
  const { X, y, up, data } = s, { pointSum } = s.sums;
  const k = updatesAtStep(up.steps, from);
  const updated = k < up.steps.length && up.steps[k] === target;
  const i = s.exampleAt(target), b = up.biases[k];
  const score = updated ? up.scores[k] : y[i] * (pointSum[i] + b);
  const example = `example ${countText(i + 1)}, x ≈ ${pair(X[i], 2)}, y = ${signed(y[i])}`;
  const relation = updated ? "≤" : ">";
  const test = `After ${plural(k, "update")}, y f(x) = ${relationText(score, relation, "0")} ${relation} 0`;
  const why = !updated ? `${test}: correct, no update.`
    : score === 0 && y[i] < 0 ? `${test}: f(x) = 0 predicts −1 (sign(0) = −1), which is right, but the rule updates whenever y f(x) ≤ 0.`
    : `${test}: a mistake, so an update.`;
  const mark = (layer) => { setShown(s.examined, false); predictMark(layer, s.map, X[i], s.radiusFor(s.sums.alpha[i]) + 16); };
  const asked = [];
  if (kind === "example") {
    asked.push({
      id: "update", overlay: mark, answer: updated ? "update" : "none", reason: why,
      prompt: `Step ${countText(target)} examines ${example}. Will it update an α${data.bias ? " and b" : ""}?`,
      options: [{ key: "update", label: "Update", says: "an update", keys: ["y", "1"] },
                { key: "none", label: "No update", says: "no update", keys: ["n", "2"] }],
    });
  }
  if (updated && s.n > 1) {
    const skipped = target - from - 1;
    const intro = kind === "example" ? `Step ${countText(target)} updates.`
      : `The next update is at step ${countText(target)}: ${example}` +
        (skipped ? ` (the ${plural(skipped, "example")} before it pass${skipped === 1 ? "es" : ""} the test).` : ".");
    asked.push(kernelsAlphaQuestion(s, k, i, b, intro, kind === "example" ? "" : why));
  }
  return { asked, none: "" };
}

// "Which αᵢ grows?" at the k-th update, on example i.
function kernelsAlphaQuestion(s, k, i, b, intro, test) {
  const { X, data, up, map } = s, { alpha } = s.sums;
  const candidates = predictArrange({ index: i }, kernelsWrongExamples(s, i, b).map((j) => ({ index: j })), k);
  const name = (c) => `α${sub(c.index + 1)}`;
  const answer = candidates.find((c) => c.index === i).letter;
  const bias = data.bias ? `, and b ← b + y = ${fmt(up.biases[k + 1], 0)}` : "";
  return {
    id: "alpha", answer,
    prompt: `${intro} Which α grows? Pick a letter, on the picture or below.`,
    options: candidates.map((c, index) => ({ key: c.letter, says: `${c.letter} (${name(c)})`,
                                             label: `${c.letter}: ${name(c)}, of x${sub(c.index + 1)} ≈ ${pair(X[c.index], 2)}`,
                                             keys: [c.letter.toLowerCase(), String(index + 1)] })),
    reason: `${test ? test + " " : ""}An update adds 1 to the α of the example that failed the test: ` +
      `α${sub(i + 1)} ← α${sub(i + 1)} + 1 = ${alpha[i] + 1}${bias}.`,
    wrong: (key) => {
      const c = candidates.find((item) => item.letter === key);
      return `${name(c)} grows only when x${sub(c.index + 1)} itself fails the test.`;
    },
    overlay: (layer, choose) => {
      setShown(s.examined, false);
      predictMark(layer, map, X[i], s.radiusFor(alpha[i]) + 16);
      candidates.forEach((c, index) => {  // each letter off its point in its own direction
        const [dx, dy] = [[46, -46], [-46, -46], [46, 46]][index];
        const at = predictInside(map, [map.x(X[c.index][0]) + dx, map.y(X[c.index][1]) + dy]);
        predictBadge(layer, at, c.letter, c.letter, choose);
      });
      layer.dataset.candidates = JSON.stringify(candidates.map((c) => [c.letter, c.index]));
    },
  };
}
