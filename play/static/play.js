// The table page: choose a game, seats and bots; then play, the server deciding everything.
// The page long-polls its session for changes (bots move in the background) and sends the human's
// moves with the hand and move numbers it saw, so a stale click is refused instead of misapplied.
//
// How a click on a card of the hand is read (docs/play.md, "Playing"):
// - play mode (the default): the card is played, face up or face down as the verb buttons say. At a
//   Knüffeln talk turn the page stays silent for the player on the way (view.after_silence lists the
//   moves that follow), so a card costs one click.
// - talk mode ("Talk to your partner…", Knüffeln with talk): a banner says so, the cards are outlined in
//   blue, and a click half-shows the card to the partner; it is not played. "Back to playing" leaves it.
// - laying away (Palatinate): a click picks a card or puts it back; "Lay these away" sends the picked two.

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

const TALK_VERBS = ["say", "token", "show"];

const state = { catalog: null, view: null, session: null, version: -1, verb: "play", sending: false,
  mode: "play", picked: [], dismissedTrick: null, confirmLeave: false };

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
    const kind = typeof option.default;  // the env checks the type: a number, an on/off switch, a word
    config[option.name] = kind === "number" ? Number(raw) : kind === "boolean" ? raw === "true" : raw;
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
      const item = el("option", null, typeof choice === "boolean" ? (choice ? "on" : "off") : String(choice));
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
    for (const bot of currentGame().bots ?? state.catalog.bots) {  // the bots that play this game
      const about = state.catalog.bot_notes?.[bot];
      const item = el("option", null, about ? `${bot} (${about.strength})` : bot);
      item.value = bot;
      if (about) item.title = about.note;
      select.appendChild(item);
    }
    label.appendChild(select);
    box.appendChild(label);
    select.addEventListener("change", showBotNotes);
  }
  showBotNotes();
}

// Under the bot seats: what each chosen bot is, and how strong it measured (the catalog's notes).
function showBotNotes() {
  const box = document.getElementById("bot-notes");
  if (!box) return;
  box.replaceChildren();
  const chosen = new Set([...document.querySelectorAll("#bot-seats select")].map((select) => select.value));
  for (const bot of chosen) {
    const about = state.catalog.bot_notes?.[bot];
    if (about) box.appendChild(el("li", null, `${bot}: ${about.note}`));
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
  const before = state.view;
  state.view = view;
  state.version = view.version;
  if (!before || before.move_number !== view.move_number || before.hand_number !== view.hand_number) {
    state.picked = [];
    if (!canTalk(view)) state.mode = "play";
  }
  draw();
}

// The moves a click on a card can make now, as { verbs, entries }: at a talk turn in play mode, the moves
// after staying silent; in talk mode, half-showing.
function cardMoves(view) {
  const talking = state.mode === "talk" && canTalk(view);
  const source = !talking && view.phase === "talk" && view.after_silence.length ? view.after_silence : view.legal;
  const verbs = CARD_VERBS.filter((verb) => source.some((entry) => entry.verb === verb))
    .filter((verb) => (talking ? verb === "show" : verb !== "show"));
  return { verbs, source, silentFirst: source !== view.legal };
}

function canTalk(view) {
  return view.legal.some((entry) => TALK_VERBS.includes(entry.verb));
}

function isTalking(view) { return state.mode === "talk" && canTalk(view); }

function trickKey(view) { return `${view.hand_number}:${view.tricks.length}`; }

function draw() {
  const view = state.view;
  const moves = cardMoves(view);
  if (!moves.verbs.includes(state.verb)) {
    state.verb = moves.verbs.includes("play") ? "play" : (moves.verbs[0] ?? "play");
  }
  const entries = {};
  for (const entry of moves.source) {
    if (entry.card && entry.verb === state.verb && entry.verb !== "exchange") entries[entry.card] = entry;
  }
  const talking = isTalking(view);
  const laying = state.verb === "discard";
  const hand = {
    entries,
    style: talking ? "talk" : (laying ? "pick" : "play"),
    selected: state.picked,
    title: (entry) => (talking ? `Click: half-show ${entry.card} to your partner (it is not played)`
      : laying ? `Click: pick ${entry.card} to lay away (click again to put it back)`
        : `Click: ${entry.label}${moves.silentFirst ? " (you stay silent)" : ""}`),
    onCard: (entry) => (laying ? pick(entry) : moves.silentFirst ? sendAfterSilence(entry) : send(entry)),
    onBlocked: (card) => explainBlocked(card, entries),
  };
  const options = { bottom: view.human, labels: labels(view), interactive: true, thinking: view.thinking,
    onAction: send, hand, showFinishedTrick: state.dismissedTrick !== trickKey(view),
    onDismissTrick: () => { state.dismissedTrick = trickKey(view); draw(); } };
  renderTable(document.getElementById("table"), view, options);
  renderSide(document.getElementById("side"), view, options);
  renderScores(view, options.labels);
  renderControls(view, moves.verbs);
  renderStatus(view, options.labels);
  document.body.dataset.mode = talking ? "talk" : (laying ? "lay-away" : "play");
  if (view.notice) showMessage(view.notice, true);
}

// A click on a card that has no move now: say why (whose turn, what is asked, which rule).
function explainBlocked(card, entries) {
  const view = state.view;
  let reason;
  if (view.over) reason = "The hand is over: deal the next hand.";
  else if (!view.legal.length) reason = `Not your turn: ${labels(view)[view.to_act] ?? view.to_act} is to act.`;
  else if (!Object.keys(entries).length) {
    reason = `Not a card now: ${view.prompt ?? "use the buttons below the table"}.`;
  }
  else if (isTalking(view)) reason = `${card} cannot be half-shown now.`;
  else reason = view.card_rule ?? `${card} cannot be played now: only the highlighted cards can.`;
  showMessage(reason, true);
}

function renderStatus(view, names) {
  const status = document.getElementById("status");
  let text;
  if (view.over) text = `Hand ${view.hand_number} is over.`;
  else if (view.legal.length) text = `Hand ${view.hand_number}: your turn. ${view.prompt ?? ""}`;
  else text = `Hand ${view.hand_number}: ${names[view.to_act] ?? view.to_act} to act${view.thinking ? " (thinking…)" : ""}.`;
  status.textContent = text;
  const body = document.body;
  // While a click's moves are on their way (two for a card at a talk turn or a lay-away), the page is "sending".
  body.dataset.state = state.sending ? "sending" : view.over ? "over" : (view.legal.length ? "your-turn" : "waiting");
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
  if (view.auto_note) box.appendChild(el("p", "note", view.auto_note));
  if (!view.legal.length) return;
  const talking = isTalking(view);
  if (talking) {
    const banner = el("div", "talk-banner");
    banner.id = "talk-banner";
    banner.append(el("strong", null, "Talk mode: "),
      el("span", null, "a click on a card half-shows it to your partner — it is not played. Or say a phrase."));
    box.appendChild(banner);
  } else if (view.prompt) {
    box.appendChild(el("p", "prompt", view.prompt));
  }
  if (state.verb === "discard") box.appendChild(layAwayControl(view));
  if (canTalk(view)) {
    const toggle = el("button", `talk-toggle${talking ? " chosen" : ""}`,
      talking ? "Back to playing (stay silent)" : "Talk to your partner…");
    toggle.type = "button";
    toggle.id = "talk-toggle";
    toggle.addEventListener("click", () => { state.mode = talking ? "play" : "talk"; showMessage(""); draw(); });
    box.appendChild(toggle);
  }
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
  } else if (verbs.length === 1 && !["play", "discard", "show"].includes(verbs[0])) {
    box.appendChild(el("p", "hint", `Click a highlighted card: ${VERB_LABELS[verbs[0]].toLowerCase()}.`));
  }
  const buttons = el("div", "buttons");
  const talkTurn = view.phase === "talk" && canTalk(view);
  for (const entry of view.legal) {
    if (talkTurn && !talking) continue;  // play mode at a talk turn: a card click stays silent for you
    if (talkTurn && entry.action === "silent") continue;  // "Back to playing" is the way out of talk mode
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
  if (phrases.length && (talking || !talkTurn)) buttons.appendChild(phraseControl(phrases));
  box.appendChild(buttons);
}

// Laying away: pick the cards (a click picks or puts back), then confirm; nothing is sent before.
function layAwayCount(view) {
  const done = view.log.filter((entry) => entry.agent === view.human && entry.action.startsWith("discard")).length;
  return Math.max(1, 2 - done);
}

function pick(entry) {
  const count = layAwayCount(state.view);
  if (state.picked.includes(entry.card)) state.picked = state.picked.filter((card) => card !== entry.card);
  else if (state.picked.length < count) state.picked = [...state.picked, entry.card];
  else {
    showMessage(`You lay away ${count} card${count === 1 ? "" : "s"}: click a picked card to put it back first.`, true);
    return;
  }
  showMessage("");
  draw();
}

function layAwayControl(view) {
  const count = layAwayCount(view);
  const wrap = el("div", "buttons lay-away");
  wrap.appendChild(el("span", null, state.picked.length
    ? `To lay away: ${state.picked.join(", ")} (${state.picked.length} of ${count})`
    : `Pick ${count} card${count === 1 ? "" : "s"} to lay away (they count for you).`));
  const confirm = el("button", "legal action", `Lay ${count === 1 ? "it" : "these"} away`);
  confirm.type = "button";
  confirm.id = "lay-away";
  confirm.disabled = state.picked.length !== count;
  confirm.addEventListener("click", layAway);
  const undo = el("button", null, "Undo");
  undo.type = "button";
  undo.id = "lay-away-undo";
  undo.disabled = !state.picked.length;
  undo.addEventListener("click", () => { state.picked = []; draw(); });
  wrap.append(confirm, undo);
  return wrap;
}

async function layAway() {
  const cards = [...state.picked];
  await sendSequence(cards.map((card) => `discard:${card}`));
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
  await sendSequence([entry.action]);
}

// Stay silent at a talk turn, then make the card move chosen with the same click.
async function sendAfterSilence(entry) {
  await sendSequence(["silent", entry.action]);
}

// Send moves one after another, each once the table answered the one before and only while it is still
// the human's turn with that move legal (a bot or the server may have moved the table on meanwhile).
async function sendSequence(actions) {
  if (state.sending || !state.view) return;
  state.sending = true;
  document.body.dataset.state = "sending";
  const view = state.view;
  try {
    let current = view;
    for (const action of actions) {
      // The server checks the first move; a later one is sent only if the answer before still allows it.
      if (current !== view && !current.legal.some((entry) => entry.action === action)) {
        throw new Error(`${action} is not a legal move now`);
      }
      current = await api(`${sessionPath(view.session)}/move`,
        { action, hand: current.hand_number, move: current.move_number });
      state.picked = [];
      render(current);
    }
    showMessage("");
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
    if (state.view) renderStatus(state.view, labels(state.view));
  }
}

// "New table" in the middle of a hand asks first: the hand in play would be lost.
function askBeforeLeaving() {
  document.getElementById("leave-confirm").hidden = false;
  document.getElementById("leave-no").focus();
}

function leaveTable() {
  document.getElementById("leave-confirm").hidden = true;
  state.session = null;
  state.view = null;
  history.replaceState(null, "", "/");
  document.getElementById("game-area").hidden = true;
  document.getElementById("setup").hidden = false;
  document.body.dataset.state = "setup";
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
    if (state.view && !state.view.over) askBeforeLeaving();
    else leaveTable();
  });
  document.getElementById("leave-yes").addEventListener("click", leaveTable);
  document.getElementById("leave-no").addEventListener("click", () => {
    document.getElementById("leave-confirm").hidden = true;
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
