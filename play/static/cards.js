// Cards drawn as SVG: German suits (Eichel, Gras, Herz, Schellen) for Bavarian Schafkopf, French suits
// (clubs, spades, hearts, diamonds) for the Palatinate games and Knüffeln. A card name is suit first:
// "EO", "H10", "C4". A face-down card (null in a view) is drawn as a card back.

const SVG_NS = "http://www.w3.org/2000/svg";

// Each symbol is drawn in a 24 x 24 box centred on (0, 0).
const SYMBOLS = {
  french: {
    C: { color: "#1b1b1b", draw: (g) => {
      circle(g, 0, -5, 4.6); circle(g, -5.2, 2, 4.6); circle(g, 5.2, 2, 4.6);
      path(g, "M-1.4,1 L-3.6,11 L3.6,11 L1.4,1 Z");
    } },
    S: { color: "#1b1b1b", draw: (g) => path(g,
      "M0,-11 C-6,-4 -12,-1 -8.5,5.5 C-6,9 -2.5,7.5 -1.2,5.5 L-3.5,11 L3.5,11 L1.2,5.5 " +
      "C2.5,7.5 6,9 8.5,5.5 C12,-1 6,-4 0,-11 Z") },
    H: { color: "#c8102e", draw: (g) => path(g, HEART) },
    D: { color: "#c8102e", draw: (g) => path(g, "M0,-11.5 L8,0 L0,11.5 L-8,0 Z") },
  },
  german: {
    E: { color: "#7a4a1c", draw: (g) => {
      path(g, "M0,-2 C5.5,-2 6.5,5 0,11 C-6.5,5 -5.5,-2 0,-2 Z", "#c98a3c");
      path(g, "M-7,-1 C-7,-7 7,-7 7,-1 Z", "#6b4423");
      path(g, "M0,-6 L0,-10.5", null, "#6b4423", 1.8);
    } },
    G: { color: "#2e7d32", draw: (g) => {
      path(g, "M0,-11.5 C9,-6 9,5 0,11.5 C-9,5 -9,-6 0,-11.5 Z", "#43a047");
      path(g, "M0,-9 L0,11", null, "#1b5e20", 1.2);
    } },
    H: { color: "#c8102e", draw: (g) => path(g, HEART) },
    S: { color: "#b26a00", draw: (g) => {
      circle(g, 0, 1.5, 8, "#f2b01e");
      path(g, "M-8,0 L8,0", null, "#8d5a00", 1.3);
      circle(g, 0, 5, 1.6, "#5d3a00");
      circle(g, 0, -7.6, 1.8, "#8d5a00");
    } },
  },
};
const HEART = "M0,-4 C-4,-11.5 -13,-6.5 -8.5,1.5 L0,11 L8.5,1.5 C13,-6.5 4,-11.5 0,-4 Z";


function svg(tag, attrs = {}) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  return node;
}
function path(g, d, fill, stroke, width) {
  g.appendChild(svg("path", { d, fill: fill ?? "currentColor", ...(stroke ? { stroke, "stroke-width": width } : {}) }));
}
function circle(g, cx, cy, r, fill) {
  g.appendChild(svg("circle", { cx, cy, r, fill: fill ?? "currentColor" }));
}

export function suitSymbol(deck, suit, size = 16) {
  const spec = SYMBOLS[deck][suit];
  const root = svg("svg", { viewBox: "-12 -12 24 24", width: size, height: size, class: "suit-symbol" });
  const g = svg("g", { fill: spec.color, color: spec.color });
  spec.draw(g);
  root.appendChild(g);
  return root;
}

const RANK_TEXT = {
  german: { A: "A", K: "K", O: "O", U: "U" },
  french: { A: "A", K: "K", Q: "Q", J: "J" },
};

export function rankOf(card) { return card.slice(1); }
export function suitOf(card) { return card[0]; }

// A face-up card: <div class="card" data-card="EO"> with an SVG face.
export function cardElement(card, deck, title) {
  const rank = rankOf(card);
  const suit = suitOf(card);
  const spec = SYMBOLS[deck][suit];
  const node = document.createElement("div");
  node.className = "card face";
  node.dataset.card = card;
  node.title = title ?? card;
  const face = svg("svg", { viewBox: "0 0 70 100", class: "card-svg" });
  face.appendChild(svg("rect", { x: 1, y: 1, width: 68, height: 98, rx: 7, fill: "#fffdf6", stroke: "#888" }));
  const label = svg("text", { x: 6, y: 19, "font-size": 17, "font-weight": 700, fill: spec.color,
    "font-family": "Georgia, 'DejaVu Serif', serif" });
  label.textContent = RANK_TEXT[deck][rank] ?? rank;
  face.appendChild(label);
  const corner = svg("g", { transform: "translate(13 31) scale(0.55)", fill: spec.color, color: spec.color });
  spec.draw(corner);
  face.appendChild(corner);
  const court = isCourt(deck, rank);
  const centre = svg("g", { transform: court ? "translate(40 75) scale(1.05)" : "translate(40 60) scale(1.45)",
    fill: spec.color, color: spec.color });
  spec.draw(centre);
  face.appendChild(centre);
  if (court) {
    const big = svg("text", { x: 40, y: 52, "text-anchor": "middle", "font-size": 28, "font-weight": 700,
      fill: spec.color, "font-family": "Georgia, 'DejaVu Serif', serif" });
    big.textContent = RANK_TEXT[deck][rank];
    face.appendChild(big);
  }
  node.appendChild(face);
  return node;
}

function isCourt(deck, rank) {
  return deck === "german" ? ["K", "O", "U"].includes(rank) : ["K", "Q", "J"].includes(rank);
}

// A face-down card.
export function backElement(title = "a face-down card") {
  const node = document.createElement("div");
  node.className = "card back";
  node.title = title;
  const face = svg("svg", { viewBox: "0 0 70 100", class: "card-svg" });
  face.appendChild(svg("rect", { x: 1, y: 1, width: 68, height: 98, rx: 7, fill: "#24467a", stroke: "#112" }));
  face.appendChild(svg("rect", { x: 7, y: 7, width: 56, height: 86, rx: 4, fill: "none", stroke: "#9fb6dd",
    "stroke-width": 2, "stroke-dasharray": "4 3" }));
  node.appendChild(face);
  return node;
}

// A card or a back, from a view's card entry (a name, or null for face down).
export function anyCard(card, deck, title) {
  return card === null || card === undefined ? backElement() : cardElement(card, deck, title);
}
