#!/usr/bin/env node
// Pyramide conformance vectors, run in JavaScript (Node 20+, standard library only).
//
// Runs every vector of features/vectors.json (the kit's scenarios as data, written by
// `python -m features.vectors`) against any server speaking Pyramide's HTTP API (docs/api.md),
// with the semantics of the Python kit's `Game` (features/ops.py) and `HttpDriver`
// (features/driver.py). One node:test test per vector, named by its id.
//
// Two invocations work on Node 20:
//
//   node features/js/runner.mjs --base-url http://127.0.0.1:8000 [--vectors PATH] [--grep TEXT]
//        [--tags doc-000,rule-pairs] [--without api,codes,solver] [--timeout 30]
//
//   PYRAMIDE_BASE_URL=http://127.0.0.1:8000 node --test features/js/runner.mjs
//
// Node 20's `node --test FILE -- ARGS` does NOT hand ARGS to the file (it takes every argument as
// one more test file: "Could not find '--'"), so under `node --test` the options come from the
// environment: PYRAMIDE_BASE_URL, PYRAMIDE_VECTORS, PYRAMIDE_GREP, PYRAMIDE_TAGS,
// PYRAMIDE_WITHOUT, PYRAMIDE_TIMEOUT (a command-line option wins over its variable). node's own
// `--test-name-pattern` also selects vectors by id there.
//
// Filters: --grep TEXT runs only the vectors whose id contains TEXT (repeat it, or separate with
// commas, for several); --tags T1,T2 runs only the vectors carrying at least one of these tags
// (doc-000, doc-002, doc-003, pyramide-choice, rule-…, sentence-N, api, …) or belonging to one of
// these features (pairs, scoring, …); both filters leave the other vectors out of the run and of
// the counts (node's --test-name-pattern reports them as skipped instead); --without CAP1,CAP2
// skips (reported as skipped) the vectors whose `requires` names one of these capabilities
// (api, codes, solver, taps, scoring, move-counter, undo, messages, option-…: the vectors'
// `capabilities`) or whose `languages` names lang-XX, or that deal under a value of a rules
// option named option-KEY=VALUE (`option-max-recycles=2`: the value as JSON), so that
// `--without api,codes,solver` runs the documents' rules only.
//
// Exit status: 0 every selected vector passed; 1 some failed (node:test's own status);
// 2 a usage error, an unreadable vectors file, no vector selected, or the server cannot be
// reached at all (one line on stderr, within 5 seconds). Under `node --test` node reports an
// exit 2 of the file as one failed test and exits 1 itself.
//
// At the end: a table of passed/total per source tag and per feature, after node:test's own
// summary ("# pass N", "# fail N").

import test from 'node:test';
import assert from 'node:assert';
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const DEFAULT_VECTORS = path.resolve(HERE, '..', 'vectors.json');
const FORMAT = 1;
const PROBE_MS = 3000;

// -- options ------------------------------------------------------------------------------------

function usage(message) {
  process.stderr.write(`pyramide-js: ${message}\n` +
    'usage: node features/js/runner.mjs --base-url URL [--vectors PATH] [--grep TEXT] [--tags T,…] [--without api,codes,solver] [--timeout SECONDS] [--json FILE]\n' +
    '   or: PYRAMIDE_BASE_URL=URL node --test features/js/runner.mjs\n');
  process.exit(2);
}

function options() {
  let parsed;
  try {
    parsed = parseArgs({
      args: process.argv.slice(2),
      strict: true,
      allowPositionals: false,
      options: {
        'base-url': { type: 'string' },
        vectors: { type: 'string' },
        grep: { type: 'string', multiple: true },
        tags: { type: 'string', multiple: true },
        without: { type: 'string', multiple: true },
        timeout: { type: 'string' },
        json: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }).values;
  } catch (error) {
    usage(error.message);
  }
  if (parsed.help) usage('runs the conformance vectors against a Pyramide HTTP API');
  const env = process.env;
  const list = (values, variable) =>
    (values ?? (env[variable] ? [env[variable]] : []))
      .flatMap((value) => value.split(','))
      .map((value) => value.trim())
      .filter(Boolean);
  const baseUrl = parsed['base-url'] ?? env.PYRAMIDE_BASE_URL;
  if (!baseUrl) usage('no server given: pass --base-url URL (or set PYRAMIDE_BASE_URL)');
  try {
    new URL(baseUrl);
  } catch {
    usage(`not a URL: ${baseUrl}`);
  }
  const timeout = Number(parsed.timeout ?? env.PYRAMIDE_TIMEOUT ?? 30);
  if (!(timeout > 0)) usage(`--timeout must be a positive number of seconds, not ${parsed.timeout ?? env.PYRAMIDE_TIMEOUT}`);
  return {
    baseUrl: baseUrl.replace(/\/+$/, ''),
    vectors: parsed.vectors ?? env.PYRAMIDE_VECTORS ?? DEFAULT_VECTORS,
    grep: list(parsed.grep, 'PYRAMIDE_GREP'),
    tags: list(parsed.tags, 'PYRAMIDE_TAGS'),
    without: list(parsed.without, 'PYRAMIDE_WITHOUT'),
    timeoutMs: timeout * 1000,
    json: parsed.json ?? null,
  };
}

// -- Python's equality and display ----------------------------------------------------------------

/** `a == b` as Python compares the decoded JSON: lists, dicts, numbers (True == 1), strings, None. */
function pyEqual(a, b) {
  if (a === undefined) a = null;
  if (b === undefined) b = null;
  const scalar = (x) => typeof x === 'number' || typeof x === 'boolean';
  if (scalar(a) && scalar(b)) return Number(a) === Number(b);
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => pyEqual(x, b[i]));
  }
  if (a !== null && b !== null && typeof a === 'object' && typeof b === 'object') {
    const keys = Object.keys(a);
    if (keys.length !== Object.keys(b).length) return false;
    return keys.every((key) => Object.hasOwn(b, key) && pyEqual(a[key], b[key]));
  }
  return a === b;
}

/** Where two values first differ ("opaque.score"), or null. */
function firstDifference(a, b, where = '') {
  if (pyEqual(a, b)) return null;
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      if (i >= a.length || i >= b.length) return { where: `${where}[${i}]`, expected: a[i], got: b[i] };
      const found = firstDifference(a[i], b[i], `${where}[${i}]`);
      if (found) return found;
    }
  }
  if (a && b && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) && !Array.isArray(b)) {
    for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
      const sub = where ? `${where}.${key}` : key;
      if (!Object.hasOwn(a, key) || !Object.hasOwn(b, key)) {
        return { where: sub, expected: Object.hasOwn(a, key) ? a[key] : '(absent)', got: Object.hasOwn(b, key) ? b[key] : '(absent)' };
      }
      const found = firstDifference(a[key], b[key], sub);
      if (found) return found;
    }
  }
  return { where: where || '(the value)', expected: a, got: b };
}

/** json.dumps(value, ensure_ascii=False): Python's separators. */
function pyDumps(value) {
  if (value === undefined || value === null) return 'null';
  if (Array.isArray(value)) return `[${value.map(pyDumps).join(', ')}]`;
  if (typeof value === 'object') {
    return `{${Object.entries(value).map(([key, item]) => `${JSON.stringify(key)}: ${pyDumps(item)}`).join(', ')}}`;
  }
  return JSON.stringify(value);
}

/** repr() of a string or a list of strings, for the messages that Python builds with !r or {list}. */
function pyRepr(value) {
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (Array.isArray(value)) return `[${value.map(pyRepr).join(', ')}]`;
  if (typeof value === 'string') return value.includes("'") && !value.includes('"') ? `"${value}"` : `'${value.replaceAll("'", "\\'")}'`;
  return String(value);
}

const LIMIT = 200;
function show(value) {
  const text = typeof value === 'string' ? value : pyDumps(value);
  return text.length > LIMIT ? `${text.slice(0, LIMIT)}… (${text.length} chars)` : text;
}

class KitFailure extends Error {
  constructor(what, expected, got) {
    let message = `${what}: expected ${show(expected)}, got ${show(got)}`;
    if (expected && got && typeof expected === 'object' && typeof got === 'object') {
      const difference = firstDifference(expected, got);
      if (difference) message += `\n    first difference at ${difference.where}: expected ${show(difference.expected)}, got ${show(difference.got)}`;
    }
    super(message);
    this.name = 'KitFailure';
    Object.assign(this, { what, expected, got });
  }
}

function check(what, expected, got) {
  if (!pyEqual(expected, got)) throw new KitFailure(what, expected, got);
}

/** dict[key]: a KeyError when the key is missing, as in Python. */
function get(object, key, what) {
  if (object === null || typeof object !== 'object' || !Object.hasOwn(object, key)) {
    throw new Error(`${what ?? 'the value'} has no ${pyRepr(key)} (got ${show(object)})`);
  }
  return object[key];
}

const byCodePoint = (a, b) => (a < b ? -1 : a > b ? 1 : 0);
const sorted = (items) => [...items].sort(byCodePoint);
const truthy = (x) => !(x === null || x === undefined || x === false || x === 0 || x === '' ||
  (Array.isArray(x) && x.length === 0) || (typeof x === 'object' && !Array.isArray(x) && x && Object.keys(x).length === 0));


// -- the HTTP driver (features/driver.py, features/client.py) ------------------------------------

function moveJson(text) {
  if (['draw', 'recycle', 'undo'].includes(text)) return { type: text };
  if (['tap:stock', 'tap:waste1', 'tap:waste2', 'tap:waste3'].includes(text)) return { type: 'tap', pile: text.slice(4) };
  if (text.startsWith('draw@')) return { type: 'draw', pile: 'waste' + text.slice(5) };
  if (text.startsWith('tap:')) return { type: 'tap', card: text.slice(4) };
  if (text.includes('+')) {
    const [first, second] = text.split('+');
    return { type: 'pair', cards: [first, second] };
  }
  return { type: 'king', card: text };
}

function moveText(move) {
  const type = get(move, 'type', 'a move');
  if (type === 'pair') return get(move, 'cards', 'a pair').join('+');
  if (type === 'king') return get(move, 'card', 'a king move');
  if (type === 'tap') return 'tap:' + (Object.hasOwn(move, 'card') ? move.card : (move.pile ?? 'stock'));
  if (type === 'draw' && Object.hasOwn(move, 'pile')) return 'draw@' + move.pile.slice(-1);
  return type;
}

const OBSERVED = ['pyramid', 'stock', 'waste', 'score', 'moves', 'selected', 'status', 'code'];

/** What the rules make observable in a state of Pyramide's API, and the state itself. */
function observation(state) {
  const observed = {};
  for (const key of OBSERVED) observed[key] = get(state, key, "the server's state");
  if (Object.hasOwn(state, 'piles')) observed.piles = state.piles; // Apophis's waste piles 2 and 3
  observed.opaque = state;
  return observed;
}

/** The waste, then Apophis's waste piles 2 and 3 (when the game has them). */
const wastePiles = (state) => [get(state, 'waste', 'the game'), ...(state.piles ?? [])];

const clone = (value) => (value === undefined ? undefined : JSON.parse(JSON.stringify(value)));

class HttpDriver {
  constructor(baseUrl, timeoutMs) {
    this.baseUrl = baseUrl;
    this.timeoutMs = timeoutMs;
    this.state = null; // the last state the server returned: the game is stateless
  }

  async request(method, urlPath, body = null, language = null) {
    const headers = { Accept: 'application/json' };
    let data;
    if (body !== null && body !== undefined) {
      data = JSON.stringify(body);
      headers['Content-Type'] = 'application/json';
    }
    if (language) headers['Accept-Language'] = language;
    let response, raw;
    try {
      response = await fetch(this.baseUrl + urlPath, { method, headers, body: data, signal: AbortSignal.timeout(this.timeoutMs) });
      raw = await response.text();
    } catch (error) {
      const cause = error.name === 'TimeoutError' ? `no answer within ${this.timeoutMs / 1000} s` : (error.cause?.message ?? error.message);
      throw new Error(`${method} ${urlPath}: ${cause}`);
    }
    const lowered = {};
    response.headers.forEach((value, key) => { lowered[key.toLowerCase()] = value; });
    let parsed = raw;
    if (raw && (lowered['content-type'] ?? '').includes('json')) {
      try {
        parsed = JSON.parse(raw);
      } catch (error) {
        throw new Error(`${method} ${urlPath}: ${response.status} with a body that is not JSON (${error.message}): ${show(raw)}`);
      }
    }
    return {
      status: response.status,
      headers: lowered,
      body: parsed,
      contentType: (lowered['content-type'] ?? '').split(';')[0].trim(),
    };
  }

  outcome(reply, acceptedStatus, keep = true) {
    const body = reply.body && typeof reply.body === 'object' && !Array.isArray(reply.body) ? reply.body : {};
    if (reply.status === acceptedStatus && Object.hasOwn(body, 'state')) {
      const state = observation(body.state);
      if (keep) this.state = body.state;
      return {
        accepted: true, state,
        events: Object.hasOwn(body, 'events') ? body.events : [],
        feedback: Object.hasOwn(body, 'feedback') ? body.feedback : null,
        reply,
      };
    }
    // why it was refused, beyond the code (capability refusal-reasons): the members given, not null
    const why = {};
    for (const key of ['reason', 'field', 'index', 'move', 'rule']) if (body[key] !== undefined && body[key] !== null) why[key] = body[key];
    return {
      accepted: false,
      refused: Object.hasOwn(body, 'code') ? body.code : `http_${reply.status}`,
      message: Object.hasOwn(body, 'detail') ? body.detail : null,
      events: [], feedback: null, reply, why,
    };
  }

  async newGame({ layout = null, rules = null, errorHelp = true, code = null, language = null } = {}) {
    const body = {};
    if (code !== null && code !== undefined) body.code = code;
    if (layout !== null && layout !== undefined) body.layout = layout;
    if (rules !== null && rules !== undefined) body.rules = rules;
    if (!truthy(errorHelp)) body.error_help = false;
    return this.outcome(await this.request('POST', '/v1/games', body, language), 201);
  }

  play(move, language = null) {
    return this.send(this.state, move, language);
  }

  /** What `move` would do, the game left as it is. */
  probe(move, language = null) {
    return this.send(this.state, move, language, false);
  }

  async send(state, move, language = null, keep = true) {
    const reply = await this.request('POST', '/v1/moves', { state, move: moveJson(move) }, language);
    return this.outcome(reply, 200, keep);
  }

  observe() {
    return this.state === null ? null : observation(this.state);
  }
}

// -- the operations (features/ops.py, class Game) ------------------------------------------------

/** Each op's parameters: required, then optional (with Python's defaults applied in the method). */
const OPS = {
  deal: [[], ['layout', 'rules', 'error_help', 'code']],
  deal_try: [[], ['code', 'rules', 'layout']],
  language: [['language'], []],
  note: [[], []],
  new_game: [[], []],
  deal_own_code: [[], []],
  play: [['moves'], []],
  try: [['move'], []],
  forge: [['path', 'value', 'move'], []],
  forge_without: [['path', 'move'], []],
  refused: [['code'], ['status']],
  refused_as_it_was: [[], []],
  reason: [[], ['reason', 'field', 'index', 'rule', 'move']],
  unchanged: [[], []],
  playable: [['move'], []],
  feedback: [['code'], []],
  message: [['text'], []],
  content_language: [['language'], []],
  removed: [['cards'], ['points']],
  points: [['points'], []],
  event: [['type', 'present'], []],
  undone: [['points'], []],
  undone_action: [['action'], []],
  undone_as_scored: [[], []],
  use_up_passes: [[], []],
  score_change: [['since', 'points'], []],
  history_last: [['action'], []],
  foundation: [['cards'], []],
  code_prefix: [['prefix'], []],
  game_rules: [['rules'], []],
  preset: [['name', 'rules'], []],
  events: [['events'], []],
  expect: [['field', 'value'], []],
  recycled_in_order: [[], []],
  free_cards: [['cards'], []],
  free_cards_by_moves: [['cards'], []],
  as_noted: [[], []],
  same_deal: [['as_of'], []],
  code: [[], ['code']],
  dealt_sequence: [['cards'], []],
  legal_moves: [[], ['equal', 'include', 'exclude']],
  describe: [['language', 'text'], ['prefix']],
  replay: [[], ['moves', 'times']],
  send_replayed: [['move'], []],
  replay_verdict: [['valid', 'played', 'score', 'status'], ['refused']],
  replay_is_the_game: [[], []],
  solve: [[], []],
  solution: [['result', 'max_removable'], []],
  play_line: [[], []],
  follow_hints: [[], []],
  no_pyramid_removal: [[], []],
};

class UnknownOp extends Error {}

const canonical = (move) => (move.includes('+') ? sorted(move.split('+')).join('+') : move);

class Game {
  constructor(driver) {
    this.driver = driver;
    this.language = null;
    this.last = null;
    this.before = null; // the game before the last move tried
    this.noted = null;
    this.dealt = null; // the game as first dealt
    this.dealRules = {}; // the rules the game was dealt under (use_up_passes)
    this.scored = []; // the points of each action played, in order (an undo takes the last)
    this.undoneScored = null;
    this.solution = null;
    this.replayed = null;
  }

  // helpers
  get state() {
    const state = this.driver.observe();
    if (state === null) throw new KitFailure('the game', 'a game in play', 'no game dealt');
    return state;
  }

  pyramidCards(state = null) {
    return get(state ?? this.state, 'pyramid', 'the game').flat().filter(truthy);
  }

  async deal(request) {
    this.scored = [];
    this.dealRules = request.rules && typeof request.rules === 'object' ? request.rules : {}; // (a preset by name: none read)
    this.last = await this.driver.newGame({ ...request, language: this.language });
    if (this.last.accepted && this.dealt === null) this.dealt = this.last.state;
    return this.last;
  }

  async playOne(move) {
    this.before = this.driver.observe();
    this.last = await this.driver.play(move, this.language);
    if (this.last.accepted) this.track(move, this.last.events || []);
    return this.last;
  }

  /** The points each action scored, in order, for an undo to be checked against (undone_as_scored). */
  track(move, events) {
    const types = events.map((event) => event.type);
    if (move === 'undo' && types.includes('undone')) this.undoneScored = this.scored.length ? this.scored.pop() : null;
    else if (types.some((type) => ['removed', 'drawn', 'recycled'].includes(type))) {
      this.scored.push(events.filter((event) => event.type === 'removed').reduce((sum, event) => sum + (event.points ?? 0), 0));
    }
  }

  outcomeOf() {
    if (this.last === null) throw new KitFailure('the last answer', 'an answer', 'no request made');
    return this.last;
  }

  http() {
    if (!(this.driver instanceof HttpDriver)) {
      throw new KitFailure('this check', "Pyramide's HTTP API (capability api)", this.driver?.constructor?.name);
    }
    return this.driver;
  }

  // the one entry point
  async run(op) {
    const name = op?.op;
    if (!Object.hasOwn(OPS, name)) throw new UnknownOp(`unknown op ${pyRepr(name)} (this runner knows: ${Object.keys(OPS).join(', ')})`);
    const [required, optional] = OPS[name];
    const args = Object.fromEntries(Object.entries(op).filter(([key]) => key !== 'op'));
    const unknown = Object.keys(args).filter((key) => !required.includes(key) && !optional.includes(key));
    const missing = required.filter((key) => !Object.hasOwn(args, key));
    if (unknown.length || missing.length) {
      throw new UnknownOp(`op ${pyRepr(name)} with ${unknown.length ? `unknown argument(s) ${unknown.join(', ')}` : ''}` +
        `${unknown.length && missing.length ? ' and ' : ''}${missing.length ? `missing argument(s) ${missing.join(', ')}` : ''}`);
    }
    await this[`op_${name}`](args);
  }

  // setting up
  async op_deal({ layout = null, rules = null, error_help = true, code = null } = {}) {
    const outcome = await this.deal({ layout, rules, errorHelp: error_help, code });
    if (!outcome.accepted) throw new KitFailure('dealing the game', 'a new game', `refused: ${outcome.refused} (${outcome.message})`);
  }

  async op_deal_try({ code = null, rules = null, layout = null }) {
    this.before = this.driver.observe();
    const request = Object.fromEntries(Object.entries({ code, rules, layout }).filter(([, value]) => value !== null));
    await this.deal(request);
  }

  op_language({ language }) {
    this.language = language;
  }

  op_note() {
    this.noted = this.state;
  }

  async op_new_game() {
    this.noted = this.state;
    await this.op_deal();
  }

  async op_deal_own_code() {
    this.noted = this.state;
    await this.op_deal({ code: get(this.noted, 'code', 'the game') });
  }

  // playing
  async op_play({ moves }) {
    for (const move of moves) {
      const outcome = await this.playOne(move);
      if (!outcome.accepted) throw new KitFailure(`playing ${pyRepr(move)}`, 'the move accepted', `refused: ${outcome.refused} (${outcome.message})`);
    }
  }

  async op_use_up_passes() {
    const limit = Object.hasOwn(this.dealRules || {}, 'max_recycles') ? this.dealRules.max_recycles : null;
    if (!Number.isInteger(limit)) throw new KitFailure('the recycle limit of the rules dealt', 'a number of recycles', JSON.stringify(limit));
    for (let pass = 0; pass <= limit; pass += 1) {
      if (pass > 0) await this.op_play({ moves: ['recycle'] });
      await this.op_play({ moves: Array(get(this.state, 'stock', 'the game').length).fill('draw') });
    }
  }

  async op_try({ move }) {
    await this.playOne(move);
  }

  /** Send the game back with one field changed (Pyramide's API only). */
  async op_forge({ path: fieldPath, value, move }) {
    const { forged, target, last } = this.forgedAt(fieldPath);
    target[last] = clone(value);
    await this.sendForged(forged, move);
  }

  /** Send the game back without one field, a member or an item (Pyramide's API only). */
  async op_forge_without({ path: fieldPath, move }) {
    const { forged, target, last } = this.forgedAt(fieldPath);
    if (Array.isArray(target)) target.splice(last, 1);
    else if (Object.hasOwn(target, last)) delete target[last];
    else throw new KitFailure(`the state at ${pyRepr(fieldPath)}`, 'a member to take out', 'none');
    await this.sendForged(forged, move);
  }

  /** A copy of the game as the implementation last returned it, the object or array in it that
   * holds the path's last part, and that part (a member's name or an index). */
  forgedAt(fieldPath) {
    const driver = this.http();
    if (driver.state === null) throw new KitFailure('the game to forge', 'a game in play', 'no game dealt');
    const forged = clone(driver.state);
    const keys = fieldPath.match(/[^.[\]]+/g) ?? [];
    const index = (key) => (/^[0-9]+$/.test(key) ? Number(key) : key);
    let target = forged;
    for (const key of keys.slice(0, -1)) target = get(target, index(key), `the state at ${pyRepr(fieldPath)}`);
    const last = index(keys.at(-1));
    if (Array.isArray(target) && !(typeof last === 'number' && last < target.length)) {
      throw new Error(`the state at ${pyRepr(fieldPath)}: list index out of range`);
    }
    return { forged, target, last };
  }

  async sendForged(forged, move) {
    const driver = this.http();
    if (pyEqual(forged, driver.state)) throw new KitFailure('the forged state', 'a change', 'the same state');
    this.before = driver.observe();
    const state = driver.state;
    this.last = await driver.send(forged, move, this.language);
    if (this.last.accepted) return;
    driver.state = state; // a refused state leaves the game as it was
  }

  // answers
  op_refused({ code, status = null }) {
    const outcome = this.outcomeOf();
    check('the answer', `refused with ${code}`, outcome.accepted ? 'accepted' : `refused with ${outcome.refused}`);
    // the driver is always Pyramide's HTTP API here, so the transport is always checked
    const reply = outcome.reply;
    check('the HTTP status', truthy(status) ? status : 422, reply.status);
    check('the content type', 'application/problem+json', reply.contentType);
    if (this.before !== null) check('the game after a refused move', this.before, this.driver.observe());
  }

  /** Refused, whatever its code, and the game as it was: the boundaries every implementation is judged on. */
  op_refused_as_it_was() {
    const outcome = this.outcomeOf();
    check('the answer', 'refused', outcome.accepted ? 'accepted' : 'refused');
    check('the game after a refused move', this.before, this.driver.observe());
  }

  /** Why the last request was refused, beyond its code (capability refusal-reasons). */
  op_reason({ reason = null, field = null, index = null, rule = null, move = null }) {
    const outcome = this.outcomeOf();
    if (outcome.accepted) throw new KitFailure('the reason of the refusal', 'a refusal', 'accepted');
    const expected = {};
    for (const [key, value] of Object.entries({ reason, field, index, move, rule })) if (value !== null && value !== undefined) expected[key] = value;
    const got = {};
    for (const key of Object.keys(expected)) got[key] = outcome.why?.[key] ?? null;
    check('the reason of the refusal', expected, got);
  }

  op_unchanged() {
    const outcome = this.outcomeOf();
    check('the answer', 'accepted', outcome.accepted ? 'accepted' : `refused: ${outcome.refused}`);
    check('the game after a move that does nothing', this.before, outcome.state);
    check('the events', [], outcome.events);
  }

  /** The move would be accepted now (probed: the game stays as it is). */
  async op_playable({ move }) {
    const outcome = await this.driver.probe(move, this.language);
    check(`playing ${pyRepr(move)} now`, 'accepted', outcome.accepted ? 'accepted' : `refused: ${outcome.refused}`);
  }

  op_feedback({ code }) {
    const outcome = this.outcomeOf();
    check('the answer', 'accepted', outcome.accepted ? 'accepted' : `refused: ${outcome.refused}`);
    check('the feedback', code, feedbackField(outcome.feedback, 'code'));
  }

  op_message({ text }) {
    const outcome = this.outcomeOf();
    const shown = outcome.accepted ? feedbackField(outcome.feedback, 'message') : outcome.message;
    check('the message shown', text, shown);
  }

  op_content_language({ language }) {
    const reply = this.outcomeOf().reply;
    check('Content-Language', language, reply.headers['content-language'] ?? null);
    check('Vary names Accept-Language', true, (reply.headers.vary ?? '').toLowerCase().includes('accept-language'));
  }

  op_removed({ cards, points }) {
    const events = this.outcomeOf().events.filter((event) => get(event, 'type', 'an event') === 'removed');
    check('the cards removed', [sorted(cards)], events.map((event) => sorted(Object.hasOwn(event, 'cards') ? event.cards : [])));
    if (points !== undefined && points !== null) this.op_points({ points });
  }

  op_points({ points }) {
    const events = this.outcomeOf().events.filter((event) => get(event, 'type', 'an event') === 'removed');
    const got = events.map((event) => (Object.hasOwn(event, 'points') ? event.points : null));
    check('the points of the removal', points, got.length === 1 ? got[0] : got);
  }

  op_events({ events }) {
    const written = this.outcomeOf().events.map((event) =>
      [get(event, 'type', 'an event'), ...(Object.hasOwn(event, 'cards') ? event.cards : []), ...(Object.hasOwn(event, 'pile') ? ['onto', event.pile] : [])].join(' '),
    );
    check('the events', events, written);
  }

  op_undone({ points }) {
    const events = this.outcomeOf().events.filter((event) => get(event, 'type', 'an event') === 'undone');
    check("the undone events' points", [-points], events.map((event) => (Object.hasOwn(event, 'points') ? event.points : null)));
  }

  op_score_change({ since, points }) {
    const was = since === 'noted' ? this.noted : this.before;
    if (was === null) throw new KitFailure('the score before', since === 'noted' ? 'a noted game' : 'a move played', 'none');
    const now = this.state;
    check(since === 'noted' ? 'the change of score since the game was noted' : "the last move's change of score", points, get(now, 'score', 'the game') - get(was, 'score', 'the game'));
  }

  op_undone_as_scored() {
    const events = this.outcomeOf().events.filter((event) => get(event, 'type', 'an event') === 'undone');
    if (this.undoneScored === undefined || this.undoneScored === null) throw new KitFailure('the move undone', 'an action played in this game', 'none');
    check("the undone events' points, against what the move scored", [-this.undoneScored], events.map((event) => (Object.hasOwn(event, 'points') ? event.points : null)));
  }

  op_undone_action({ action }) {
    const events = this.outcomeOf().events.filter((event) => get(event, 'type', 'an event') === 'undone');
    check("the undone events' action", [action], events.map((event) => (Object.hasOwn(event, 'action') ? event.action : null)));
  }

  op_code_prefix({ prefix }) {
    const code = String(get(this.state, 'code', 'the game'));
    check("the beginning of the game's code", prefix, code.slice(0, prefix.length));
  }

  op_game_rules({ rules }) {
    check("the game's rules", rules, get(this.http().state, 'rules', 'the game'));
  }

  op_foundation({ cards }) {
    check('the foundation', cards, get(this.http().state, 'foundation', 'the game'));
  }

  op_history_last({ action }) {
    const driver = this.http();
    check('the last action of the undo history', [action], get(driver.state, 'history', 'the game').slice(-1));
  }

  async op_preset({ name, rules }) {
    const reply = await this.http().request('GET', '/v1/rules', null, this.language);
    check('GET /v1/rules', 200, reply.status);
    check(`the preset '${name}'`, rules, ((reply.body ?? {}).presets ?? {})[name] ?? null);
  }

  op_event({ type, present }) {
    const types = this.outcomeOf().events.map((event) => get(event, 'type', 'an event'));
    check(`an event ${pyRepr(type)} among ${pyRepr(types)}`, present, types.includes(type));
  }

  // the game
  op_expect({ field, value }) {
    const state = this.state;
    const waste = () => get(state, 'waste', 'the game');
    const computed = {
      pyramid_left: () => this.pyramidCards(state).length,
      stock_count: () => get(state, 'stock', 'the game').length,
      waste_count: () => waste().length,
      waste_top: () => (waste().length ? waste().at(-1) : null),
      waste: () => [...waste()].reverse(),
      waste_top_cards: () => [...waste()].reverse().slice(0, value.length),
      waste_piles: () => wastePiles(state).map((pile) => [...pile].reverse()),
      rows: () => get(state, 'pyramid', 'the game').filter((row) => row.every((card) => card !== null)).map((row) => row.length),
      all_cards: () => {
        // the cards in play, and the scenario's deck's cards not in play: the deck itself when each
        // card of the game is one of the deck's, once
        const inPlay = [...this.pyramidCards(state), ...state.stock, ...wastePiles(state).flat()];
        const seen = new Set(inPlay);
        return sorted([...inPlay, ...value.filter((card) => !seen.has(card))]);
      },
    };
    const got = Object.hasOwn(computed, field) ? computed[field]() : get(state, field, 'the game');
    check(`the game's ${field}`, value, got);
  }

  op_recycled_in_order() {
    const state = this.state;
    if (this.before === null) throw new Error('recycled_in_order: no move was tried before');
    check('the stock after recycling', wastePiles(this.before).flat(), state.stock);
    check('the waste after recycling', [], wastePiles(state).flat());
  }

  /** A card is free when a tap on it does not answer `card_blocked` (error help on). */
  async op_free_cards({ cards }) {
    const free = [];
    for (const card of this.pyramidCards()) {
      const outcome = await this.driver.probe(`tap:${card}`);
      if (!outcome.accepted) throw new KitFailure(`tapping ${card}`, 'accepted', `refused: ${outcome.refused}`);
      if (feedbackField(outcome.feedback, 'code') !== 'card_blocked') free.push(card);
    }
    check('the free pyramid cards', sorted(cards), sorted(free));
  }

  async op_free_cards_by_moves({ cards }) {
    const state = this.state;
    const waste = get(state, 'waste', 'the game');
    const partner = waste.length ? waste[waste.length - 1] : null;
    const free = [];
    for (const card of this.pyramidCards()) {
      const move = card[0] === 'K' || partner === null ? card : `${card}+${partner}`;
      const outcome = await this.driver.probe(move);
      if (outcome.accepted || outcome.refused !== 'card_blocked') free.push(card);
    }
    check('the free pyramid cards, by moves', sorted(cards), sorted(free));
  }

  op_as_noted() {
    const state = this.state;
    if (this.noted === null) throw new Error('as_noted: nothing was noted');
    for (const key of ['pyramid', 'stock', 'waste', 'score']) check(`the ${key} as noted`, this.noted[key], state[key]);
  }

  op_same_deal({ as_of }) {
    const state = this.state;
    const reference = as_of === 'noted' ? this.noted : this.dealt;
    if (reference === null) throw new Error(`same_deal: no game ${as_of === 'noted' ? 'noted' : 'dealt'}`);
    for (const key of ['pyramid', 'waste', 'stock']) check(`the ${key} dealt`, reference[key], state[key]);
  }

  op_code({ code = null } = {}) {
    if (code === null && this.noted === null) throw new Error('code: nothing was noted');
    if (code === null) {
      // the code noted must be a code: null (or "") would pass "the code is the one noted"
      const noted = this.noted.code;
      check("the game's code, as noted", 'a code', typeof noted === 'string' && noted !== '' ? 'a code' : noted);
    }
    check("the game's code", code !== null ? code : this.noted.code, this.state.code);
  }

  op_dealt_sequence({ cards }) {
    const outcome = this.outcomeOf();
    check('the deal', 'dealt', outcome.accepted ? 'dealt' : `refused: ${outcome.refused}`);
    const state = this.state;
    check('the cards dealt', cards, [...this.pyramidCards(state), ...state.waste, ...state.stock]);
  }

  // Pyramide's API: legal moves and descriptions
  async legalMoves() {
    const driver = this.http();
    const reply = await driver.request('POST', '/v1/legal-moves', { state: driver.state });
    check('POST /v1/legal-moves', 200, reply.status);
    return sorted(get(reply.body, 'moves', 'the legal moves answer').map((move) => canonical(moveText(move))));
  }

  async op_legal_moves({ equal = null, include = null, exclude = null } = {}) {
    const moves = await this.legalMoves();
    if (equal !== null) check('the legal moves', sorted(equal.map(canonical)), moves);
    if (include !== null) check(`${include} among the legal moves ${pyRepr(moves)}`, true, moves.includes(canonical(include)));
    if (exclude !== null) check(`${exclude} among the legal moves ${pyRepr(moves)}`, false, moves.includes(canonical(exclude)));
  }

  async op_describe({ language, text, prefix = false }) {
    const driver = this.http();
    const reply = await driver.request('POST', '/v1/describe', { state: driver.state }, language);
    check('POST /v1/describe', 200, reply.status);
    check('Content-Language', language, reply.headers['content-language'] ?? null);
    const description = get(reply.body, 'description', 'the describe answer');
    check(`the description in ${language}`, text, prefix ? String(description).slice(0, text.length) : description);
  }

  // replay (POST /v1/replay)
  async op_replay({ moves = null, times = 1 }) {
    const driver = this.http();
    if (driver.state === null) throw new KitFailure('the game to replay', 'a game in play', 'no game dealt');
    const once = moves ?? String(driver.state.log).split(' ').filter(Boolean);
    const body = { code: driver.state.code, moves: Array.from({ length: truthy(times) ? times : 1 }, () => once).flat() };
    const reply = await driver.request('POST', '/v1/replay', body, this.language);
    check('POST /v1/replay', 200, reply.status);
    this.replayed = reply.body;
  }

  op_replay_verdict({ valid, played, score, status, refused = null }) {
    const answer = this.replayed ?? {};
    const got = { valid: answer.valid, played: answer.played, score: answer.score, status: answer.status };
    got.refused = answer.refused ? answer.refused.code : null;
    if (answer.refused && answer.refused.index !== answer.played) got.refused += ` at index ${answer.refused.index}`;
    check("the replay's verdict", { valid, played, score, status, refused }, got);
  }

  /** Play `move` from the state the last replay led to: it becomes the game. */
  async op_send_replayed({ move }) {
    const driver = this.http();
    const state = (this.replayed ?? {}).state;
    if (state === null || typeof state !== 'object' || Array.isArray(state)) throw new KitFailure("the replay's state", 'a state', state ?? null);
    driver.state = state;
    const outcome = await this.playOne(move);
    if (!outcome.accepted) throw new KitFailure(`playing ${pyRepr(move)} from the replayed game`, 'the move accepted', `refused: ${outcome.refused} (${outcome.message})`);
  }

  op_replay_is_the_game() {
    const driver = this.http();
    check('the state the replay leads to', { ...driver.state, selected: null }, (this.replayed ?? {}).state);
  }

  // the solver
  async op_solve() {
    const driver = this.http();
    const reply = await driver.request('POST', '/v1/solve', { state: driver.state }, this.language);
    check('POST /v1/solve', 200, reply.status);
    this.solution = reply.body;
  }

  op_solution({ result, max_removable }) {
    if (this.solution === null) throw new Error('solution: nothing was solved');
    const got = [get(this.solution, 'result', 'the solve answer'), get(this.solution, 'max_removable', 'the solve answer')];
    check("the solver's verdict", [result, max_removable], got);
  }

  async op_play_line() {
    if (this.solution === null) throw new Error('play_line: nothing was solved');
    await this.op_play({ moves: get(this.solution, 'line', 'the solve answer').map(moveText) });
  }

  async op_follow_hints() {
    const driver = this.http();
    for (let i = 0; i < 1000; i++) {
      const reply = await driver.request('POST', '/v1/hint', { state: driver.state }, this.language);
      check('POST /v1/hint', 200, reply.status);
      const move = get(reply.body, 'move', 'the hint answer');
      if (move === null) return;
      await this.op_play({ moves: [moveText(move)] });
    }
    throw new KitFailure('the hints', 'an end', 'more than 1000 hints');
  }

  async op_no_pyramid_removal() {
    const inPyramid = new Set(this.pyramidCards());
    for (const move of await this.legalMoves()) {
      const cards = move.includes('+') ? move.split('+') : [move];
      check(`the legal move ${move} leaves the pyramid`, [], sorted(new Set(cards.filter((card) => inPyramid.has(card)))));
    }
  }
}

/** (feedback or {}).get(key) */
function feedbackField(feedback, key) {
  if (!truthy(feedback)) return null;
  return Object.hasOwn(feedback, key) ? feedback[key] : null;
}

// -- the run ----------------------------------------------------------------------------------------

function loadVectors(file) {
  let data;
  try {
    data = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    usage(`cannot read the vectors ${file}: ${error.message}`);
  }
  if (data?.format !== FORMAT) usage(`${file}: vectors of format ${data?.format}, this runner reads format ${FORMAT}`);
  if (!Array.isArray(data.vectors)) usage(`${file}: no "vectors" list`);
  for (const vector of data.vectors) {
    for (const key of ['tags', 'sources', 'rows', 'requires', 'languages']) vector[key] ??= [];
    if (typeof vector.id !== 'string' || !Array.isArray(vector.steps)) usage(`${file}: a vector without an id or steps: ${show(vector)}`);
  }
  return data;
}

/**
 * null when the server answers as Pyramide's API does (GET /healthz, else GET /v1/rules, with a 2xx),
 * else why not. Both probes share one PROBE_MS budget, so a dead address costs at most PROBE_MS.
 */
async function unreachableReason(baseUrl) {
  const deadline = Date.now() + PROBE_MS;
  const answers = [];
  for (const probe of ['/healthz', '/v1/rules']) {
    try {
      const response = await fetch(baseUrl + probe, { headers: { Accept: 'application/json' }, signal: AbortSignal.timeout(Math.max(1, deadline - Date.now())) });
      await response.arrayBuffer();
      if (response.ok) return null;
      answers.push(`GET ${probe}: HTTP ${response.status}`);
    } catch (error) {
      const why = error.name === 'TimeoutError' ? `no answer within ${PROBE_MS / 1000} s` : (error.cause?.code ?? error.cause?.message ?? error.message);
      return `GET ${probe}: ${why}`; // nothing answers at all: no use asking again
    }
  }
  return `${answers.join(', ')}: not a Pyramide API there`;
}

function failureMessage(vector, sentences, index, op, error, otherSentences = {}) {
  const step = vector.steps[index];
  const others = Object.entries(vector.cites ?? {}).flatMap(([document, numbers]) =>
    numbers.map((number) => `  rule ${number} (${document}): «${otherSentences?.[document]?.[String(number)] ?? '(sentence not in the file)'}»`));
  const rules = vector.rows.length || others.length
    ? [...vector.rows.map((row) => `  rule ${row} (000): «${sentences[String(row)]?.['000'] ?? '(sentence not in the file)'}»`), ...others]
    : [`  rule: none cited (tags: ${vector.tags.join(', ')})`];
  const ops = step.ops.length > 1 ? ` [op ${step.ops.indexOf(op) + 1}/${step.ops.length}: ${op.op}]` : '';
  const what = error instanceof KitFailure ? error.message
    : error instanceof UnknownOp ? `RUNNER CANNOT RUN THIS VECTOR: ${error.message}`
    : `error: ${error.message}`;
  return [
    `${vector.id}: ${vector.scenario}`,
    ...rules,
    `  step ${index + 1}/${vector.steps.length}: ${step.step}${ops}`,
    `  ${what}`,
  ].join('\n');
}

/** An AssertionError whose message says it all: no stack of the runner, no actual/expected noise. */
function conformanceFailure(message) {
  const failure = new assert.AssertionError({ message });
  for (const key of ['generatedMessage', 'actual', 'expected', 'operator']) delete failure[key];
  failure.stack = `AssertionError: ${message}`;
  return failure;
}

const settings = options();
const data = loadVectors(settings.vectors);
const known = new Set(Object.keys(data.capabilities ?? {}));
/** One value of a rules option (`option-max-recycles=2`, the value as JSON), declared missing with --without. */
function isOptionValue(name) {
  const [option, ...rest] = name.split('=');
  if (!rest.length || !option.startsWith('option-') || !known.has(option)) return false;
  try {
    JSON.parse(rest.join('='));
    return true;
  } catch {
    return false;
  }
}
/** The values of rules options a vector deals under, named as --without names them. */
const optionValues = (vector) => vector.steps.flatMap((step) => step.ops)
  .filter((op) => (op.op === 'deal' || op.op === 'deal_try') && op.rules && typeof op.rules === 'object')
  .flatMap((op) => Object.entries(op.rules).map(([key, value]) => `option-${key.replaceAll('_', '-')}=${JSON.stringify(value)}`))
  .filter((name) => known.has(name.split('=')[0]));
for (const capability of settings.without) {
  if (!known.has(capability) && !/^lang-[a-z]{2}$/.test(capability) && !isOptionValue(capability)) {
    usage(`--without ${capability}: not a capability of the vectors (${[...known].join(', ')}) nor lang-XX`);
  }
}
const selected = data.vectors.filter((vector) =>
  (!settings.grep.length || settings.grep.some((text) => vector.id.includes(text))) &&
  (!settings.tags.length || settings.tags.some((tag) => vector.tags.includes(tag) || vector.feature === tag)));
if (!selected.length) usage(`no vector of ${settings.vectors} matches the filters`);

const unreachable = await unreachableReason(settings.baseUrl);
if (unreachable !== null) {
  process.stderr.write(`pyramide-js: cannot reach ${settings.baseUrl} (${unreachable})\n`);
  process.exit(2);
}

// The variants of another shape whose preset GET /v1/rules does not list are skipped, as the
// Python kit's HTTP driver does (an API of the app's rules alone lists none of them).
const unlisted = new Set();
{
  let presets = {};
  let defaults = {};
  try {
    const response = await fetch(settings.baseUrl + '/v1/rules', { headers: { Accept: 'application/json' }, signal: AbortSignal.timeout(settings.timeoutMs) });
    if (response.ok) {
      const body = await response.json();
      presets = body?.presets ?? {};
      defaults = body?.default ?? {};
    }
  } catch {
    presets = {};
  }
  // a rules option is offered when the default rules or a preset name it (capability option-…)
  const options = new Set(Object.keys(defaults ?? {}));
  for (const rules of Object.values(presets ?? {})) for (const key of Object.keys(rules ?? {})) options.add(key);
  // refusal-reasons is offered when a refusal says why beyond its code: a layout with a card twice
  // is refused (422) with a "reason" (as the Python kit's HTTP driver asks); asked only when a
  // vector selected needs it
  const asking = (vector) => vector.requires.includes('refusal-reasons') && !settings.without.includes('refusal-reasons');
  if (known.has('refusal-reasons') && selected.some(asking)) {
    let gives = false;
    try {
      const deck = ['C', 'D', 'H', 'S'].flatMap((suit) => [...'A23456789TJQK'].map((rank) => rank + suit));
      const rows = Array.from({ length: 7 }, (_, n) => deck.slice((n * (n + 1)) / 2, ((n + 1) * (n + 2)) / 2));
      const layout = { pyramid: rows, waste: deck.slice(28, 29), stock: [...deck.slice(29), deck[0]] };
      const response = await fetch(settings.baseUrl + '/v1/games', {
        method: 'POST', body: JSON.stringify({ layout }),
        headers: { Accept: 'application/json', 'Content-Type': 'application/json' }, signal: AbortSignal.timeout(settings.timeoutMs),
      });
      const body = await response.json().catch(() => ({}));
      gives = response.status === 422 && typeof body?.reason === 'string' && body.reason !== '';
    } catch {
      gives = false;
    }
    if (!gives) unlisted.add('refusal-reasons');
  }
  for (const capability of known) {
    if (capability.startsWith('variant-') && !Object.hasOwn(presets, capability.slice('variant-'.length))) unlisted.add(capability);
    if (capability.startsWith('option-') && !options.has(capability.slice('option-'.length).replaceAll('-', '_'))) unlisted.add(capability);
  }
}

const results = new Map(); // id -> pass | fail | skip
const started = Date.now();

for (const vector of selected) {
  const lacking = [
    ...vector.requires.filter((capability) => settings.without.includes(capability)),
    ...[...new Set(optionValues(vector))].filter((value) => settings.without.includes(value)),
    ...vector.languages.filter((language) => settings.without.includes(`lang-${language}`)).map((language) => `language ${language}`),
  ];
  const unoffered = vector.requires.filter((capability) => unlisted.has(capability) && !settings.without.includes(capability));
  const skip = lacking.length
    ? `needs ${lacking.join(', ')} (--without)`
    : unoffered.length ? `needs ${unoffered.join(', ')} (a preset GET /v1/rules does not list, a rules option it does not name, or reasons its refusals do not give)` : false;
  if (skip) results.set(vector.id, 'skip');
  test(vector.id, { skip }, async () => {
    results.set(vector.id, 'fail');
    const game = new Game(new HttpDriver(settings.baseUrl, settings.timeoutMs));
    for (const [index, step] of vector.steps.entries()) {
      for (const op of step.ops) {
        try {
          await game.run(op);
        } catch (error) {
          throw conformanceFailure(failureMessage(vector, data.sentences ?? {}, index, op, error, data.other_sentences ?? {}));
        }
      }
    }
    results.set(vector.id, 'pass');
  });
}

process.on('exit', () => {
  const groups = new Map();
  const count = (group, result) => {
    const entry = groups.get(group) ?? { passed: 0, failed: 0, skipped: 0, run: 0 };
    if (result === 'pass') entry.passed += 1;
    else if (result === 'skip') entry.skipped += 1;
    else entry.failed += 1; // a failure, or a test that started and never finished
    if (result !== 'skip') entry.run += 1;
    groups.set(group, entry);
  };
  for (const vector of selected) {
    const result = results.get(vector.id) ?? 'skip';
    count('all', result);
    for (const source of vector.sources.length ? vector.sources : ['(no source tag)']) count(source, result);
  }
  for (const vector of selected) count(`feature ${vector.feature}`, results.get(vector.id) ?? 'skip');
  const table = {};
  for (const [group, entry] of groups) {
    table[group] = { passed: `${entry.passed}/${entry.run}`, failed: entry.failed, skipped: entry.skipped };
  }
  const all = groups.get('all');
  console.log(`\nPyramide conformance vectors (${path.relative(process.cwd(), settings.vectors) || settings.vectors}) against ${settings.baseUrl}: ` +
    `${all.passed}/${all.run} passed, ${all.failed} failed, ${all.skipped} skipped, ${((Date.now() - started) / 1000).toFixed(1)} s`);
  for (const [group, entry] of groups) if (!group.startsWith('feature ')) console.log(`${group}: ${entry.passed}/${entry.run}`);
  console.table(table);
  if (settings.json) {
    // the results as the Python kit's --json writes them (its scenarios' ids, tags and outcomes):
    // scripts/conformance_matrix.py reads both
    const outcome = { pass: 'passed', fail: 'failed', skip: 'skipped' };
    const scenarios = selected.map((vector) => ({
      id: vector.id, scenario: `${vector.feature} › ${vector.scenario}`, outcome: outcome[results.get(vector.id) ?? 'skip'], tags: vector.tags,
    }));
    const counts = { passed: all.passed, failed: all.failed, skipped: all.skipped };
    writeFileSync(settings.json, JSON.stringify({ target: `node features/js/runner.mjs --base-url ${settings.baseUrl}`, counts, scenarios }, null, 1) + '\n');
  }
});
