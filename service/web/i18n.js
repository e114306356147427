// The web client's own words, in the API's four languages. The game's messages («La suma debe ser
// igual a 13»…) are not here: they come from the API, in the language asked for (Accept-Language).

export const LANGUAGES = { es: "Español", it: "Italiano", fr: "Français", en: "English" };

const WORDS = {
  en: {
    title: "Pyramide", subtitle: "Pair two free cards summing {sum}; a {king} goes alone.",
    newGame: "New game", rules: "Rules", winnable: "Winnable deals only", language: "Language",
    paste: "Code or layout", pastePlaceholder: "PYR1-N-AAAAAAS, or a layout as JSON", deal: "Deal",
    undo: "Undo", hint: "Hint", errorHelp: "Error help", code: "Code", score: "Score", moves: "Moves",
    time: "Time", stock: "Stock", stockEmpty: "Stock empty: recycle", stockCount: "Stock, {n} cards",
    waste: "Waste", pile: "Waste pile {n}", emptyPile: "Waste pile {n}, empty", board: "The pyramid",
    row: "Row {n}", won: "You won! {score} points in {moves} moves and {time}.",
    blocked: "No more moves are possible.", noWinLeft: "No win is left in this game: start a new one.",
    hintIs: "Hint: {move}", noHint: "No move removes anything more.", hintDraw: "draw from the stock",
    hintRecycle: "recycle the waste", hintUndo: "undo", dealing: "Dealing…", describe: "Board description",
    selected: "selected", free: "free", covered: "covered", secondCopy: "second deck", matrix: "Conformance matrix", keys: "Keys", nextDeal: "from the next deal on", stockDone: "Stock empty: no pass left", badPaste: "Neither a deal code nor a layout in JSON: {error}", appCode: "{code} is a code of the Pyramide app, whose deals this server cannot make: paste its layout (its cards, as JSON) to play it.",
    keysHelp: "Arrows move between cards, Enter or Space taps. S: stock, U: undo, H: hint, N: new game.",
    preset: {
      pyramide: "Pyramide (the app)", strict: "Strict victory", traditional: "Traditional (one pass)",
      "relaxed-one-pass": "Relaxed, one pass", "relaxed-three-passes": "Relaxed, three passes",
      "unlimited-undo": "Unlimited undo (004)", "tuts-tomb": "Tut's Tomb (three a draw)",
      apophis: "Apophis (three waste piles)", pharaoh: "Pharaoh (ten rows)", spanish: "Spanish pyramid",
    },
  },
  es: {
    title: "Pyramide", subtitle: "Empareja dos cartas libres que sumen {sum}; el {king} se retira solo.",
    newGame: "Nueva partida", rules: "Reglas", winnable: "Solo repartos ganables", language: "Idioma",
    paste: "Código o reparto", pastePlaceholder: "PYR1-N-AAAAAAS, o un reparto en JSON", deal: "Repartir",
    undo: "Deshacer", hint: "Pista", errorHelp: "Ayuda para errores", code: "Código", score: "Puntos",
    moves: "Movimientos", time: "Tiempo", stock: "Mazo", stockEmpty: "Mazo vacío: reciclar",
    stockCount: "Mazo, {n} cartas", waste: "Descarte", pile: "Descarte {n}", emptyPile: "Descarte {n}, vacío",
    board: "La pirámide", row: "Fila {n}", won: "¡Has ganado! {score} puntos en {moves} movimientos y {time}.",
    blocked: "No hay más movimientos posibles", noWinLeft: "Ya no hay posibilidad de ganar la partida: empieza otra.",
    hintIs: "Pista: {move}", noHint: "Ningún movimiento retira nada más.", hintDraw: "robar del mazo",
    hintRecycle: "reciclar el descarte", hintUndo: "deshacer", dealing: "Repartiendo…", describe: "Descripción del tablero",
    selected: "seleccionada", free: "libre", covered: "cubierta", secondCopy: "segunda baraja", matrix: "Matriz de conformidad", keys: "Teclas", nextDeal: "a partir del próximo reparto", stockDone: "Mazo vacío: no quedan pasadas", badPaste: "No es un código de reparto ni un reparto en JSON: {error}", appCode: "{code} es un código de la aplicación Pyramide, cuyos repartos este servidor no puede hacer: pega su reparto (sus cartas, en JSON) para jugarlo.",
    keysHelp: "Las flechas van de carta en carta, Intro o Espacio la tocan. S: mazo, U: deshacer, H: pista, N: nueva partida.",
    preset: {
      pyramide: "Pyramide (la app)", strict: "Victoria estricta", traditional: "Tradicional (una pasada)",
      "relaxed-one-pass": "Relajada, una pasada", "relaxed-three-passes": "Relajada, tres pasadas",
      "unlimited-undo": "Deshacer ilimitado (004)", "tuts-tomb": "Tumba de Tut (tres por robo)",
      apophis: "Apofis (tres descartes)", pharaoh: "Faraón (diez filas)", spanish: "Pirámide española",
    },
  },
  it: {
    title: "Pyramide", subtitle: "Abbina due carte libere che sommano {sum}; il {king} si rimuove da solo.",
    newGame: "Nuova partita", rules: "Regole", winnable: "Solo smazzate vincibili", language: "Lingua",
    paste: "Codice o smazzata", pastePlaceholder: "PYR1-N-AAAAAAS, o una smazzata in JSON", deal: "Distribuisci",
    undo: "Annulla", hint: "Suggerimento", errorHelp: "Aiuto per gli errori", code: "Codice", score: "Punti",
    moves: "Mosse", time: "Tempo", stock: "Mazzo di pesca", stockEmpty: "Mazzo vuoto: ricicla",
    stockCount: "Mazzo di pesca, {n} carte", waste: "Scarti", pile: "Scarti {n}", emptyPile: "Scarti {n}, vuoto",
    board: "La piramide", row: "Fila {n}", won: "Hai vinto! {score} punti in {moves} mosse e {time}.",
    blocked: "Nessuna mossa più possibile", noWinLeft: "Non è più possibile vincere questa partita: iniziane un’altra.",
    hintIs: "Suggerimento: {move}", noHint: "Nessuna mossa rimuove altro.", hintDraw: "pesca dal mazzo",
    hintRecycle: "ricicla gli scarti", hintUndo: "annulla", dealing: "Distribuzione…", describe: "Descrizione del tavolo",
    selected: "selezionata", free: "libera", covered: "coperta", secondCopy: "secondo mazzo", matrix: "Matrice di conformità", keys: "Tasti", nextDeal: "dalla prossima smazzata", stockDone: "Mazzo vuoto: nessun passaggio rimasto", badPaste: "Né un codice di smazzata né una smazzata in JSON: {error}", appCode: "{code} è un codice dell’app Pyramide, le cui smazzate questo server non sa fare: incolla la sua smazzata (le sue carte, in JSON) per giocarla.",
    keysHelp: "Le frecce passano da una carta all’altra, Invio o Spazio la toccano. S: mazzo, U: annulla, H: suggerimento, N: nuova partita.",
    preset: {
      pyramide: "Pyramide (l’app)", strict: "Vittoria rigorosa", traditional: "Tradizionale (un passaggio)",
      "relaxed-one-pass": "Rilassata, un passaggio", "relaxed-three-passes": "Rilassata, tre passaggi",
      "unlimited-undo": "Annulla illimitato (004)", "tuts-tomb": "Tomba di Tut (tre alla volta)",
      apophis: "Apophis (tre pile di scarti)", pharaoh: "Faraone (dieci file)", spanish: "Piramide spagnola",
    },
  },
  fr: {
    title: "Pyramide", subtitle: "Associez deux cartes libres dont la somme fait {sum} ; le {king} part seul.",
    newGame: "Nouvelle partie", rules: "Règles", winnable: "Donnes gagnables seulement", language: "Langue",
    paste: "Code ou donne", pastePlaceholder: "PYR1-N-AAAAAAS, ou une donne en JSON", deal: "Distribuer",
    undo: "Annuler", hint: "Indice", errorHelp: "Aide aux erreurs", code: "Code", score: "Points",
    moves: "Coups", time: "Temps", stock: "Talon", stockEmpty: "Talon vide : recycler",
    stockCount: "Talon, {n} cartes", waste: "Défausse", pile: "Défausse {n}", emptyPile: "Défausse {n}, vide",
    board: "La pyramide", row: "Rangée {n}", won: "Gagné ! {score} points en {moves} coups et {time}.",
    blocked: "Plus aucun coup possible", noWinLeft: "Cette partie ne peut plus être gagnée : commencez-en une autre.",
    hintIs: "Indice : {move}", noHint: "Aucun coup ne retire plus rien.", hintDraw: "piocher dans le talon",
    hintRecycle: "recycler la défausse", hintUndo: "annuler", dealing: "Distribution…", describe: "Description du jeu",
    selected: "sélectionnée", free: "libre", covered: "couverte", secondCopy: "second jeu", matrix: "Matrice de conformité", keys: "Touches", nextDeal: "à partir de la prochaine donne", stockDone: "Talon vide : plus de passage", badPaste: "Ni un code de donne ni une donne en JSON : {error}", appCode: "{code} est un code de l’app Pyramide, dont ce serveur ne sait pas faire les donnes : collez sa donne (ses cartes, en JSON) pour la jouer.",
    keysHelp: "Les flèches passent d’une carte à l’autre, Entrée ou Espace la touchent. S : talon, U : annuler, H : indice, N : nouvelle partie.",
    preset: {
      pyramide: "Pyramide (l’app)", strict: "Victoire stricte", traditional: "Traditionnelle (un passage)",
      "relaxed-one-pass": "Souple, un passage", "relaxed-three-passes": "Souple, trois passages",
      "unlimited-undo": "Annulation illimitée (004)", "tuts-tomb": "Tombeau de Toutankhamon (trois par pioche)",
      apophis: "Apophis (trois défausses)", pharaoh: "Pharaon (dix rangées)", spanish: "Pyramide espagnole",
    },
  },
};

// Card names, as the API's catalogues write them (service/locales/*.po: card.*).
const CARDS = {
  en: { name: "{rank} of {suit}", spanishName: "{rank} {suit}", ranks: { A: "ace", J: "jack", Q: "queen", K: "king" }, letters: {},
        suits: { C: "clubs", D: "diamonds", H: "hearts", S: "spades" },
        spanishRanks: { 1: "ace", S: "knave", C: "knight", R: "king" },
        spanishSuits: { OR: "of coins", CO: "of cups", ES: "of swords", BA: "of batons" } },
  es: { name: "{rank} de {suit}", spanishName: "{rank} {suit}", ranks: { A: "as", J: "jota", Q: "reina", K: "rey" },
        letters: { Q: "D", K: "R" }, // as the rule documents write them: «el R♦», «el D♣»
        suits: { C: "tréboles", D: "diamantes", H: "corazones", S: "picas" },
        spanishRanks: { 1: "as", S: "sota", C: "caballo", R: "rey" },
        spanishSuits: { OR: "de oros", CO: "de copas", ES: "de espadas", BA: "de bastos" } },
  it: { name: "{rank} di {suit}", spanishName: "{rank} {suit}", ranks: { A: "asso", J: "fante", Q: "donna", K: "re" },
        letters: { Q: "D", K: "R" }, // as 002 writes them: «il R♦», «il D♣»
        suits: { C: "fiori", D: "quadri", H: "cuori", S: "picche" },
        spanishRanks: { 1: "asso", S: "fante", C: "cavallo", R: "re" },
        spanishSuits: { OR: "di denari", CO: "di coppe", ES: "di spade", BA: "di bastoni" } },
  fr: { name: "{rank} de {suit}", spanishName: "{rank} {suit}", ranks: { A: "as", J: "valet", Q: "dame", K: "roi" },
        letters: { J: "V", Q: "D", K: "R" },
        suits: { C: "trèfle", D: "carreau", H: "cœur", S: "pique" },
        spanishRanks: { 1: "as", S: "valet", C: "cavalier", R: "roi" },
        spanishSuits: { OR: "de deniers", CO: "de coupes", ES: "d’épées", BA: "de bâtons" } },
};

export function t(language, key, params = {}) {
  const words = WORDS[language] || WORDS.en;
  const text = key.split(".").reduce((node, part) => (node ? node[part] : undefined), words)
    ?? key.split(".").reduce((node, part) => (node ? node[part] : undefined), WORDS.en) ?? key;
  return text.replace(/\{(\w+)\}/g, (_, name) => String(params[name] ?? ""));
}

export function cardName(language, card) {
  const names = CARDS[language] || CARDS.en;
  const second = card.copy === 2 ? ` (${t(language, "secondCopy")})` : "";
  if (card.deck === "spanish") {
    const rank = names.spanishRanks[card.rank] ?? card.rank;
    return names.spanishName.replace("{rank}", rank).replace("{suit}", names.spanishSuits[card.suit]) + second;
  }
  const rank = names.ranks[card.rank] ?? (card.rank === "T" ? "10" : card.rank);
  return names.name.replace("{rank}", rank).replace("{suit}", names.suits[card.suit]) + second;
}

/** The letter a French card's corner shows, in ``language``'s own (es and it: R and D, as the rule
 * documents write «el R♦», «el D♣»; fr: R, D, V); 10 for T; a Spanish card's as it is. */
export function rankLetter(language, card) {
  if (card.rank === "T") return "10";
  if (card.deck === "spanish") return card.rank;
  return (CARDS[language] || CARDS.en).letters[card.rank] ?? card.rank;
}

/** The card that goes alone, by its name: the King (the rey of the Spanish deck). */
export function kingName(language, deck) {
  const names = CARDS[language] || CARDS.en;
  return deck === "spanish" ? names.spanishRanks.R : names.ranks.K;
}
