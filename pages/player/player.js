// The player: step through a frozen run in the browser, with no message to the server.
//
// These files are the stepping machinery every stepping page shares: the position
// (examined step s, 0 = nothing examined yet), the history that "Back" undoes,
// the buttons, the keys, the scrub slider over the updates, Play/Pause with a
// speed, and the step in the address bar. What a page draws and says at a step
// lives in its scene (for /train: train_scene.js), a function
//     scene(slots, data) -> { draw(view), scene }   (scene: its shared object, for Predict first)
// that fills slots.figure, slots.info and slots.chart and redraws them for
// view = { step, updates, atEnd }. pages/player/player_component.py joins the files
// (PLAYER_SCRIPTS, then the scene's) into one module in Streamlit, or inlines them into
// an offline HTML export. This file: mounting, the state and drawing it; player_frame.js:
// the buttons, slider and panels, and their size; player_moves.js: every move;
// player_access.js: keys, the live region, the picture in words, focus, touch.
//
// data.player (built in Python, perceptron_core/viz/*.player_spec):
//   run_id        text that changes whenever the run changes
//   n_examined    examined steps in the run (N)
//   update_steps  (M,) 1-based step of each update, increasing
//   start_step    step to open at (a link's step=), or null
//   speed         "slow" | "medium" | "fast"
//   present       presenter stage (fill the screen, large type)
//   link          whether to keep step= / speed= in the address bar
//   labels        optional words of the page: {next_mistake, next_example, update, keys}
//   predict       Predict first (player_predict.js): {on, page, ask, ask_part, round, progress},
//                 added by pages/player/player_component.py when it mounts the player
//                 (the relaxation method has moves and iterations, not mistakes)
//
// A scene may also return `facts`: [label, text] pairs of what matters about its run (the
// margin, the bound, the run's length); when a setting changes the run, the player says
// which of them changed (newRunText, player_access.js).
//
// A mounted player is one object p = { spec, words, n (examined steps), steps (update
// steps), nodes (playerFrame), draw (the scene), facts, positions, state, actions,
// urlTimer, onKey } that the functions of these files share.

const PLAYER_SPEEDS = { slow: 900, medium: 450, fast: 150 };
const PLAYER_KEYS_TEXT =
  "Keys: → or PageDown next mistake · ↓ next example · ← or PageUp back · " +
  "Home reset · End run to end · Space play/pause";
// the key every player adds to its page's keys: the charts' values in words
const PLAYER_CHART_KEY = " · P say the charts' values";

// Number of updates made at or before step s: the count of update_steps <= s.
function updatesAtStep(updateSteps, s) {
  let low = 0;
  let high = updateSteps.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (updateSteps[middle] <= s) low = middle + 1;
    else high = middle;
  }
  return low;
}

function element(tag, attributes, text) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes || {})) node.setAttribute(name, value);
  if (text !== undefined) node.textContent = text;
  return node;
}

// Build the player into `host` (or reuse the one already there for the same run).
// Returns a cleanup function that removes the listeners.
function mountPlayer(host, data, scene, questions) {
  // The payload as plain objects, made once: the page sends it as a JSON string (the
  // offline player passes the object itself, copied here: Streamlit's wrappers make every
  // read a function call, and a step reads thousands of numbers).
  data = JSON.parse(typeof data === "string" ? data : JSON.stringify(data));
  const spec = data.player;
  const old = host.__player;
  if (old) old.detach();
  const reuse = reusablePlayer(host);
  const words = Object.assign({ next_mistake: "Next mistake", next_example: "Next example",
                                update: "update", keys: PLAYER_KEYS_TEXT }, spec.labels || {});
  const p = { spec, words, n: spec.n_examined, steps: spec.update_steps, urlTimer: null };
  p.nodes = playerFrame(spec, words, reuse);
  if (spec.link) addCopyLink(p);
  const { figure, info, chart, root } = p.nodes;
  if (!reuse) host.appendChild(root);
  p.draw = scene({ figure, info, chart, root }, data);
  p.facts = { data: dataFingerprint(data), facts: p.draw.facts || [] };
  // Where this tab last was in this run, while the document lives (leaving the page
  // and coming back restores it; a reload or a new link starts from start_step).
  p.positions = (window.__perceptronPlayerPositions =
    window.__perceptronPlayerPositions || new Map());
  p.state = startState(p, old);
  p.actions = playerActions(p);
  listenToControls(p);
  listenToTouch(p);
  if (questions) attachPredict(p, questions, old);  // Predict first: player_predict.js

  // the figure is a square as large as the stage allows, also when the window changes.
  // A step changes the player's height (its texts), not its width: the fit runs again
  // only when the width or the window's height changed (or, on the presenter stage,
  // the player's own height), so a step costs no second layout.
  let fitted = "";
  const fit = () => {
    const box = p.nodes.root;
    const key = `${box.clientWidth}x${window.innerHeight}` + (spec.present ? `x${box.clientHeight}` : "");
    if (key === fitted) return;
    fitted = key;
    fitPlayer(p);
  };
  const resize = new ResizeObserver(fit);
  resize.observe(root);
  window.addEventListener("resize", fit);
  fit();
  renderPlayer(p);
  p.ready = true;  // from now on every move is said in the live region
  if (old && old.runId !== spec.run_id && old.facts) sayNewRun(p, old.facts);
  writeUrl(p);

  function detach() {
    document.removeEventListener("keydown", p.onKey);
    window.removeEventListener("resize", fit);
    resize.disconnect();
    if (p.state.timer) clearInterval(p.state.timer);
    clearTimeout(p.urlTimer);
    if (p.predict) p.predict.detach();
  }
  host.__player = { runId: spec.run_id, state: p.state, predict: p.predict, detach, facts: p.facts };
  return detach;
}

// The player already in `host`, to be emptied and filled again with its live region kept
// in place (a region that stays in the page is one a screen reader keeps listening to);
// any other player there is removed. Null when there is none.
function reusablePlayer(host) {
  let reuse = null;
  for (const previous of Array.from(host.children)) {
    if (!previous.classList || !previous.classList.contains("player")) continue;
    if (!reuse && previous.querySelector(":scope > .live")) reuse = previous;
    else previous.remove();
  }
  return reuse;
}

// A setting changed the run: say what changed and where the player is, once, politely.
function sayNewRun(p, before) {
  const text = newRunText(p, before, p.facts);
  setTimeout(() => {
    if (!p.announcing && p.nodes.live.textContent !== text) p.nodes.live.textContent = text;
  }, 50);
}

// A short fingerprint of the data a run is on (its points and labels, or its system):
// FNV-1a over their JSON, so "new data" is told from "same data, new settings".
function dataFingerprint(data) {
  const text = JSON.stringify([data.X, data.y, data.A, data.c]);
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return (hash >>> 0).toString(16);
}

// The step to open at: the same as before when the same run is mounted again, else
// where this tab last was in this run, else the link's start_step, else 0.
function startState(p, old) {
  const { spec, n } = p;
  const remembered = p.positions.get(spec.run_id);
  const keep = old && old.runId === spec.run_id;
  const step = keep ? old.state.step
    : Number.isInteger(remembered) ? remembered
    : spec.start_step !== null && spec.start_step !== undefined ? spec.start_step : 0;
  return {
    step: Math.max(0, Math.min(n, step)),
    history: keep ? old.state.history : [],
    timer: null,
    scrubFrom: null,
  };
}

// Draw the scene at the current step and set the controls to match it.
function renderPlayer(p) {
  const { state, nodes, steps, n, spec } = p;
  const updates = updatesAtStep(steps, state.step);
  p.draw.draw({ step: state.step, updates, atEnd: state.step >= n });
  // only what differs from the shown state is written (setText, setAttr: scene_common.js)
  if (nodes.slider.value !== String(updates)) nodes.slider.value = String(updates);
  const scrubText = `${p.words.update} ${updates} of ${steps.length}`;
  setText(nodes.scrubLabel, scrubText);
  setAttr(nodes.slider, "aria-valuetext", scrubText);
  const buttons = nodes.buttons;
  const focused = playerFocus(p);
  const enable = (button, disabled) => { if (button.disabled !== disabled) button.disabled = disabled; };
  for (const button of [buttons.nextMistake, buttons.nextExample, buttons.end]) enable(button, state.step >= n);
  enable(buttons.back, state.history.length === 0 && state.step === 0);
  setButtonText(buttons.play, state.timer ? "❚❚ Pause" : "▶ Play");
  enable(buttons.play, !state.timer && state.step >= n);
  keepFocus(p, focused);
  describePicture(p);
  announceMove(p);
  const root = nodes.root;
  const marks = { run: spec.run_id, step: String(state.step), updates: String(updates),
                  playing: state.timer ? "true" : "false" };
  for (const [name, value] of Object.entries(marks)) setAttr(root, `data-${name}`, value);
  p.positions.set(spec.run_id, state.step);
  if (p.predict) predictRendered(p);
}
