// The reference web client of the Pyramide API: plain JavaScript modules, no build step. Everything
// the game does is the API's (docs/api.md): this page sends taps and shows the state, the events and
// the feedback it gets back, in the language chosen (Accept-Language).
import { cardButton, codesIn, parseCard } from "./cards.js";
import { LANGUAGES, cardName, kingName, t } from "./i18n.js";

const $ = (id) => document.getElementById(id);
const configured = document.querySelector('meta[name="pyramide-api"]')?.content;
const API = (new URLSearchParams(location.search).get("api") || configured || location.origin).replace(/\/$/, "");

const app = {
  language: pickLanguage(),
  presets: {},
  state: null,
  outlook: null,
  started: 0,
  stopped: null,
  hint: null,
  queue: Promise.resolve(),
  pending: 0,
};

function pickLanguage() {
  const asked = new URLSearchParams(location.search).get("lang") || localStorage.getItem("pyramide.language");
  if (asked && asked in LANGUAGES) return asked;
  for (const tag of navigator.languages || []) {
    const base = tag.slice(0, 2).toLowerCase();
    if (base in LANGUAGES) return base;
  }
  return "en";
}

// -- The API ---------------------------------------------------------------------------------------

class Problem extends Error {
  constructor(body, status) {
    super(body.detail || `HTTP ${status}`);
    this.code = body.code;
    this.status = status;
  }
}

async function call(method, path, body) {
  const response = await fetch(API + path, {
    method,
    headers: { "Accept-Language": app.language, ...(body ? { "Content-Type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) throw new Problem(data, response.status);
  return data;
}

/** Runs the API calls one after the other, in the order asked (taps may come faster than answers). */
function enqueue(task) {
  app.pending += 1;
  document.body.dataset.busy = "true";
  app.queue = app.queue.then(task).catch(showProblem).finally(() => {
    app.pending -= 1;
    if (app.pending === 0) document.body.dataset.busy = "false";
  });
  return app.queue;
}

// -- Games and moves ---------------------------------------------------------------------------------

function newGame(request) {
  return enqueue(async () => {
    say(t(app.language, "dealing"));
    const answer = await call("POST", "/v1/games", { ...request, error_help: $("error-help").checked }).catch((error) => {
      // a code of the Pyramide app: the API's word is for developers (which request to send), a
      // player is told what to paste instead
      if (error instanceof Problem && error.code === "app_code") error.message = t(app.language, "appCode", { code: request.code });
      throw error;
    });
    app.state = answer.state;
    app.outlook = answer.outlook ?? null;
    const preset = Object.keys(app.presets).find((name) => sameRules(app.presets[name], app.state.rules));
    if (preset) $("rules").value = preset;
    app.started = Date.now();
    app.stopped = null;
    app.hint = null;
    say("");
    notice(app.outlook === "unwinnable" ? t(app.language, "noWinLeft") : "");
    render();
    await describe();
    markInteractive();
  });
}

function sameRules(a, b) {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].every((key) => JSON.stringify(a[key]) === JSON.stringify(b[key]));
}

function play(move) {
  if (!app.state) return Promise.resolve();
  return enqueue(async () => {
    const state = { ...app.state, error_help: $("error-help").checked };
    const answer = await call("POST", "/v1/moves", { state, move }).catch((error) => {
      app.hint = null; // a refused tap puts the hint out too
      render();
      throw error;
    });
    app.state = answer.state;
    app.outlook = answer.outlook ?? app.outlook;
    // a hinted pair's first card tapped (now selected): the hint stays, its second card to tap
    const following = app.hint?.type === "pair" && move.card === app.hint.cards[0] && app.state.selected === move.card;
    if (!following) app.hint = null;
    const feedback = answer.feedback;
    const noticed = feedback && (feedback.code === "blocked" || feedback.code === "no_win_left"); // (said once, in the notice)
    say(feedback && !noticed ? feedback.message : "", feedback && !noticed ? `feedback ${feedback.code}` : "");
    const events = answer.events.map((event) => event.type);
    if (app.state.status !== "playing" && app.stopped === null) app.stopped = Date.now();
    if (app.state.status === "playing" && app.stopped !== null) app.stopped = null; // an undo after the end
    if (events.includes("won") || app.state.status === "won") {
      notice(t(app.language, "won", { score: app.state.score, moves: app.state.moves, time: clock() }), "won");
    } else if (app.state.status === "blocked") {
      notice(feedback?.code === "blocked" ? feedback.message : t(app.language, "blocked"), "blocked");
    } else if (events.includes("no_win_left") || app.outlook === "unwinnable") {
      notice(feedback?.code === "no_win_left" ? feedback.message : t(app.language, "noWinLeft"), "no-win-left");
    } else {
      notice("");
    }
    render();
    await describe();
  });
}

function hint() {
  if (!app.state) return;
  enqueue(async () => {
    const answer = await call("POST", "/v1/hint", { state: app.state });
    app.hint = answer.move;
    say(answer.move ? t(app.language, "hintIs", { move: moveWords(answer.move) }) : t(app.language, "noHint"), "hint");
    render();
  });
}

async function describe() {
  if (!app.state) return;
  const answer = await call("POST", "/v1/describe", { state: app.state });
  $("board-description").textContent = answer.description;
}

/** A card's name, as the page names it (its button's label, less where it is). */
function nameOf(code) {
  return cardName(app.language, parseCard(code, app.state.rules.deck || "french"));
}

function moveWords(move) {
  if (move.type === "pair") return move.cards.map((code) => nameOf(code)).join(" + ");
  if (move.type === "king") return nameOf(move.card);
  if (move.type === "draw") return t(app.language, "hintDraw");
  if (move.type === "recycle") return t(app.language, "hintRecycle");
  return t(app.language, "hintUndo");
}

// -- What the player sees ---------------------------------------------------------------------------

function say(text, kind = "") {
  const message = $("message");
  message.textContent = text;
  message.className = `message ${kind}`.trim();
}

function notice(text, kind = "") {
  const box = $("notice");
  box.hidden = !text;
  box.textContent = text;
  box.className = `notice ${kind}`.trim();
}

/** An API message with the cards it names by their codes (`JD no está en juego…`) named as the page names them. */
function withCardNames(text) {
  return app.state ? text.replace(codesIn(app.state.rules.deck), nameOf) : text;
}

function showProblem(error) {
  if (error instanceof Problem) say(withCardNames(error.message), `problem ${error.code}`);
  else say(String(error.message || error), "problem");
}

function clock() {
  if (!app.state) return "0:00";
  const seconds = Math.floor(((app.stopped ?? Date.now()) - app.started) / 1000);
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

function isFree(pyramid, row, index) {
  const below = pyramid[row + 1];
  return !below || (below[index] === null && below[index + 1] === null);
}

function hinted(code) {
  const move = app.hint;
  return !!move && ((move.cards || []).includes(code) || move.card === code);
}

function inHand(state) {
  // Apophis: a tap on the stock turns its card up, in hand (selected), until a pile is tapped.
  return state.rules.waste_piles === 3 && state.selected !== null && state.stock[0] === state.selected;
}

function decorate(button, state, extra = "") {
  const code = button.dataset.card;
  const selected = state.selected === code;
  button.classList.toggle("selected", selected);
  button.classList.toggle("hinted", hinted(code));
  button.setAttribute("aria-pressed", String(selected));
  if (extra) button.setAttribute("aria-label", `${button.getAttribute("aria-label")}, ${extra}`);
  return button;
}

function render() {
  const state = app.state;
  if (!state) return;
  const lang = app.language;
  const focused = document.activeElement?.dataset?.key;
  const deck = state.rules.deck || "french";
  document.body.dataset.rows = String(state.pyramid.length);
  document.body.dataset.deck = deck;
  document.body.dataset.status = state.status;
  $("code").textContent = state.code;
  $("score").textContent = String(state.score);
  $("moves").textContent = String(state.moves);
  $("timer").textContent = clock();
  $("subtitle").textContent = t(lang, "subtitle", { sum: deck === "spanish" ? 12 : 13, king: kingName(lang, deck) });

  const pyramid = $("pyramid");
  pyramid.replaceChildren();
  pyramid.setAttribute("aria-label", t(lang, "board"));
  state.pyramid.forEach((cards, row) => {
    const line = document.createElement("div");
    line.className = "row";
    line.setAttribute("role", "group");
    line.setAttribute("aria-label", t(lang, "row", { n: row + 1 }));
    cards.forEach((code, index) => {
      if (code === null) {
        const hole = document.createElement("span");
        hole.className = "slot empty";
        hole.dataset.key = `p-${row}-${index}`;
        line.append(hole);
        return;
      }
      const free = isFree(state.pyramid, row, index);
      const button = decorate(cardButton(code, deck, lang), state, t(lang, free ? "free" : "covered"));
      button.classList.add(free ? "free" : "covered");
      if (!free) button.tabIndex = -1; // (Tab walks the cards one can play; the arrows reach every card)
      button.dataset.key = `p-${row}-${index}`;
      button.dataset.row = String(row);
      button.dataset.index = String(index);
      line.append(button);
    });
    pyramid.append(line);
  });

  const stock = $("stock");
  const empty = state.stock.length === 0;
  stock.classList.toggle("empty", empty);
  stock.classList.toggle("hinted", !!app.hint && (app.hint.type === "draw" || app.hint.type === "recycle"));
  const recycles = state.rules.max_recycles;
  const done = empty && recycles !== null && recycles !== undefined && state.recycles >= recycles; // no pass left
  stock.classList.toggle("done", done);
  stock.setAttribute("aria-label", done ? t(lang, "stockDone") : empty ? t(lang, "stockEmpty") : t(lang, "stockCount", { n: state.stock.length }));
  $("stock-count").textContent = done ? "✕" : empty ? "↻" : String(state.stock.length);
  stock.replaceChildren($("stock-count"));
  if (inHand(state)) {
    const card = decorate(cardButton(state.selected, deck, lang), state);
    card.classList.add("in-hand");
    card.tabIndex = -1;
    card.removeAttribute("data-card"); // a tap on it is a tap on the stock
    stock.append(card);
  }

  const wastes = $("wastes");
  wastes.replaceChildren();
  const piles = [state.waste, ...(state.piles || [])];
  piles.forEach((pile, i) => {
    const holder = document.createElement("div");
    holder.className = "waste";
    holder.dataset.pile = `waste${i + 1}`;
    const shown = state.rules.draw_count === 3 ? pile.slice(-3) : pile.slice(-2);
    shown.slice(0, -1).forEach((code, k, unders) => {
      const under = cardButton(code, deck, lang);
      under.classList.add("under");
      if (state.rules.drawn_pairs_with_waste && k === unders.length - 1) {
        // «mazo contra descarte»: the card just drawn may pair with the one it covers; the API says when
        decorate(under, state, t(lang, "waste"));
        under.dataset.key = `u-${i}`;
      } else {
        under.disabled = true;
        under.tabIndex = -1;
        under.setAttribute("aria-hidden", "true");
      }
      holder.append(under);
    });
    const label = piles.length > 1 ? t(lang, "pile", { n: i + 1 }) : t(lang, "waste");
    if (pile.length) {
      const top = decorate(cardButton(pile[pile.length - 1], deck, lang), state, label);
      top.classList.add("top", "free");
      top.dataset.key = `w-${i}`;
      if (piles.length > 1) top.dataset.pile = `waste${i + 1}`;
      holder.append(top);
    } else {
      const place = document.createElement("button");
      place.type = "button";
      place.className = "slot place";
      place.dataset.key = `w-${i}`;
      if (piles.length > 1) place.dataset.pile = `waste${i + 1}`;
      else place.disabled = true;
      place.setAttribute("aria-label", piles.length > 1 ? t(lang, "emptyPile", { n: i + 1 }) : t(lang, "waste"));
      holder.append(place);
    }
    wastes.append(holder);
  });
  restoreFocus(focused);
}

function restoreFocus(key) {
  if (!key) return;
  const same = document.querySelector(`[data-key="${key}"]`);
  if (same && same.tagName === "BUTTON" && !same.disabled) return same.focus();
  const match = /^p-(\d+)-(\d+)$/.exec(key);
  if (!match) return $("stock").focus();
  const [row, index] = [Number(match[1]), Number(match[2])];
  const cards = [...document.querySelectorAll("#pyramid button.card")];
  if (!cards.length) return $("stock").focus();
  const distance = (b) => Math.abs(Number(b.dataset.row) - row) * 100 + Math.abs(Number(b.dataset.index) - index);
  cards.sort((a, b) => distance(a) - distance(b))[0].focus();
}

function tick() {
  if (app.state) $("timer").textContent = clock();
}

function markInteractive() {
  if (document.body.dataset.ready === "true") return;
  document.body.dataset.ready = "true";
  performance.mark("pyramide-interactive");
}

function translatePage() {
  document.documentElement.lang = app.language;
  for (const node of document.querySelectorAll("[data-i18n]")) node.textContent = t(app.language, node.dataset.i18n);
  for (const node of document.querySelectorAll("[data-i18n-placeholder]")) node.placeholder = t(app.language, node.dataset.i18nPlaceholder);
  const select = $("rules");
  for (const option of select.options) option.textContent = t(app.language, `preset.${option.value}`);
}

// -- Input: pointer and keyboard ---------------------------------------------------------------------

function onBoardClick(event) {
  const target = event.target.closest("button");
  if (!target || target.disabled || !app.state) return;
  if (target.id === "stock") return play({ type: "tap", pile: "stock" });
  const pile = target.dataset.pile;
  if (pile && (inHand(app.state) || !target.dataset.card)) return play({ type: "tap", pile });
  if (target.dataset.card) return play({ type: "tap", card: target.dataset.card });
}

function onKey(event) {
  if (event.target.closest("input, select, textarea") || event.altKey || event.ctrlKey || event.metaKey) return;
  const key = event.key.toLowerCase();
  const shortcuts = { s: () => play({ type: "tap", pile: "stock" }), u: () => play({ type: "undo" }), h: hint, n: () => $("new-game").click() };
  if (shortcuts[key]) {
    event.preventDefault();
    return shortcuts[key]();
  }
  const here = event.target.closest("#pyramid button.card");
  const steps = { arrowleft: [0, -1], arrowright: [0, 1], arrowup: [-1, 0], arrowdown: [1, 0] };
  if (!here || !steps[key]) return;
  event.preventDefault();
  const [dr, di] = steps[key];
  const row = Number(here.dataset.row), index = Number(here.dataset.index);
  const cards = [...document.querySelectorAll("#pyramid button.card")];
  const candidates = cards.filter((b) => {
    const r = Number(b.dataset.row), i = Number(b.dataset.index);
    return dr ? (dr > 0 ? r > row : r < row) : r === row && (di > 0 ? i > index : i < index);
  });
  const distance = (b) => Math.abs(Number(b.dataset.row) - row) * 100 + Math.abs(Number(b.dataset.index) - (dr > 0 ? index + 0.5 : dr < 0 ? index - 0.5 : index));
  candidates.sort((a, b) => distance(a) - distance(b));
  candidates[0]?.focus();
}

function pasted(text) {
  const value = text.trim();
  if (!value) return null;
  if (!value.startsWith("{")) return { code: value };
  let data;
  try {
    data = JSON.parse(value);
  } catch (error) {
    say(t(app.language, "badPaste", { error: value.length > 40 ? `${value.slice(0, 40)}…` : value }), "problem bad-paste");
    return null;
  }
  return "layout" in data ? data : { layout: data, rules: $("rules").value };
}

async function start() {
  const languages = $("language");
  for (const [code, name] of Object.entries(LANGUAGES)) languages.add(new Option(name, code, false, code === app.language));
  languages.addEventListener("change", () => {
    app.language = languages.value;
    localStorage.setItem("pyramide.language", app.language);
    translatePage();
    say("");
    render();
    enqueue(describe);
  });
  $("table").addEventListener("click", onBoardClick);
  document.addEventListener("keydown", onKey);
  $("undo").addEventListener("click", () => play({ type: "undo" }));
  $("hint").addEventListener("click", hint);
  $("new-game").addEventListener("click", () => newGame({ rules: $("rules").value, winnable: $("winnable").checked }));
  $("paste-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const request = pasted($("paste").value);
    if (request) newGame(request);
  });
  setInterval(tick, 1000);
  const rules = await call("GET", "/v1/rules").catch((error) => (showProblem(error), { presets: { pyramide: {} } }));
  app.presets = rules.presets;
  for (const name of Object.keys(rules.presets)) $("rules").add(new Option(name, name));
  translatePage();
  const first = new URLSearchParams(location.search);
  await newGame(first.get("code") ? { code: first.get("code") } : { rules: first.get("rules") || "pyramide" });
}

// For the console and the browser tests: the game as the API last returned it.
window.pyramide = { get state() { return app.state; }, get hint() { return app.hint; }, get api() { return API; } };

start();
