// Predict first (joined after player_access.js): with the switch on (or predict=1 in the
// link) a forward move (Next example, Next mistake, their keys, a tap or swipe) waits for the
// student's prediction before the step is drawn. What is asked comes from the page's
// predict_<scene>.js:
//     questions(s, from, target, kind) -> { asked: [question, ...], none: text }
// where s is the scene's shared object, `from` the step on screen, `target` the step the move
// would draw (from + 1 for kind "example", the next update for kind "mistake"); `none` says
// why nothing is asked when `asked` is empty. A question is
//     { id, prompt, options: [{ key, label, says, keys }], answer, reason, wrong(key) -> text,
//       overlay(layer, choose) }
// (`overlay` optional: it marks the example asked about and draws candidates on the picture,
// each tapped with choose(key)). Every answer is scored (right of total, the streak and the
// longest streak, kept for the page while the document lives), its verdict and one-line
// reason are shown and said; after a move's last question the step is drawn. Nothing goes to
// the server: the answers counted on a page go to this browser's localStorage for the study
// path (pages/common/study_path.js reads them). The link carries predict=1, and while a
// question waits ask=<target step> and ask_part=<its id>: a live class polls that very
// question, and a follower's copy opens on it.

const PREDICT_STORAGE = "perceptron_lab_study";
const PREDICT_EVENT = "perceptron-lab-study";

// The page's switch and score while this document lives (a rerun mounts the player again).
function predictMemory(page) {
  const all = (window.__perceptronPredict = window.__perceptronPredict || new Map());
  if (!all.has(page)) all.set(page, { on: undefined, score: { right: 0, total: 0, streak: 0, best: 0 } });
  return all.get(page);
}

// Give player p its Predict first: the panel, the guarded moves, the keys. `old` is the
// player mounted before in the same place (its pending question is asked again).
function attachPredict(p, questions, old) {
  const spec = p.spec.predict || {};
  const page = spec.page || "player";
  const memory = predictMemory(page);
  const kept = old && old.predict && old.runId === p.spec.run_id ? old.predict : null;
  p.predict = {
    questions, page, memory, spec, score: memory.score, pending: null, verdict: "", said: "",
    on: memory.on !== undefined ? memory.on : Boolean(spec.on),
  };
  p.predict.nodes = predictPanel(p);
  predictWrap(p);
  p.predict.onKey = (event) => predictKey(p, event);
  window.addEventListener("keydown", p.predict.onKey, true);  // before the page's own shortcuts
  p.predict.detach = () => window.removeEventListener("keydown", p.predict.onKey, true);
  const reopen = kept && kept.pending && kept.pending.from === p.state.step ? kept.pending : null;
  if (reopen) {
    predictOpen(p, reopen.kind, reopen.target, reopen.asked[reopen.index].id);
  } else if (p.predict.on && spec.ask && !memory.askUsed) {
    memory.askUsed = true;  // a link's waiting question is asked once per document
    const kind = spec.ask === p.state.step + 1 ? "example" : "mistake";
    if (spec.ask === p.state.step + 1 || spec.ask === nextMistakeStep(p)) {
      predictOpen(p, kind, spec.ask, spec.ask_part || "");
    }
  }
}

// The panel above the step in words: the switch and the score, the question with its
// options, and the verdict of the last answer.
function predictPanel(p) {
  const panel = element("div", { class: "predict", "data-testid": "predict-panel" });
  const bar = element("div", { class: "predict-bar" });
  const toggle = element("button", { type: "button", role: "switch", class: "predict-switch",
                                     "data-action": "predict", "aria-checked": "false",
                                     title: "ask for a prediction before each step is drawn" });
  toggle.append(element("span", { class: "predict-knob", "aria-hidden": "true" }),
                element("span", {}, "Predict first"), element("span", { class: "predict-state", "aria-hidden": "true" }));
  const score = element("span", { class: "predict-score", "data-testid": "predict-score" });
  bar.append(toggle, score);
  const ask = element("div", { class: "predict-ask", hidden: "" });
  const verdictBefore = element("p", { class: "predict-verdict predict-before" });
  // the options' group is named by the question itself: Tab into it and a screen reader says
  // the question before the first option (ids are per player: a page may hold two)
  const promptId = `predict-prompt-${(predictPanel.count = (predictPanel.count || 0) + 1)}`;
  const prompt = element("p", { class: "predict-prompt", "data-testid": "predict-prompt", id: promptId });
  const options = element("div", { class: "predict-options", role: "group", "aria-labelledby": promptId });
  const keys = element("p", { class: "predict-keys" });
  ask.append(verdictBefore, prompt, options, keys);
  const verdict = element("p", { class: "predict-verdict", "data-testid": "predict-verdict", hidden: "" });
  const hint = element("p", { class: "predict-hint", hidden: "" });
  panel.append(bar, ask, verdict, hint);
  p.nodes.side.insertBefore(panel, p.nodes.info);
  toggle.addEventListener("click", () => predictToggle(p, !p.predict.on));
  options.addEventListener("click", (event) => {
    const button = event.target.closest("button[data-option]");
    if (button) predictAnswer(p, button.dataset.option);
  });
  return { panel, toggle, score, ask, verdictBefore, prompt, options, keys, verdict, hint };
}

// The moves that would draw a step ask first; Back and Reset drop a waiting question; Run to
// end and Play wait until the switch is off (they would draw steps nobody predicted).
function predictWrap(p) {
  const plain = Object.assign({}, p.actions);
  p.actions.next_example = () => predictMove(p, "example", plain.next_example);
  p.actions.next_mistake = () => predictMove(p, "mistake", plain.next_mistake);
  for (const name of ["back", "reset"]) {  // the verdict shown was the step's they leave
    p.actions[name] = () => { predictCancel(p); p.predict.verdict = ""; plain[name](); };
  }
  for (const name of ["end", "play"]) {
    p.actions[name] = () => {
      if (!p.predict.on) { plain[name](); return; }
      predictNote(p, "Run to end and Play draw steps nobody predicted: switch Predict first off to use them.");
    };
  }
}

function predictMove(p, kind, plain) {
  const q = p.predict;
  if (!q.on || p.state.timer) return plain();
  if (q.pending) { predictSay(p, predictQuestionText(p)); return undefined; }
  if (p.state.step >= p.n) return plain();
  const target = kind === "example" ? p.state.step + 1 : nextMistakeStep(p);
  return predictOpen(p, kind, target, 0) ? undefined : plain();
}

// Ask the questions of the move to `target`, from the question whose id is `part` on (a
// link's waiting question; the first when none has it). False when the page has nothing to
// ask there (its reason is shown).
function predictOpen(p, kind, target, part) {
  const q = p.predict;
  const from = p.state.step;
  const { asked, none } = q.questions(p.draw.scene, from, target, kind);
  if (!asked.length) {  // the move draws its step at once, and says why
    q.verdict = none || "";
    q.said = q.verdict;
    return false;
  }
  q.pending = { kind, from, target, asked, index: Math.max(0, asked.findIndex((item) => item.id === part)) };
  q.verdict = "";
  predictShow(p);
  return true;
}

// Draw the waiting question: its words and options, what it marks on the picture, and the
// link that names it; say it.
function predictShow(p) {
  const q = p.predict, pending = q.pending, question = pending.asked[pending.index];
  const n = q.nodes;
  n.ask.hidden = false;
  n.verdict.hidden = true;
  n.hint.hidden = true;
  n.verdictBefore.textContent = q.verdict;
  n.verdictBefore.hidden = !q.verdict;
  n.prompt.textContent = question.prompt;
  n.options.replaceChildren(...question.options.map((option) => {
    const button = element("button", { type: "button", "data-option": option.key,
                                       "aria-keyshortcuts": option.keys.map((k) => k.toUpperCase()).join(" ") });
    button.textContent = option.label;
    return button;
  }));
  n.keys.textContent = touchOnly() ? "Tap an answer." : `Keys: ${predictKeysText(question)}.`;
  const layer = predictLayer(p);
  layer.replaceChildren();
  if (question.overlay) question.overlay(layer, (key) => predictAnswer(p, key));
  setAttr(p.nodes.root, "data-predict-pending", question.id);
  describePicture(p);  // the picture's description says what it waits for
  predictUrl(p);
  predictSay(p, (q.verdict ? q.verdict + " " : "") + predictQuestionText(p));
}

// The question and its options in words, as the live region says them.
function predictQuestionText(p) {
  const question = p.predict.pending.asked[p.predict.pending.index];
  const options = question.options.map((option) => option.label).join("; ");
  return `Predict: ${question.prompt} Options: ${options}. ` +
    (touchOnly() ? "Tap an answer." : `Press ${predictKeysText(question)}.`);
}

const predictKeysText = (question) => {
  const keys = question.options.map((option) => option.keys[0].toUpperCase());
  return keys.length > 9 ? `${keys.slice(0, 9).join(" / ")} …` : keys.join(" / ");
};

// The student answers `key`: score it, say the verdict and the reason, then ask the move's
// next question or draw the step. An answer given on a focused option (Enter, Space, a click)
// takes focus on with it: to the next question's first option, or back to the button of the
// move once its step is drawn (the option pressed is gone; focus would fall to the page).
function predictAnswer(p, key) {
  const q = p.predict, pending = q.pending;
  if (!pending) return;
  const question = pending.asked[pending.index];
  const chosen = question.options.find((option) => option.key === key);
  if (!chosen) return;
  const focused = q.nodes.options.contains(playerFocus(p));
  const right = key === question.answer;
  const truth = question.options.find((option) => option.key === question.answer);
  const score = q.score;
  score.total += 1;
  score.right += right ? 1 : 0;
  score.streak = right ? score.streak + 1 : 0;
  score.best = Math.max(score.best, score.streak);
  const wrong = right || !question.wrong ? "" : question.wrong(key) + " ";
  q.verdict = right ? `✓ Right: ${truth.says}. ${question.reason}`
    : `✗ Not quite: ${truth.says}, not ${chosen.says}. ${wrong}${question.reason}`;
  predictCount(p);
  pending.index += 1;
  if (pending.index < pending.asked.length) {
    predictShowScore(p);
    predictShow(p);
    if (focused) q.nodes.options.querySelector("button").focus();
    return;
  }
  predictReveal(p);
  if (focused) predictFocusMove(p, pending.kind);
}

// Focus on the button of a move whose step was just drawn (Next example or Next mistake), or,
// at the end of the run where both are disabled, on Back.
function predictFocusMove(p, kind) {
  const b = p.nodes.buttons;
  const target = [kind === "example" ? b.nextExample : b.nextMistake, b.nextMistake, b.nextExample, b.back]
    .find((node) => !node.disabled);
  if (target) target.focus();
}

// The move's questions are answered: draw the step; the live region says the verdict, the
// score and then the step.
function predictReveal(p) {
  const q = p.predict, target = q.pending.target;
  q.pending = null;
  predictLayer(p).replaceChildren();
  q.said = `${q.verdict} ${predictScoreText(q.score)}.`;
  predictUrl(p);
  moveToStep(p, target);
}

// Drop a waiting question (Back, Reset, the switch off): nothing is scored.
function predictCancel(p) {
  const q = p.predict;
  if (!q.pending) return;
  q.pending = null;
  q.verdict = "";
  predictLayer(p).replaceChildren();
  predictUrl(p);
  renderPlayer(p);
}

function predictToggle(p, on) {
  const q = p.predict;
  if (on) stopPlaying(p);
  q.on = on;
  q.memory.on = on;
  if (!on) predictCancel(p);
  q.verdict = "";
  q.said = on ? `Predict first is on. ${predictStartHint(p)}` : "Predict first is off: every move draws its step at once.";
  predictUrl(p);
  renderPlayer(p);
}

const predictStartHint = (p) => (touchOnly()
  ? `Tap ${p.words.next_example} or ${p.words.next_mistake}: you predict before the step is drawn.`
  : `Press ${p.words.next_example} (↓) or ${p.words.next_mistake} (→): you predict before the step is drawn.`);

// A note in the panel instead of a move (and said).
function predictNote(p, text) {
  const n = p.predict.nodes;
  n.hint.textContent = text;
  n.hint.hidden = false;
  predictSay(p, text);
}

function predictSay(p, text) {
  if (p.nodes.live.textContent !== text) p.nodes.live.textContent = text;
}

// What the live region says after a move: the verdict and the score first (once).
function predictSaid(p, text) {
  if (!p.predict || !p.predict.said) return text;
  const said = p.predict.said;
  p.predict.said = "";
  return `${said} ${text}`;
}

const predictScoreText = (score) => (score.total === 0 ? "No predictions yet"
  : `${countText(score.right)} of ${countText(score.total)} predicted right · streak ${score.streak} · ` +
    `longest streak ${score.best}`);

function predictShowScore(p) {
  const q = p.predict, root = p.nodes.root, score = q.score;
  setText(q.nodes.score, q.on || score.total ? predictScoreText(score) : "");
  for (const name of ["right", "total", "streak", "best"]) setAttr(root, `data-predict-${name}`, score[name]);
}

// After every draw: the switch, the score, the panel, and the controls Predict first holds
// back (Play, Run to end, the slider).
function predictRendered(p) {
  const q = p.predict, n = q.nodes, b = p.nodes.buttons;
  setAttr(n.toggle, "aria-checked", q.on ? "true" : "false");
  setText(n.toggle.querySelector(".predict-state"), q.on ? "on" : "off");
  n.panel.classList.toggle("on", q.on);
  setAttr(p.nodes.root, "data-predict", q.on ? "on" : "off");
  predictShowScore(p);
  if (!q.pending) {
    n.ask.hidden = true;
    setAttr(p.nodes.root, "data-predict-pending", "");
    n.verdict.textContent = q.verdict;
    n.verdict.hidden = !q.on || !q.verdict;
    n.hint.textContent = predictStartHint(p);
    n.hint.hidden = !q.on || Boolean(q.verdict) || p.state.step >= p.n;
  } else {  // a draw while a question waits (a rerun): the example asked about stays marked
    predictShow(p);
  }
  if (q.on) {
    for (const button of [b.end, b.play]) if (!button.disabled) button.disabled = true;
    p.nodes.slider.disabled = true;
  } else if (p.steps.length) {
    p.nodes.slider.disabled = false;
  }
}

// Keys while a question waits: each option's keys (Y / N, 1–9, A–C). Never Space or Enter,
// never while one types, never on another control (a menu takes letters to search).
function predictKey(p, event) {
  const q = p.predict;
  if (!q.on || !q.pending || event.ctrlKey || event.metaKey || event.altKey) return;
  if (!p.nodes.root.isConnected) return;
  const target = keyTarget(event);
  if (isTextField(target)) return;
  if (isControl(target) && !(p.nodes.root.contains(target) && target.tagName.toUpperCase() === "BUTTON")) return;
  const key = (event.key || "").toLowerCase();
  const question = q.pending.asked[q.pending.index];
  const option = question.options.find((item) => item.keys.includes(key));
  if (!option) return;
  event.preventDefault();
  event.stopPropagation();
  predictAnswer(p, option.key);
}

// predict=1 in the address bar while the switch is on; ask= and ask_part= while a question
// waits; then the usual step= (and the view published to a live class).
function predictUrl(p) {
  if (!p.spec.link) return;
  const q = p.predict, url = new URL(window.location.href);
  if (q.on) url.searchParams.set("predict", "1"); else url.searchParams.delete("predict");
  if (q.pending) {
    url.searchParams.set("ask", String(q.pending.target));
    url.searchParams.set("ask_part", q.pending.asked[q.pending.index].id);
  } else {
    url.searchParams.delete("ask");
    url.searchParams.delete("ask_part");
  }
  if (url.href !== window.location.href) {
    try { window.history.replaceState(window.history.state, "", url.href); } catch (e) { /* file:// */ }
  }
  writeUrl(p);
}

// One more answer on this page, for the study path's prediction round (localStorage only).
function predictCount(p) {
  const spec = p.predict.spec;
  if (!spec.progress || !spec.round) return;
  try {
    const stored = JSON.parse(localStorage.getItem(PREDICT_STORAGE) || "{}") || {};
    const pages = (stored.pages = stored.pages || {});
    const mine = (pages[spec.page] = pages[spec.page] || {});
    mine.predictions = Math.min(spec.round, (mine.predictions || 0) + 1);
    localStorage.setItem(PREDICT_STORAGE, JSON.stringify(stored));
    window.dispatchEvent(new CustomEvent(PREDICT_EVENT));
  } catch (e) { /* storage refused (a private window): the round is not kept */ }
}

// The layer on top of the picture where a question draws its marks and candidates.
function predictLayer(p) {
  if (p.predict.layer && p.predict.layer.isConnected) return p.predict.layer;
  const plot = p.nodes.figure.querySelector("svg.plane > g[clip-path]");
  const layer = svg("g", { class: "predict-layer" });
  if (plot) plot.append(layer);
  p.predict.layer = layer;
  return layer;
}

// A dashed diamond round the example a question is about (the move has not looked at it yet).
function predictMark(layer, map, point, size) {
  const cx = map.x(point[0]), cy = map.y(point[1]);
  layer.append(svg("path", { d: `M${cx},${cy - size}L${cx + size},${cy}L${cx},${cy + size}L${cx - size},${cy}z`,
                             fill: "none", stroke: "#111", "stroke-width": 4, "stroke-dasharray": "9 6",
                             class: "predict-asked" }));
}

// A point of the viewBox moved inside the plot area, a badge's radius clear of its edges.
const predictInside = (map, at) => [Math.max(map.left + 34, Math.min(map.left + map.size - 34, at[0])),
                                    Math.max(map.top + 34, Math.min(map.top + map.size - 34, at[1]))];

// A candidate's letter in a white disc at `at` (viewBox units), moved off the letters already
// drawn when it would cover one; a tap on it chooses `key`.
function predictBadge(layer, at, letter, key, choose) {
  const taken = Array.from(layer.querySelectorAll(".predict-badge circle"),
                           (disc) => [Number(disc.getAttribute("cx")), Number(disc.getAttribute("cy"))]);
  const moves = [[0, 0], [0, 72], [72, 0], [0, -72], [-72, 0], [72, 72], [-72, 72], [72, -72], [-72, -72]];
  const free = moves.map(([dx, dy]) => [at[0] + dx, at[1] + dy])
    .find((p) => p[0] > 60 && p[0] < 990 && p[1] > 20 && p[1] < 930 &&
                 taken.every((q) => Math.hypot(p[0] - q[0], p[1] - q[1]) >= 64));
  if (free) at = free;
  const group = svg("g", { class: "predict-badge", "data-candidate": key, role: "presentation" });
  group.append(svg("circle", { cx: at[0], cy: at[1], r: 30, fill: "white", stroke: "#111", "stroke-width": 4 }));
  const text = svg("text", { x: at[0], y: at[1] + 11, "text-anchor": "middle", class: "predict-letter" });
  text.textContent = letter;
  group.append(text);
  group.addEventListener("click", () => choose(key));
  layer.append(group);
  group.at = at;
  return group;
}

// A candidate line w·x + b = 0 (dashed, with a wide invisible edge that takes a tap), the
// `index`-th of a question: its letter a fifth, half or four fifths along it, with an arrow
// towards w, the side it predicts +1. A line that misses the square [-L, L]² gets its letter
// at the edge nearest to it, with a wedge pointing out towards it.
function predictLine(layer, map, line, L, letter, choose, index, dash) {
  const seg = lineInSquare(line.w, line.b, L);
  const size = Math.hypot(line.w[0], line.w[1]), u = [line.w[0] / size, -line.w[1] / size];  // w in viewBox units
  if (!seg) {
    const near = [(-line.b * line.w[0]) / size ** 2, (-line.b * line.w[1]) / size ** 2];  // its point nearest 0
    const reach = (0.86 * L) / Math.max(Math.abs(near[0]), Math.abs(near[1]));
    const out = Math.hypot(near[0], near[1]), ux = near[0] / out, uy = -near[1] / out;  // outwards
    const at = predictInside(map, [map.x(near[0] * reach) - (index - 1) * 70 * uy, map.y(near[1] * reach) + (index - 1) * 70 * ux]);
    const badge = predictBadge(layer, at, letter, letter, choose);
    badge.dataset.off = "true";
    predictWedge(layer, badge.at, [ux, uy], "predict-off");
    return;
  }
  const ends = { x1: map.x(seg[0][0]), y1: map.y(seg[0][1]), x2: map.x(seg[1][0]), y2: map.y(seg[1][1]) };
  const drawn = svg("line", { ...ends, stroke: "#111", "stroke-width": 5, "stroke-dasharray": dash,
                              class: "predict-candidate", "data-candidate": letter });
  const hit = svg("line", { ...ends, stroke: "transparent", "stroke-width": 44, class: "predict-hit" });
  hit.addEventListener("click", () => choose(letter));
  layer.append(drawn, hit);
  const where = [0.2, 0.5, 0.8][index] || 0.5;
  const at = predictInside(map, [ends.x1 + where * (ends.x2 - ends.x1), ends.y1 + where * (ends.y2 - ends.y1)]);
  predictWedge(layer, predictBadge(layer, at, letter, letter, choose).at, u, "predict-side");
}

// A wedge from a badge at `at` pointing along the unit vector `u` (viewBox units).
function predictWedge(layer, at, u, name) {
  const [ux, uy] = u, tip = [at[0] + 70 * ux, at[1] + 70 * uy];
  layer.append(svg("path", { d: `M${tip[0]},${tip[1]}L${at[0] + 34 * ux - 15 * uy},${at[1] + 34 * uy + 15 * ux}` +
                                `L${at[0] + 34 * ux + 15 * uy},${at[1] + 34 * uy - 15 * ux}z`,
                             fill: "#111", class: name }));
}

// Where the one right candidate goes among three (A, B or C) at the k-th update: a hash of
// k, so the letter of the right answer is no pattern to learn. The same rule as
// perceptron_core/viz/predict.py:candidate_slot.
const predictSlot = (k) => (Math.imul(k + 1, 2654435761) >>> 0) % 3;

// Put the right candidate at its slot among the wrong ones: [{ letter, ... }] A, B, C.
function predictArrange(right, wrong, k) {
  const order = wrong.slice(0, 2);
  order.splice(Math.min(predictSlot(k), order.length), 0, right);
  return order.map((item, index) => Object.assign({}, item, { letter: "ABC"[index] }));
}
