// damas in a Web Worker. The Hub protocol line by line over postMessage, exactly as on
// stdin/stdout: post a string (one line, or several separated by "\n"), receive one string per
// output line. Objects are for what is not Hub:
//   {type: "bench", depth}  ->  {type: "bench", nodes, seconds} or {type: "error", message}
//   {type: "api", id, op, body}  ->  {type: "api", id, status, json}: the board's JSON API
//   (web/api.h, protocol/web-api.md; body and json are JSON texts); analysis events arrive as
//   {type: "api-event", json}. The API's engine is made on the first such request.
// The worker posts {type: "loaded"} once the module is ready (and the endgame databases of egdb/
// beside it are loaded, or {type: "warning"} says why not); lines posted before are kept.
//
// The search runs on its own thread (a pthread, which Emscripten makes a nested worker), so this
// worker's event loop stays free: `stop` and `ping` are handled during a search. Output written
// by the search thread waits in the module's queue; the worker drains it every few milliseconds.
"use strict";

importScripts("damas.js");

const kDrainMilliseconds = 2;
let engine = null;
const early = [];

function drain() {
  if (!engine) return;
  const text = engine.output(engine.hub);
  if (!text) return;
  for (const line of text.split("\n")) {
    if (line !== "") postMessage(line);
  }
}

let api = 0;
function drainEvents() {
  if (!api) return;
  const text = engine.apiEvents(api);
  if (!text) return;
  for (const line of text.split("\n")) {
    if (line !== "") postMessage({ type: "api-event", json: line });
  }
}

function handleApi(message) {
  if (typeof message.op !== "string" || typeof message.body !== "string") {
    postMessage({ type: "api", id: message.id, status: 400,
                  json: JSON.stringify({ error: "api messages need op and body strings", status: 400 }) });
    return;
  }
  if (!api) api = engine.apiNew();
  const answer = engine.apiCall(api, message.op, message.body);
  const space = answer.indexOf(" ");
  postMessage({ type: "api", id: message.id, status: Number(answer.slice(0, space)), json: answer.slice(space + 1) });
  drainEvents();
}

function handle(message) {
  if (typeof message === "string") {
    engine.input(engine.hub, message);
    drain();
    return;
  }
  if (message && message.type === "api") {
    handleApi(message);
    return;
  }
  if (message && message.type === "bench") {
    const depth = Number.isInteger(message.depth) ? message.depth : 15;
    if (depth < 1 || depth > 100) {
      postMessage({ type: "error", message: "bench depth must be between 1 and 100" });
      return;
    }
    const answer = engine.bench(engine.hub, depth);
    const m = /^nodes (\d+) seconds ([0-9.]+)$/.exec(answer);
    if (m) postMessage({ type: "bench", nodes: Number(m[1]), seconds: Number(m[2]) });
    else postMessage({ type: "error", message: answer });
    return;
  }
  postMessage({ type: "error", message: "expected a Hub line (string) or {type: \"bench\"}" });
}

self.onmessage = (event) => {
  if (engine) handle(event.data);
  else early.push(event.data);
};

const here = self.location.href;

// The endgame databases beside the page (egdb/index.json lists the slice files, tools/build-web
// writes them): fetched into the module's file system before any engine is made, so every engine
// finds them. The worker goes on without them when they cannot be read.
async function loadEndgameDatabases(module) {
  const base = new URL("egdb/", here);
  try {
    const index = await (await fetch(new URL("index.json", base))).json();
    const names = (index.files || []).filter((name) => /^[a-z0-9]+\.egdb$/.test(name));
    const files = await Promise.all(names.map(async (name) => {
      const response = await fetch(new URL(name, base));
      if (!response.ok) throw new Error(name + ": HTTP " + response.status);
      return [name, new Uint8Array(await response.arrayBuffer())];
    }));
    module.FS.mkdir("/egdb");
    for (const [name, bytes] of files) module.FS.writeFile("/egdb/" + name, bytes);
    module.cwrap("damas_use_egdb", null, ["string"])("/egdb");  // setenv copies the text
  } catch (error) {
    postMessage({ type: "warning", message: "no endgame databases: " + error });
  }
}

createDamas({
  // Emscripten's pthread workers load the main script by this URL (not this worker's).
  mainScriptUrlOrBlob: new URL("damas.js", here).href,
  locateFile: (path) => new URL(path, here).href,
}).then(async (module) => {
  await loadEndgameDatabases(module);
  engine = {
    hub: module._damas_hub_new(),
    input: module.cwrap("damas_hub_input", "number", ["number", "string"]),
    output: module.cwrap("damas_hub_output", "string", ["number"]),
    bench: module.cwrap("damas_bench", "string", ["number", "number"]),
    apiNew: module._damas_api_new,
    apiCall: module.cwrap("damas_api_call", "string", ["number", "string", "string"]),
    apiEvents: module.cwrap("damas_api_events", "string", ["number"]),
  };
  setInterval(() => { drain(); drainEvents(); }, kDrainMilliseconds);
  postMessage({ type: "loaded" });
  for (const message of early.splice(0)) handle(message);
}, (error) => {
  postMessage({ type: "error", message: "the engine failed to load: " + error });
});
