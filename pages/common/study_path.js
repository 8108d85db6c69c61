// Learn in order (pages/common/study_path.py mounts this): the study path's progress, kept in
// this browser's localStorage only, one entry:
//   { pages: { <page>: { questions: true, predictions: <answers, at most the round> } },
//     last: <the path's page opened last> }
// On Home (data.mode "home") it lists the path with each page's mark, Continue to where the
// student left off, and Reset. On a page ("page") it is the checkpoint under the questions:
// it keeps "questions: true" once the session has them all right, says how far the prediction
// round is (pages/player/player_predict.js counts the answers and sends a window event), and
// links to the next page. It sets no value for the server: nothing of it leaves the browser.

const STUDY_EVENT = "perceptron-lab-study";

function readStudy(storage) {
  try {
    const value = JSON.parse(localStorage.getItem(storage) || "{}");
    return value && typeof value === "object" && !Array.isArray(value) ? value : {};
  } catch (e) {
    return {};
  }
}

function writeStudy(storage, value) {
  try {
    if (value === null) localStorage.removeItem(storage);
    else localStorage.setItem(storage, JSON.stringify(value));
  } catch (e) { /* storage refused (a private window): nothing is kept */ }
}

// One page's state: { questions, predictions, done } from the stored progress.
function pageState(progress, page, round) {
  const mine = (progress.pages && progress.pages[page.name]) || {};
  const predictions = Math.max(0, Math.min(round, Number(mine.predictions) || 0));
  const questions = mine.questions === true;
  return { questions, predictions, done: questions && (!page.player || predictions >= round) };
}

// Where Continue leads: the page opened last unless it is done, else the next page not done.
function continueAt(progress, pages, round) {
  const start = Math.max(0, pages.findIndex((page) => page.name === progress.last));
  for (let step = 0; step < pages.length; step++) {
    const page = pages[(start + step) % pages.length];
    if (!pageState(progress, page, round).done) return page;
  }
  return null;
}

function node(tag, attributes, text) {
  const made = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes || {})) made.setAttribute(name, value);
  if (text !== undefined) made.textContent = text;
  return made;
}

// A page's parts in words: "questions ✓ · predictions 3 of 5".
function partsText(state, page, round) {
  const parts = [state.questions ? "questions all right ✓" : `${page.questions} questions: not all right yet`];
  if (page.player) parts.push(`prediction round ${state.predictions} of ${round}${state.predictions >= round ? " ✓" : ""}`);
  return parts.join(" · ");
}

function drawHome(box, data) {
  const progress = readStudy(data.storage), pages = data.pages, round = data.round;
  const states = pages.map((page) => pageState(progress, page, round));
  const done = states.filter((state) => state.done).length;
  box.append(node("p", { class: "note", "data-testid": "study-summary" },
                  `${done} of ${pages.length} done.`));
  const list = node("ol", { "aria-label": "the pages in order" });
  pages.forEach((page, index) => {
    const state = states[index];
    const item = node("li", { "data-page": page.name, "data-done": String(state.done) });
    item.append(node("span", { class: "mark" }, state.done ? "✓ done" : "○ to do"), " ",
                node("a", { href: page.name }, page.title), `: ${page.teaches}.`,
                node("span", { class: "parts" }, partsText(state, page, round)));
    list.append(item);
  });
  const actions = node("div", { class: "actions" });
  const next = continueAt(progress, pages, round);
  if (next) {
    const number = pages.indexOf(next) + 1;
    actions.append(node("a", { class: "continue", href: next.name, "data-testid": "study-continue" },
                        `${done || progress.last ? "Continue" : "Start"}: ${number}. ${next.title}`));
  } else {
    actions.append(node("span", { class: "note" }, "Every page of the path is done ✓."));
  }
  const reset = node("button", { type: "button", "data-testid": "study-reset" }, "Reset my progress");
  const said = node("p", { class: "said", role: "status", "aria-live": "polite" });
  reset.addEventListener("click", () => {
    writeStudy(data.storage, null);
    window.dispatchEvent(new CustomEvent(STUDY_EVENT, { detail: { said: "Progress reset: every mark is cleared." } }));
  });
  actions.append(reset);
  box.append(actions, list, said);
  return said;
}

function drawCheckpoint(box, data) {
  const progress = readStudy(data.storage), round = data.round;
  const index = data.pages.findIndex((page) => page.name === data.page);
  const page = data.pages[index];
  const state = pageState(progress, page, round);
  box.dataset.done = String(state.done);
  box.append(node("h3", {}, `Checkpoint ${index + 1} of ${data.pages.length} (Learn in order)`));
  const list = node("ul");
  const questions = state.questions ? `✓ Check your understanding: all ${data.total} right.`
    : `○ Check your understanding: ${data.right} of ${data.total} right so far.`;
  list.append(node("li", { "data-part": "questions" }, questions));
  if (page.player) {
    list.append(node("li", { "data-part": "predictions" }, state.predictions >= round
      ? `✓ Prediction round: ${round} predictions made.`
      : `○ Prediction round: ${state.predictions} of ${round} predictions. Switch Predict first on in ` +
        "the player and predict the next steps (right or wrong, each one counts)."));
  }
  box.append(list);
  const end = node("p", { class: "note", "data-testid": "study-checkpoint-state" },
                   state.done ? "✓ Done: marked on Home. " : "Not done yet. ");
  const next = STUDY_NEXT(data.pages, index);
  if (next) end.append(node("a", { href: next.name }, `Next: ${data.pages.indexOf(next) + 1}. ${next.title}`));
  box.append(end);
  return null;
}

const STUDY_NEXT = (pages, index) => (index + 1 < pages.length ? pages[index + 1] : null);

// A page's visit and its questions, kept: the page opened last, and "questions: true" once
// this session has every one right (never taken back).
function keepVisit(data) {
  const progress = readStudy(data.storage);
  const pages = (progress.pages = progress.pages || {});
  const mine = (pages[data.page] = pages[data.page] || {});
  let changed = progress.last !== data.page;
  progress.last = data.page;
  if (data.total > 0 && data.right === data.total && mine.questions !== true) {
    mine.questions = true;
    changed = true;
  }
  if (changed) writeStudy(data.storage, progress);
}

export default function (component) {
  const data = JSON.parse(JSON.stringify(component.data));
  const root = component.parentElement;
  if (data.mode === "page") keepVisit(data);
  const draw = (said) => {
    root.querySelectorAll(".study").forEach((old) => old.remove());
    const box = node("div", { class: data.mode === "page" ? "study checkpoint" : "study",
                              "data-testid": data.mode === "page" ? "study-checkpoint" : "study-path" });
    const status = data.mode === "page" ? drawCheckpoint(box, data) : drawHome(box, data);
    root.append(box);
    if (status && said) status.textContent = said;
  };
  const redraw = (event) => draw(event && event.detail && event.detail.said);
  const onStorage = (event) => { if (event.key === data.storage || event.key === null) redraw(); };
  window.addEventListener(STUDY_EVENT, redraw);
  window.addEventListener("storage", onStorage);
  draw();
  return () => {
    window.removeEventListener(STUDY_EVENT, redraw);
    window.removeEventListener("storage", onStorage);
  };
}
