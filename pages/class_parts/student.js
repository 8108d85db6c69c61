// The phone's view of a live class (pages/class_parts/student.py mounts it once).
// It joins once (an anonymous token kept in this browser's localStorage), polls
// GET /class-api/state every second, draws the question with its options as large buttons,
// and posts a tap to POST /class-api/answer. No Streamlit rerun happens per student.
const POLL_MS = 1000;

function el(tag, attrs, text) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) node.setAttribute(name, value);
  if (text !== undefined) node.textContent = text;
  return node;
}

async function call(path, options) {
  const response = await fetch(path, {cache: "no-store", ...options});
  let body = {};
  try { body = await response.json(); } catch (e) { body = {}; }
  if (!response.ok) throw new Error(body.error || `The class server answered ${response.status}.`);
  return body;
}

function drawPoll(root, poll, mine, onTap) {
  root.append(el("h2", {class: "lab-q"}, poll.question));
  const list = el("div", {class: "lab-options", role: "group", "aria-label": "Options"});
  poll.options.forEach((text, index) => {
    const button = el("button", {type: "button", class: "lab-option",
      "aria-pressed": String(mine === index)}, `${"ABCDEFGH"[index]}. ${text}`);
    if (poll.revealed && index === poll.answer) button.classList.add("lab-right");
    if (poll.status !== "open") button.disabled = true;
    if (poll.counts) button.append(el("span", {class: "lab-count"}, ` · ${poll.counts[index]}`));
    button.addEventListener("click", () => onTap(index));
    list.append(button);
  });
  root.append(list);
  if (poll.revealed) {
    root.append(el("p", {class: "lab-why"},
      `Right answer: ${poll.options[poll.answer]}. ${poll.why}`));
  }
}

function statusText(poll, mine) {
  if (!poll) return "Waiting for the instructor's question…";
  const yours = mine === null || mine === undefined ? null : poll.options[mine];
  if (poll.status !== "open") {
    return yours === null ? "This poll is closed." : `This poll is closed. Your answer: ${yours}.`;
  }
  return yours === null ? "Tap your answer."
    : `Your answer: ${yours}. You can change it until the poll closes.`;
}

// The scrolled box of a followed page (Streamlit scrolls its main section, not the window) and
// its scroll, so a new step of the same page opens where the student was reading.
const SCROLLERS = ['[data-testid="stMain"]', '[data-testid="stAppViewContainer"]', "section.main"];

function frameScroll(frame) {
  try {
    const doc = frame.contentDocument;
    for (const selector of SCROLLERS) {
      const node = doc.querySelector(selector);
      if (node && node.scrollTop > 0) return {selector, top: node.scrollTop};
    }
    if (doc.scrollingElement && doc.scrollingElement.scrollTop > 0) {
      return {selector: null, top: doc.scrollingElement.scrollTop};
    }
  } catch (e) { /* not loaded yet */ }
  return null;
}

// Put the scroll back once the page is tall enough (Streamlit draws after the load event);
// gives up after 4 s or as soon as the student scrolls themselves.
function restoreScroll(frame, saved) {
  if (!saved) return;
  const until = Date.now() + 4000;
  const tick = () => {
    let node = null;
    try {
      const doc = frame.contentDocument;
      node = saved.selector ? doc.querySelector(saved.selector) : doc.scrollingElement;
    } catch (e) { return; }
    if (node) {
      if (node.scrollTop >= saved.top - 2) return;  // there, or the student scrolled further
      node.scrollTop = saved.top;
      if (node.scrollTop >= saved.top - 2) return;
    }
    if (Date.now() < until) setTimeout(tick, 150);
  };
  tick();
}

// The checkbox and the frame of the followed view: made once; the frame loads again only when
// the view changes (same page, another step: the student's scroll is kept where possible).
function makeFollow(root, initial, onFollow) {
  const label = el("label", {class: "lab-follow"});
  const box = el("input", {type: "checkbox"});
  box.checked = initial;
  box.addEventListener("change", () => onFollow(box.checked));
  label.append(box, " Follow the lecturer (show the view the instructor presents)");
  const note = el("p", {class: "lab-follow-note"});
  const frame = el("iframe", {class: "lab-view", title: "The view the instructor presents"});
  frame.hidden = true;
  note.hidden = true;
  root.append(label, note, frame);
  let shown = "";
  return function show(follow, view) {
    note.hidden = !follow || Boolean(view);
    note.textContent = "The instructor is not publishing a view right now.";
    frame.hidden = !(follow && view);
    const wanted = follow && view ? `${view}${view.includes("?") ? "&" : "?"}embed=true` : "";
    if (wanted === shown) return;
    const samePage = shown && wanted && shown.split("?")[0] === wanted.split("?")[0];
    const saved = samePage ? frameScroll(frame) : null;
    shown = wanted;
    if (!wanted) { frame.removeAttribute("src"); return; }
    frame.onload = () => restoreScroll(frame, saved);
    frame.src = wanted;
  };
}

export default function (component) {
  const root = component.parentElement;
  const code = component.data.code;
  const store = `lab_class_token_${code}`;
  let token = localStorage.getItem(store);
  let state = null, message = "", follow = localStorage.getItem("lab_class_follow") === "1";
  let drawn = "", timer = null, stopped = false;
  const box = el("div", {class: "lab-student"});
  const live = el("p", {class: "lab-status", role: "status", "aria-live": "polite"});
  const pane = el("div", {});
  const follows = el("div", {});
  root.querySelectorAll(".lab-student").forEach((old) => old.remove());
  root.append(box);  // beside the <style> Streamlit put there (kept)
  box.append(el("p", {class: "lab-class"}, `Class ${code}`), pane, live, follows);
  const showFollow = makeFollow(follows, follow, (on) => {
    follow = on; localStorage.setItem("lab_class_follow", on ? "1" : "0"); draw();
  });

  function draw() {
    const poll = state && state.poll;
    const key = JSON.stringify([poll, state && state.mine]);
    if (key !== drawn) {
      drawn = key;
      pane.replaceChildren();
      if (poll) drawPoll(pane, poll, state.mine, tap);
    }
    live.textContent = message || statusText(poll, state && state.mine);
    live.classList.toggle("lab-error", Boolean(message));
    if (state) showFollow(follow, state.view || "");  // nothing said before the class answers
  }
  async function join() {
    const body = await call("/class-api/join", {method: "POST",
      headers: {"Content-Type": "application/json"}, body: JSON.stringify({code})});
    token = body.token;
    localStorage.setItem(store, token);
  }
  async function refresh() {
    try {
      if (!token) await join();
      state = await call(`/class-api/state?code=${encodeURIComponent(code)}`,
        {headers: {"X-Class-Token": token}});
      message = "";
    } catch (error) {
      message = error.message;
      if (/garbled/.test(message)) { localStorage.removeItem(store); token = null; }
    }
    draw();
    if (!stopped) timer = setTimeout(refresh, POLL_MS);
  }
  async function tap(option) {
    const poll = state && state.poll;
    if (!poll) return;
    try {
      const body = await call("/class-api/answer", {method: "POST",
        headers: {"Content-Type": "application/json"},
        body: JSON.stringify({code, token, poll: poll.id, option})});
      state.mine = body.mine;
      message = "";
    } catch (error) {
      message = error.message;
    }
    draw();
  }
  refresh();
  return () => { stopped = true; clearTimeout(timer); };
}
