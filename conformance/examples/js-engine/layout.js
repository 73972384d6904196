'use strict';
// Layout evaluation for American Sniff and Horse Race, written from spec/engine.md and the
// rules digest: a second, independent implementation (it recounts the whole layout after
// each placement instead of updating it incrementally as the Python reference does).

// The only rule parameters layout evaluation needs (spec/games/<game>.yaml, copied by hand
// because plain JavaScript has no YAML parser; a real engine would read the files).
// `continuation`: which tiles played from hand let the turn go on (HR-CONT-1/2; none in Sniff).
const GAMES = {
  'american-sniff': {
    spinnerPolicy: 'first-double', openBranchCounts: 'one-half', displayDivisor: 1, continuation: null,
  },
  'horse-race': {
    spinnerPolicy: 'every-double', openBranchCounts: 'zero', displayDivisor: 5,
    continuation: { fromHandDouble: true, fromHandScoring: true },
  },
};
// Shared by the whole Fives family: a positive sum that is a multiple of 5 scores.
const SCORE_MULTIPLE = 5;
const MAX_PIP = 6;

const SIDES = ['low', 'high', 'line-a', 'line-b', 'branch-a', 'branch-b'];
const ENDS = ['low', 'high'];
const LINES = ['line-a', 'line-b'];
const BRANCHES = ['branch-a', 'branch-b'];
const RECORD_KEYS = new Set(['tile', 'to', 'side']);

/** A rules illegality: becomes the answer `{error: {index, code, message}}`. */
class Illegal extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}

/** "[1|4]", "[4|1]" or "1-4" -> {low, high, key}; the key is always written low first. */
function parseTile(text, what) {
  if (typeof text !== 'string') {
    throw new Illegal('malformed-tile', `${what} must be a string like "[1|4]", got ${JSON.stringify(text)}`);
  }
  const m = /^\s*(?:\[\s*(\d+)\s*\|\s*(\d+)\s*\]|(\d+)\s*-\s*(\d+))\s*$/.exec(text);
  if (!m) throw new Illegal('malformed-tile', `${what} ${JSON.stringify(text)} is not tile notation ("[a|b]" or "a-b")`);
  const a = Number(m[1] ?? m[3]);
  const b = Number(m[2] ?? m[4]);
  if (a > MAX_PIP || b > MAX_PIP) {
    throw new Illegal('malformed-tile', `${what} ${JSON.stringify(text)} is not in the double-six set`);
  }
  const low = Math.min(a, b);
  const high = Math.max(a, b);
  return { low, high, key: `[${low}|${high}]` };
}

const isDouble = (t) => t.low === t.high;
const sidesOf = (t) => (isDouble(t) ? [...LINES, ...BRANCHES] : ENDS);
// The pip value a tile joining `side` must match: the high end is the high half, every
// other side (low end, any side of a double) is the low half.
const valueAt = (t, side) => (side === 'high' ? t.high : t.low);

/** A placement record -> {tile, to, side}: its shape and notation, steps 2 to 6 of spec/engine.md, "Illegal placements". */
function parseRecord(rec, index) {
  if (rec === null || typeof rec !== 'object' || Array.isArray(rec)) {
    throw new Illegal('malformed-placement', `a placement is an object {tile, to, side}, got ${JSON.stringify(rec)}`);
  }
  // an unknown key is refused whatever its value, null included (spec/engine.md, Input forms)
  const extra = Object.keys(rec).filter((k) => !RECORD_KEYS.has(k));
  if (extra.length) throw new Illegal('malformed-placement', `unexpected key(s) ${extra.join(', ')}`);
  // a known key whose value is null counts as absent: `"to": null` is an opening
  rec = Object.fromEntries(Object.entries(rec).filter(([, v]) => v !== null));
  if (!('tile' in rec)) throw new Illegal('malformed-placement', 'the placement has no tile');
  if (('to' in rec) !== ('side' in rec)) throw new Illegal('malformed-placement', '`to` and `side` go together');
  const tile = parseTile(rec.tile, 'tile');
  if (!('to' in rec)) {
    // read first, then checked against the layout: a later record's tile notation is judged
    // before its missing `to` (spec/engine.md, Illegal placements)
    if (index > 0) {
      throw new Illegal('malformed-placement', 'only the opening joins nothing: a later placement needs `to` and `side`');
    }
    return { tile, to: null, side: null };
  }
  const to = parseTile(rec.to, 'to');
  if (!SIDES.includes(rec.side)) {
    throw new Illegal('unknown-side', `unknown side ${JSON.stringify(rec.side)}: one of ${SIDES.join(', ')}`);
  }
  return { tile, to, side: rec.side };
}

class Layout {
  /** `game`: a game id of GAMES, or a rules object of the same shape (the puzzle page passes
   *  one built from spec/games/ by the Python package). */
  constructor(game) {
    this.rules = typeof game === 'string' ? GAMES[game] : game;
    this.nodes = new Map(); // key -> {tile, spinner, occupied: {side: key}, parent, parentSide, joinedSide}
    this.order = []; // keys in play order
    this.spinners = []; // keys in play order
  }

  bothLines(node) {
    return LINES.every((s) => s in node.occupied);
  }

  /** Spec checks 4-10, then place. */
  place(p) {
    const { tile, to, side } = p;
    if (this.nodes.has(tile.key)) throw new Illegal('tile-already-placed', `${tile.key} is already on the table`);
    if (this.order.length === 0) {
      if (to) throw new Illegal('target-not-in-layout', `the opening joins nothing, yet names ${to.key}`);
      this.add(tile, null, null, null);
      return;
    }
    const target = this.nodes.get(to.key);
    if (!target) throw new Illegal('target-not-in-layout', `${to.key} is not on the table`);
    if (!sidesOf(to).includes(side)) throw new Illegal('no-such-side', `${to.key} has no ${side} side`);
    if (side in target.occupied) {
      throw new Illegal('side-occupied', `${to.key} ${side} already holds ${target.occupied[side]}`);
    }
    if (BRANCHES.includes(side)) {
      if (!target.spinner) throw new Illegal('branch-of-non-spinner', `${to.key} is not a spinner: it has no branches`);
      if (!this.bothLines(target)) {
        throw new Illegal('branch-before-lines', `${to.key} ${side}: both line sides must be occupied first`);
      }
    }
    const need = valueAt(to, side);
    if (tile.low !== need && tile.high !== need) {
      throw new Illegal('value-mismatch', `${tile.key} has no ${need} for ${to.key} ${side}`);
    }
    // a double joins by its line A; a non-double by the end that matches
    const joined = isDouble(tile) ? 'line-a' : (tile.low === need ? 'low' : 'high');
    target.occupied[side] = tile.key;
    this.add(tile, to.key, side, joined);
  }

  add(tile, parent, parentSide, joinedSide) {
    const spinner = isDouble(tile) &&
      (this.rules.spinnerPolicy === 'every-double' || this.spinners.length === 0);
    const occupied = joinedSide ? { [joinedSide]: parent } : {};
    this.nodes.set(tile.key, { tile, spinner, occupied, parent, parentSide, joinedSide });
    this.order.push(tile.key);
    if (spinner) this.spinners.push(tile.key);
  }

  /** Free sides a tile may join now, each with the value it needs. */
  positions() {
    const out = [];
    for (const node of this.nodes.values()) {
      const t = node.tile;
      let open = isDouble(t) ? [...LINES] : [...ENDS];
      if (node.spinner && this.bothLines(node)) open = open.concat(BRANCHES);
      for (const side of open) {
        if (!(side in node.occupied)) out.push({ tile: t.key, side, value: valueAt(t, side) });
      }
    }
    return sortEntries(out);
  }

  /** Every legal placement of `tiles` (parsed tiles): on an empty table the opening with any
   *  of them, otherwise each free side whose value the tile has (mirror sides included). */
  legalPlacements(tiles) {
    const out = [];
    const free = this.order.length ? this.positions() : [];
    for (const tile of tiles) {
      if (this.nodes.has(tile.key)) continue;
      if (!this.order.length) {
        out.push({ tile: tile.key });
        continue;
      }
      for (const p of free) {
        if (tile.low === p.value || tile.high === p.value) out.push({ tile: tile.key, to: p.tile, side: p.side });
      }
    }
    return out;
  }

  /** Undo the last placement (the puzzle page's undo; positions and sums are recounted anyway). */
  undo() {
    const key = this.order.pop();
    if (key === undefined) return;
    const node = this.nodes.get(key);
    this.nodes.delete(key);
    if (node.parent !== null) delete this.nodes.get(node.parent).occupied[node.parentSide];
    if (this.spinners[this.spinners.length - 1] === key) this.spinners.pop();
  }

  /** The counted ends: what enters the sum. */
  contributions() {
    const out = [];
    for (const node of this.nodes.values()) {
      const t = node.tile;
      if (!isDouble(t)) {
        for (const side of ENDS) if (!(side in node.occupied)) out.push({ tile: t.key, value: valueAt(t, side), side });
      } else if (!this.bothLines(node)) {
        out.push({ tile: t.key, value: 2 * t.low }); // an end double counts both halves, once
      } else if (node.spinner && this.rules.openBranchCounts === 'one-half') {
        for (const side of BRANCHES) if (!(side in node.occupied)) out.push({ tile: t.key, value: t.low, side });
      } // else: internal double, unused branches count 0
    }
    return sortEntries(out);
  }

  sum() {
    return this.contributions().reduce((s, c) => s + c.value, 0);
  }

  raw() {
    const s = this.sum();
    return this.order.length && s > 0 && s % SCORE_MULTIPLE === 0 ? s : 0;
  }

  connections() {
    return this.order.slice(1).map((key) => {
      const n = this.nodes.get(key);
      return { to: n.parent, side: n.parentSide, tile: key, tile_side: n.joinedSide };
    });
  }
}

/** Whether `tile`, just played from hand for `raw` points, lets the turn go on (HR-CONT-1/2). */
function grantsContinuation(rules, tile, raw) {
  const c = rules.continuation;
  return Boolean(c && ((c.fromHandDouble && isDouble(tile)) || (c.fromHandScoring && raw > 0)));
}

function sortEntries(list) {
  const rank = (e) => [Number(e.tile[1]), Number(e.tile[3]), e.side ? SIDES.indexOf(e.side) : -1];
  return list.sort((x, y) => {
    const a = rank(x);
    const b = rank(y);
    return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
  });
}

/** The `evaluate` answer for a list of placement records (spec/engine.md "Output"). */
function evaluate(game, placements) {
  if (!Array.isArray(placements)) {
    return { error: { index: null, code: 'malformed-placement', message: 'the placements must be a list' } };
  }
  const layout = new Layout(game);
  const scores = [];
  for (let i = 0; i < placements.length; i++) {
    try {
      layout.place(parseRecord(placements[i], i));
    } catch (e) {
      if (e instanceof Illegal) return { error: { index: i, code: e.code, message: `placement ${i}: ${e.message}` } };
      throw e;
    }
    scores.push(layout.raw());
  }
  const raw = layout.raw();
  return {
    game,
    tiles: [...layout.order],
    spinners: [...layout.spinners],
    connections: layout.connections(),
    positions: layout.positions(),
    contributions: layout.contributions(),
    sum: layout.sum(),
    raw,
    display: raw / layout.rules.displayDivisor,
    scores,
  };
}

module.exports = { GAMES, Illegal, Layout, evaluate, grantsContinuation, parseRecord, parseTile };
