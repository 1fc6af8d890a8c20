// Browser tests of the web board (issue 12): headless Chromium drives the page served by
// `damas serve --port 0` the way a person would, by clicking squares and buttons.
// Usage: node board.test.mjs DAMAS_BINARY ARTEFACT_DIR [WEB_DIR]
// With WEB_DIR (build/web from tools/build-web) the same page is also served as static files and
// plays against the WebAssembly engine in the browser (issue 13).
// A console error, a page error or a failed request fails the test it happens in.
// Prints one line per test and "N passed, N failed"; exits 1 if any failed. Screenshots go to
// ARTEFACT_DIR (start, capture choice, end of game, analysis, ...).
import { chromium } from "playwright-core";
import { spawn } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { serve } from "../browser-wasm/static-server.mjs";

const [damas, artefacts, webDir] = process.argv.slice(2);
if (!damas || !artefacts) {
  console.error("usage: node board.test.mjs DAMAS_BINARY ARTEFACT_DIR");
  process.exit(2);
}
mkdirSync(artefacts, { recursive: true });

// ---- The server ----
// The shipped opening book, named so that the opening panel's test does not depend on the search list.
const book = fileURLToPath(new URL("../../bench/brazilian.book", import.meta.url));
const server = spawn(damas, ["serve", "--port", "0", "--move-time", "0.05", "--hash", "8", "--threads", "1",
                             "--book-file", book],
                     { stdio: ["ignore", "pipe", "inherit"] });
const base = await new Promise((resolve, reject) => {
  const timer = setTimeout(() => reject(new Error("damas serve printed no address")), 20000);
  let out = "";
  server.stdout.on("data", (d) => {
    out += d;
    const m = /(http:\/\/127\.0\.0\.1:\d+\/)/.exec(out);
    if (m) { clearTimeout(timer); resolve(m[1]); }
  });
  server.on("exit", (code) => reject(new Error("damas serve exited with " + code)));
});

// Any unexpected failure ends the run (and the server) instead of leaving it waiting.
process.on("unhandledRejection", (e) => {
  console.log("FAIL the test run: " + (e && e.message ? e.message : e));
  server.kill("SIGKILL");
  process.exit(1);
});
// Playwright starts Chromium with an empty temporary profile of its own (--user-data-dir).
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  timeout: 60000,
});
const context = await browser.newContext({ viewport: { width: 1180, height: 860 } });
const page = await context.newPage();

// Every console error, page error and failed request (network failure or HTTP status 400 and
// above) fails the test it happens in, except the rejections a test asks for by expectRejected().
let problems = [];
let allowed = [];  // {path, status}: answers a test provokes on purpose (a bad FEN, a bad PDN)
const isAllowed = (url, status) => allowed.some((a) => new URL(url).pathname.endsWith(a.path) && a.status === status);
page.on("pageerror", (e) => problems.push("page error: " + String(e)));
page.on("console", (m) => {
  if (m.type() !== "error") return;
  const status = /status of (\d+)/.exec(m.text());
  if (status && isAllowed(m.location().url || "http://x/", Number(status[1]))) return;
  problems.push("console error: " + m.text() + " (" + (m.location().url || "") + ")");
});
page.on("requestfailed", (r) => {
  problems.push(`request failed: ${r.method()} ${r.url()} (${r.failure() ? r.failure().errorText : ""})`);
});
page.on("response", (r) => {
  if (r.status() >= 400 && !isAllowed(r.url(), r.status()))
    problems.push(`HTTP ${r.status()}: ${r.request().method()} ${r.url()}`);
});
async function expectRejected(path, status, body) {
  allowed.push({ path, status });
  try { await body(); } finally { await page.waitForTimeout(100); allowed = []; }
}

let passed = 0;
let failed = 0;
async function test(name, body) {
  const started = Date.now();
  problems = [];
  try {
    await body();
    await page.waitForTimeout(50);  // console and network events of the last step
    expect(problems.length === 0, problems.join(" | "));
    passed++;
    console.log(`ok   ${name} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  } catch (e) {
    failed++;
    console.log(`FAIL ${name}: ${e.message}`);
    await page.screenshot({ path: join(artefacts, "failure-" + name.replace(/\W+/g, "-") + ".png") }).catch(() => {});
  }
}
function expect(condition, message) {
  if (!condition) throw new Error(message);
}

// ---- Helpers driving the page ----
const state = () => page.evaluate(() => window.damasBoard.state);
async function idle() {
  await page.waitForFunction(() => document.body.dataset.busy === "0" && window.damasBoard.state &&
                                   (window.damasBoard.state.turn !== "computer" || window.damasBoard.state.result.over),
                             null, { timeout: 30000 });
}
async function open(query, at = base) {
  await page.goto(at + "?" + query);
  await page.waitForFunction(() => document.body.dataset.ready === "1", null, { timeout: 20000 });
  await idle();
}
const click = (square) => page.click(`[data-square="${square}"]`);
// Enters a move the way a person does: the piece, then each landing square.
async function enter(move, route = move.routes[0]) {
  const before = await page.evaluate(() => window.damasBoard.state?.moves?.length ?? -1);
  await click(move.from);
  for (const sq of route) {
    // The board plays a move as soon as the squares entered name it alone (legal.js): the rest of
    // its route is not clicked, as the position (or the game's end banner) is already another.
    const played = await page.evaluate((n) => document.body.dataset.busy === "1" ||
                                              (window.damasBoard.state?.moves?.length ?? -1) !== n, before);
    if (played) break;
    await click(sq);
  }
  await idle();
}
async function movesText() {
  return page.$$eval("#move-list .mv", (els) => els.map((e) => e.textContent));
}
async function setFen(fen) {
  await page.fill("#fen", fen);
  await page.click("#fen-load");
  await idle();
}
async function statusText() { return page.textContent("#status"); }

// ---- Tests ----
// Loading the page asks engines.json which engines answer here: no probe that fails.
async function checkCleanLoad(at, expected) {
  const requests = [];
  const listener = (r) => requests.push(r.method() + " " + new URL(r.url()).pathname);
  page.on("request", listener);
  try {
    await open("mode=two-players", at);
  } finally {
    page.off("request", listener);
  }
  expect(requests.includes("GET /engines.json"), "engines.json not asked: " + requests.join(", "));
  expect(!requests.some((r) => r.endsWith("/damas-worker.js") && r.startsWith("HEAD")), "HEAD damas-worker.js probe");
  expect(!requests.includes("POST /api/state"), "POST /api/state probe: " + requests.join(", "));
  expect(await page.evaluate(() => window.damasBoard.transport) === expected, "transport is not " + expected);
}
await test("the page loads from damas serve without a failed request or a console error", async () => {
  await checkCleanLoad(base, "server");
  expect(await page.$eval('#engine-where [value="browser"]', (o) => o.disabled), "browser engine offered on the server");
});

await test("the start position: 24 pieces, a1 dark, White to move, seven legal moves", async () => {
  await open("mode=two-players");
  expect(await page.$$eval(".sq.dark", (e) => e.length) === 32, "not 32 dark squares");
  expect(await page.$('[data-square="a1"]') !== null, "a1 is not a dark square");
  expect(await page.$('[data-square="h1"]') === null, "h1 is dark");
  expect(await page.$$eval(".sq .piece", (e) => e.length) === 24, "not 24 pieces");
  expect(/White to move/.test(await statusText()), "status: " + (await statusText()));
  await click("c3");
  const targets = await page.$$eval(".sq.target", (e) => e.map((x) => x.dataset.square).sort());
  expect(targets.join() === "b4,d4", "targets of c3: " + targets.join());
  await click("c3");  // picking it again drops it
  await page.screenshot({ path: join(artefacts, "board-start.png") });
});

await test("a forced multi-capture with two routes: the landing squares choose the route", async () => {
  await open("mode=two-players");
  await setFen("W:Wc3:Bd4,d6,f6,h8");
  expect(/must capture/.test(await statusText()), "no must-capture status");
  expect(await page.$('[data-square="c3"] .piece.must') !== null, "c3 is not marked as a capturer");
  await click("c3");
  let targets = await page.$$eval(".sq.target", (e) => e.map((x) => x.dataset.square));
  expect(targets.join() === "e5", "first landing: " + targets.join());
  await click("e5");
  targets = await page.$$eval(".sq.target", (e) => e.map((x) => x.dataset.square).sort());
  expect(targets.join() === "c7,g7", "second landings: " + targets.join());
  expect(/choose the next landing square/.test(await statusText()), "no route choice shown");
  expect((await movesText()).length === 0, "a move was played before the route was chosen");
  await page.screenshot({ path: join(artefacts, "board-capture-choice.png") });
  await click("g7");
  await idle();
  expect((await movesText()).join() === "c3:g7", "moves: " + (await movesText()).join());
  const s = await state();
  expect(s.pieces.map((p) => p.square).sort().join() === "d6,g7,h8", "pieces: " + s.pieces.map((p) => p.square));
});

await test("the opening panel shows the book moves of the position and follows the game", async () => {
  await open("mode=two-players");
  const status = () => page.textContent("#opening-status");
  await page.waitForFunction(() => document.querySelectorAll("#opening-moves li").length > 0, null, { timeout: 20000 });
  expect(/^In the book \(ply 0\): it goes \d+ more plies along /.test(await status()), "status: " + (await status()));
  // The first book move that leads on in the book (a move only searched is marked so).
  const inBook = await page.$$eval("#opening-moves li", (els) =>
    els.filter((li) => !li.querySelector(".leaf")).map((li) => li.querySelector(".move").textContent));
  expect(inBook.length > 0, "no move of the book leads on in it");
  const move = (await state()).legal.find((m) => m.text === inBook[0]);
  expect(move, "the book move " + inBook[0] + " is not among the legal moves");
  await enter(move);
  await page.waitForFunction(() => /^In the book \(ply 1\)/.test(document.getElementById("opening-status").textContent),
                             null, { timeout: 20000 });
  await page.screenshot({ path: join(artefacts, "board-opening.png") });
  await setFen("W:Wc3:Bd4,d6,f6,h8");
  await page.waitForFunction(() => document.getElementById("opening-status").textContent === "Out of the book.",
                             null, { timeout: 20000 });
  expect(await page.$$eval("#opening-moves li", (e) => e.length) === 0, "book moves shown out of the book");
});

// The board has no rules of its own: what may be picked and where it may go is the engine's list.
const marked = (selector) => page.$$eval(selector, (e) => e.map((x) => x.closest("[data-square]").dataset.square).sort().join());
await test("a compulsory capture: only the capturing piece can be picked, its landings are the engine's", async () => {
  await open("mode=two-players");
  await setFen("W:Wa1,c3,g3:Bd4,h8");
  const s = await state();
  expect(s.must_capture && s.capturers.join() === "c3", "capturers: " + s.capturers.join());
  expect((await marked(".piece.must")) === "c3", "ringed: " + (await marked(".piece.must")));
  for (const quiet of ["a1", "g3"]) {
    await click(quiet);
    expect((await marked(".piece.selected")) === "" && (await marked(".sq.target")) === "",
           quiet + " could be picked: " + (await marked(".piece.selected")) + " -> " + (await marked(".sq.target")));
  }
  await click("c3");
  const landings = s.legal.filter((m) => m.from === "c3").map((m) => m.routes[0][0]).sort().join();
  expect((await marked(".piece.selected")) === "c3", "c3 not picked");
  expect((await marked(".sq.target")) === landings, "targets " + (await marked(".sq.target")) + ", engine " + landings);
});

await test("highlighting follows whatever legal moves the API lists (another rule set needs no JavaScript)", async () => {
  await open("mode=two-players");
  // The API's answer rewritten to a rule set the page has never seen: a man that moves backwards,
  // and two captures that part after their first landing and both take g5, which no diagonal of
  // theirs crosses.
  const legal = [
    { text: "c3-b2", id: "22-27", from: "c3", to: "b2", captured: [], routes: [["b2"]] },
    { text: "e3:f4:h6", id: "23x10x14", from: "e3", to: "h6", captured: ["g5"], routes: [["f4", "h6"]] },
    { text: "e3:f4:d6", id: "23x11x14", from: "e3", to: "d6", captured: ["e5", "g5"], routes: [["f4", "d6"]] },
  ];
  await page.route("**/api/new", async (route) => {
    const r = await route.fetch();
    const json = await r.json();
    await route.fulfill({ response: r, json: Object.assign(json, { legal, must_capture: false, capturers: [] }) });
  });
  try {
    await setFen("W:Wc3,e3:Bg5");
  } finally {
    await page.unroute("**/api/new");
  }
  await click("c3");
  expect((await marked(".sq.target")) === "b2", "targets of c3: " + (await marked(".sq.target")));
  await click("e3");
  expect((await marked(".sq.target")) === "f4", "first landing of e3: " + (await marked(".sq.target")));
  await click("f4");
  expect((await marked(".sq.target")) === "d6,h6", "second landings: " + (await marked(".sq.target")));
  expect((await marked(".sq.path")) === "f4", "path: " + (await marked(".sq.path")));
  expect((await marked(".piece.captured")) === "g5", "taken either way: " + (await marked(".piece.captured")));
  expect((await movesText()).length === 0, "a move was sent");
});

// Russian draughts: the same page, the engine's rules (issue 38).
async function checkRussianRules() {
  const s = await state();
  expect(s.variant === "russian", "variant: " + s.variant);
  expect((await page.inputValue("#variant")) === "russian", "the game selector says " + (await page.inputValue("#variant")));
  expect(/^Russian draughts/.test(await page.textContent("#subtitle")), "header: " + (await page.textContent("#subtitle")));
  // c3 may take d2 alone or d4 and f6: no majority rule, both first landings are offered.
  await setFen("W:Wc3:Bd2,d4,f6");
  await click("c3");
  expect((await marked(".sq.target")) === "e1,e5", "targets of c3: " + (await marked(".sq.target")));
  await click("e1");
  await idle();
  expect((await movesText()).join() === "c3:e1", "the short capture: " + (await movesText()).join());
  // f6 takes e7, is crowned on d8 and goes on over c7 as a king, to b6 or a5 (a man stops on b6).
  await setFen("W:Wf6:Be7,c7");
  await click("f6");
  await click("d8");
  expect((await marked(".sq.target")) === "a5,b6", "after d8: " + (await marked(".sq.target")));
  await click("a5");
  await idle();
  expect(await page.$('[data-square="a5"] .piece.white.king') !== null, "no white king on a5");
  expect((await state()).pdn.includes('[GameType "25"]'), "PDN: " + (await state()).pdn);
}

await test("a Russian game on the board: ?variant=russian, its captures, the header and the PDN", async () => {
  await open("mode=two-players&variant=russian");
  await checkRussianRules();
  await page.screenshot({ path: join(artefacts, "board-russian.png") });
  const pdn = (await state()).pdn;
  const played = (await movesText()).join();
  // The game selector: a new game in Brazilian, where the majority rule keeps the long capture only.
  await page.selectOption("#variant", "brazilian");
  await page.waitForFunction(() => window.damasBoard.state.variant === "brazilian", null, { timeout: 20000 });
  await idle();
  expect(/^Brazilian draughts/.test(await page.textContent("#subtitle")), "header: " + (await page.textContent("#subtitle")));
  await setFen("W:Wc3:Bd2,d4,f6");
  await click("c3");
  expect((await marked(".sq.target")) === "e5", "Brazilian targets of c3: " + (await marked(".sq.target")));
  // A Russian PDN loaded while Brazilian is selected is played by its GameType.
  await page.fill("#pdn", pdn);
  await page.click("#pdn-load");
  await idle();
  expect((await state()).variant === "russian" && (await page.inputValue("#variant")) === "russian", "the PDN's game");
  expect((await movesText()).join() === played, "loaded: " + (await movesText()).join() + " vs " + played);
});

await test("an unknown ?variant= is said and the page plays Brazilian", async () => {
  await open("mode=two-players&variant=italian");
  expect((await state()).variant === "brazilian", "variant: " + (await state()).variant);
  expect(/variant=italian: unknown game/.test(await page.textContent("#message")), "message: " + (await page.textContent("#message")));
});

async function playRussianToEnd(at) {
  await open("mode=computer&level=beginner&movetime=0.02&variant=russian", at);
  let s = await state();
  for (let ply = 0; ply < 400 && !s.result.over; ply++) {
    expect(s.variant === "russian" && s.turn === "human", "not my Russian turn: " + s.variant + " " + s.turn);
    await enter(s.legal[s.legal.length - 1]);
    s = await state();
  }
  expect(s.result.over && s.result.reason.length > 0, "the game did not end with a reason");
  expect(s.pdn.includes('[GameType "25"]'), "not a Russian PDN");
}
await test("a full Russian game against the computer ends with its result", async () => {
  await playRussianToEnd(base);
});

for (const level of ["beginner", "easy", "medium", "hard", "full"]) {
  await test(`a full game against the computer at ${level} ends with its result`, async () => {
    await open(`mode=computer&level=${level}&movetime=0.02`);
    let s = await state();
    expect(s.level === level && s.mode === "computer", "settings not taken: " + s.level + " " + s.mode);
    for (let ply = 0; ply < 400 && !s.result.over; ply++) {
      expect(s.turn === "human", "not my turn: " + s.turn);
      // The person plays the last listed move: a legal but planless game, which ends soon.
      await enter(s.legal[s.legal.length - 1]);
      s = await state();
    }
    expect(s.result.over, "the game did not end");
    expect(s.result.reason.length > 0, "no reason");
    expect(await page.isVisible("#banner"), "no result banner");
    expect((await page.textContent("#banner")) === s.result.text, "banner: " + (await page.textContent("#banner")));
    expect((await statusText()) === s.result.text, "status: " + (await statusText()));
    if (level === "full") await page.screenshot({ path: join(artefacts, "board-game-over.png") });
  });
}

await test("playing Black: the computer opens and the board turns round", async () => {
  await open("mode=computer&level=beginner&movetime=0.02");
  await page.selectOption("#human", "black");
  await page.waitForFunction(() => window.damasBoard.state.human === "black" && window.damasBoard.state.moves.length === 1,
                             null, { timeout: 20000 });
  await idle();
  const s = await state();
  expect(s.side === "black" && s.turn === "human", "after the computer's opening: " + s.side + " " + s.turn);
  const bottomLeft = await page.$eval("#board .sq:nth-child(57)", (e) => e.dataset.square || "light");
  expect(bottomLeft === "h8", "bottom left is " + bottomLeft);
});

await test("undo and hint against the computer", async () => {
  await open("mode=computer&level=easy&movetime=0.02");
  const s = await state();
  await enter(s.legal[0]);
  expect((await movesText()).length === 2, "the computer did not answer");
  await page.click("#hint");
  await idle();
  expect(/^Hint: \S+/.test(await page.textContent("#hint-text")), "hint: " + (await page.textContent("#hint-text")));
  expect(await page.$$eval(".sq.hint", (e) => e.length) === 2, "hint squares not shown");
  await page.click("#undo");
  await idle();
  expect((await movesText()).length === 0, "undo did not go back to my turn: " + (await movesText()));
  expect((await state()).turn === "human", "not my turn after undo");
});

await test("undo and hint with two players; the move list goes back and forth", async () => {
  await open("mode=two-players");
  let s = await state();
  await enter(s.legal.find((m) => m.text === "c3-d4"));
  s = await state();
  await enter(s.legal.find((m) => m.text === "f6-e5"));
  await page.click("#hint");
  await idle();
  expect(/^Hint: \S+/.test(await page.textContent("#hint-text")), "no hint");
  await page.click("#undo");
  await idle();
  expect((await movesText()).join() === "c3-d4", "after undo: " + (await movesText()));
  s = await state();
  await enter(s.legal.find((m) => m.text === "f6-e5"));
  s = await state();
  await enter(s.legal.find((m) => m.text === "d4:f6"));
  await page.click('#move-list .mv[data-ply="1"]');
  await idle();
  s = await state();
  expect(s.cursor === 1 && s.side === "black", "goto 1: " + s.cursor + " " + s.side);
  expect(await page.$('[data-square="d4"] .piece.white') !== null, "board not at ply 1");
  await page.click("#nav-end");
  await idle();
  expect((await state()).cursor === 3, "nav end");
});

await test("a two-player game to a draw by threefold repetition", async () => {
  await open("mode=two-players");
  await setFen("W:WKc1:BKf8");
  for (let round = 0; round < 2; round++) {
    for (const [from, to] of [["c1", "d2"], ["f8", "e7"], ["d2", "c1"], ["e7", "f8"]]) {
      await click(from);
      await click(to);
      await idle();
    }
  }
  const s = await state();
  expect(s.result.over && s.result.reason === "threefold repetition", "result: " + JSON.stringify(s.result));
  expect((await page.textContent("#banner")) === "Draw (threefold repetition)", "banner");
});

await test("under lidraughts' laws (FMJD-64) two kings against one are drawn after five moves each", async () => {
  await open("mode=two-players");
  await page.selectOption("#rules", "fmjd64");
  await idle();
  expect((await page.textContent("#game-laws")) === "Laws: lidraughts (FMJD-64)", "header: " + (await page.textContent("#game-laws")));
  await setFen("W:WKa1,Kg1:BKd6");
  const moves = ["a1-b2", "d6-c7", "b2-a3", "c7-b8", "a3-b4", "b8-a7", "b4-a5", "a7-b8", "a5-b6", "b8-a7"];
  for (const mv of moves) {
    const [from, to] = mv.split("-");
    await click(from);
    await click(to);
    await idle();
  }
  const s = await state();
  expect(s.rules === "fmjd64" && s.result.over && s.result.reason.includes("7.2.8"), "result: " + JSON.stringify(s.result));
  expect((await page.textContent("#banner")).startsWith("Draw (FMJD-64 7.2.8"), "banner: " + (await page.textContent("#banner")));
  expect(s.pdn.includes('[DrawRules "fmjd64"]'), "PDN tag");
  await page.selectOption("#rules", "seed");
  await idle();
  expect((await page.textContent("#game-laws")) === "Laws: seed (80 plies)", "header back to seed");
});

await test("the keyboard picks and drops pieces", async () => {
  await open("mode=two-players");
  await page.focus('[data-square="c3"]');
  await page.keyboard.press("Enter");
  await page.keyboard.press("ArrowUp");
  const focused = await page.evaluate(() => document.activeElement.dataset.square);
  expect(focused === "d4" || focused === "b4", "arrow went to " + focused);
  await page.keyboard.press("Enter");
  await idle();
  expect((await movesText()).join() === "c3-" + focused, "moves: " + (await movesText()));
});

await test("the set-up editor makes a position; FEN out and in", async () => {
  await open("mode=two-players");
  await page.click("#setup-toggle");
  await page.click("#setup-clear");
  await page.click('.pal[data-piece="w"]');
  await click("c3");
  await page.click('.pal[data-piece="b"]');
  await click("d4");
  await click("d6");
  await page.click('.pal[data-piece="B"]');
  await click("h8");
  await page.selectOption("#setup-side", "W");
  expect((await page.inputValue("#fen")) === "W:Wc3:Bd4,d6,Kh8", "editor FEN: " + (await page.inputValue("#fen")));
  await page.click("#setup-done");
  await idle();
  let s = await state();
  expect(s.fen === "W:W22:BK4,10,18", "game FEN: " + s.fen);
  expect((await page.inputValue("#fen")) === s.fen, "FEN field shows " + (await page.inputValue("#fen")));
  await setFen("B:W18,K5:BK29,12");
  s = await state();
  expect(s.side === "black" && s.pieces.length === 4, "FEN in");
  await expectRejected("/api/new", 422, () => setFen("W:W99"));
  expect(/bad FEN/.test(await page.textContent("#message")), "no error for a bad FEN");
  expect((await state()).fen === s.fen, "a bad FEN changed the game");
});

await test("a game saved as PDN loads back with the same moves", async () => {
  await open("mode=two-players");
  for (const text of ["c3-d4", "f6-e5", "d4:f6", "g7:e5"]) {
    const s = await state();
    await enter(s.legal.find((m) => m.text === text));
  }
  const played = await movesText();
  const [download] = await Promise.all([page.waitForEvent("download"), page.click("#pdn-save")]);
  expect(download.suggestedFilename() === "damas-game.pdn", "download name");
  const pdn = await page.inputValue("#pdn");
  expect(/1\. 22-18 11-15 2\. 18x11/.test(pdn) || /c3-d4/.test(pdn) || /22-18/.test(pdn), "PDN: " + pdn);
  await page.click("#new-game");
  await idle();
  expect((await movesText()).length === 0, "new game not empty");
  await page.fill("#pdn", pdn);
  await page.click("#pdn-load");
  await idle();
  expect((await movesText()).join() === played.join(), "loaded: " + (await movesText()) + " vs " + played);
  await page.fill("#pdn", "1. 22-18 11-15 2. 31-3 *");
  await expectRejected("/api/load-pdn", 422, async () => {
    await page.click("#pdn-load");
    await idle();
  });
  expect(/bad PDN/.test(await page.textContent("#message")), "no error for a bad PDN");
  expect((await movesText()).join() === played.join(), "a bad PDN changed the game");
});

await test("analysis shows best lines and the evaluation bar, and stops", async () => {
  await open("mode=two-players");
  let s = await state();
  await enter(s.legal.find((m) => m.text === "c3-d4"));
  await page.click("#analysis-toggle");
  await page.waitForFunction(() => document.querySelectorAll("#analysis-lines li").length === 3, null, { timeout: 20000 });
  await page.waitForTimeout(1500);
  const height = await page.$eval("#eval-white", (e) => e.style.height);
  expect(/%$/.test(height), "eval bar height " + height);
  expect(await page.textContent("#analysis-toggle") === "Stop analysis", "toggle text");
  await page.screenshot({ path: join(artefacts, "board-analysis.png") });
  await page.click("#analysis-toggle");
  await idle();
  s = await page.evaluate(async () => {
    const r = await fetch("api/analysis", { method: "POST", body: JSON.stringify({ session: window.damasBoard.state.session }) });
    return r.json();
  });
  expect(s.analysing === false, "analysis still running");
});

await test("the flipped board puts h8 at the bottom left", async () => {
  await open("mode=two-players");
  await page.click("#flip");
  const first = await page.$eval("#board .sq:last-child", (e) => e.dataset.square || "light");
  const bottomLeft = await page.$eval("#board .sq:nth-child(57)", (e) => e.dataset.square || "light");
  expect(bottomLeft === "h8", "bottom left is " + bottomLeft + " (" + first + ")");
});

// ---- Review and puzzles (issue 21) ----
// White's 4. 17-14 (b4-c5) gives a man away: the known blunder.
const BLUNDER_PDN = '[Event "test"]\n[White "Alice"]\n[Black "Bob"]\n\n1. 22-18 11-15 2. 18x11 8x15 3. 21-17 9-13 4. 17-14 10x17 5. 25-21 *\n';
async function reviewBlunderGame(at = base) {
  await open("mode=two-players", at);
  await page.fill("#pdn", BLUNDER_PDN);
  await page.click("#pdn-load");
  await idle();
  await page.selectOption("#review-limit", "depth:6");
  await page.click("#review-start");
  await page.waitForFunction(() => document.body.dataset.reviewing === "0" && window.damasBoard.review, null, { timeout: 60000 });
  await idle();
}

await test("review: a game with a known blunder gets it marked on the graph and in the move list", async () => {
  await reviewBlunderGame();
  const marks = await page.$$eval(".graph-mark.blunder", (e) => e.map((x) => x.dataset.ply));
  expect(marks.includes("7"), "no blunder dot at ply 7: " + marks.join());
  const blunders = await page.$$eval("#move-list .mv.blunder", (e) => e.map((x) => x.textContent));
  expect(blunders.includes("b4-c5??"), "move list blunders: " + blunders.join());
  expect(await page.$$eval(".review-graph .graph-line", (e) => e.length) === 1, "no evaluation curve");
  const summary = await page.textContent("#review-summary");
  expect(/White: .*[1-9] blunders/.test(summary) && /average loss \d+\.\d\d/.test(summary), "summary: " + summary);
  const r = await page.evaluate(() => window.damasBoard.review);
  expect(r.evals.length === 10 && r.evals.every((e) => Math.abs(e.value) <= r.limit), "graph values");
});

await test("review: clicking the blunder's mark shows the best line, stepped on the board", async () => {
  await page.click('.graph-mark.blunder[data-ply="7"]');
  await idle();
  await page.waitForSelector("#review-line:not([hidden])");
  const r = await page.evaluate(() => window.damasBoard.review);
  const best = r.plies[6].best;
  const text = await page.textContent("#review-line-text");
  expect(text.includes("b4-c5??") && text.includes("best " + best), "line text: " + text);
  expect(/Best line: 0 of \d+/.test(await statusText()), "status: " + (await statusText()));
  expect(await page.$('[data-square="b4"] .piece.white') !== null, "not the position before the blunder");
  await page.click("#line-forward");
  expect(/Best line: 1 of \d+ \(/.test(await statusText()), "status after a step: " + (await statusText()));
  const landing = best.split(/[-:]/).pop();
  expect(await page.$(`[data-square="${landing}"] .piece.white`) !== null, "the best move is not on the board: " + landing);
  await page.click("#line-forward");
  await page.click("#line-back");
  expect(/Best line: 1 of/.test(await statusText()), "back");
  await page.screenshot({ path: join(artefacts, "board-review.png"), fullPage: true });
  await page.click("#line-close");
  expect(!/Best line/.test(await statusText()), "the line stays after closing");
  expect((await state()).cursor === 7, "cursor " + (await state()).cursor);
  expect(await page.$('[data-square="c5"] .piece.white') !== null, "the game's position is not back");
});

await test("review: save writes the annotated PDN", async () => {
  const [download] = await Promise.all([page.waitForEvent("download"), page.click("#review-save")]);
  expect(download.suggestedFilename() === "damas-review.pdn", "name " + download.suggestedFilename());
  const pdn = await page.inputValue("#pdn");
  expect(/17-14\?\? \{/.test(pdn) && /\[Annotator "damas/.test(pdn), "annotated PDN: " + pdn);
});

await test("review: a long review shows its progress and can be cancelled; an empty game is refused", async () => {
  await open("mode=two-players");
  await page.fill("#pdn", BLUNDER_PDN);
  await page.click("#pdn-load");
  await idle();
  await page.selectOption("#review-limit", "movetime:1");
  await page.click("#review-start");
  await page.waitForFunction(() => Number(document.getElementById("review-progress").value) >= 1, null, { timeout: 20000 });
  expect(await page.isVisible("#review-cancel"), "no cancel button");
  await page.click("#review-cancel");
  await page.waitForFunction(() => document.body.dataset.reviewing === "0", null, { timeout: 20000 });
  await page.waitForTimeout(1200);  // the step in flight ends; no other follows
  expect(await page.evaluate(() => window.damasBoard.review) === null, "a cancelled review was shown");
  expect(!(await page.isVisible("#review-progress")), "progress bar still shown");
  await page.click("#new-game");
  await idle();
  await expectRejected("/api/review-start", 409, async () => {
    await page.click("#review-start");
    await idle();
  });
  expect(/nothing to review/.test(await page.textContent("#message")), "message: " + (await page.textContent("#message")));
  await page.selectOption("#review-limit", "depth:10");
});

// Plays the solver's moves of the puzzle on the board until it says solved.
async function solvePuzzle() {
  for (let i = 0; i < 20; i++) {
    const p = await page.evaluate(() => window.damasBoard.puzzle);
    if (p.step >= p.solution.length) break;
    const s = await state();
    const move = s.legal.find((m) => m.text === p.solution[p.step]);
    expect(move, "solution move " + p.solution[p.step] + " not legal");
    await enter(move);
  }
}

await test("puzzles: playing the solution solves a puzzle, counted in this browser", async () => {
  await open("mode=two-players");
  await page.evaluate(() => localStorage.removeItem("damas.puzzles.solved"));
  await page.click("#puzzle-toggle");
  await page.waitForFunction(() => window.damasBoard.puzzle && document.body.dataset.busy === "0", null, { timeout: 20000 });
  expect(/^Puzzle 1 of \d+: (White|Black) to play and win a piece/.test(await page.textContent("#puzzle-text")),
         "puzzle text: " + (await page.textContent("#puzzle-text")));
  expect((await state()).cursor === 0, "not at the puzzle's position");
  expect((await movesText()).length === 0, "the move list shows the solution: " + (await movesText()));
  await page.screenshot({ path: join(artefacts, "board-puzzle.png"), fullPage: true });
  await solvePuzzle();
  expect(await page.$(".puzzle-text.solved") !== null, "not solved: " + (await page.textContent("#puzzle-text")));
  expect(/Solved in this browser: 1 of \d+/.test(await page.textContent("#puzzle-solved")), "count");
  await open("mode=two-players");  // the count is kept
  await page.click("#puzzle-toggle");
  await page.waitForFunction(() => window.damasBoard.puzzle && document.body.dataset.busy === "0", null, { timeout: 20000 });
  expect(/Solved in this browser: 1 of/.test(await page.textContent("#puzzle-solved")), "count not kept");
  expect(/^Puzzle 2 of/.test(await page.textContent("#puzzle-text")), "did not go on with the first unsolved puzzle");
});

await test("puzzles: a wrong move is refuted by the engine's reply; try again, hint, next", async () => {
  const p = await page.evaluate(() => window.damasBoard.puzzle);
  const s = await state();
  const wrong = s.legal.find((m) => m.text !== p.solution[0]);
  expect(wrong, "no wrong move to try");
  await enter(wrong);
  await page.waitForSelector(".puzzle-text.failed");
  const text = await page.textContent("#puzzle-text");
  expect(text.startsWith(wrong.text + " is not it"), "failure text: " + text);
  const after = await state();
  expect(after.result.over || (after.moves.length === 2 && / refutes it/.test(text)), "no engine reply: " + text);
  await page.click("#puzzle-retry");
  await idle();
  expect((await state()).cursor === 0, "try again did not go back");
  await page.click("#puzzle-hint");
  expect(await page.$$eval(".sq.hint", (e) => e.length) >= 1, "no hint shown");
  await solvePuzzle();
  expect(/after a wrong try/.test(await page.textContent("#puzzle-text")), "a failed puzzle counted as clean");
  expect(/Solved in this browser: 1 of/.test(await page.textContent("#puzzle-solved")), "a failed puzzle was counted");
  await page.click("#puzzle-next");
  await idle();
  expect(/^Puzzle 3 of/.test(await page.textContent("#puzzle-text")), "next: " + (await page.textContent("#puzzle-text")));
  await page.click("#puzzle-toggle");
  await idle();
});

await test("the Filipino board: mirrored, a light near-left corner, its own square names, remembered", async () => {
  await open("mode=two-players");
  await page.selectOption("#board-style", "filipino");
  const bottomLeft = await page.$eval("#board .sq:nth-child(57)", (e) => e.dataset.square || "light");
  const bottomRight = await page.$eval("#board .sq:nth-child(64)", (e) => e.dataset.square + " " + e.getAttribute("aria-label"));
  expect(bottomLeft === "light", "bottom left is " + bottomLeft);
  expect(bottomRight.startsWith("a1 h1"), "bottom right: " + bottomRight);
  expect((await page.$eval("#board .sq:nth-child(57) .coord", (e) => e.textContent)) === "a1", "corner coordinate");
  let s = await state();
  await enter(s.legal.find((m) => m.text === "c3-d4"));
  expect((await movesText()).join() === "f3-e4", "move list: " + (await movesText()));
  await page.screenshot({ path: join(artefacts, "board-filipino.png") });
  await open("mode=two-players");
  expect((await page.inputValue("#board-style")) === "filipino", "the setting was not kept");
  expect(await page.$eval("#board .sq:nth-child(57)", (e) => e.dataset.square || "light") === "light", "not mirrored after a reload");
  await page.focus('[data-square="c3"]');
  await page.keyboard.press("ArrowUp");
  const focused = await page.evaluate(() => document.activeElement.getAttribute("aria-label"));
  expect(/^(e4|g4)/.test(focused), "arrow up went to " + focused);
  await page.selectOption("#board-style", "brazilian");
  expect(await page.$eval("#board .sq:nth-child(57)", (e) => e.dataset.square) === "a1", "Brazilian again");
});

// ---- Every game (issue 49): the selector offers what the engine plays; each plays on the board ----
const GAMES = ["brazilian", "russian", "spanish", "portuguese", "pool", "czech"];
const MIRRORED = ["spanish", "portuguese"];
const cellOf = (n) => page.$eval(`#board .sq:nth-child(${n})`, (e) => e.dataset.square || "light");
const coordOf = (n) => page.$eval(`#board .sq:nth-child(${n})`, (e) => (e.querySelector(".coord") || {}).textContent || "");
// A few moves of game `name` against the computer, entered on the board: the computer answers each.
async function playFewMoves(name, at = base) {
  await open(`mode=computer&level=beginner&movetime=0.02&variant=${name}`, at);
  let s = await state();
  expect(s.variant === name && (await page.inputValue("#variant")) === name, "not " + name + ": " + s.variant);
  expect((await page.textContent("#subtitle")).startsWith(s.title), "header: " + (await page.textContent("#subtitle")));
  for (let turn = 0; turn < 3 && !s.result.over; turn++) {
    expect(s.turn === "human", name + ": not my turn: " + s.turn);
    const move = s.legal[s.legal.length - 1];
    const count = s.moves.length;
    await enter(move);
    s = await state();
    expect(s.moves.length >= count + 2 || s.result.over, name + ": the move or the answer is missing");
    expect(s.moves[count].text === move.text, name + ": played " + s.moves[count].text + ", not " + move.text);
  }
  return s;
}

await test("the game selector offers the engine's six games by their titles", async () => {
  await open("mode=two-players");
  const offered = await page.$$eval("#variant option", (os) => os.map((o) => o.value + "=" + o.textContent));
  expect(offered.join() === "brazilian=Brazilian draughts,russian=Russian draughts,spanish=Spanish dama," +
         "portuguese=Portuguese damas,pool=Pool checkers,czech=Czech draughts", "offered: " + offered.join());
  const laws = await page.$$eval("#rules option", (os) => os.map((o) => o.value));
  expect(laws.join() === "game,seed,fmjd64,portuguese", "laws: " + laws.join());
  await page.selectOption("#variant", "portuguese");
  await page.waitForFunction(() => window.damasBoard.state.variant === "portuguese", null, { timeout: 20000 });
  await idle();
  expect(await page.$('[data-square="h1"] .piece.white') !== null, "no white man on h1 after choosing Portuguese");
  await page.selectOption("#rules", "fmjd64");
  await page.waitForFunction(() => window.damasBoard.state.rules === "fmjd64", null, { timeout: 20000 });
  expect((await state()).variant === "portuguese", "the laws changed the game");
  expect((await page.textContent("#game-laws")) === "Laws: lidraughts (FMJD-64)", "laws: " + (await page.textContent("#game-laws")));
});

for (const name of GAMES) {
  await test(`${name} on the board: ?variant=${name} plays a few moves against the computer`, async () => {
    await playFewMoves(name);
    const mirrored = MIRRORED.includes(name);
    expect((await cellOf(57)) === (mirrored ? "light" : "a1"), "bottom left: " + (await cellOf(57)));
    await page.screenshot({ path: join(artefacts, `board-${name}.png`) });
  });
}

for (const name of MIRRORED) {
  await test(`the ${name} board is mirrored: a light near-left corner, h1 played, its coordinates; flipped too`, async () => {
    await open(`mode=two-players&variant=${name}`);
    expect(await page.$$eval(".sq.dark", (e) => e.length) === 32, "not 32 dark squares");
    expect((await cellOf(57)) === "light", "the near-left corner is " + (await cellOf(57)));
    expect((await cellOf(64)) === "h1", "the near-right corner is " + (await cellOf(64)));
    expect(await page.$('[data-square="a1"]') === null, "a1 is a playing square");
    for (const sq of ["b1", "d1", "f1", "h1"])
      expect(await page.$(`[data-square="${sq}"] .piece.white`) !== null, "no white man on " + sq);
    expect(await page.$('[data-square="a8"] .piece.black') !== null, "no black man on a8");
    expect(await page.$('[data-square="h8"]') === null, "h8 is a playing square");
    expect((await coordOf(57)) === "a1" && (await coordOf(64)) === "h" && (await coordOf(1)) === "8",
           "coordinates: " + (await coordOf(57)) + " " + (await coordOf(64)) + " " + (await coordOf(1)));
    expect(await page.$eval("#board-style", (e) => e.disabled), "the board style is offered on the game's own board");
    expect(await page.$$eval('.sq.dark[tabindex="0"]', (e) => e.length) === 1, "no keyboard square");
    // Entered by the game's names: h3 to g4, the move list says so.
    await click("h3");
    expect((await marked(".sq.target")) === "g4", "targets of h3: " + (await marked(".sq.target")));
    await click("g4");
    await idle();
    expect((await movesText()).join() === "h3-g4", "moves: " + (await movesText()).join());
    // Black's view: h8 (light) at the bottom left, a8 at the bottom right, coordinates from there.
    await page.click("#flip");
    expect((await cellOf(57)) === "light" && (await cellOf(64)) === "a8", "flipped: " + (await cellOf(57)) + " " + (await cellOf(64)));
    expect((await coordOf(57)) === "h8" && (await coordOf(64)) === "a", "flipped coordinates: " + (await coordOf(57)));
    expect(await page.$('[data-square="a8"] .piece.black') !== null, "no black man on a8 when flipped");
    const reply = (await state()).legal.find((m) => m.text === "a6-b5") || (await state()).legal[0];
    await enter(reply);
    expect((await movesText()).length === 2, "Black's move on the flipped board: " + (await movesText()).join());
    await page.click("#flip");
    await page.screenshot({ path: join(artefacts, `board-${name}-mirrored.png`) });
  });
}

await test("the set-up editor on the Spanish board: its squares, its FEN, the game's numbers", async () => {
  await open("mode=two-players&variant=spanish");
  await page.click("#setup-toggle");
  await page.click("#setup-clear");
  await page.click('.pal[data-piece="w"]');
  await click("f1");
  await page.click('.pal[data-piece="b"]');
  await click("g2");
  await page.selectOption("#setup-side", "W");
  expect((await page.inputValue("#fen")) === "W:Wf1:Bg2", "editor FEN: " + (await page.inputValue("#fen")));
  await page.click("#setup-done");
  await idle();
  let s = await state();
  expect(s.variant === "spanish", "the editor's game is " + s.variant);
  expect(s.fen === "W:W2:B5", "game FEN (f1 is 2, g2 is 5): " + s.fen);
  expect(s.must_capture && s.legal.length === 1 && s.legal[0].text === "f1:h3", "legal: " + s.legal.map((m) => m.text));
  await enter(s.legal[0]);
  s = await state();
  expect(s.pieces.length === 1 && s.pieces[0].square === "h3", "after the capture: " + JSON.stringify(s.pieces));
  // The editor's start position is the game's: White on h1, not a1.
  await page.click("#setup-toggle");
  await page.click("#setup-start");
  await page.waitForFunction(() => document.querySelectorAll(".sq .piece").length === 24, null, { timeout: 20000 });
  expect(await page.$('[data-square="h1"] .piece.white') !== null, "start position without h1");
  await page.click("#setup-cancel");
});

await test("the Filipino style leaves a mirrored game on its own board and comes back for Brazilian", async () => {
  await open("mode=two-players");
  await page.selectOption("#board-style", "filipino");
  expect((await cellOf(57)) === "light", "Filipino: bottom left " + (await cellOf(57)));
  await page.selectOption("#variant", "spanish");
  await page.waitForFunction(() => window.damasBoard.state.variant === "spanish", null, { timeout: 20000 });
  await idle();
  expect((await cellOf(64)) === "h1" && (await coordOf(64)) === "h", "Spanish under the Filipino style: " + (await cellOf(64)));
  await page.selectOption("#variant", "brazilian");
  await page.waitForFunction(() => window.damasBoard.state.variant === "brazilian", null, { timeout: 20000 });
  await idle();
  expect((await cellOf(64)) === "a1", "Brazilian under the Filipino style: bottom right " + (await cellOf(64)));
  await page.selectOption("#board-style", "brazilian");
  expect((await cellOf(57)) === "a1", "Brazilian again: " + (await cellOf(57)));
});

// The same page from a static folder, against the engine in this browser (no server).
async function playToEnd(at, level) {
  await open(`mode=computer&level=${level}&movetime=0.05`, at);
  let s = await state();
  expect(s.level === level && s.mode === "computer", "settings not taken");
  for (let ply = 0; ply < 400 && !s.result.over; ply++) {
    expect(s.turn === "human", "not my turn: " + s.turn);
    await enter(s.legal[s.legal.length - 1]);
    s = await state();
  }
  expect(s.result.over && s.result.reason.length > 0, "the game did not end with a reason");
  expect((await page.textContent("#banner")) === s.result.text, "banner");
  return s;
}
if (webDir) {
  const statics = await serve(webDir, 0);
  const at = `http://127.0.0.1:${statics.address().port}/index.html`;
  await test("the page loads from the static folder without a failed request or a console error", async () => {
    await checkCleanLoad(at, "browser");
  });
  for (const level of ["beginner", "medium"]) {
    await test(`the page without a server plays a full game against the engine in this browser at ${level}`, async () => {
      await playToEnd(at, level);
      expect(await page.evaluate(() => window.damasBoard.transport) === "browser", "not the browser engine");
      expect(await page.$eval('#engine-where [value="server"]', (o) => o.disabled), "server offered without one");
      if (level === "medium") await page.screenshot({ path: join(artefacts, "board-in-browser.png") });
    });
  }
  await test("the in-browser engine reviews a game and marks its blunder", async () => {
    await reviewBlunderGame(at);
    expect(await page.evaluate(() => window.damasBoard.transport) === "browser", "not the browser engine");
    const blunders = await page.$$eval("#move-list .mv.blunder", (e) => e.map((x) => x.textContent));
    expect(blunders.includes("b4-c5??"), "move list blunders: " + blunders.join());
    await page.click('.graph-mark.blunder[data-ply="7"]');
    await idle();
    await page.waitForSelector("#review-line:not([hidden])");
    await page.click("#line-forward");
    expect(/Best line: 1 of/.test(await statusText()), "status: " + (await statusText()));
  });
  await test("the in-browser engine plays Russian: its captures, and a full game", async () => {
    await open("mode=two-players&variant=russian", at);
    await checkRussianRules();
    expect(await page.evaluate(() => window.damasBoard.transport) === "browser", "not the browser engine");
    await playRussianToEnd(at);
  });
  for (const name of GAMES) {
    await test(`the in-browser engine plays ${name} on the board`, async () => {
      await playFewMoves(name, at);
      expect(await page.evaluate(() => window.damasBoard.transport) === "browser", "not the browser engine");
      if (MIRRORED.includes(name)) {
        expect((await cellOf(57)) === "light" && (await cellOf(64)) === "h1", "not the mirrored board");
      }
    });
  }
  await test("the in-browser engine gives hints and analysis lines", async () => {
    await open("mode=two-players", at);
    await page.click("#hint");
    await idle();
    expect(/^Hint: \S+/.test(await page.textContent("#hint-text")), "no hint");
    await page.click("#analysis-toggle");
    await page.waitForFunction(() => document.querySelectorAll("#analysis-lines li").length === 3, null, { timeout: 20000 });
    await page.click("#analysis-toggle");
    await idle();
  });
  statics.close();
}


await browser.close();
server.kill("SIGINT");
const code = await new Promise((resolve) => server.on("exit", (c) => resolve(c)));
if (code !== 0) { failed++; console.log("FAIL damas serve stopped with code " + code + " on SIGINT"); }
else { passed++; console.log("ok   damas serve stops cleanly on SIGINT"); }
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
