// Card faces, drawn here: the suits are SVG symbols of index.html (#suit-C … #suit-BA), the rest CSS.
import { cardName, rankLetter } from "./i18n.js";

const CODES = { french: "(10|[A2-9TJQK])([CDHS])(2?)", spanish: "([1-9SCR])(OR|CO|ES|BA)(2?)" };
const FRENCH = new RegExp(`^${CODES.french}$`);
const SPANISH = new RegExp(`^${CODES.spanish}$`);

/** The card codes standing alone in a text (not inside a deal code, PYR1-KS-AAAAAAF, or a word). */
export function codesIn(deck = "french") {
  return new RegExp(`(?<![-\\w])${CODES[deck === "spanish" ? "spanish" : "french"]}(?![-\\w])`, "g");
}
const SVG = "http://www.w3.org/2000/svg";

/** A card code (`7S`, `TC`, `SOR`, `7D2`) to its parts; `deck` is the state's `rules.deck`. */
export function parseCard(code, deck = "french") {
  const match = (deck === "spanish" ? SPANISH : FRENCH).exec(code);
  if (!match) return { code, rank: code, suit: "", deck, copy: 1 };
  const rank = match[1] === "10" ? "T" : match[1];
  return { code, rank, suit: match[2], deck, copy: match[3] ? 2 : 1 };
}

function suitIcon(suit, className) {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("class", className);
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  svg.setAttribute("viewBox", "0 0 100 100");
  const use = document.createElementNS(SVG, "use");
  use.setAttribute("href", `#suit-${suit}`);
  svg.appendChild(use);
  return svg;
}

const FIGURES = new Set(["J", "Q", "K", "S", "C", "R"]);

/** A face-up card as a button: `data-card` its code, its name (in `language`) as its label. */
export function cardButton(code, deck, language) {
  const card = parseCard(code, deck);
  const button = document.createElement("button");
  button.type = "button";
  button.className = `card suit-${card.suit}${card.copy === 2 ? " copy-2" : ""}${FIGURES.has(card.rank) ? " figure" : ""}`;
  button.dataset.card = code;
  button.setAttribute("aria-label", cardName(language, card));
  const corner = document.createElement("span");
  corner.className = "corner";
  const rank = document.createElement("span");
  rank.className = "rank";
  // the rank drawn by CSS (content: attr(data-rank)): the button's text is its label alone, the card's
  // name (WCAG 2.5.3, label in name: a corner's "J" is not in «jota de diamantes»)
  rank.dataset.rank = rankLetter(language, card);
  corner.append(rank, suitIcon(card.suit, "pip"));
  const centre = document.createElement("span");
  centre.className = "centre";
  if (FIGURES.has(card.rank)) {
    const letter = document.createElement("span");
    letter.className = "figure-letter";
    letter.dataset.rank = rankLetter(language, card);
    centre.append(letter);
  }
  centre.append(suitIcon(card.suit, "big"));
  const bottom = corner.cloneNode(true);
  bottom.className = "corner bottom";
  for (const part of [corner, centre, bottom]) part.setAttribute("aria-hidden", "true"); // the label names the card
  button.append(corner, centre, bottom);
  return button;
}
