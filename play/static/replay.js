// The replay viewer: open a file of game records, pick one, step through it forward and back, with
// every hand visible or as one seat saw it. Each frame is replayed and drawn by the server's views.

import { fetchJson as api, sessionPath, showMessage } from "./page.js";
import { el, renderSide, renderTable } from "./table.js";

const state = { replay: null, records: [], record: 0, step: 0, steps: 0, viewer: "all", loading: 0 };

async function openText(name, text) {
  try {
    const opened = await api(`/api/replays?name=${encodeURIComponent(name)}`, { method: "POST", body: text });
    await useSet(opened);
  } catch (error) {
    showMessage(error.message, true);
    document.querySelector(".replay-open").appendChild(document.getElementById("message"));
  }
}

async function useSet(opened) {
  state.replay = opened.id;
  state.records = opened.records;
  const select = document.getElementById("record-select");
  select.replaceChildren();
  for (const summary of opened.records) {
    const result = summary.result ? ` → ${summary.result.join(" ")}` : "";
    const item = el("option", null, `#${summary.index} ${summary.game} (${summary.actions} actions)${result}`);
    item.value = String(summary.index);
    select.appendChild(item);
  }
  document.getElementById("replay-area").hidden = false;
  // Once a file is open the opening box shrinks to one line, so the table fits a 1400 x 900 window.
  document.querySelector(".replay-open").classList.add("compact");
  document.querySelector(".table-column").appendChild(document.getElementById("message"));
  document.getElementById("record-info").replaceChildren(el("h3", null, `${opened.name}: ${opened.count} record${opened.count === 1 ? "" : "s"}`));
  await chooseRecord(0);
}

async function chooseRecord(index) {
  state.record = index;
  state.steps = state.records[index].actions;
  await show(0);
}

async function show(step) {
  step = Math.max(0, Math.min(step, state.steps));
  const ticket = ++state.loading;
  document.body.dataset.state = "loading";
  try {
    const query = new URLSearchParams({ record: state.record, step, viewer: state.viewer });
    const view = await api(`/api/replays/${encodeURIComponent(state.replay)}/frame?${query}`);
    if (ticket !== state.loading) return;
    state.step = view.step;
    state.steps = view.steps;
    draw(view);
    showMessage("");
  } catch (error) {
    showMessage(error.message, true);
  }
  if (ticket === state.loading) document.body.dataset.state = "ready";
}

function draw(view) {
  const seating = view.record.seating ?? {};
  const names = {};
  for (const agent of view.agents) names[agent] = seating[agent] ? `${agent} · ${seating[agent]}` : agent;
  const bottom = view.viewer ?? view.agents[0];
  const options = { bottom, labels: names, verb: null, interactive: false, onAction: () => {} };
  renderTable(document.getElementById("table"), view, options);
  renderSide(document.getElementById("side"), view, options);
  const viewer = document.getElementById("viewer");
  if (viewer.options.length !== view.agents.length + 1) {
    viewer.replaceChildren(new Option("every hand", "all"), ...view.agents.map((a) => new Option(`${a}'s view`, a)));
  }
  viewer.value = state.viewer;
  document.getElementById("record-select").value = String(state.record);
  document.getElementById("step-label").textContent = `${view.step} / ${view.steps}`;
  const slider = document.getElementById("step-slider");
  slider.max = String(view.steps);
  slider.value = String(view.step);
  document.body.dataset.step = String(view.step);
  document.body.dataset.steps = String(view.steps);
}

async function main() {
  document.getElementById("record-file").addEventListener("change", async (event) => {
    const file = event.target.files[0];
    if (file) await openText(file.name, await file.text());
  });
  document.getElementById("record-select").addEventListener("change", (event) => chooseRecord(Number(event.target.value)));
  document.getElementById("viewer").addEventListener("change", (event) => { state.viewer = event.target.value; show(state.step); });
  document.getElementById("step-first").addEventListener("click", () => show(0));
  document.getElementById("step-back").addEventListener("click", () => show(state.step - 1));
  document.getElementById("step-forward").addEventListener("click", () => show(state.step + 1));
  document.getElementById("step-last").addEventListener("click", () => show(state.steps));
  document.getElementById("step-slider").addEventListener("input", (event) => show(Number(event.target.value)));
  document.addEventListener("keydown", (event) => {
    if (!state.replay || event.target.tagName === "SELECT" || event.target.tagName === "INPUT") return;
    const moves = { ArrowLeft: state.step - 1, ArrowRight: state.step + 1, Home: 0, End: state.steps };
    if (event.key in moves) { event.preventDefault(); show(moves[event.key]); }
  });
  const sets = await api("/api/replays");
  const setSelect = document.getElementById("replay-set");
  for (const opened of sets.replays) setSelect.appendChild(new Option(`${opened.name} (${opened.count})`, opened.id));
  setSelect.addEventListener("change", async () => {
    if (!setSelect.value) return;
    try {
      await useSet(await api(`/api/replays/${encodeURIComponent(setSelect.value)}`));
    } catch (error) {
      showMessage(error.message, true);
    }
  });
  const params = new URLSearchParams(location.search);
  if (params.get("session") && params.get("hand")) {
    try {
      const hand = encodeURIComponent(params.get("hand"));
      const record = await api(`${sessionPath(params.get("session"))}/hands/${hand}/record`);
      await openText(`hand ${params.get("hand")}`, JSON.stringify(record));
    } catch (error) {
      showMessage(error.message, true);
    }
  }
  document.body.dataset.ready = "1";
}

main();
