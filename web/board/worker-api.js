// The board's JSON API in this browser: the WebAssembly engine's Web Worker (web/wasm/,
// built by tools/build-web) answers the same requests as `damas serve`, so the page
// (transport.js) uses either.
// Available where the page is served beside damas-worker.js with cross-origin isolation
// (build/web/ on any static server sending COOP/COEP headers, whose engines.json says so); not
// from `damas serve`.
// Modules are evaluated once: this is the page's one worker.
let instance = null;

// Whether this browser can run it (the page's engines.json says whether the files are here).
export function available() {
  return typeof Worker !== "undefined" && self.crossOriginIsolated === true;
}

function create() {
  const worker = new Worker("damas-worker.js");
  const pending = new Map();
  const listeners = new Set();
  let next = 1;
  let resolveLoaded;
  let rejectLoaded;
  const loaded = new Promise((resolve, reject) => { resolveLoaded = resolve; rejectLoaded = reject; });
  worker.onmessage = (event) => {
    const d = event.data;
    if (typeof d === "string") return;  // Hub lines: not used by the board
    if (d.type === "loaded") resolveLoaded();
    else if (d.type === "error") rejectLoaded(new Error(d.message));
    else if (d.type === "api") {
      const done = pending.get(d.id);
      pending.delete(d.id);
      if (done) done({ status: d.status, json: JSON.parse(d.json) });
    } else if (d.type === "api-event") {
      const ev = JSON.parse(d.json);
      for (const l of listeners) l(ev);
    }
  };
  worker.onerror = (e) => rejectLoaded(new Error(e.message || "the engine's worker failed"));
  return {
    name: "browser",
    loaded,
    async call(op, body) {
      await loaded;
      return new Promise((resolve) => {
        const id = next++;
        pending.set(id, resolve);
        worker.postMessage({ type: "api", id, op, body: JSON.stringify(body) });
      });
    },
    subscribe(session, onEvent) {
      const l = (ev) => { if (ev.session === session) onEvent(ev); };
      listeners.add(l);
      return { close() { listeners.delete(l); } };
    },
  };
}

// The one worker of this page, started on first use.
export function get() {
  if (!instance) instance = create();
  return instance;
}
