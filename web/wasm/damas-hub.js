// A small Hub client for pages: starts damas-worker.js and offers the protocol line by line.
//   const hub = new DamasHub(new URL("damas-worker.js", location.href));
//   hub.onLine = (line) => ...;      // every line the engine writes
//   await hub.loaded;                // the module is ready
//   hub.send("hub");                 // any Hub line
//   await hub.waitFor((l) => l === "wait");
//   const {nodes, seconds} = await hub.bench(15);
"use strict";

class DamasHub {
  constructor(workerUrl) {
    this.worker = new Worker(workerUrl);
    this.onLine = null;
    this.waiters = [];
    this.benchWaiters = [];
    this.loaded = new Promise((resolve, reject) => {
      this.resolveLoaded = resolve;
      this.rejectLoaded = reject;
    });
    this.worker.onmessage = (event) => this.receive(event.data);
    this.worker.onerror = (event) => this.rejectLoaded(new Error(event.message || "worker error"));
  }

  receive(data) {
    if (typeof data === "string") {
      if (this.onLine) this.onLine(data);
      this.waiters = this.waiters.filter((w) => {
        if (!w.test(data)) return true;
        w.resolve(data);
        return false;
      });
      return;
    }
    if (data.type === "loaded") this.resolveLoaded();
    else if (data.type === "bench") this.benchWaiters.splice(0).forEach((w) => w.resolve(data));
    else if (data.type === "error") {
      this.rejectLoaded(new Error(data.message));
      this.benchWaiters.splice(0).forEach((w) => w.reject(new Error(data.message)));
    }
  }

  send(line) { this.worker.postMessage(line); }

  // Resolves with the first later line that passes `test`.
  waitFor(test) { return new Promise((resolve) => this.waiters.push({ test, resolve })); }

  bench(depth) {
    return new Promise((resolve, reject) => {
      this.benchWaiters.push({ resolve, reject });
      this.worker.postMessage({ type: "bench", depth });
    });
  }

  terminate() { this.worker.terminate(); }
}

if (typeof module !== "undefined") module.exports = { DamasHub };
