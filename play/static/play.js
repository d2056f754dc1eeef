// The table page: choose a game, seats and bots; then play, the server deciding everything.
// The page long-polls its session for changes (bots move in the background) and sends the human's
// moves with the hand and move numbers it saw, so a stale click is refused instead of misapplied.

import { el, renderSide, renderTable } from "./table.js";
import { cardElement } from "./cards.js";
import { fetchJson, sessionPath, showMessage } from "./page.js";

const VERB_LABELS = {
  play: "Play face up",
  turn: "Lead face down (drehen)",
  show: "Half-show to your partner",
  discard: "Lay away",
};
const CARD_VERBS = Object.keys(VERB_LABELS);

const state = { catalog: null, view: null, session: null, version: -1, verb: "play", sending: false };

// GET `path`, or POST `body` to it as JSON.
function api(path, body) {
  return fetchJson(path, body === undefined ? {} : {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
}

// ------------------------------------------------------------------ setup

function seatCount(game, config) {
  return Number(config.players ?? game.seats);  // a players option sets the count; else the catalog's
}

function currentGame() { return state.catalog.games.find((g) => g.name === document.getElementById("game").value); }

function currentConfig() {
  const config = {};
  for (const option of currentGame().options) {
    const raw = document.getElementById(`option-${option.name}`).value;
    config[option.name] = typeof option.default === "number" ? Number(raw) : raw;
  }
  return config;
}

function fillOptions() {
  const box = document.getElementById("options");
  box.replaceChildren();
  for (const option of currentGame().options) {
    const label = el("label", null, `${option.label} `);
    const select = el("select");
    select.id = `option-${option.name}`;
    for (const choice of option.choices) {
      const item = el("option", null, String(choice));
      item.value = String(choice);
      if (choice === option.default) item.selected = true;
      select.appendChild(item);
    }
    select.addEventListener("change", () => { offerAllowedChoices(); fillSeats(); });
    label.appendChild(select);
    box.appendChild(label);
  }
  offerAllowedChoices();
  fillSeats();
}

// Grey out the choices the catalog offers only beside other values (Knüffeln's five players: Bohmstedt
// only); a greyed choice that was selected falls back to the option's default.
function offerAllowedChoices() {
  for (const option of currentGame().options) {
    const select = document.getElementById(`option-${option.name}`);
    for (const rule of option.requires ?? []) {
      const other = document.getElementById(`option-${rule.option}`).value;
      const item = [...select.options].find((entry) => entry.value === String(rule.choice));
      item.disabled = !rule.values.map(String).includes(other);
      if (item.disabled && item.selected) select.value = String(option.default);
    }
  }
}

function fillSeats() {
  const count = seatCount(currentGame(), currentConfig());
  const seat = document.getElementById("seat");
  const chosen = seat.value || "player_0";
  seat.replaceChildren();
  for (let k = 0; k < count; k += 1) {
    const item = el("option", null, `player_${k}`);
    item.value = `player_${k}`;
    if (item.value === chosen) item.selected = true;
    seat.appendChild(item);
  }
  fillBots();
}

function fillBots() {
  const box = document.getElementById("bot-seats");
  box.replaceChildren();
  const count = seatCount(currentGame(), currentConfig());
  const human = document.getElementById("seat").value;
  for (let k = 0; k < count; k += 1) {
    const agent = `player_${k}`;
    if (agent === human) continue;
    const label = el("label", null, `Bot at ${agent} `);
    const select = el("select");
    select.dataset.agent = agent;
    select.id = `bot-${agent}`;
    for (const bot of state.catalog.bots) {
      const item = el("option", null, bot);
      item.value = bot;
      select.appendChild(item);
    }
    label.appendChild(select);
    box.appendChild(label);
  }
}

async function startTable(event) {
  event.preventDefault();
  const bots = {};
  for (const select of document.querySelectorAll("#bot-seats select")) bots[select.dataset.agent] = select.value;
  const seedText = document.getElementById("seed").value;
  const request = {
    game: currentGame().name,
    config: currentConfig(),
    seat: document.getElementById("seat").value,
    bots,
    seed: seedText === "" ? null : Number(seedText),
  };
  try {
    const view = await api("/api/sessions", request);
    openSession(view);
  } catch (error) {
    showMessage(error.message, true);
    document.getElementById("setup").appendChild(document.getElementById("message"));
  }
}

// ------------------------------------------------------------------ the game

function openSession(view) {
  if (typeof view.session !== "string" || !Array.isArray(view.agents)) throw new Error("the server did not answer with a table");
  state.session = view.session;
  state.version = -1;
  history.replaceState(null, "", `#session=${encodeURIComponent(view.session)}`);
  document.getElementById("setup").hidden = true;
  document.getElementById("game-area").hidden = false;
  document.querySelector(".table-column").appendChild(document.getElementById("message"));
  render(view);
  poll(view.session);
}

async function poll(session) {
  while (state.session === session) {
    try {
      const view = await api(`${sessionPath(session)}?after=${state.version}&wait=20`);
      if (state.session === session) render(view);
    } catch (error) {
      showMessage(`Lost the table: ${error.message}`, true);
      await new Promise((resolve) => setTimeout(resolve, 2000));
    }
  }
}

function labels(view) {
  const names = {};
  for (const agent of view.agents) {
    names[agent] = agent === view.human ? `You (${agent})` : `${agent} · ${view.bots[agent] ?? "sits out"}`;
  }
  return names;
}

function render(view) {
  if (view.version <= state.version) return;
  state.view = view;
  state.version = view.version;
  draw();
}

function draw() {
  const view = state.view;
  const verbs = cardVerbs(view);
  if (!verbs.includes(state.verb)) state.verb = verbs.includes("play") ? "play" : (verbs[0] ?? "play");
  const options = { bottom: view.human, labels: labels(view), verb: state.verb, interactive: true,
    thinking: view.thinking, onAction: send };
  renderTable(document.getElementById("table"), view, options);
  renderSide(document.getElementById("side"), view, options);
  renderScores(view, options.labels);
  renderControls(view, verbs);
  renderStatus(view, options.labels);
  if (view.notice) showMessage(view.notice, true);
}

function cardVerbs(view) {
  return CARD_VERBS.filter((verb) => view.legal.some((entry) => entry.verb === verb));
}

function renderStatus(view, names) {
  const status = document.getElementById("status");
  let text;
  if (view.over) text = `Hand ${view.hand_number} is over.`;
  else if (view.legal.length) text = `Hand ${view.hand_number}: your turn. ${view.prompt ?? ""}`;
  else text = `Hand ${view.hand_number}: ${names[view.to_act] ?? view.to_act} to act${view.thinking ? " (thinking…)" : ""}.`;
  status.textContent = text;
  const body = document.body;
  body.dataset.state = view.over ? "over" : (view.legal.length ? "your-turn" : "waiting");
  body.dataset.version = String(view.version);
  body.dataset.hand = String(view.hand_number);
  body.dataset.move = String(view.move_number);
}

function renderControls(view, verbs) {
  const box = document.getElementById("controls");
  box.replaceChildren();
  if (view.over) {
    box.appendChild(endOfHandControls(view));
    return;
  }
  if (!view.legal.length) return;
  if (view.prompt) box.appendChild(el("p", "prompt", view.prompt));
  if (verbs.length > 1) {
    const group = el("div", "verbs");
    for (const verb of verbs) {
      const button = el("button", `verb${verb === state.verb ? " chosen" : ""}`, VERB_LABELS[verb]);
      button.type = "button";
      button.dataset.verb = verb;
      button.addEventListener("click", () => { state.verb = verb; draw(); });
      group.appendChild(button);
    }
    box.appendChild(group);
  } else if (verbs.length === 1 && verbs[0] !== "play") {
    box.appendChild(el("p", "hint", `Click a highlighted card: ${VERB_LABELS[verbs[0]].toLowerCase()}.`));
  }
  const buttons = el("div", "buttons");
  for (const entry of view.legal) {
    if (entry.verb === "button" || entry.verb === "token" || entry.verb === "exchange") {
      const button = el("button", "legal action");
      button.type = "button";
      button.dataset.action = entry.action;
      if (entry.verb === "exchange") {
        button.appendChild(cardElement(entry.card, view.deck));
        button.classList.add("with-card");
      }
      button.appendChild(el("span", null, entry.label));
      button.addEventListener("click", () => send(entry));
      buttons.appendChild(button);
    }
  }
  const phrases = view.legal.filter((entry) => entry.verb === "say");
  if (phrases.length) buttons.appendChild(phraseControl(phrases));
  box.appendChild(buttons);
}

function phraseControl(phrases) {
  const wrap = el("span", "phrases");
  const select = el("select");
  select.id = "phrase";
  for (const entry of phrases) {
    const item = el("option", null, entry.label);
    item.value = entry.action;
    select.appendChild(item);
  }
  const button = el("button", "legal action", "Say it");
  button.type = "button";
  button.id = "say";
  button.dataset.action = phrases[0].action;
  select.addEventListener("change", () => { button.dataset.action = select.value; });
  button.addEventListener("click", () => send(phrases.find((entry) => entry.action === select.value)));
  wrap.append(select, button);
  return wrap;
}

function endOfHandControls(view) {
  const wrap = el("div", "buttons");
  const next = el("button", "legal action", "Deal the next hand");
  next.type = "button";
  next.id = "next-hand";
  next.addEventListener("click", nextHand);
  const record = el("a", "button-link", "Save this hand's record");
  record.href = `${sessionPath(view.session)}/hands/${view.hand_number}/record`;
  record.download = `${view.game}-hand-${view.hand_number}.json`;
  const replay = el("a", "button-link", "Watch it in the replay viewer");
  replay.href = `/replay?${new URLSearchParams({ session: view.session, hand: view.hand_number })}`;
  replay.target = "_blank";
  wrap.append(next, record, replay);
  return wrap;
}

function renderScores(view, names) {
  const box = document.getElementById("scores");
  box.replaceChildren(el("h3", null, `Running score after ${view.hands.length} hand${view.hands.length === 1 ? "" : "s"}`));
  const table = el("table");
  table.id = "totals";
  for (const agent of view.agents) {
    const row = el("tr");
    row.dataset.agent = agent;
    row.dataset.units = String(view.totals[agent]);
    const units = view.totals[agent];
    row.append(el("td", null, names[agent]), el("td", units >= 0 ? "plus" : "minus", units > 0 ? `+${units}` : `${units}`));
    table.appendChild(row);
  }
  box.appendChild(table);
}

async function send(entry) {
  if (state.sending || !state.view) return;
  state.sending = true;
  document.body.dataset.state = "sending";
  const view = state.view;
  try {
    const next = await api(`${sessionPath(view.session)}/move`,
      { action: entry.action, hand: view.hand_number, move: view.move_number });
    showMessage("");
    render(next);
  } catch (error) {
    showMessage(error.message, true);
    const fresh = await api(sessionPath(view.session)).catch(() => null);
    if (fresh) { state.version = -1; render(fresh); }
  } finally {
    state.sending = false;
    if (state.view) renderStatus(state.view, labels(state.view));
  }
}

async function nextHand() {
  if (state.sending || !state.view) return;  // a double click deals once
  state.sending = true;
  const view = state.view;
  try {
    render(await api(`${sessionPath(view.session)}/next`, { hand: view.hand_number }));
    showMessage("");
  } catch (error) {
    showMessage(error.message, true);
  } finally {
    state.sending = false;
  }
}

// ------------------------------------------------------------------ start

async function main() {
  state.catalog = await api("/api/catalog");
  const game = document.getElementById("game");
  for (const info of state.catalog.games) {
    const item = el("option", null, info.title);
    item.value = info.name;
    game.appendChild(item);
  }
  const links = document.getElementById("rules-links");
  const linked = new Set();  // games sharing a rules page (Palatinate and Asserufen) get one link
  for (const info of state.catalog.games) {
    if (!info.rules || linked.has(info.rules_page)) continue;
    linked.add(info.rules_page);
    const link = el("a", null, `Rules: ${info.title}`);
    link.href = `/rules/${info.name}`;
    link.target = "_blank";
    links.appendChild(link);
  }
  game.addEventListener("change", fillOptions);
  document.getElementById("seat").addEventListener("change", fillBots);
  document.getElementById("setup-form").addEventListener("submit", startTable);
  document.getElementById("new-table").addEventListener("click", () => {
    state.session = null;
    history.replaceState(null, "", "/");
    document.getElementById("game-area").hidden = true;
    document.getElementById("setup").hidden = false;
    document.body.dataset.state = "setup";
  });
  fillOptions();
  const resume = new URLSearchParams(location.hash.slice(1)).get("session");
  if (resume) {
    try {
      openSession(await api(sessionPath(resume)));
    } catch (error) {
      showMessage(`Could not open the table in the address: ${error.message}`, true);
    }
  }
  // Another table typed or pasted into the address bar: open it (the page's own replaceState fires no event).
  window.addEventListener("hashchange", () => location.reload());
  document.body.dataset.ready = "1";
}

// For scripted checks (and the browser tests): send any action string through the page's own path.
window.playTable = { send: (action) => send({ action }), view: () => state.view };

main();
