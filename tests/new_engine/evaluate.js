'use strict';
// evaluate, filled in for tests/test_new_engine.py: the JavaScript example engine's layout.js
// (conformance/examples/js-engine/, an independent implementation) answers it. The test sets
// FIVES_JS_LAYOUT to that file. It replaces the skeleton's kinds/evaluate.js, stub mark gone.
const { evaluate } = require(process.env.FIVES_JS_LAYOUT);

module.exports = {
  answer: (game, input) => evaluate(game, input.placements),
};
