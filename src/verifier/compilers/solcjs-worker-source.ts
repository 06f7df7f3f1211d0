/**
 * The body of a solc-js worker thread, kept as plain CommonJS source and started with `eval: true`, so the same
 * code runs from `src/` under the test runner and from `dist/` in production without a build step of its own.
 *
 * It keeps up to `maxLoaded` soljson modules (least recently used evicted) and answers
 * `{id, type: "compile"|"version", soljsonPath, input}` with `{id, ok, result|error, loaded}`.
 * The import callback refuses every file: only sources given in the input exist.
 */
export const SOLCJS_WORKER_SOURCE = `
"use strict";
const { parentPort, workerData } = require("node:worker_threads");
const fs = require("node:fs");
const path = require("node:path");
const Module = require("node:module");
const wrapper = require(workerData.wrapperPath);
const loaded = new Map();
const EVENTS = ["uncaughtException", "unhandledRejection"];
const BAD_ALLOC = '"message":"Unknown exception during compilation: Dynamic exception type: std::bad_alloc';
// solc's answer when reading its input threw (StandardCompiler's catch-all around the JSON parser; a syntax error
// gets a "parse error at line …" message instead). The registry only sends JSON it serialised, so this is a failed
// allocation: after one 4 MB verification a soljson answered it to that input and to every later one, so the
// worker goes, as on bad_alloc (and the answer is never cached as the compile's result).
const UNREADABLE_INPUT = '"message":"Error parsing input JSON.';

// resourceLimits bound the JS heap only; a soljson's WebAssembly memory grows on its own (up to 4 GB) and never
// shrinks. Refusing growth past the limit makes the compiler's allocation fail (it aborts or reports bad_alloc),
// which the pool reports as running out of memory and answers by discarding this worker.
if (workerData.wasmLimitBytes > 0 && typeof WebAssembly !== "undefined") {
  const grow = WebAssembly.Memory.prototype.grow;
  WebAssembly.Memory.prototype.grow = function (pages) {
    if (this.buffer.byteLength + pages * 65536 > workerData.wasmLimitBytes) {
      throw new RangeError("WebAssembly memory limit reached: out of memory");
    }
    return grow.call(this, pages);
  };
}

function load(p) {
  const hit = loaded.get(p);
  if (hit) {
    loaded.delete(p);
    loaded.set(p, hit);
    return hit.solc;
  }
  const before = EVENTS.map((e) => process.listeners(e));
  const m = new Module(p, null);
  m.filename = p;
  m.paths = Module._nodeModulePaths(path.dirname(p));
  m._compile(fs.readFileSync(p, "utf8"), p);
  // Emscripten modules register process listeners; remember them so an evicted module can be collected.
  const listeners = EVENTS.map((e, i) => process.listeners(e).filter((l) => !before[i].includes(l)));
  const entry = { solc: wrapper(m.exports), listeners };
  loaded.set(p, entry);
  while (loaded.size > workerData.maxLoaded) {
    const [oldPath, old] = loaded.entries().next().value;
    loaded.delete(oldPath);
    EVENTS.forEach((e, i) => { for (const l of old.listeners[i]) process.removeListener(e, l); });
  }
  return entry.solc;
}

function refuseImport(name) {
  return { error: "only sources given in the input can be imported" };
}

parentPort.on("message", (msg) => {
  let reply;
  try {
    const solc = load(msg.soljsonPath);
    const result = msg.type === "version" ? solc.version() : solc.compile(msg.input.join(""), { import: refuseImport });
    // solc catches a failed allocation itself and answers with an error; the JSON key context cannot come from
    // user text (its quotes would be escaped). The pool then reports running out of memory and drops this worker.
    if (typeof result === "string" && result.includes(BAD_ALLOC)) throw new Error("out of memory (std::bad_alloc)");
    if (msg.type === "compile" && typeof result === "string" && result.length < 4096 && result.includes(UNREADABLE_INPUT))
      throw new Error("out of memory (the compiler could not read its input)");
    reply = { id: msg.id, ok: true, result };
  } catch (e) {
    reply = { id: msg.id, ok: false, error: String((e && e.message) || e) };
  }
  reply.loaded = Array.from(loaded.keys());
  parentPort.postMessage(reply);
});
`;
