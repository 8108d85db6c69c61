// What Streamlit's own widgets tell a screen reader, set right on every page (mounted once
// per page by pages/common/accessibility.py; it draws nothing). A watcher of the page puts
// back, on every widget Streamlit draws or draws again:
// - a slider's name once: React Aria names the thumb by itself and by its group, so it
//   was read "margin γ margin γ"; the group alone names it;
// - a number field valid at every value the widget takes: the browser checks the field's
//   step from its minimum (2, 12, 22, … for "points n" from 2 by 10) and marked 40 invalid;
//   Streamlit's own − / + and arrow keys keep the widget's step, so the field takes any;
// - a tab's, a button's, an expander's, a message's or a heading's words without its icon's
//   name ("show_chart icon Margin sweep", "swords icon The adversarial lower bound"): an
//   icon beside words is decoration;
// - a feedback region (a container whose key starts with "lab_live_") that is a polite
//   live region from the moment it is drawn, empty, so that what is written in it later is
//   read out (a region created already filled is often skipped);
// - focus into a popover (Notation) as it opens, and back to its button when it closes;
// - Enter on an option of a form (a quiz's question) presses the form's button (Check).

const LIVE_PREFIX = "st-key-lab_live_";

function fixSliders(root) {
  for (const input of root.querySelectorAll('input[type="range"][aria-labelledby]')) {
    const ids = input.getAttribute("aria-labelledby").split(/\s+/).filter((id) => id && id !== input.id);
    if (ids.length && ids.join(" ") !== input.getAttribute("aria-labelledby")) {
      input.setAttribute("aria-labelledby", ids.join(" "));
    }
  }
}

function fixNumberFields(root) {
  for (const input of root.querySelectorAll('[data-testid="stNumberInput"] input[type="number"]')) {
    if (input.getAttribute("step") !== "any") input.setAttribute("step", "any");
  }
}

// where an icon stands beside words: tabs, buttons, expanders' headers, links, messages,
// headings
const ICON_HOLDERS = '[role="tab"], button, summary, a, [data-testid="stAlert"], h1, h2, h3, h4, h5, h6';

function fixIconNames(root) {
  for (const icon of root.querySelectorAll('[role="img"][translate="no"]')) {
    const holder = icon.closest(ICON_HOLDERS);
    if (!holder) continue;
    const words = holder.textContent.replace(icon.textContent, "").trim();
    if (words && icon.getAttribute("aria-hidden") !== "true") icon.setAttribute("aria-hidden", "true");
  }
}

function fixLiveRegions(root) {
  for (const box of root.querySelectorAll(`[class*="${LIVE_PREFIX}"]`)) {
    if (box.getAttribute("aria-live") !== "polite") {
      box.setAttribute("role", "status");
      box.setAttribute("aria-live", "polite");
    }
  }
}

// Focus into a popover's dialog when its button opens it, back to the button when it closes
// with focus inside (or nowhere).
function followPopovers() {
  let opener = null;
  const watch = new MutationObserver((records) => {
    for (const record of records) {
      const button = record.target;
      if (button.getAttribute("data-testid") !== "stPopoverButton") continue;
      if (button.getAttribute("aria-expanded") === "true") {
        opener = button;
        let tries = 0;
        const enter = () => {
          const dialog = document.querySelector('[data-testid="stPopoverBody"][role="dialog"]');
          if (!dialog) { if (tries++ < 20) setTimeout(enter, 50); return; }
          if (!dialog.hasAttribute("tabindex")) dialog.setAttribute("tabindex", "-1");
          if (!dialog.contains(document.activeElement)) dialog.focus({ preventScroll: true });
        };
        enter();
      } else if (button === opener) {
        opener = null;
        const away = document.activeElement;
        if (!away || away === document.body || !away.isConnected) button.focus({ preventScroll: true });
      }
    }
  });
  watch.observe(document.body, { subtree: true, attributes: true, attributeFilter: ["aria-expanded"] });
}

// Enter on a radio option inside a form presses the form's submit button (a quiz's Check).
function enterChecks(event) {
  const target = event.composedPath ? event.composedPath()[0] : event.target;
  if (event.key !== "Enter" || !target || target.type !== "radio") return;
  const form = target.closest('[data-testid="stForm"]');
  const submit = form && form.querySelector('[data-testid="stFormSubmitButton"] button');
  if (!submit || submit.disabled) return;
  event.preventDefault();
  submit.click();
}

function fixPage() {
  const root = document.body;
  fixSliders(root);
  fixNumberFields(root);
  fixIconNames(root);
  fixLiveRegions(root);
}

export default function () {
  if (window.__labPageAccess) { fixPage(); return; }
  window.__labPageAccess = true;
  let pending = false;
  const later = () => {
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => { pending = false; fixPage(); });
  };
  // React Aria may write the slider's names and Streamlit the field's step again: those
  // attributes are watched too
  new MutationObserver(later).observe(document.body, { subtree: true, childList: true, attributes: true,
    attributeFilter: ["aria-labelledby", "step"] });
  followPopovers();
  document.addEventListener("keydown", enterChecks, true);  // before React Aria takes the key
  fixPage();
}
