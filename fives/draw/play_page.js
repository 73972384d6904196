'use strict';
// The puzzle player of `fives book --interactive` (spec/pictures.md, "Interactive page").
// FivesEngine is conformance/examples/js-engine/layout.js, included unchanged by the page
// builder; this file only draws and drives play. Geometry follows fives/geometry.py: the
// table's tiles come placed by the Python renderer, each new tile hangs on its parent's
// socket (straight, else turning left or right, else a stretched joint).
(function () {
  const E = FivesEngine;
  const DATA = JSON.parse(document.getElementById('fives-data').textContent);
  const SHORT = 2, LONG = 4, PX = 15, MARGIN = 12;
  const C = DATA.colours;
  const LINES = ['line-a', 'line-b'];
  const SIDE_WORDS = DATA.sideWords;

  // -- geometry (a port of fives/geometry.py's place/opening) ---------------------------
  const left = (d) => [d[1], -d[0]];
  const right = (d) => [-d[1], d[0]];
  const neg = (d) => [-d[0], -d[1]];
  const add = (p, d, k) => [p[0] + k * d[0], p[1] + k * d[1]];
  function rect(p, d, along, across) {
    const n = left(d), xs = [], ys = [];
    for (const a of along) for (const c of across) { xs.push(p[0] + a * d[0] + c * n[0]); ys.push(p[1] + a * d[1] + c * n[1]); }
    return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
  }
  const union = (a, b) => [Math.min(a[0], b[0]), Math.min(a[1], b[1]), Math.max(a[2], b[2]), Math.max(a[3], b[3])];
  const overlaps = (a, b) => a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3];
  const front = (s) => rect(s.point, s.direction, [0, SHORT], [-SHORT / 2, SHORT / 2]);

  function place(tile, joined, socket, turn, gap) {
    if (gap) {
      const g = place(tile, joined, { point: add(socket.point, socket.direction, gap), direction: socket.direction }, turn, 0);
      g.jointLine = [socket.point, add(socket.point, socket.direction, gap)];
      return g;
    }
    const p = socket.point, d = socket.direction;
    if (tile.low === tile.high) {
      const n = left(d), r = right(d), b = add(p, d, 1);
      return {
        box: rect(p, d, [0, SHORT], [-SHORT, SHORT]),
        halves: [[rect(p, d, [0, SHORT], [0, SHORT]), tile.low], [rect(p, d, [0, SHORT], [-SHORT, 0]), tile.low]],
        sockets: {
          'line-a': { point: p, direction: neg(d) }, 'line-b': { point: add(p, d, SHORT), direction: d },
          'branch-a': { point: add(b, n, SHORT), direction: n }, 'branch-b': { point: add(b, r, SHORT), direction: r },
        },
      };
    }
    const near = joined || 'low', far = near === 'low' ? 'high' : 'low';
    const value = (s) => (s === 'low' ? tile.low : tile.high);
    if (turn === 'straight' || turn === 'opening') {
      return {
        box: rect(p, d, [0, LONG], [-1, 1]),
        halves: [[rect(p, d, [0, SHORT], [-1, 1]), value(near)], [rect(p, d, [SHORT, LONG], [-1, 1]), value(far)]],
        sockets: { [near]: { point: p, direction: neg(d) }, [far]: { point: add(p, d, LONG), direction: d } },
      };
    }
    const e = turn === 'left' ? left(d) : right(d);
    const nearBox = rect(p, d, [0, SHORT], [-1, 1]);
    const farBox = rect(add(p, e, SHORT), d, [0, SHORT], [-1, 1]);
    return {
      box: union(nearBox, farBox), halves: [[nearBox, value(near)], [farBox, value(far)]],
      sockets: { [near]: { point: p, direction: neg(d) }, [far]: { point: add(add(p, d, 1), e, 3), direction: e } },
    };
  }

  function opening(tile) {
    const dbl = tile.low === tile.high;
    return place(tile, dbl ? 'line-a' : 'low', { point: [dbl ? -1 : -2, 0], direction: [1, 0] }, 'opening', 0);
  }

  /** Where a new tile goes: the first way that overlaps no tile already drawn. */
  function hang(state, tile, to, side, joined) {
    if (!to) return opening(tile);
    const socket = state.geo.get(to).sockets[side];
    const boxes = [...state.geo.values()].map((g) => g.box);
    const free = (g) => !boxes.some((b) => overlaps(b, g.box));
    const turns = tile.low === tile.high ? ['straight'] : ['straight', 'left', 'right'];
    for (const gap of [0, SHORT, 2 * SHORT]) {
      for (const t of turns) {
        const g = place(tile, joined, socket, t, gap);
        if (free(g)) return g;
      }
    }
    return place(tile, joined, socket, 'straight', 0); // nowhere free: overlap rather than fail
  }

  // -- marks (a port of fives/svg.py's layout_marks) -------------------------------------
  function marks(layout) {
    const out = [], covered = new Set();
    for (const c of layout.contributions()) {
      if (c.side === undefined) {
        const occ = layout.nodes.get(c.tile).occupied;
        const free = LINES.filter((s) => !(s in occ));
        free.forEach((s) => covered.add(`${c.tile} ${s}`));
        out.push({ kind: 'counted', tile: c.tile, side: 'whole', at: free.length ? free[free.length - 1] : null, value: c.value });
      } else {
        covered.add(`${c.tile} ${c.side}`);
        out.push({ kind: 'counted', tile: c.tile, side: c.side, at: c.side, value: c.value });
      }
    }
    for (const p of layout.positions()) {
      if (!covered.has(`${p.tile} ${p.side}`)) out.push({ kind: 'open', tile: p.tile, side: p.side, at: p.side, value: p.value });
    }
    return out;
  }

  // -- drawing ----------------------------------------------------------------------------
  const n2 = (v) => String(Math.round(v * 100) / 100);
  const PIPS = { 0: [], 1: [[0, 0]], 2: [[-1, -1], [1, 1]], 3: [[-1, -1], [0, 0], [1, 1]], 4: [[-1, -1], [1, -1], [-1, 1], [1, 1]],
    5: [[-1, -1], [1, -1], [0, 0], [-1, 1], [1, 1]], 6: [[-1, -1], [0, -1], [1, -1], [-1, 1], [0, 1], [1, 1]] };
  const esc = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');

  function tileSvg(cv, key, g, order, fresh) {
    const [x0, y0, x1, y1] = g.box;
    const out = [`<g class="tile" data-tile="${esc(key)}" data-order="${order}"${fresh ? ' data-new="true"' : ''}>`,
      `<rect class="tile-body" x="${n2(cv.x(x0) + 3)}" y="${n2(cv.y(y0) + 3)}" width="${n2((x1 - x0) * PX - 6)}" ` +
      `height="${n2((y1 - y0) * PX - 6)}" rx="4" fill="${fresh ? C.new : C.tile}" stroke="${C.ink}" stroke-width="1.5"/>`];
    const [[a], [b]] = g.halves;
    if (a[2] === b[0] || b[2] === a[0]) {
      const xm = cv.x(a[2] === b[0] ? a[2] : a[0]);
      out.push(`<line x1="${n2(xm)}" y1="${n2(cv.y(Math.max(a[1], b[1])) + 6)}" x2="${n2(xm)}" y2="${n2(cv.y(Math.min(a[3], b[3])) - 6)}" stroke="${C.ink}" stroke-width="1.2"/>`);
    } else {
      const ym = cv.y(a[3] === b[1] ? a[3] : a[1]);
      out.push(`<line x1="${n2(cv.x(Math.max(a[0], b[0])) + 6)}" y1="${n2(ym)}" x2="${n2(cv.x(Math.min(a[2], b[2])) - 6)}" y2="${n2(ym)}" stroke="${C.ink}" stroke-width="1.2"/>`);
    }
    const horizontal = x1 - x0 > y1 - y0;
    for (const [h, v] of g.halves) {
      const cx = cv.x((h[0] + h[2]) / 2), cy = cv.y((h[1] + h[3]) / 2);
      for (const [i, j] of PIPS[v]) {
        const [dx, dy] = horizontal ? [i, j] : [j, i];
        out.push(`<circle class="pip" cx="${n2(cx + 7.5 * dx)}" cy="${n2(cy + 7.5 * dy)}" r="2.6" fill="${C.ink}"/>`);
      }
    }
    out.push('</g>');
    return out.join('');
  }

  function markCentre(cv, g, at) {
    if (at === null) return [cv.x((g.box[0] + g.box[2]) / 2), cv.y((g.box[1] + g.box[3]) / 2)];
    const s = g.sockets[at];
    return [cv.x(s.point[0] + s.direction[0]), cv.y(s.point[1] + s.direction[1])];
  }

  function draw(state) {
    const { layout } = state;
    const ms = marks(layout);
    const targets = state.selected ? state.legal : [];
    let content = state.order().length ? null : [-2, -2, 2, 2];
    for (const g of state.geo.values()) content = content ? union(content, g.box) : g.box;
    for (const m of ms) if (m.at) content = union(content, front(state.geo.get(m.tile).sockets[m.at]));
    for (const t of targets) if (t.to) content = union(content, front(state.geo.get(t.to).sockets[t.side]));
    if (state.base) content = union(content, state.base);
    const cv = { x: (u) => MARGIN + (u - content[0]) * PX, y: (u) => MARGIN + (u - content[1]) * PX };
    const w = (content[2] - content[0]) * PX + 2 * MARGIN, h = (content[3] - content[1]) * PX + 2 * MARGIN;
    const out = [`<svg xmlns="http://www.w3.org/2000/svg" class="fives-layout" data-game="${esc(state.p.game)}" data-tiles="${state.order().length}" ` +
      `width="${n2(w)}" height="${n2(h)}" viewBox="0 0 ${n2(w)} ${n2(h)}" role="img"><title>${esc(state.summary())}</title>`,
    `<rect class="page" x="0" y="0" width="${n2(w)}" height="${n2(h)}" fill="#ffffff"/>`];
    const joints = [];
    const tiles = state.order().map((key, i) => {
      const g = state.geo.get(key);
      if (g.jointLine) joints.push(g.jointLine);
      return tileSvg(cv, key, g, i, state.fresh.has(key));
    });
    for (const [[ax, ay], [bx, by]] of joints) {
      out.push(`<line class="joint" x1="${n2(cv.x(ax))}" y1="${n2(cv.y(ay))}" x2="${n2(cv.x(bx))}" y2="${n2(cv.y(by))}" stroke="${C.ink}" stroke-width="3" stroke-dasharray="3 2"/>`);
    }
    out.push('<g class="tiles">', ...tiles, '</g><g class="spinners">');
    for (const key of layout.spinners) {
      const [x0, y0, x1, y1] = state.geo.get(key).box;
      out.push(`<rect class="spinner-frame" data-tile="${esc(key)}" x="${n2(cv.x(x0) + 1.25)}" y="${n2(cv.y(y0) + 1.25)}" width="${n2((x1 - x0) * PX - 2.5)}" height="${n2((y1 - y0) * PX - 2.5)}" rx="5" fill="none" stroke="${C.spinner}" stroke-width="2.5"/>`);
    }
    out.push('</g><g class="marks">');
    for (const m of ms) {
      const [cx, cy] = markCentre(cv, state.geo.get(m.tile), m.at);
      const attrs = `data-tile="${esc(m.tile)}" data-side="${m.side}" data-value="${m.value}"`;
      out.push(m.kind === 'counted'
        ? `<g class="mark-counted" ${attrs}><circle cx="${n2(cx)}" cy="${n2(cy)}" r="11" fill="${C.counted}"/><text x="${n2(cx)}" y="${n2(cy + 4.5)}" text-anchor="middle" font-size="13" font-weight="bold" fill="#ffffff">${m.value}</text></g>`
        : `<circle class="mark-open" ${attrs} cx="${n2(cx)}" cy="${n2(cy)}" r="6" fill="#ffffff" stroke="${C.counted}" stroke-width="2"/>`);
    }
    out.push('</g><g class="targets">');
    targets.forEach((t, i) => {
      const [cx, cy] = t.to ? markCentre(cv, state.geo.get(t.to), t.side) : [cv.x(0), cv.y(0)];
      out.push(`<circle class="target" data-index="${i}" data-to="${esc(t.to || '')}" data-side="${esc(t.side || '')}" tabindex="0" role="button" ` +
        `aria-label="${esc(state.words(t))}" cx="${n2(cx)}" cy="${n2(cy)}" r="13" fill="${C.target}" fill-opacity="0.35" stroke="${C.targetStroke}" stroke-width="3"/>`);
    });
    out.push('</g></svg>');
    state.card.querySelector('.diagram').innerHTML = out.join('');
  }

  // -- play ---------------------------------------------------------------------------------
  const points = (rules, raw) => raw / rules.displayDivisor;
  const same = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);

  class Player {
    constructor(p, card) {
      this.p = p;
      this.card = card;
      this.rules = DATA.rules[p.game];
      this.timer = null;
      this.reset();
    }

    order() { return this.layout.order; }

    reset() {
      clearTimeout(this.timer);
      this.layout = new E.Layout(this.rules);
      placeAll(this.layout, this.p.layout);
      this.geo = new Map(Object.entries(this.p.geometry));
      this.base = this.p.content;
      this.hand = this.p.tiles.slice();
      this.steps = [];
      this.fresh = new Set();
      this.selected = null;
      this.legal = [];
      this.done = false;
    }

    summary() {
      const s = this.layout.sum(), raw = this.layout.raw();
      return this.order().length ? `Sum ${s}: scores ${raw}` : 'Empty layout';
    }

    words(t) {
      return t.to ? `${t.tile} on ${t.to} ${SIDE_WORDS[t.side]}` : `open with ${t.tile}`;
    }

    select(key) {
      if (this.done || !this.hand.includes(key)) return;
      this.selected = this.selected === key ? null : key;
      this.legal = this.selected ? this.layout.legalPlacements([E.parseTile(key, 'tile')]) : [];
      this.show(this.selected && !this.legal.length ? `${key} fits nowhere on the table.` : null);
    }

    play(rec) {
      const tile = E.parseTile(rec.tile, 'tile');
      if (this.done || !this.hand.includes(tile.key)) return false;
      try {
        this.layout.place(E.parseRecord(rec, this.order().length));
      } catch (e) {
        if (e instanceof E.Illegal) { this.show(`Not legal: ${e.message}.`); return false; }
        throw e;
      }
      const node = this.layout.nodes.get(tile.key);
      this.geo.set(tile.key, hang(this, tile, rec.to, rec.side, node.joinedSide));
      this.fresh.add(tile.key);
      this.hand = this.hand.filter((k) => k !== tile.key);
      const raw = this.layout.raw();
      this.steps.push({ rec, raw, points: points(this.rules, raw) });
      this.selected = null;
      this.legal = [];
      this.done = this.finished(tile, raw);
      this.show(null);
      return true;
    }

    finished(tile, raw) {
      const k = this.p.kind;
      if (k === 'single') return true;
      const more = this.hand.length && this.layout.legalPlacements(this.hand.map((t) => E.parseTile(t, 'tile'))).length;
      if (k === 'turn') return !(E.grantsContinuation(this.rules, tile, raw) && more);
      return !more;
    }

    undo() {
      clearTimeout(this.timer);
      const last = this.steps.pop();
      if (!last) return;
      this.layout.undo();
      this.geo.delete(E.parseTile(last.rec.tile, 'tile').key);
      this.hand = this.p.tiles.filter((t) => t === E.parseTile(last.rec.tile, 'tile').key || this.hand.includes(t));
      this.done = false;
      this.selected = null;
      this.legal = [];
      this.show(null);
    }

    verdict() {
      const pts = this.steps.map((s) => s.points), p = this.p, unit = this.rules.unit;
      if (p.kind === 'build') {
        const ok = !this.hand.length && same(pts, p.target);
        return [ok, ok ? `Solved: the placements score ${pts.join(', ')} ${unit}, as asked.`
          : `Not this way: the placements score ${pts.join(', ') || 'nothing'}${this.hand.length ? ' and tiles are left over' : ''}; the target is ${p.target.join(', ')}.`];
      }
      const total = pts.reduce((a, b) => a + b, 0);
      const what = p.kind === 'turn' ? 'the turn scores' : 'the placement scores';
      return total === p.target ? [true, `Solved: ${what} exactly ${total} ${unit}.`]
        : [false, `Not this one: ${what} ${total} ${unit}; the target is ${p.target}.`];
    }

    show(note) {
      const card = this.card, status = card.querySelector('.status');
      draw(this);
      card.querySelectorAll('.hand-buttons button').forEach((b) => {
        const placed = !this.hand.includes(b.dataset.tile);
        b.disabled = placed || this.done;
        b.classList.toggle('placed', placed);
        b.setAttribute('aria-pressed', String(b.dataset.tile === this.selected));
      });
      const choices = card.querySelector('.choices');
      choices.innerHTML = '';
      this.legal.forEach((t, i) => {
        const b = document.createElement('button');
        b.type = 'button';
        b.className = 'choice';
        b.dataset.index = String(i);
        b.textContent = this.words(t);
        choices.appendChild(b);
      });
      const last = this.steps[this.steps.length - 1];
      let text = note || '';
      let cls = 'status';
      if (!note && this.done) {
        const [ok, msg] = this.verdict();
        text = msg;
        cls += ok ? ' solved' : ' wrong';
        card.dataset.result = ok ? 'solved' : 'wrong';
      } else {
        delete card.dataset.result;
        if (!note && last) text = `${this.words(last.rec)}: ${last.points} ${this.rules.unit}. ${this.p.kind === 'turn' ? 'The turn goes on: place again.' : 'Place the next tile.'}`;
        if (!note && !last) text = this.p.kind === 'build' ? 'Choose the opening tile.' : 'Choose a tile from the hand.';
        if (!note && this.selected) text = `Where does ${this.selected} go? Click a highlighted position.`;
      }
      status.className = cls;
      status.textContent = text;
      card.querySelector('.counted').textContent = this.order().length
        ? `Counted ends sum to ${this.layout.sum()}` + (this.steps.length ? `; placements so far: ${this.steps.map((s) => s.points).join(', ')}` : '') : '';
    }

    solution() {
      this.reset();
      this.show('Playing the solution…');
      const steps = this.p.solution.slice();
      const next = () => {
        const rec = steps.shift();
        if (!rec) return;
        this.play(rec);
        if (steps.length) this.timer = setTimeout(next, DATA.stepMs);
      };
      this.timer = setTimeout(next, DATA.stepMs);
    }
  }

  function placeAll(layout, records) {
    records.forEach((rec, i) => layout.place(E.parseRecord(rec, i)));
  }

  /** Replays the stated answer with the embedded engine: null if it checks out, else why not. */
  function selfCheck(p) {
    const rules = DATA.rules[p.game];
    const layout = new E.Layout(rules);
    try {
      placeAll(layout, p.layout);
      let hand = p.tiles.slice();
      const pts = [];
      let prev = null, raw = 0; // the tile placed before and the raw points it made
      for (const [i, rec] of p.solution.entries()) {
        const tile = E.parseTile(rec.tile, 'tile');
        if (!hand.includes(tile.key)) return `step ${i + 1}: ${tile.key} is not in the hand`;
        if (p.kind === 'turn' && prev && !E.grantsContinuation(rules, prev, raw)) return `step ${i + 1}: the turn was over`;
        layout.place(E.parseRecord(rec, layout.order.length));
        hand = hand.filter((k) => k !== tile.key);
        raw = layout.raw();
        prev = tile;
        pts.push(points(rules, raw));
      }
      if (!same(pts, p.solution_points)) return `the engine scores ${pts.join(', ')}, the page states ${p.solution_points.join(', ')}`;
      const total = pts.reduce((a, b) => a + b, 0);
      if (p.kind === 'build' ? !same(pts, p.target) || hand.length : p.kind === 'turn' ? total !== p.target : pts.length !== 1 || total !== p.target) {
        return `the stated answer scores ${pts.join(', ')}, not the target ${p.target}`;
      }
      if (p.kind === 'turn' && hand.length) {
        const more = layout.legalPlacements(hand.map((t) => E.parseTile(t, 'tile'))).length;
        if (E.grantsContinuation(rules, prev, raw) && more) return 'the turn is not over after the stated answer';
      }
    } catch (e) {
      return `the stated answer is illegal: ${e.message}`;
    }
    return null;
  }

  // -- wiring --------------------------------------------------------------------------------
  const players = new Map();
  let verified = 0;
  for (const p of DATA.puzzles) {
    const card = document.getElementById(`puzzle-${p.id}`);
    const problem = selfCheck(p);
    if (problem) {
      const warn = card.querySelector('.warning');
      warn.hidden = false;
      warn.textContent = `This puzzle does not check out in the page's engine: ${problem}.`;
    } else {
      verified += 1;
    }
    const player = new Player(p, card);
    players.set(p.id, player);
    card.querySelector('.hand-buttons').addEventListener('click', (ev) => {
      const b = ev.target.closest('button');
      if (b) player.select(b.dataset.tile);
    });
    const pick = (i) => { const t = player.legal[Number(i)]; if (t) player.play(t); };
    card.querySelector('.choices').addEventListener('click', (ev) => {
      const b = ev.target.closest('button');
      if (b) pick(b.dataset.index);
    });
    const diagram = card.querySelector('.diagram');
    diagram.addEventListener('click', (ev) => {
      const t = ev.target.closest('.target');
      if (t) pick(t.dataset.index);
    });
    diagram.addEventListener('keydown', (ev) => {
      const t = ev.target.closest('.target');
      if (t && (ev.key === 'Enter' || ev.key === ' ')) { ev.preventDefault(); pick(t.dataset.index); }
    });
    card.querySelector('.undo').addEventListener('click', () => player.undo());
    card.querySelector('.reset').addEventListener('click', () => { player.reset(); player.show(null); });
    card.querySelector('.show-solution').addEventListener('click', () => player.solution());
  }
  const filter = document.getElementById('theme-filter');
  if (filter) {
    filter.addEventListener('change', () => {
      let shown = 0;
      for (const card of document.querySelectorAll('article.puzzle')) {
        const on = !filter.value || card.dataset.themes.split(' ').includes(filter.value);
        card.hidden = !on;
        shown += on;
      }
      document.getElementById('theme-count').textContent = `${shown} shown`;
    });
  }
  window.fivesPlayers = players; // for scripted use and the browser test
  document.body.dataset.verified = String(verified);
}());
