// Browser tests of the WebAssembly engine (issue 13): headless Chromium opens build/web/engine.html
// from a local static server and drives the engine in its Web Worker over the Hub protocol.
// Usage: node wasm.test.mjs WEB_DIR NATIVE_DAMAS [RESULTS_FILE]
// Prints one line per test and a closing "N passed, N failed"; exits 1 if any failed.
import { chromium } from "playwright-core";
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { serve } from "./static-server.mjs";

const [webDir, nativeDamas, resultsFile] = process.argv.slice(2);
if (!webDir || !nativeDamas) {
  console.error("usage: node wasm.test.mjs WEB_DIR NATIVE_DAMAS [RESULTS_FILE]");
  process.exit(2);
}

const server = await serve(webDir, 0);
const base = `http://127.0.0.1:${server.address().port}/`;
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  args: ["--no-sandbox"],
});
const page = await browser.newPage();
// Any console error, page error or failed request fails the run (the last test lists them).
const consoleErrors = [];
page.on("pageerror", (e) => consoleErrors.push(String(e)));
page.on("console", (m) => { if (m.type() === "error") consoleErrors.push(m.text()); });
page.on("requestfailed", (r) => consoleErrors.push(`request failed: ${r.method()} ${r.url()} (${r.failure()?.errorText})`));
page.on("response", (r) => { if (r.status() >= 400) consoleErrors.push(`HTTP ${r.status()}: ${r.request().method()} ${r.url()}`); });

const results = {};
let passed = 0;
let failed = 0;
async function test(name, body) {
  try {
    await body();
    passed++;
    console.log(`ok   ${name}`);
  } catch (e) {
    failed++;
    console.log(`FAIL ${name}: ${e.message}`);
  }
}
function expect(condition, message) {
  if (!condition) throw new Error(message);
}

// Runs in the page: sends `lines` one by one and collects every line the engine writes until
// `until` (a regexp source) matches one, or `ms` milliseconds pass.
async function exchange(lines, until, ms = 20000) {
  return page.evaluate(async ({ lines, until, ms }) => {
    const hub = window.damasHub;
    const seen = [];
    const previous = hub.onLine;
    const done = new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), ms);
      hub.onLine = (line) => {
        seen.push(line);
        if (previous) previous(line);
        if (new RegExp(until).test(line)) { clearTimeout(timer); resolve(true); }
      };
    });
    for (const l of lines) hub.send(l);
    const matched = await done;
    hub.onLine = previous;
    return { matched, seen };
  }, { lines, until, ms });
}

await test("the page loads the engine and the worker answers", async () => {
  await page.goto(base + "engine.html");
  const loadedMs = await page.waitForFunction(() => window.damasLoadedMs, null, { timeout: 30000 });
  results.loadMs = await loadedMs.jsonValue();
  expect(await page.evaluate(() => self.crossOriginIsolated), "page is not cross-origin isolated");
});

await test("Hub handshake through the worker: id, params, wait; init answers ready", async () => {
  const hello = await exchange(["hub"], "^wait$");
  expect(hello.matched, "no wait after hub: " + hello.seen.join(" | "));
  expect(hello.seen.some((l) => /^id name=damas/.test(l)), "no id line");
  expect(hello.seen.some((l) => /^param name=variant /.test(l)), "no variant param");
  const init = await exchange(["init"], "^ready$");
  expect(init.matched, "no ready after init");
  results.readyMs = await page.evaluate(() => performance.now());
});

await test("a bad line gets an error and the engine keeps answering ping", async () => {
  const r = await exchange(["pos pos=Wxyz", "ping"], "^pong$");
  expect(r.matched, "no pong");
  expect(r.seen.some((l) => /^error/.test(l)), "no error for a bad position: " + r.seen.join(" | "));
});

await test("a search from the start ends in one done with a legal first move", async () => {
  const r = await exchange(["pos", "level depth=8", "go think"], "^done");
  expect(r.matched, "no done");
  const done = r.seen.filter((l) => /^done/.test(l));
  expect(done.length === 1, "done lines: " + done.length);
  const move = /move=(\S+)/.exec(done[0])[1];
  const legal = ["21-17", "22-17", "22-18", "23-18", "23-19", "24-19", "24-20"];
  expect(legal.includes(move), "not a legal first move: " + move);
});

await test("stop and ping during a long search: pong at once, exactly one done", async () => {
  const r = await page.evaluate(async () => {
    const hub = window.damasHub;
    const seen = [];
    const previous = hub.onLine;
    hub.onLine = (line) => seen.push(line);
    hub.send("pos");
    hub.send("level infinite");
    hub.send("go analyze");
    await new Promise((ok) => setTimeout(ok, 400));
    const before = seen.filter((l) => /^done/.test(l)).length;
    hub.send("ping");
    await new Promise((ok) => setTimeout(ok, 200));
    const pongDuringSearch = seen.includes("pong") && seen.filter((l) => /^done/.test(l)).length === 0;
    hub.send("stop");
    await new Promise((ok) => setTimeout(ok, 1500));
    hub.onLine = previous;
    return { before, pongDuringSearch, dones: seen.filter((l) => /^done/.test(l)).length,
             infos: seen.filter((l) => /^info/.test(l)).length };
  });
  expect(r.before === 0, "done before stop");
  expect(r.pongDuringSearch, "no pong during the search");
  expect(r.dones === 1, "done lines after stop: " + r.dones);
  expect(r.infos > 0, "no info lines during the search");
});

await test("the bench in the browser counts exactly the native bench's nodes", async () => {
  const native = execFileSync(nativeDamas, ["bench"], { encoding: "utf8" });
  const nativeNodes = Number(/^nodes (\d+)$/m.exec(native)[1]);
  const nativeSeconds = Number(/^time ([0-9.]+) s$/m.exec(native)[1]);
  const web = await page.evaluate(() => window.damasHub.bench(15));
  results.bench = { nativeNodes, nativeSeconds, webNodes: web.nodes, webSeconds: web.seconds,
                    nativeNps: nativeNodes / nativeSeconds, webNps: web.nodes / web.seconds };
  expect(web.nodes === nativeNodes, `browser ${web.nodes} nodes, native ${nativeNodes}`);
});

// White kings on 2, 5, 6, Black's king on 28: White wins in 5 plies (the databases say so; the
// search alone, at depth 2, cannot see it).
await test("the endgame databases beside the page: a 4-piece ending is a win at its distance", async () => {
  const squares = Array.from({ length: 32 }, (_, i) => ({ 2: "W", 5: "W", 6: "W", 28: "B" })[i + 1] || "e");
  const r = await exchange(["pos pos=W" + squares.join(""), "level depth=2", "go analyze"], "^done");
  expect(r.matched, "no done");
  const infos = r.seen.filter((l) => /^info/.test(l));
  const last = infos[infos.length - 1] || "";
  expect(/tbhits=[1-9]/.test(last), "no database hits: " + last);
  expect(/ score=99\.95 /.test(last), "not the win in 5 plies: " + last);
});

// Russian draughts in the worker (issue 38): f6 takes e7, is crowned on d8 and goes on over b6 as a
// king to a5; the Brazilian man would stop on d8 (11x2).
await test("variant russian: the search plays the Russian capture, Brazilian again after", async () => {
  const r = await exchange(["set-param name=variant value=russian", "pos pos=W:W11,30:B4,7,9", "level depth=3",
                            "go think"], "^done");
  expect(r.matched, "no done");
  expect(r.seen.some((l) => /^done move=11x13x7x9/.test(l)), "not the Russian capture: " + r.seen.join(" | "));
  const b = await exchange(["set-param name=variant value=brazilian", "pos pos=W:W11,30:B4,7,9", "go think"], "^done");
  expect(b.seen.some((l) => /^done move=11x2x7/.test(l)), "not the Brazilian capture: " + b.seen.join(" | "));
});

// The board's JSON API in the worker (issue 49): every game the engine offers plays against the
// computer, and the mirrored board of Spanish and Portuguese is named as its players name it.
async function apiCall(op, body) {
  return page.evaluate(({ op, body }) => new Promise((resolve) => {
    const worker = window.damasHub.worker;
    const id = 1000000 + Math.floor(Math.random() * 1000000);
    const listener = (event) => {
      const d = event.data;
      if (!d || d.type !== "api" || d.id !== id) return;
      worker.removeEventListener("message", listener);
      resolve({ status: d.status, json: JSON.parse(d.json) });
    };
    worker.addEventListener("message", listener);
    worker.postMessage({ type: "api", id, op, body: JSON.stringify(body) });
  }), { op, body });
}
await test("the worker's board API plays a few moves of every game against the computer", async () => {
  const offered = await apiCall("games", {});
  expect(offered.status === 200, "games: " + JSON.stringify(offered.json));
  const names = offered.json.games.map((g) => g.name);
  expect(names.join() === "brazilian,russian,spanish,portuguese,pool,czech", "games: " + names.join());
  for (const game of offered.json.games) {
    let r = await apiCall("new", { variant: game.name, mode: "computer", level: "beginner", movetime: 0.02 });
    expect(r.status === 200 && r.json.variant === game.name, game.name + ": " + JSON.stringify(r.json).slice(0, 200));
    expect(r.json.mirrored_board === game.mirrored_board, game.name + ": board");
    const at = (sq) => r.json.pieces.find((p) => p.square === sq);
    if (game.mirrored_board) {
      expect(at("h1") && at("h1").color === "white" && !at("a1"), game.name + ": not the mirrored start");
      expect(r.json.legal.some((m) => m.text === "h3-g4" && m.id === "9-13"), game.name + ": no h3-g4 (9-13)");
    } else {
      expect(at("a1") && at("a1").color === "white" && !at("h1"), game.name + ": not the FMJD start");
    }
    const session = r.json.session;
    for (let turn = 0; turn < 3 && !r.json.result.over; turn++) {
      r = await apiCall("move", { session, move: r.json.legal[0].id });
      expect(r.status === 200, game.name + " move: " + JSON.stringify(r.json));
      if (r.json.result.over) break;
      r = await apiCall("engine-move", { session });
      expect(r.status === 200, game.name + " engine-move: " + JSON.stringify(r.json));
    }
    expect(r.json.moves.length >= 6 || r.json.result.over, game.name + ": " + r.json.moves.length + " plies");
    await apiCall("close", { session });
  }
});

await test("no errors in the page's console and no failed request", async () => {
  expect(consoleErrors.length === 0, consoleErrors.join(" | "));
});

await browser.close();
server.close();
if (resultsFile) writeFileSync(resultsFile, JSON.stringify(results, null, 2) + "\n");
console.log(JSON.stringify(results));
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
