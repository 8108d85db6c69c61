// The player's moves (joined after player_frame.js): to a step, next mistake, next
// example, Back, Reset, Run to end, Play/Pause, the scrub slider and the keys; and the
// step in the address bar once stepping pauses.

// The address bar carries step= (and speed=) once stepping pauses.
function writeUrl(p) {
  if (!p.spec.link) return;
  clearTimeout(p.urlTimer);
  const url = new URL(window.location.href);
  if (p.state.step > 0) url.searchParams.set("step", String(p.state.step));
  else url.searchParams.delete("step");
  const speed = p.nodes.speed.value;
  if (speed !== "medium") url.searchParams.set("speed", speed);
  else url.searchParams.delete("speed");
  if (url.href !== window.location.href) {
    try { window.history.replaceState(window.history.state, "", url.href); } catch (e) { /* file:// */ }
  }
  publishView(p);
}

// Live class: a browser that runs a class (/class's instructor view left its code
// and key in localStorage) publishes the address just written to the students who follow,
// POST /class-api/view with the key in a header. At most one POST per 0.5 s, the latest
// address sent last; not from a frame (a follower's copy) or a file; failures are ignored
// (the lecture goes on), and a class that is gone or not this key's is forgotten.
function publishView(p) {
  let held = null;
  try { held = JSON.parse(localStorage.getItem("lab_class_instructor") || "null"); } catch (e) { return; }
  if (!held || !held.code || !held.key || window.top !== window || !/^https?:$/.test(location.protocol)) return;
  const send = () => {
    p.publishedAt = Date.now();
    fetch("/class-api/view", {method: "POST", keepalive: true, body: JSON.stringify({code: held.code,
      url: location.pathname + location.search}), headers: {"Content-Type": "application/json", "X-Class-Key": held.key}})
      .then((r) => { if (r.status === 403 || r.status === 404) localStorage.removeItem("lab_class_instructor"); })
      .catch(() => {});
  };
  clearTimeout(p.publishTimer);
  const wait = 500 - (Date.now() - (p.publishedAt || 0));
  if (wait <= 0) send(); else p.publishTimer = setTimeout(send, wait);
}

function scheduleUrl(p) {
  clearTimeout(p.urlTimer);
  if (!p.state.timer) p.urlTimer = setTimeout(() => writeUrl(p), 300);
}

// Go to step `target` (kept in 0..N); `remember` puts the step we leave on Back's list.
function moveToStep(p, target, remember = true) {
  const state = p.state;
  target = Math.max(0, Math.min(p.n, target));
  p.movedBack = target < state.step;  // said as a move back (player_access.js)
  if (remember && target !== state.step) state.history.push(state.step);
  state.step = target;
  renderPlayer(p);
  scheduleUrl(p);
}

// The step of the next update after the current step, or N when none is left.
function nextMistakeStep(p) {
  const k = updatesAtStep(p.steps, p.state.step);
  return k < p.steps.length ? p.steps[k] : p.n;
}

// What each button (data-action) and key does.
function playerActions(p) {
  const state = p.state;
  return {
    next_mistake: () => moveToStep(p, nextMistakeStep(p)),
    next_example: () => moveToStep(p, state.step + 1),
    back: () => { stopPlaying(p); moveToStep(p, state.history.length ? state.history.pop() : 0, false); },
    reset: () => { stopPlaying(p); state.history = []; moveToStep(p, 0, false); },
    end: () => { stopPlaying(p); moveToStep(p, p.n); },
    play: () => (state.timer ? stopPlaying(p) : startPlaying(p)),
    say_charts: () => sayChartsNow(p),
  };
}

// Play: one update per tick at the chosen speed; every frame is a state of the run.
function startPlaying(p) {
  const state = p.state;
  if (state.step >= p.n) return;
  p.movedBack = false;
  state.history.push(state.step);
  state.timer = setInterval(() => {
    if (state.step >= p.n) { stopPlaying(p); return; }
    state.step = nextMistakeStep(p);
    renderPlayer(p);
    if (state.step >= p.n) stopPlaying(p);
  }, PLAYER_SPEEDS[p.nodes.speed.value]);
  renderPlayer(p);
}

function stopPlaying(p) {
  if (!p.state.timer) return;
  clearInterval(p.state.timer);
  p.state.timer = null;
  renderPlayer(p);
  writeUrl(p);
}

const PLAYER_KEY_ACTIONS = {
  ArrowRight: "next_mistake", PageDown: "next_mistake", ArrowDown: "next_example",
  ArrowLeft: "back", PageUp: "back", Home: "reset", End: "end", " ": "play",
  p: "say_charts", P: "say_charts",
};

// The buttons, the speed menu, the scrub slider (one drag is one move for Back) and
// the keys (p.onKey, removed again by detach).
function listenToControls(p) {
  const { controls, speed, slider, root } = p.nodes;
  const state = p.state;
  controls.addEventListener("click", (event) => {
    const target = event.target.closest("button[data-action]");
    if (target && p.actions[target.dataset.action]) p.actions[target.dataset.action]();
  });
  speed.addEventListener("change", () => {
    if (state.timer) { stopPlaying(p); startPlaying(p); }
    writeUrl(p);
  });
  slider.addEventListener("input", () => {
    stopPlaying(p);
    if (state.scrubFrom === null) state.scrubFrom = state.step;
    const k = Number(slider.value);
    moveToStep(p, k > 0 ? p.steps[k - 1] : 0, false);
  });
  slider.addEventListener("change", () => {
    if (state.scrubFrom !== null && state.scrubFrom !== state.step) state.history.push(state.scrubFrom);
    state.scrubFrom = null;
    renderPlayer(p);
  });
  p.onKey = (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const name = PLAYER_KEY_ACTIONS[event.key];
    if (!name || !root.isConnected || !playerOwnsKey(p, event)) return;
    event.preventDefault();
    p.actions[name]();
  };
  document.addEventListener("keydown", p.onKey);
}
