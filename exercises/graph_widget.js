// The page side of exercises/graph_widget.py: it draws what the Python side decides and sends back clicks.
// No network, no library: an SVG of the boxes and arrows exercises/layout.py placed, and plain form controls.

const SVG = "http://www.w3.org/2000/svg";

function make(tag, attrs = {}, text = null, ns = null) {
  const node = ns ? document.createElementNS(ns, tag) : document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  if (text !== null) node.textContent = text;
  return node;
}

function arrow(points) {
  return points.map(([x, y], i) => `${i ? "L" : "M"}${x} ${y}`).join(" ");
}

function drawGraph(model, svg, send, uid) {
  svg.replaceChildren();
  const [width, height] = model.get("size");
  const [boxW, boxH] = model.get("box");
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.setAttribute("width", width);
  svg.setAttribute("height", height);
  const defs = make("defs", {}, null, SVG);
  const marker = make("marker", { id: `gw-head-${uid}`, viewBox: "0 0 10 10", refX: 10, refY: 5,
    markerWidth: 7, markerHeight: 7, orient: "auto-start-reverse" }, null, SVG);
  marker.append(make("path", { d: "M0 0 L10 5 L0 10 z", class: "gw-head" }, null, SVG));
  defs.append(marker);
  svg.append(defs);

  const labels = model.get("edge_labels");
  for (const [source, target, times, points] of model.get("edges")) {
    const edge = make("g", { class: "gw-edge", "data-edge": `${source}>${target}` }, null, SVG);
    edge.append(make("path", { d: arrow(points), "marker-end": `url(#gw-head-${uid})` }, null, SVG));
    const said = labels[`${source}>${target}`] || (times > 1 ? `x${times}` : "");
    if (said) {
      const [x1, y1] = points[points.length - 3];
      const [x2, y2] = points[points.length - 2];
      const text = make("text", { x: (x1 + x2) / 2, y: (y1 + y2) / 2 - 4, class: "gw-edge-label" }, said, SVG);
      edge.append(text);
    }
    svg.append(edge);
  }

  const ops = model.get("ops");
  const values = model.get("values");
  const grads = model.get("grads");
  const arrivals = model.get("arrivals");
  const ready = new Set(model.get("ready"));
  const wrong = new Set(model.get("wrong"));
  const backward = model.get("mode") === "backward";
  for (const [name, [x, y]] of Object.entries(model.get("boxes"))) {
    const op = ops[name];
    const classes = ["gw-node", op === "leaf" ? "gw-leaf" : "gw-op"];
    if (ready.has(name)) classes.push("gw-ready");
    if (wrong.has(name)) classes.push("gw-wrong");
    if (!backward && name in values && op !== "leaf") classes.push("gw-done");
    const lines = [op === "leaf" ? name : `${name} = ${op}`];
    if (name in values) lines.push(`value ${values[name]}`);
    if (backward && name in grads) lines.push(`grad ${grads[name]}`);
    if (backward && name in arrivals) lines.push(`(${arrivals[name]})`);
    const box = make("g", { class: classes.join(" "), "data-name": name, tabindex: 0, role: "button",
      "aria-label": `${lines.join(", ")}${ready.has(name) ? ", ready" : ""}` }, null, SVG);
    box.append(make("rect", { x, y, width: boxW, height: boxH, rx: 6 }, null, SVG));
    const top = y + boxH / 2 - (lines.length - 1) * 8;
    lines.forEach((line, i) => {
      box.append(make("text", { x: x + boxW / 2, y: top + i * 16, class: i ? "gw-small" : "" }, line, SVG));
    });
    box.addEventListener("click", () => send({ kind: "click", name }));
    box.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        send({ kind: "click", name });
      }
    });
    svg.append(box);
  }
}

function drawQuiz(model, quizEl, send, uid) {
  quizEl.replaceChildren();
  const quiz = model.get("quiz");
  const verdict = (entry) => {
    const line = make("p", { class: "gw-verdict", role: "status" });
    if (entry.ok !== null && entry.ok !== undefined) {
      line.classList.add(entry.ok ? "gw-right" : "gw-notyet");
      line.textContent = `${entry.ok ? "✓" : "✗"} ${entry.text}`;
    }
    return line;
  };
  if (quiz.inputs) {
    const entry = quiz.inputs;
    const box = make("fieldset", { class: "gw-question", "data-question": "inputs" });
    box.append(make("legend", {}, `Tick the immediate inputs of ${entry.node}:`));
    const given = new Set(entry.given || []);
    for (const name of entry.choices) {
      const label = make("label");
      const tick = make("input", { type: "checkbox", value: name });
      tick.checked = given.has(name);
      tick.addEventListener("change", () => {
        const names = [...box.querySelectorAll("input:checked")].map((input) => input.value);
        send({ kind: "tick", names });
      });
      label.append(tick, ` ${name}`);
      box.append(label);
    }
    box.append(verdict(entry));
    quizEl.append(box);
  }
  if (quiz.fan_out) {
    const entry = quiz.fan_out;
    const box = make("fieldset", { class: "gw-question", "data-question": "fan_out" });
    box.append(make("legend", {}, "Which value feeds two different nodes?"));
    for (const name of entry.choices) {
      const label = make("label");
      const pick = make("input", { type: "radio", name: `gw-fan-${uid}`, value: name });
      pick.checked = entry.given === name;
      pick.addEventListener("change", () => send({ kind: "pick", name }));
      label.append(pick, ` ${name}`);
      box.append(label);
    }
    box.append(verdict(entry));
    quizEl.append(box);
  }
  if (quiz.edges) {
    const entry = quiz.edges;
    const box = make("fieldset", { class: "gw-question", "data-question": "edges" });
    box.append(make("legend", {}, "How many edges (arrows) does the whole graph have?"));
    const count = make("input", { type: "number", min: 0, max: 999, step: 1, "aria-label": "number of edges" });
    if (entry.given !== null && entry.given !== undefined) count.value = entry.given;
    const check = make("button", { type: "button" }, "Check");
    const submit = () => {
      const n = Number.parseInt(count.value, 10);
      if (Number.isInteger(n)) send({ kind: "edges", count: n });
    };
    check.addEventListener("click", submit);
    count.addEventListener("keydown", (event) => { if (event.key === "Enter") submit(); });
    box.append(count, check, verdict(entry));
    quizEl.append(box);
  }
}

function render({ model, el }) {
  const send = (content) => model.send(content);
  const uid = Math.random().toString(36).slice(2);
  const root = make("div", { class: "gw-root" });
  const title = make("p", { class: "gw-title" });
  const hint = make("p", { class: "gw-hint" });
  const figure = make("div", { class: "gw-figure" });
  const svg = make("svg", { role: "group" }, null, SVG);
  figure.append(svg);
  const order = make("p", { class: "gw-order" });
  const said = make("p", { class: "gw-said", role: "status", "aria-live": "polite" });
  const controls = make("div", { class: "gw-controls" });
  const reset = make("button", { type: "button", class: "gw-reset" }, "Reset");
  reset.addEventListener("click", () => send({ kind: "reset" }));
  controls.append(reset);
  const switchLabel = make("label", { class: "gw-switch" });
  const assign = make("input", { type: "checkbox", class: "gw-assign" });
  // The switch as clicked, until the kernel's state says the same: an update for an earlier click, arriving in
  // between, must not turn it back.
  let pending = null;
  assign.addEventListener("change", () => {
    pending = assign.checked;
    send({ kind: "assign", on: assign.checked });
  });
  switchLabel.append(assign, " assign (=) instead of adding (+=)");
  const summary = make("p", { class: "gw-summary", role: "status" });
  const quizEl = make("div", { class: "gw-quiz" });
  root.append(title, hint, figure, order, said, controls, summary, quizEl);
  el.append(root);

  const update = () => {
    const backward = model.get("mode") === "backward";
    title.textContent = model.get("title");
    title.hidden = !model.get("title");
    hint.textContent = backward
      ? "Outlined nodes may pass their gradient on now. Click one."
      : "Outlined nodes are ready to compute. Click one.";
    const clicks = model.get("clicks");
    order.textContent = `${backward ? "passed on so far" : "order so far"}: ${clicks.length ? clicks.join(", ") : "none"}`;
    said.textContent = model.get("said");
    said.className = `gw-said ${model.get("said_ok") ? "gw-ok" : "gw-refused"}`;
    if (pending === model.get("assign")) pending = null;
    assign.checked = pending === null ? model.get("assign") : pending;
    if (backward && !controls.contains(switchLabel)) controls.append(switchLabel);
    summary.textContent = model.get("summary");
    summary.hidden = !model.get("summary");
    drawGraph(model, svg, send, uid);
    drawQuiz(model, quizEl, send, uid);
  };
  update();
  const names = ["values", "grads", "arrivals", "edge_labels", "ready", "wrong", "clicks", "said", "said_ok", "assign", "summary",
    "quiz", "title"];
  for (const name of names) model.on(`change:${name}`, update);
  return () => { for (const name of names) model.off(`change:${name}`, update); };
}

export default { render };
