// Draws a table from a view (the JSON of play/views): seats around the felt, the trick in the middle,
// piles (skat, stock), facts, the last trick, the log and the settlement. Used by the table page and the
// replay viewer. It never decides legality: what is clickable comes from view.legal.

import { anyCard, cardElement, suitSymbol } from "./cards.js";

const POSITIONS = {
  3: ["bottom", "left", "right"],
  4: ["bottom", "left", "top", "right"],
  5: ["bottom", "left", "top-left", "top-right", "right"],
};

export function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) node.textContent = text;
  return node;
}

// Seat -> position on the felt, with `bottom` at the bottom and play going clockwise (to its left).
export function seatPositions(agents, bottom) {
  const start = Math.max(0, agents.indexOf(bottom));
  const places = POSITIONS[agents.length] ?? POSITIONS[4];
  const positions = {};
  agents.forEach((_, k) => { positions[agents[(start + k) % agents.length]] = places[k]; });
  return positions;
}

export function seatLabel(view, agent, labels) {
  return (labels && labels[agent]) || agent;
}

// The short name of a seat in the trick and the texts: "You" for the player at the table.
export function shortName(agent, options) {
  return options.interactive && agent === options.bottom ? "You" : agent;
}

function formatUnits(units) {
  return units > 0 ? `+${units}` : `${units}`;
}

// options: { bottom, labels, interactive, hand: { entries, style, onCard(entry), onBlocked(card), selected,
//   title(entry) }, showFinishedTrick, onDismissTrick() }. `hand.entries` maps a card of the bottom hand to the
// move a click on it makes (the page decides which moves: play, face down, half-show, lay away).
export function renderTable(root, view, options) {
  root.replaceChildren();
  const positions = seatPositions(view.agents, options.bottom);
  const felt = el("div", `felt seats-${view.agents.length}`);
  for (const seat of view.seats) felt.appendChild(seatBox(view, seat, positions[seat.agent], options));
  felt.appendChild(centre(view, positions, options));
  root.appendChild(felt);
}

function seatBox(view, seat, position, options) {
  const box = el("section", `seat pos-${position}`);
  box.dataset.agent = seat.agent;
  if (view.to_act === seat.agent) box.classList.add("to-act");
  if (!seat.active) box.classList.add("inactive");
  const head = el("div", "seat-head");
  head.appendChild(el("strong", "seat-name", seatLabel(view, seat.agent, options.labels)));
  for (const role of seat.roles) head.appendChild(el("span", `badge role-${role.replace(/ /g, "-")}`, role));
  if (seat.team) head.appendChild(el("span", "badge team", seat.team));
  if (options.thinking === seat.agent) head.appendChild(el("span", "badge thinking", "thinking…"));
  box.appendChild(head);
  const stats = [`${seat.tricks} trick${seat.tricks === 1 ? "" : "s"}`];
  if (seat.points !== null && seat.points !== undefined) stats.push(`${seat.points} points`);
  const info = el("div", "seat-info", stats.join(" · "));
  if (seat.said) info.appendChild(el("span", "said", seat.said));
  box.appendChild(info);
  const isHand = position === "bottom" && options.interactive && options.hand;
  box.appendChild(isHand ? handRow(view, seat, options.hand) : cardRow(view, seat));
  return box;
}

// A card of a hand with the view's mark on it ("from the skat" while laying away).
function markedCard(view, card, title) {
  const node = cardElement(card, view.deck, title);
  const mark = (view.hand_marks ?? {})[card];
  if (mark) {
    node.classList.add("marked");
    node.dataset.mark = mark;
    node.title = `${node.title} (${mark})`;
  }
  return node;
}

function cardRow(view, seat) {
  const row = el("div", "cards small");
  if (seat.cards) {
    for (const card of seat.cards) row.appendChild(markedCard(view, card));
  } else {
    for (let k = 0; k < seat.count; k += 1) row.appendChild(anyCard(null, view.deck));
  }
  row.dataset.count = seat.count;
  return row;
}

// The human's hand: a card is clickable when the page gave it a move (hand.entries); a click on another card
// asks hand.onBlocked, which says why it cannot be played.
function handRow(view, seat, hand) {
  const row = el("div", `cards hand mode-${hand.style}`);
  row.id = "hand";
  for (const card of seat.cards ?? []) {
    const entry = hand.entries[card];
    const node = markedCard(view, card, entry ? hand.title(entry) : card);
    if (entry) {
      node.classList.add("legal", hand.style);
      if (hand.selected?.includes(card)) node.classList.add("selected");
      node.dataset.action = entry.action;
      node.tabIndex = 0;
      node.addEventListener("click", () => hand.onCard(entry));
      node.addEventListener("keydown", (event) => { if (event.key === "Enter") hand.onCard(entry); });
    } else {
      if (Object.keys(hand.entries).length) node.classList.add("not-legal");
      node.addEventListener("click", () => hand.onBlocked(card));
    }
    row.appendChild(node);
  }
  return row;
}

// The trick in the middle: the one in progress, or, until the next lead (or a click on it), the trick just
// finished, with who won it. Each card has its player's name beside it.
function centre(view, positions, options) {
  const middle = el("div", "centre");
  const trick = el("div", "trick");
  trick.id = "trick";
  const finished = !view.trick && view.last_trick && options.showFinishedTrick !== false ? view.last_trick : null;
  const shown = view.trick ?? finished;
  if (shown) {
    for (const played of shown.cards) {
      const slot = el("div", `trick-card at-${positions[played.agent]}`);
      slot.appendChild(anyCard(played.card, view.deck));
      slot.appendChild(el("div", "trick-name", shortName(played.agent, options)));
      slot.dataset.agent = played.agent;
      if (finished && played.agent === finished.winner) slot.classList.add("winner");
      trick.appendChild(slot);
    }
  }
  middle.appendChild(trick);
  if (finished) {
    trick.classList.add("finished");
    const winner = shortName(finished.winner, options);
    const caption = el("div", "trick-caption", `${winner} ${winner === "You" ? "win" : "wins"} the trick`);
    caption.id = "trick-caption";
    middle.appendChild(caption);
    trick.title = "The trick just finished: it stays until the next lead (click to clear it)";
    trick.addEventListener("click", () => options.onDismissTrick?.());
  }
  if (view.piles.length) {
    const piles = el("div", "piles");
    for (const pile of view.piles) {
      const box = el("div", "pile");
      box.appendChild(el("div", "pile-label", pile.label));
      const row = el("div", pile.cards.filter((c) => c === null).length > 3 ? "cards tiny stacked" : "cards tiny");
      for (const card of pile.cards) {
        const exchange = view.legal.find((e) => e.verb === "exchange" && e.card === card);
        const node = anyCard(card, view.deck);
        if (exchange && options.interactive) {
          node.classList.add("legal");
          node.dataset.action = exchange.action;
          node.title = exchange.label;
          node.addEventListener("click", () => options.onAction(exchange));
        }
        row.appendChild(node);
      }
      box.appendChild(row);
      piles.appendChild(box);
    }
    middle.appendChild(piles);
  }
  return middle;
}

// The side panel: facts, last trick, talk, log, settlement.
export function renderSide(root, view, options) {
  root.replaceChildren();
  const facts = el("section", "panel facts");
  facts.appendChild(el("h3", null, `${view.title} · ${view.phase_label}`));
  const list = el("dl");
  list.append(el("dt", null, "Dealer"), el("dd", null, seatLabel(view, view.dealer, options.labels)));
  for (const [label, text] of view.facts) list.append(el("dt", null, label), el("dd", null, text));
  facts.appendChild(list);
  root.appendChild(facts);
  if (view.result) root.appendChild(resultPanel(view, options));
  if (view.last_trick) {
    const last = el("section", "panel last-trick");
    last.id = "last-trick";
    last.appendChild(el("h3", null, `Last trick: ${shortName(view.last_trick.winner, options)} won it`));
    const row = el("div", "cards tiny played-by");
    for (const played of view.last_trick.cards) {
      const item = el("figure", "played");
      item.dataset.agent = played.agent;
      const node = anyCard(played.card, view.deck);
      node.title = seatLabel(view, played.agent, options.labels);
      const name = el("figcaption", null, shortName(played.agent, options));
      if (played.agent === view.last_trick.winner) item.classList.add("winner");
      item.append(node, name);
      row.appendChild(item);
    }
    last.appendChild(row);
    root.appendChild(last);
  }
  if (view.talk.length) {
    const talk = el("section", "panel talk");
    talk.appendChild(el("h3", null, "Table talk"));
    const items = el("ol", "log-list");
    for (const entry of view.talk) items.appendChild(el("li", null, `${seatLabel(view, entry.agent, options.labels)}: ${entry.text}`));
    talk.appendChild(items);
    root.appendChild(talk);
  }
  const log = el("section", "panel log");
  log.appendChild(el("h3", null, "The hand so far"));
  const items = el("ol", "log-list");
  items.id = "log";
  for (const entry of view.log) {
    const item = el("li");
    item.appendChild(el("span", "who", `${seatLabel(view, entry.agent, options.labels)}: `));
    const card = entry.action.length <= 3 && /^[A-Z]/.test(entry.action) ? entry.action : null;
    if (card) item.appendChild(suitSymbol(view.deck, card[0], 13));
    item.appendChild(el("span", null, entry.text));
    items.appendChild(item);
  }
  log.appendChild(items);
  root.appendChild(log);
  items.scrollTop = items.scrollHeight;
}

function resultPanel(view, options) {
  const panel = el("section", "panel result");
  panel.id = "result";
  panel.appendChild(el("h3", null, "Settlement"));
  for (const line of view.result.lines) panel.appendChild(el("p", null, line));
  const table = el("table");
  for (const agent of view.agents) {
    const units = view.result.settlement[agent];
    const row = el("tr");
    row.dataset.agent = agent;
    row.dataset.units = String(units);
    row.append(el("td", null, seatLabel(view, agent, options.labels)), el("td", units >= 0 ? "plus" : "minus", formatUnits(units)));
    table.appendChild(row);
  }
  panel.appendChild(table);
  return panel;
}
