// The SVG chart (pages/chart/): a figure's frames (slider and Play/Pause), the PNG
// download, and mounting it into the component's element (again only when the figure changed).

// a figure's frames (Plotly's animate): a slider over them and Play/Pause
function applyFrame(state, index) {
  const frame = state.frames[index];
  if (!frame) return;
  state.frameIndex = index;
  const traces = state.baseTraces.slice();
  (frame.data || []).forEach((update, k) => {
    const target = frame.traces ? frame.traces[k] : k;
    traces[target] = decodeTrace({ ...state.baseFigure.data[target], ...update });
  });
  state.traces = traces;
  const layout = { ...state.baseLayout };
  for (const [key, value] of Object.entries(frame.layout || {})) {
    layout[key] = value && typeof value === "object" && !Array.isArray(value) && layout[key] && typeof layout[key] === "object"
      ? { ...layout[key], ...value } : value;
  }
  state.layout = layout;
  drawChart(state);
  if (state.slider) {
    state.slider.value = String(index);
    state.slider.setAttribute("aria-valuetext", state.stepLabels[index]);
    state.current.textContent = state.prefix + state.stepLabels[index];
  }
}

function buildFrameControls(state, figure) {
  const layout = figure.layout || {};
  const slider = (layout.sliders || [])[0] || {};
  const steps = slider.steps || state.frames.map((f, k) => ({ label: f.name ?? String(k + 1), args: [[f.name]] }));
  const byName = new Map(state.frames.map((f, k) => [String(f.name), k]));
  state.stepFrames = steps.map((s, k) => byName.get(String(((s.args || [])[0] || [])[0])) ?? k);
  state.stepLabels = steps.map((s, k) => String(s.label ?? k + 1));
  state.prefix = (slider.currentvalue && slider.currentvalue.prefix) || "";
  const menu = ((layout.updatemenus || [])[0] || {}).buttons || [];
  const playArgs = menu.length && menu[0].args && menu[0].args[1];
  state.frameDuration = (playArgs && playArgs.frame && playArgs.frame.duration) || 500;
  const bar = htmlNode("div", { class: "svg-chart-frames" }, state.figureBox);
  state.frameBar = bar;
  const play = htmlNode("button", { type: "button", class: "svg-chart-button", "aria-pressed": "false" }, bar, "Play");
  const current = htmlNode("span", { class: "svg-chart-current", "aria-hidden": "true" }, bar);
  const input = htmlNode("input", { type: "range", min: 0, max: Math.max(0, steps.length - 1), step: 1, value: 0,
    "aria-label": `${state.prefix.replace(/[=:]\s*$/, "").trim() || "frame"}: which frame is shown` }, bar);
  state.slider = input; state.current = current;
  current.textContent = state.prefix + (state.stepLabels[0] ?? "");
  input.setAttribute("aria-valuetext", state.stepLabels[0] ?? "");
  const stop = () => {
    if (state.timer) clearInterval(state.timer);
    state.timer = null; play.textContent = "Play"; play.setAttribute("aria-pressed", "false");
  };
  state.stop = stop;
  input.addEventListener("input", () => { stop(); applyFrame(state, state.stepFrames[+input.value]); });
  play.addEventListener("click", () => {
    if (state.timer) { stop(); return; }
    let k = +input.value;
    if (k >= steps.length - 1) { k = 0; applyFrame(state, state.stepFrames[0]); input.value = "0"; }
    play.textContent = "Pause"; play.setAttribute("aria-pressed", "true");
    state.timer = setInterval(() => {
      k += 1;
      if (k >= steps.length) { stop(); return; }
      input.value = String(k);
      applyFrame(state, state.stepFrames[k]);
    }, state.frameDuration);
  });
}

function downloadPng(state) {
  const clone = state.svg.cloneNode(true);
  clone.setAttribute("xmlns", CHART_NS);
  clone.querySelectorAll(".focus-ring").forEach((n) => n.remove());
  const text = new XMLSerializer().serializeToString(clone);
  const url = URL.createObjectURL(new Blob([text], { type: "image/svg+xml" }));
  const image = new Image();
  image.onload = () => {
    const canvas = document.createElement("canvas");
    canvas.width = 2 * state.width; canvas.height = 2 * (state.layout.height || 450);
    const context = canvas.getContext("2d");
    context.scale(2, 2);
    context.drawImage(image, 0, 0);
    URL.revokeObjectURL(url);
    canvas.toBlob((blob) => {
      const link = document.createElement("a");
      link.href = URL.createObjectURL(blob);
      link.download = `${state.filename || "chart"}.png`;
      document.body.appendChild(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(link.href), 1000);
    }, "image/png");
  };
  image.src = url;
}

let svgChartCount = 0;

function mountSvgChart(host, data) {
  const old = host.__svgChart;
  if (old) {
    if (old.json === data.json_key) return old.cleanup;
    old.cleanup();
  }
  // Streamlit keeps the component's <style> in the same element: remove only our own box.
  // The host may be a shadow root, where ":scope >" matches nothing: walk its children.
  for (const previous of Array.from(host.children)) {
    if (previous.classList && previous.classList.contains("svg-chart-box")) previous.remove();
  }
  const figure = data.figure || {};
  const { layout, traces, frames } = prepareFigure(figure);
  const box = htmlNode("div", { class: "svg-chart-box" }, host);
  const figureBox = htmlNode("div", { class: "svg-chart-figure" }, box);
  const state = { host: box, box, figureBox, layout, traces, frames, label: data.label, filename: data.filename,
    uid: `svgchart${++svgChartCount}`, json: data.json_key, baseFigure: figure, baseLayout: layout, baseTraces: traces };
  state.tip = htmlNode("div", { class: "svg-chart-tip", hidden: "" }, figureBox);
  state.live = htmlNode("div", { class: "svg-chart-live", "aria-live": "polite" }, box);
  state.help = htmlNode("div", { class: "svg-chart-live", id: `${state.uid}-keys` }, box, CHART_WALK_HELP);
  if (data.png !== false) {
    const button = htmlNode("button", { type: "button", class: "svg-chart-download", title: "Download this chart as a PNG (2× size, for slides)" }, figureBox, "PNG");
    button.setAttribute("aria-label", "Download this chart as a PNG");
    button.addEventListener("click", () => downloadPng(state));
  }
  if (frames.length) {
    const first = (figure.layout.sliders && figure.layout.sliders[0] && figure.layout.sliders[0].active) || 0;
    buildFrameControls(state, figure);
    drawChart(state);
    if (first) applyFrame(state, state.stepFrames[first]);
  } else drawChart(state);
  let pending = 0;
  const observer = typeof ResizeObserver === "function" ? new ResizeObserver(() => {
    cancelAnimationFrame(pending);
    pending = requestAnimationFrame(() => {
      if (Math.round(box.clientWidth) !== state.width && box.clientWidth > 0) drawChart(state);
    });
  }) : null;
  if (observer) observer.observe(box);
  state.cleanup = () => {
    if (observer) observer.disconnect();
    if (state.stop) state.stop();
    box.remove();  // a chart unmounted or replaced leaves nothing on screen
    host.__svgChart = null;
  };
  host.__svgChart = state;
  return state.cleanup;
}
