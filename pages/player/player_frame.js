// The player's frame (joined after player.js): the stage (figure | side), the buttons,
// speed and scrub slider, the keys line, the info panel and the chart area; the
// "Copy link" control; and the size of the figure on a page or on the presenter stage.

// The player's elements: { root, stage, figure, side, controls, buttons, speed, scrubLabel,
// slider, info, chart, live }, in a new root not yet in the page, or in `reuse`, the root
// of the player mounted before, emptied but for its live region. The chart goes under the
// stage, or beside the figure on the presenter stage.
function playerFrame(spec, words, reuse = null) {
  const root = reuse || element("div", { class: "player", "data-testid": "perceptron-player" });
  root.classList.toggle("present", Boolean(spec.present));
  const stage = element("div", { class: "stage" });
  const figure = element("div", { class: "figure" });
  const side = element("div", { class: "side" });
  const controls = element("div", { class: "controls", role: "toolbar",
                                    "aria-label": "step through the run" });
  const button = (name, label, title, primary) => {
    const node = element("button", { type: "button", "data-action": name, title });
    setButtonText(node, label);
    if (primary) node.classList.add("primary");
    controls.appendChild(node);
    return node;
  };
  const buttons = {
    nextMistake: button("next_mistake", `${words.next_mistake} ▸▸`, `next ${words.update} (→ or PageDown)`, true),
    nextExample: button("next_example", `${words.next_example} ▸`, "one more step (↓)"),
    back: button("back", "◂ Back", "undo the last move (← or PageUp)"),
    reset: button("reset", "⟲ Reset", "back to the start (Home)"),
    end: button("end", "Run to end ▸|", "the last examined step (End)"),
    play: button("play", "▶ Play", "play every update (Space)"),
  };
  const speed = element("select", { "data-action": "speed", "aria-label": "Play speed" });
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
  const keys = element("div", { class: "keys" }, words.keys + PLAYER_CHART_KEY);
  const next = words.next_example.toLowerCase();
  const touch = element("div", { class: "touch-hint" },
                        `Swipe the picture left for the ${next}, right to go back; tap it for the ${next}.`);
  // the step said once per move for a screen reader (player_access.js), not shown
  const live = (reuse && reuse.querySelector(":scope > .live")) ||
    element("div", { class: "live", role: "status", "aria-live": "polite", "aria-atomic": "true" });
  if (reuse) {  // as a new root: no children but the live region, no sizes or marks of the old run
    for (const child of Array.from(root.children)) if (child !== live) child.remove();
    root.removeAttribute("style");
    for (const name of Object.keys(root.dataset)) if (name !== "testid") delete root.dataset[name];
  }
  const info = element("div", { class: "info" });
  const chart = element("div", { class: "chart" });
  // on the presenter stage the slider shares the buttons' second row: room for the charts
  if (spec.present) controls.append(scrub);
  side.append(controls, ...(spec.present ? [] : [scrub]), keys, touch, info);
  stage.append(figure, side);
  if (reuse) root.insertBefore(stage, live); else root.append(stage, live);
  if (spec.present) side.append(chart); else root.append(chart);
  return { root, stage, figure, side, controls, buttons, speed, scrubLabel, slider, info, chart, live };
}

// "Copy link to this view": writes the step into the address bar first, shows the link
// in a text field and copies it when the browser allows (a secure page).
function addCopyLink(p) {
  const link = element("div", { class: "link" });
  const copy = element("button", { type: "button", "data-action": "copy_link",
                                   title: "a link that opens this view (data, settings and step)" },
                       "Copy link to this view");
  const shown = element("input", { type: "text", readonly: "", class: "link-text",
                                   "aria-label": "link to this view" });
  link.append(copy, shown);
  p.nodes.controls.appendChild(link);
  copy.addEventListener("click", () => {
    writeUrl(p);
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

// The figure is a square as large as the stage allows.
function fitPlayer(p) {
  const { root, figure } = p.nodes;
  const width = root.clientWidth;
  if (!width) return;
  if (!p.spec.present) {  // a page that scrolls: a square of 60% of the width, not taller than the window
    const size = Math.max(300, Math.floor(Math.min(width * 0.6, window.innerHeight - 60)));
    root.style.setProperty("--figure-size", size + "px");
    requestAnimationFrame(() => fitSvgText(root));
    return;
  }
  // the presenter stage: everything in the window, nothing to scroll. A page with
  // controls above its player brings the player to the top of the window instead.
  const rect = root.getBoundingClientRect();
  const below = rect.top > window.innerHeight * 0.2;
  const free = window.innerHeight - (below ? 8 : Math.max(rect.top, 0)) - 10;
  if (below && !root.dataset.scrolled) {
    root.dataset.scrolled = "true";
    // again while the page above the player settles (widgets drawn late change its height)
    for (const wait of [50, 600, 1500]) setTimeout(() => root.scrollIntoView({ block: "start" }), wait);
  }
  // what goes under the square (the legend, a caption): its height depends on the width
  const under = () => Array.from(figure.children)
    .filter((node) => !node.classList.contains("plane") && !node.classList.contains("picture-words"))
    .reduce((sum, node) => sum + node.offsetHeight + 6, 0);
  let size = Math.floor(Math.min(width * 0.56, free));
  // leave room for what is under the square; a narrower square may wrap it onto more
  // lines, so the size only shrinks from pass to pass
  for (let pass = 0; pass < 3; pass++) {
    root.style.setProperty("--figure-size", size + "px");
    size = Math.min(size, Math.floor(Math.min(width * 0.56, free - under())));
  }
  root.style.setProperty("--figure-size", Math.max(200, size) + "px");
  root.style.setProperty("--stage-height", free + "px");
  requestAnimationFrame(() => fitSvgText(root));
}

// The square scales its viewBox to its box; --unit (viewBox units per CSS
// pixel) lets player.css keep its text at least 12 CSS px when the picture is small.
function fitSvgText(root) {
  for (const picture of root.querySelectorAll("svg.plane")) {
    const width = picture.clientWidth, box = picture.viewBox.baseVal;
    const unit = width && box && box.width ? (box.width / width).toFixed(3) : null;
    if (unit !== null && picture.style.getPropertyValue("--unit") !== unit) picture.style.setProperty("--unit", unit);
  }
}
