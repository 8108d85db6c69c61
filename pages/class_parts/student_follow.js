// Follow the lecturer, the student's side (joined before student.js by student.py): a checkbox
// and a frame that shows the view the instructor publishes.

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
