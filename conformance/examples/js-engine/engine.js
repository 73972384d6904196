#!/usr/bin/env node
'use strict';
// An example third-party engine speaking the fives engine protocol (spec/protocol.md):
// one JSON object per line on stdin, one JSON reply per line on stdout, logs on stderr.
// It declares the `evaluate` and `legal-placements` capabilities, so the runner skips every
// other case kind.
// Run the suite against it:
//   fives conformance run --engine "node conformance/examples/js-engine/engine.js"
const readline = require('node:readline');
const { GAMES, Illegal, Layout, evaluate, parseRecord, parseTile } = require('./layout.js');

const PROTOCOL = 1;
const HELLO = {
  id: 'hello',
  type: 'hello',
  protocol: PROTOCOL,
  engine: { name: 'fives-js-example', version: '1.0.0', language: 'javascript' },
  games: Object.keys(GAMES),
  capabilities: ['evaluate', 'legal-placements'],
};

/** The `legal-placements` answer (spec/play.md): what the seat may place, and whether it may
 *  draw or pass. A continuation with nothing to place draws like any turn (HR-CONT-6 RULING). */
function legal(game, input) {
  const layout = new Layout(game);
  let hand;
  let drawn = null;
  try {
    if (!Array.isArray(input.layout) || !Array.isArray(input.hand)) throw new Illegal('malformed-input', 'layout and hand are lists');
    input.layout.forEach((rec, i) => layout.place(parseRecord(rec, i)));
    hand = input.hand.map((t) => parseTile(t, 'hand tile'));
    if (input.drawn !== undefined && input.drawn !== null) drawn = parseTile(input.drawn, 'drawn');
    // a tile in two places, or a drawn tile that fits nowhere, is no state (spec/play.md)
    const held = drawn && !hand.some((t) => t.key === drawn.key) ? [...hand, drawn] : hand;
    held.forEach((t, i) => {
      if (layout.nodes.has(t.key) || held.findIndex((u) => u.key === t.key) < i) throw new Illegal('malformed-input', `${t.key} is in two places`);
    });
    if (drawn && layout.order.length && !layout.legalPlacements([drawn]).length) throw new Illegal('malformed-input', `the drawn tile ${drawn.key} fits nowhere`);
  } catch (e) {
    if (e instanceof Illegal) return { error: { index: null, code: 'malformed-input', message: e.message } };
    throw e;
  }
  if (drawn) return { placements: layout.legalPlacements([drawn]), draw: false, pass: false };
  const placements = layout.legalPlacements(hand);
  if (placements.length) return { placements, draw: false, pass: false };
  const mayDraw = Number(input.boneyard) > 0;
  return { placements: [], draw: mayDraw, pass: !mayDraw };
}

const ANSWER = { evaluate: (game, input) => evaluate(game, input.placements), 'legal-placements': legal };

/** The reply object to one decoded request. */
function handle(msg) {
  if (msg === null || typeof msg !== 'object' || Array.isArray(msg)) {
    return { id: null, error: 'a request is a JSON object' };
  }
  if (msg.type === 'hello') {
    if (msg.protocol !== PROTOCOL) return { id: 'hello', error: `this engine speaks protocol ${PROTOCOL}` };
    return HELLO;
  }
  const id = msg.id;
  if (typeof id !== 'string') return { id: null, error: 'request has no string id' };
  // The runner never sends what the handshake did not declare; answer politely anyway.
  if (!(msg.type in ANSWER)) return { id, skipped: `request type ${JSON.stringify(msg.type)} not supported` };
  if (!(msg.game in GAMES)) return { id, skipped: `game ${JSON.stringify(msg.game)} not supported` };
  if (msg.input === null || typeof msg.input !== 'object') return { id, error: 'a request needs an `input` object' };
  if (msg.type === 'evaluate' && !('placements' in msg.input)) return { id, error: 'evaluate input needs `placements`' };
  // A rules illegality is an answer ({error: {index, code, message}} inside result), not a
  // protocol error; only a bug of this engine becomes {id, error}.
  try {
    return { id, result: ANSWER[msg.type](msg.game, msg.input) };
  } catch (e) {
    process.stderr.write(`fives-js-example: ${e.stack}\n`);
    return { id, error: `internal error: ${e.message}` };
  }
}

function main() {
  const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  rl.on('line', (line) => {
    if (!line.trim()) return;
    let reply;
    try {
      reply = handle(JSON.parse(line));
    } catch (e) {
      reply = { id: null, error: `malformed JSON: ${e.message}` };
    }
    // Writes to a pipe are synchronous in Node on Linux/macOS, so replies keep their order
    // and are flushed before the process exits at end of input.
    process.stdout.write(JSON.stringify(reply) + '\n');
  });
  // End of stdin means "exit now" (persistent mode) or "done" (one-shot mode): with stdin
  // closed nothing keeps the event loop alive, so Node exits by itself after the last write.
}

main();
