// The phone's view of a live class (pages/class_parts/student.py mounts it once; the follow
// frame's helpers, student_follow.js, are joined before this file).
// It joins once (an anonymous token kept in this browser's localStorage, and in a cookie the
// server reads if the storage is cleared), polls GET /class-api/state every second, draws the
// question with its options as large buttons, and posts a tap to POST /class-api/answer (a
// click or Enter alike; focus stays on the option chosen, and the status line, a polite live
// region, says the answer, and when the answers are shown the right one and the verdict). No
// Streamlit rerun happens per student. A refusal that says when to try again (many students
// on one network at once) is tried again then, by itself.
// The instructor's own browser is not a student: when it holds this class's key (left by
// keeper.js, or after '#key=' in a copied instructor link), the key is handed to the server
// and the page becomes the instructor's view; the address loses the '#key=' at once.
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
  if (!response.ok) {
    const error = new Error(body.error || `The class server answered ${response.status}.`);
    error.retry = Number(body.retry) || 0;  // seconds, when the server says when to try again
    throw error;
  }
  return body;
}

function laterMs(seconds) {
  return Math.max(POLL_MS, 1000 * seconds + Math.random() * 1000);  // spread a hall's retries
}

// The key this browser holds for class `code`, if any (the '#key=' taken out of the address).
function offeredKey(code, held, refused) {
  const fromLink = new URLSearchParams(window.location.hash.slice(1)).get("key");
  if (fromLink) {
    window.history.replaceState(window.history.state, "",
      window.location.pathname + window.location.search);
  }
  let kept = null;
  try { kept = JSON.parse(localStorage.getItem(held) || "null"); } catch (e) { kept = null; }
  const stored = kept && kept.code === code ? kept.key : null;
  if (refused) {
    if (stored) localStorage.removeItem(held);
    return null;
  }
  return fromLink || stored;
}

function drawPoll(root, poll, mine, onTap) {
  root.append(el("h2", {class: "lab-q", tabindex: "-1"}, poll.question));
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

// An option as said: its letter and text ("A, exactly one").
const optionText = (poll, index) => `${"ABCDEFGH"[index]}, ${poll.options[index]}`;

// The status line (a polite live region): what to do now, the answer given, and once the
// answers are shown, the right one and whether this student chose it. Its words fit a tap,
// a click and a key alike.
function statusText(poll, mine) {
  if (!poll) return "Waiting for the instructor's question…";
  const answered = mine !== null && mine !== undefined;
  if (poll.revealed) {
    const verdict = !answered ? "you did not answer."
      : mine === poll.answer ? `you chose ${"ABCDEFGH"[mine]}: right.`
      : `you chose ${optionText(poll, mine)}: not right.`;
    return `The answers are shown: this poll is closed. Right answer: ${optionText(poll, poll.answer)}; ` +
      `${verdict} Why: under the options.`;
  }
  if (poll.status !== "open") {
    return answered ? `This poll is closed. Your answer: ${optionText(poll, mine)}.` : "This poll is closed.";
  }
  if (!answered) return poll.round > 1 ? "Vote again, after discussing: choose your answer."
    : "Choose your answer.";
  return `${poll.round > 1 ? "Your second vote" : "Your answer"}: ${optionText(poll, mine)}. `
    + "You can change it until the poll closes.";
}

// Redraw the poll keeping focus where it was: on the same option, or on the question when
// that option can no longer be chosen (the poll closed).
function redrawPoll(pane, poll, mine, onTap) {
  const focused = pane.getRootNode().activeElement;
  const options = Array.from(pane.querySelectorAll(".lab-option"));
  const at = options.indexOf(focused);
  pane.replaceChildren();
  if (!poll) return;
  drawPoll(pane, poll, mine, onTap);
  if (at < 0) return;
  const again = pane.querySelectorAll(".lab-option")[at];
  const target = again && !again.disabled ? again : pane.querySelector(".lab-q");
  if (target) target.focus({preventScroll: true});
}

export default function (component) {
  const root = component.parentElement;
  const {code, held, refused} = component.data;
  root.querySelectorAll(".lab-student").forEach((old) => old.remove());
  const box = el("div", {class: "lab-student"});
  root.append(box);  // beside the <style> Streamlit put there (kept)
  const key = offeredKey(code, held, refused);
  if (key) {  // the instructor's browser: the server opens the instructor's view
    box.append(el("p", {class: "lab-status", role: "status"}, "Opening the instructor's view…"));
    component.setTriggerValue("instructor", key);
    return () => {};
  }
  const store = `lab_class_token_${code}`;
  let token = localStorage.getItem(store);
  let state = null, message = "", said = null, follow = localStorage.getItem("lab_class_follow") === "1";
  let drawn = "", timer = null, resend = null, stopped = false;
  const live = el("p", {class: "lab-status", role: "status", "aria-live": "polite"});
  const pane = el("div", {});
  const follows = el("div", {});
  const heading = el("p", {class: "lab-class", tabindex: "-1"}, `Class ${code}`);
  box.append(heading, pane, live, follows);
  // a student who just joined (the page came back from the join form) starts here
  heading.focus({preventScroll: true});
  let seenPoll = false;  // until a first poll, the status says that the student joined
  const showFollow = makeFollow(follows, follow, (on) => {
    follow = on; localStorage.setItem("lab_class_follow", on ? "1" : "0"); draw();
  });

  function draw() {
    const poll = state && state.poll;
    if (said && (!poll || poll.id !== said.poll)) said = null;  // a tap's refusal, for its poll
    const mine = state ? state.mine : null;
    const drawKey = JSON.stringify(poll);
    if (drawKey !== drawn) {
      drawn = drawKey;
      redrawPoll(pane, poll, mine, tap);
    } else {  // only the answer changed: the buttons stay, and so does focus
      pane.querySelectorAll(".lab-option").forEach((button, index) => {
        const pressed = String(mine === index);
        if (button.getAttribute("aria-pressed") !== pressed) button.setAttribute("aria-pressed", pressed);
      });
    }
    if (poll) seenPoll = true;
    const shown = (said && said.text) || message;
    const joined = state && !seenPoll ? `You have joined class ${code}. ` : "";
    const text = shown || joined + statusText(poll, mine);
    if (live.textContent !== text) live.textContent = text;
    live.classList.toggle("lab-error", Boolean(shown));
    if (state) showFollow(follow, state.view || "");  // nothing said before the class answers
  }
  async function join() {
    const body = await call("/class-api/join", {method: "POST",
      headers: {"Content-Type": "application/json"}, body: JSON.stringify({code})});
    token = body.token;
    localStorage.setItem(store, token);
  }
  async function refresh() {
    let wait = POLL_MS;
    try {
      if (!token) await join();
      state = await call(`/class-api/state?code=${encodeURIComponent(code)}`,
        {headers: {"X-Class-Token": token}});
      message = "";
    } catch (error) {
      message = error.message;
      if (error.retry) wait = laterMs(error.retry);
      if (/garbled/.test(message)) { localStorage.removeItem(store); token = null; }
    }
    draw();
    if (!stopped) timer = setTimeout(refresh, wait);
  }
  async function tap(option) {
    const poll = state && state.poll;
    if (!poll) return;
    clearTimeout(resend);
    try {
      const body = await call("/class-api/answer", {method: "POST",
        headers: {"Content-Type": "application/json"},
        body: JSON.stringify({code, token, poll: poll.id, option})});
      if (state.poll && state.poll.id === poll.id) state.mine = body.mine;
      said = null;
    } catch (error) {
      said = {poll: poll.id, text: error.message};
      if (error.retry && !stopped) resend = setTimeout(() => tap(option), laterMs(error.retry));
    }
    draw();
  }
  refresh();
  return () => { stopped = true; clearTimeout(timer); clearTimeout(resend); };
}
