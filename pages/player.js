// The player: step through a frozen run in the browser, with no message to the server.
//
// This file is the stepping machinery every stepping page shares: the position
// (examined step s, 0 = nothing examined yet), the history that "Back" undoes,
// the buttons, the keys, the scrub slider over the updates, Play/Pause with a
// speed, and the step in the address bar. What a page draws and says at a step
// lives in its scene (for /train: train_scene.js), a function
//     scene(slots, data) -> { draw(view) }
// that fills slots.figure, slots.info and slots.chart and redraws them for
// view = { step, updates, atEnd }. The files are joined into one module by
// pages/common.py (in Streamlit) or inlined into an offline HTML export.
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
//                 (the relaxation method has moves and iterations, not mistakes)

const PLAYER_SPEEDS = { slow: 900, medium: 450, fast: 150 };
const PLAYER_KEYS_TEXT =
  "Keys: → or PageDown next mistake · ↓ next example · ← or PageUp back · " +
  "Home reset · End run to end · Space play/pause";

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

// A key press that belongs to a text field, a slider or a menu is not ours.
function typingTarget(event) {
  const target = (event.composedPath && event.composedPath()[0]) || event.target;
  if (!target || !target.tagName) return false;
  const tag = target.tagName.toUpperCase();
  if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") return true;
  if (target.isContentEditable) return true;
  const role = target.getAttribute && target.getAttribute("role");
  return ["slider", "textbox", "combobox", "spinbutton", "listbox", "option", "menu",
          "menuitem", "radio", "switch", "checkbox"].includes(role);
}

function element(tag, attributes, text) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes || {})) node.setAttribute(name, value);
  if (text !== undefined) node.textContent = text;
  return node;
}

// Build the player into `host` (or reuse the one already there for the same run).
// Returns a cleanup function that removes the listeners.
function mountPlayer(host, data, scene) {
  const spec = data.player;
  const old = host.__player;
  if (old) old.detach();

  // -- the frame: stage (figure | side), chart below (beside it on the presenter stage)
  for (const previous of Array.from(host.children)) {
    if (previous.classList && previous.classList.contains("player")) previous.remove();
  }
  const root = element("div", { class: "player", "data-testid": "perceptron-player" });
  root.classList.toggle("present", Boolean(spec.present));
  const stage = element("div", { class: "stage" });
  const figure = element("div", { class: "figure" });
  const side = element("div", { class: "side" });
  const controls = element("div", { class: "controls", role: "toolbar",
                                    "aria-label": "step through the run" });
  const button = (name, label, title, primary) => {
    const node = element("button", { type: "button", "data-action": name, title }, label);
    if (primary) node.classList.add("primary");
    controls.appendChild(node);
    return node;
  };
  const words = Object.assign({ next_mistake: "Next mistake", next_example: "Next example",
                                update: "update", keys: PLAYER_KEYS_TEXT }, spec.labels || {});
  const buttons = {
    nextMistake: button("next_mistake", `${words.next_mistake} ▸▸`, `next ${words.update} (→ or PageDown)`, true),
    nextExample: button("next_example", `${words.next_example} ▸`, "one more step (↓)"),
    back: button("back", "◂ Back", "undo the last move (← or PageUp)"),
    reset: button("reset", "⟲ Reset", "back to the start (Home)"),
    end: button("end", "Run to end ▸|", "the last examined step (End)"),
    play: button("play", "▶ Play", "play every update (Space)"),
  };
  const speed = element("select", { "data-action": "speed", "aria-label": "speed" });
  for (const name of Object.keys(PLAYER_SPEEDS)) speed.appendChild(element("option", { value: name }, name));
  speed.value = PLAYER_SPEEDS[spec.speed] ? spec.speed : "medium";
  controls.appendChild(speed);
  const scrub = element("div", { class: "scrub" });
  const scrubLabel = element("label", { class: "scrub-label" });
  const slider = element("input", { type: "range", min: "0", max: String(spec.update_steps.length),
                                    step: "1", value: "0", "data-action": "scrub",
                                    "aria-label": `jump to ${words.update}` });
  scrub.append(scrubLabel, slider);
  if (!spec.update_steps.length) slider.disabled = true;
  const keys = element("div", { class: "keys" }, words.keys);
  const info = element("div", { class: "info" });
  const link = element("div", { class: "link" });
  const chart = element("div", { class: "chart" });
  side.append(controls, scrub, keys, info);
  stage.append(figure, side);
  root.append(stage);
  if (spec.present) side.append(chart); else root.append(chart);
  if (spec.link) {
    const copy = element("button", { type: "button", "data-action": "copy_link",
                                     title: "a link that opens this view (data, settings and step)" },
                         "Copy link to this view");
    const shown = element("input", { type: "text", readonly: "", class: "link-text",
                                     "aria-label": "link to this view" });
    link.append(copy, shown);
    controls.appendChild(link);
    copy.addEventListener("click", () => {
      writeUrl();
      shown.value = window.location.href;
      shown.classList.add("shown");
      shown.select();
      const done = () => { copy.textContent = "Link copied ✓"; };
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(shown.value).then(done, () => {
          copy.textContent = "Copy the link below";
        });
      } else {
        copy.textContent = "Copy the link below";
      }
    });
  }
  host.appendChild(root);
  const draw = scene({ figure, info, chart, root }, data);

  // -- the state: where we are, where we were (for Back), and Play
  const n = spec.n_examined;
  const steps = spec.update_steps;
  // Where this tab last was in this run, while the document lives (leaving the page
  // and coming back restores it; a reload or a new link starts from start_step).
  const positions = (window.__perceptronPlayerPositions = window.__perceptronPlayerPositions || new Map());
  const remembered = positions.get(spec.run_id);
  const keep = old && old.runId === spec.run_id;
  const state = {
    step: keep ? old.state.step
      : Number.isInteger(remembered) ? remembered
      : spec.start_step !== null && spec.start_step !== undefined ? spec.start_step : 0,
    history: keep ? old.state.history : [],
    timer: null,
    scrubFrom: null,
  };
  state.step = Math.max(0, Math.min(n, state.step));

  function render() {
    const updates = updatesAtStep(steps, state.step);
    draw.draw({ step: state.step, updates, atEnd: state.step >= n });
    slider.value = String(updates);
    scrubLabel.textContent = `${words.update} ${updates} of ${steps.length}`;
    buttons.nextMistake.disabled = buttons.nextExample.disabled = buttons.end.disabled =
      state.step >= n;
    buttons.back.disabled = state.history.length === 0 && state.step === 0;
    buttons.play.textContent = state.timer ? "❚❚ Pause" : "▶ Play";
    buttons.play.disabled = !state.timer && state.step >= n;
    root.dataset.run = spec.run_id;
    root.dataset.step = String(state.step);
    root.dataset.updates = String(updates);
    root.dataset.playing = state.timer ? "true" : "false";
    positions.set(spec.run_id, state.step);
  }

  // The address bar carries step= (and speed=) once stepping pauses.
  let urlTimer = null;
  function writeUrl() {
    if (!spec.link) return;
    clearTimeout(urlTimer);
    const url = new URL(window.location.href);
    if (state.step > 0) url.searchParams.set("step", String(state.step));
    else url.searchParams.delete("step");
    if (speed.value !== "medium") url.searchParams.set("speed", speed.value);
    else url.searchParams.delete("speed");
    if (url.href !== window.location.href) {
      try { window.history.replaceState(window.history.state, "", url.href); } catch (e) { /* file:// */ }
    }
  }
  function scheduleUrl() {
    clearTimeout(urlTimer);
    if (!state.timer) urlTimer = setTimeout(writeUrl, 300);
  }

  function moveTo(target, remember = true) {
    target = Math.max(0, Math.min(n, target));
    if (remember && target !== state.step) state.history.push(state.step);
    state.step = target;
    render();
    scheduleUrl();
  }
  const nextMistakeStep = () => {
    const k = updatesAtStep(steps, state.step);
    return k < steps.length ? steps[k] : n;
  };
  const actions = {
    next_mistake: () => moveTo(nextMistakeStep()),
    next_example: () => moveTo(state.step + 1),
    back: () => { stop(); moveTo(state.history.length ? state.history.pop() : 0, false); },
    reset: () => { stop(); state.history = []; moveTo(0, false); },
    end: () => { stop(); moveTo(n); },
    play: () => (state.timer ? stop() : play()),
  };
  function play() {
    if (state.step >= n) return;
    state.history.push(state.step);
    state.timer = setInterval(() => {
      if (state.step >= n) { stop(); return; }
      state.step = nextMistakeStep();  // every frame is a state of the run
      render();
      if (state.step >= n) stop();
    }, PLAYER_SPEEDS[speed.value]);
    render();
  }
  function stop() {
    if (!state.timer) return;
    clearInterval(state.timer);
    state.timer = null;
    render();
    writeUrl();
  }

  controls.addEventListener("click", (event) => {
    const target = event.target.closest("button[data-action]");
    if (target && actions[target.dataset.action]) actions[target.dataset.action]();
  });
  speed.addEventListener("change", () => {
    if (state.timer) { stop(); play(); }
    writeUrl();
  });
  // Scrubbing: the slider picks an update; one drag is one move for Back.
  slider.addEventListener("input", () => {
    stop();
    if (state.scrubFrom === null) state.scrubFrom = state.step;
    const k = Number(slider.value);
    moveTo(k > 0 ? steps[k - 1] : 0, false);
  });
  slider.addEventListener("change", () => {
    if (state.scrubFrom !== null && state.scrubFrom !== state.step) state.history.push(state.scrubFrom);
    state.scrubFrom = null;
    render();
  });

  const KEYS = {
    ArrowRight: "next_mistake", PageDown: "next_mistake", ArrowDown: "next_example",
    ArrowLeft: "back", PageUp: "back", Home: "reset", End: "end", " ": "play",
  };
  function onKey(event) {
    if (event.ctrlKey || event.metaKey || event.altKey || typingTarget(event)) return;
    const name = KEYS[event.key];
    if (!name || !root.isConnected) return;
    event.preventDefault();
    actions[name]();
  }
  document.addEventListener("keydown", onKey);

  // -- size: the figure is a square as large as the stage allows
  function fit() {
    const width = root.clientWidth;
    if (!width) return;
    if (!spec.present) {  // a page that scrolls: a square of 60% of the width, not taller than the window
      const size = Math.max(300, Math.floor(Math.min(width * 0.6, window.innerHeight - 60)));
      root.style.setProperty("--figure-size", size + "px");
      return;
    }
    // the presenter stage: everything in the window, nothing to scroll. A page with
    // controls above its player brings the player to the top of the window instead.
    const rect = root.getBoundingClientRect();
    const below = rect.top > window.innerHeight * 0.2;
    const free = window.innerHeight - (below ? 8 : Math.max(rect.top, 0)) - 10;
    if (below && !root.dataset.scrolled) {
      root.dataset.scrolled = "true";
      setTimeout(() => root.scrollIntoView({ block: "start" }), 50);
    }
    const legend = figure.querySelector(".legend");
    let size = Math.floor(Math.min(width * 0.56, free));
    for (let pass = 0; pass < 2; pass++) {  // leave room for the legend under the square
      root.style.setProperty("--figure-size", size + "px");
      size = Math.floor(Math.min(width * 0.56, free - (legend ? legend.offsetHeight + 6 : 0)));
    }
    root.style.setProperty("--figure-size", Math.max(200, size) + "px");
    root.style.setProperty("--stage-height", free + "px");
  }
  const resize = new ResizeObserver(() => fit());
  resize.observe(root);
  window.addEventListener("resize", fit);
  fit();
  render();
  writeUrl();

  function detach() {
    document.removeEventListener("keydown", onKey);
    window.removeEventListener("resize", fit);
    resize.disconnect();
    if (state.timer) clearInterval(state.timer);
    clearTimeout(urlTimer);
  }
  host.__player = { runId: spec.run_id, state, detach };
  return detach;
}
