// Where the board's JSON API answers: POST api/<op> on `damas serve`, or the same API in the
// WebAssembly engine's Web Worker (worker-api.js); and the one way the page calls it.
import * as workerApi from "./worker-api.js";

export function serverTransport() {
  return {
    name: "server",
    async call(op, body) {
      const r = await fetch("api/" + op, { method: "POST", headers: { "Content-Type": "application/json" },
                                          body: JSON.stringify(body) });
      return { status: r.status, json: await r.json() };
    },
    // Analysis events over the WebSocket; the page polls as well.
    subscribe(session, onEvent) {
      const url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host +
                  location.pathname.replace(/[^/]*$/, "") + "ws?session=" + encodeURIComponent(session);
      let ws = null;
      try { ws = new WebSocket(url); } catch (e) { return null; }
      ws.onmessage = (e) => { try { onEvent(JSON.parse(e.data)); } catch (err) { /* not JSON: ignore */ } };
      return { close() { ws.close(); } };
    },
  };
}

// The engine in this browser, or null where it cannot run (`available` is decided at start).
export function browserTransport(available) {
  return available ? workerApi.get() : null;
}

export function browserCanRun() {
  return workerApi.available();
}

// Which engines this folder offers: engines.json beside the page says it without a failing
// request (`damas serve` answers {"server": true}; tools/build-web ships {"browser": true}).
export async function enginesHere() {
  try {
    const r = await fetch("engines.json", { cache: "no-store" });
    if (r.ok) return await r.json();
  } catch (e) { /* no answer: neither */ }
  return {};
}

export function showMessage(text) { document.getElementById("message").textContent = text; }

function setBusy(app, delta) {
  app.busy += delta;
  document.body.dataset.busy = app.busy > 0 ? "1" : "0";
}

// One request: its answer, or null with the error shown. A busy server (503 {"busy": true}: every
// engine is searching for other games) is said so; the computer's move is asked again a few times.
const BUSY_RETRIES = 5;
export async function api(app, op, body) {
  setBusy(app, 1);
  try {
    let r = await app.transport.call(op, body);
    for (let i = 0; i < BUSY_RETRIES && r.status === 503 && r.json.busy && op === "engine-move"; ++i) {
      showMessage("The server is busy with other games; asking again in a moment...");
      await new Promise((done) => setTimeout(done, 2000));
      r = await app.transport.call(op, body);
    }
    if (r.status !== 200) {
      showMessage(r.json.busy ? "The server is busy: " + r.json.error : r.json.error || ("error " + r.status));
      return null;
    }
    showMessage("");
    return r.json;
  } catch (e) {
    showMessage("no answer from the engine: " + e.message);
    return null;
  } finally {
    setBusy(app, -1);
  }
}
