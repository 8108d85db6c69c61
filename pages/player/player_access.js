// The player for every hand, ear and keyboard (joined after player_moves.js): which key
// presses are the player's, the step said once per move in a polite live region (a move
// back said as one, P says the charts' values, a new run says what changed), the picture
// told in words (its aria-label), focus moved off a button that a move disabled, and taps
// and swipes on the picture.

const CONTROL_TAGS = ["BUTTON", "INPUT", "SELECT", "TEXTAREA", "SUMMARY", "OPTION"];
const CONTROL_ROLES = ["button", "link", "tab", "switch", "checkbox", "radio", "slider", "textbox",
  "searchbox", "combobox", "spinbutton", "listbox", "option", "menu", "menuitem", "menuitemcheckbox",
  "menuitemradio", "treeitem", "gridcell"];
const TEXT_INPUT_TYPES = ["text", "search", "email", "url", "tel", "password", "number", ""];
// a swipe on the picture: at least this far (CSS px), mostly sideways; a tap: at most TAP_SLOP
const SWIPE_MIN = 40, TAP_SLOP = 10;
// how long a tap may last (ms); a longer press is not a step
const TAP_MAX_MS = 500;

// The element a key press is aimed at, also inside a shadow root.
function keyTarget(event) {
  return (event.composedPath && event.composedPath()[0]) || event.target;
}

// Whether `node` is a control with keys of its own: a button, a link, a field, a menu,
// a toggle, an expander's header, a chart walked by its arrow keys (data-walk), or
// anything with such a role.
function isControl(node) {
  if (!node || !node.tagName) return false;
  if (node.hasAttribute("data-walk")) return true;
  const tag = node.tagName.toUpperCase();
  if (CONTROL_TAGS.includes(tag) || node.isContentEditable) return true;
  if (tag === "A" && node.hasAttribute("href")) return true;
  return CONTROL_ROLES.includes(node.getAttribute("role"));
}

// Whether `node` is where one types: a text field, a text area or an editable element.
function isTextField(node) {
  if (!node || !node.tagName) return false;
  const tag = node.tagName.toUpperCase();
  if (tag === "TEXTAREA" || node.isContentEditable) return true;
  if (tag === "INPUT") return TEXT_INPUT_TYPES.includes((node.getAttribute("type") || "").toLowerCase());
  return ["textbox", "searchbox", "combobox", "spinbutton"].includes(node.getAttribute("role"));
}

// Whether the player is used by touch alone: no hover, a coarse pointer (a phone, a tablet).
// player.css hides the keys line then; the texts say what to tap instead of which key.
const touchOnly = () => typeof matchMedia === "function" &&
  matchMedia("(hover: none) and (pointer: coarse)").matches;

// How to take the first step, in the device's words: keys on a keyboard, taps on a touch screen.
function moveHint() {
  return touchOnly() ? "Tap Next mistake or Next example, or tap the picture for the next example."
    : "Press Next mistake or Next example (or → / ↓).";
}

// Whether a step key belongs to the player. On the presenter stage PageDown / PageUp (a
// clicker) always step unless one is typing. Otherwise the keys step when focus is on
// the page itself (no control) or on one of the player's buttons; there Space and Enter
// press the button, as on any button. Every other control keeps its keys.
function playerOwnsKey(p, event) {
  const target = keyTarget(event);
  if (p.spec.present && (event.key === "PageDown" || event.key === "PageUp")) return !isTextField(target);
  if (!isControl(target)) return true;
  if (!p.nodes.root.contains(target) || target.tagName.toUpperCase() !== "BUTTON") return false;
  return event.key !== " " && event.key !== "Enter";
}

// The text of a part of the info panel, "" when it is missing or hidden.
function panelText(p, selector) {
  const node = p.nodes.info.querySelector(selector);
  return node && !node.hidden ? node.textContent.trim() : "";
}

// What the live region says after a move: the step in words and the state now, and at
// the end of the run the banner. While playing it says only that the run plays (frames
// come faster than anyone can listen); when Play pauses or finishes it says the step.
function announcement(p) {
  if (p.state.timer) {
    const seconds = PLAYER_SPEEDS[p.nodes.speed.value] / 1000;
    return `Playing: one ${p.words.update} every ${seconds} seconds. ` +
      (touchOnly() ? "Tap Pause to stop." : "Press Pause or Space to stop.");
  }
  let text = [panelText(p, ".step-text"), panelText(p, ".now")].filter(Boolean).map(sentenceEnd).join(" ");
  if (p.state.step >= p.n) text += ` Run finished: ${panelText(p, ".banner")}`;
  // a move to an earlier step is said as one: "Back to step 3." / "Back to the start."
  if (p.movedBack) text = `Back to ${p.state.step ? `step ${countText(p.state.step)}` : "the start"}. ${text}`;
  return text;
}

// The charts' values at the shown step in words (the proof's two inequalities), "" when
// the player has no charts.
function chartsNow(p) {
  return Array.from(p.nodes.chart.querySelectorAll(".chart-now"), (node) => node.textContent.trim())
    .filter(Boolean).join(" ");
}

// P: say the charts' values now (the proof's inequalities), on request.
function sayChartsNow(p) {
  const text = chartsNow(p) || "This player has no charts.";
  // the same words twice in a row are said again: the region is emptied first
  p.nodes.live.textContent = "";
  setTimeout(() => { p.nodes.live.textContent = text; }, 50);
}

// A new run mounted where another was (a setting changed): what changed, once, politely.
// `before` and `after` are the scenes' facts ([label, text] pairs) and data fingerprints.
function newRunText(p, before, after) {
  const changed = after.facts.filter(([label, text]) => {
    const old = before.facts.find(([name]) => name === label);
    return !old || old[1] !== text;
  }).map(([label, text]) => {
    const old = before.facts.find(([name]) => name === label);
    return old ? `${label} now ${text}, was ${old[1]}` : `${label} ${text}`;
  });
  const head = before.data === after.data ? "Same data, new run." : "New data.";
  const where = p.state.step === 0 ? "The player is back at step 0: nothing examined yet."
    : `The player is at step ${countText(p.state.step)}, where you left this run.`;
  return [head, changed.length ? sentenceEnd(changed.join("; ")) : "", where].filter(Boolean).join(" ");
}

// Say the state once per move: moves that render twice (Back while playing) are
// gathered into one change of the live region, after the move's own code has run.
function announceMove(p) {
  if (!p.ready || p.announcing) return;
  p.announcing = true;
  queueMicrotask(() => {
    p.announcing = false;
    const text = predictSaid(p, announcement(p));  // a prediction's verdict first
    if (p.nodes.live.textContent !== text) p.nodes.live.textContent = text;
  });
}

// The picture's text alternative: what it shows, the step in words, the state now and
// the counters (for each scene its own: w and b, α and f, the iterate w, the accuracy).
function describePicture(p) {
  const picture = p.picture || (p.picture = p.nodes.figure.querySelector("svg"));
  if (!picture) return;
  if (p.pictureName === undefined) p.pictureName = picture.getAttribute("aria-label") || "the run";
  const counters = Array.from(p.nodes.info.querySelectorAll(".counters > div"), (node) =>
    `${node.children[0].textContent}: ` + Array.from(node.children).slice(1)
      .map((part) => part.textContent).filter(Boolean).join(", ")).join("; ");
  // a scene's own words for what its picture shows (where the regions lie, which points count)
  const words = p.nodes.figure.querySelector(".picture-words");
  // while Predict first waits, the picture marks the example asked about (and draws candidates)
  const waiting = p.predict && p.predict.pending
    ? `Waiting for your prediction: ${p.predict.pending.asked[p.predict.pending.index].prompt}` : "";
  const parts = [`Picture of ${p.pictureName}`, panelText(p, ".step-text"), panelText(p, ".now"), counters,
                 words ? words.textContent.trim() : "", chartsNow(p), waiting];
  const label = parts.filter(Boolean).map(sentenceEnd).join(" ");
  if (picture.getAttribute("aria-label") !== label) picture.setAttribute("aria-label", label);
}

// A sentence with its full stop.
const sentenceEnd = (text) => (/[.!?:]$/.test(text) ? text : text + ".");

// The focused element of the player's document or shadow root.
function playerFocus(p) {
  return p.nodes.root.getRootNode().activeElement;
}

// A move that disabled the button that had focus (Run to end, Back at the start, Play
// at the end) passes focus on to the control one wants next instead of dropping it.
function keepFocus(p, focused) {
  const b = p.nodes.buttons;
  if (!focused || !focused.disabled || !Object.values(b).includes(focused)) return;
  const next = focused === b.back ? [b.nextMistake, b.nextExample, b.play] : [b.back, b.reset];
  const target = next.find((node) => !node.disabled);
  if (target) target.focus();
}

// A button's text with its symbols (▸▸, ◂, ⟲, ▶, ❚❚) hidden from screen readers.
function setButtonText(node, text) {
  if (node.dataset.text === text) return;
  node.dataset.text = text;
  const [, before, words, after] = text.match(/^([^\p{L}]*)(.*?)([^\p{L}]*)$/u);
  const symbol = (part) => Object.assign(element("span", { "aria-hidden": "true" }), { textContent: part });
  node.replaceChildren();
  if (before.trim()) node.append(symbol(before));
  node.append(words);
  if (after.trim()) node.append(symbol(after));
}

// Taps and swipes on the picture: swipe left = next example, swipe right = back (undo),
// a tap with a finger or pen = next example. Vertical drags scroll the page
// (touch-action: pan-y in player.css) and are no step.
function listenToTouch(p) {
  const picture = p.nodes.figure.querySelector("svg");
  if (!picture) return;
  let start = null;
  picture.addEventListener("pointerdown", (event) => {
    if (event.isPrimary) start = { x: event.clientX, y: event.clientY, id: event.pointerId, at: event.timeStamp };
  });
  picture.addEventListener("pointercancel", () => { start = null; });
  picture.addEventListener("pointerup", (event) => {
    if (!start || event.pointerId !== start.id) return;
    const dx = event.clientX - start.x, dy = event.clientY - start.y, took = event.timeStamp - start.at;
    start = null;
    if (Math.abs(dx) >= SWIPE_MIN && Math.abs(dx) > 1.5 * Math.abs(dy)) {
      p.actions[dx < 0 ? "next_example" : "back"]();
    } else if (event.pointerType !== "mouse" && Math.hypot(dx, dy) <= TAP_SLOP && took <= TAP_MAX_MS) {
      p.actions.next_example();
    }
  });
}
