// Time of a game review in the board page as a person sees it (bench/review.md): the page loads a
// PDN game and reviews it at the page's default setting (depth 10 per position), once against
// `damas serve` and once against the WebAssembly engine in this browser (WEB_DIR from tools/build-web).
// Usage: node review-time.mjs DAMAS_BINARY PDN_FILE [WEB_DIR]
import { chromium } from "playwright-core";
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { serve } from "../browser-wasm/static-server.mjs";

const [damas, pdnFile, webDir] = process.argv.slice(2);
const pdn = readFileSync(pdnFile, "utf8");
const server = spawn(damas, ["serve", "--port", "0"], { stdio: ["ignore", "pipe", "inherit"] });
const base = await new Promise((resolve, reject) => {
  let out = "";
  server.stdout.on("data", (d) => {
    out += d;
    const m = /(http:\/\/127\.0\.0\.1:\d+\/)/.exec(out);
    if (m) resolve(m[1]);
  });
  server.on("exit", (code) => reject(new Error("damas serve exited with " + code)));
});
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
                                        args: ["--headless", "--no-sandbox", "--disable-gpu"] });
const page = await browser.newPage();

async function reviewSeconds(url) {
  await page.goto(url);
  await page.waitForFunction(() => document.body.dataset.ready === "1", null, { timeout: 60000 });
  await page.fill("#pdn", pdn);
  await page.click("#pdn-load");
  await page.waitForFunction(() => document.body.dataset.busy === "0" && window.damasBoard.state.moves.length > 0);
  const plies = await page.evaluate(() => window.damasBoard.state.moves.length);
  const started = Date.now();
  await page.click("#review-start");
  await page.waitForFunction(() => document.body.dataset.reviewing === "0" && window.damasBoard.review, null,
                             { timeout: 600000 });
  return { plies, seconds: (Date.now() - started) / 1000, setting: await page.inputValue("#review-limit") };
}

const results = { server: await reviewSeconds(base + "?mode=two-players") };
if (webDir) {
  const statics = await serve(webDir, 0);
  results.browser = await reviewSeconds(`http://127.0.0.1:${statics.address().port}/index.html?mode=two-players`);
  statics.close();
}
console.log(JSON.stringify(results));
await browser.close();
server.kill("SIGINT");
