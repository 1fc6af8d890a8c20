// Latency of the board's API over HTTP as the page sees it (bench/web.md): starts
// `damas serve --port 0`, then times N move, undo and state requests on one keep-alive connection.
// Usage: node api-latency.mjs DAMAS_BINARY [N]
import { spawn } from "node:child_process";
import http from "node:http";

const [damas, countText] = process.argv.slice(2);
const count = Number(countText || 500);
const server = spawn(damas, ["serve", "--port", "0"], { stdio: ["ignore", "pipe", "inherit"] });
const base = await new Promise((resolve, reject) => {
  let out = "";
  server.stdout.on("data", (d) => {
    out += d;
    const m = /http:\/\/127\.0\.0\.1:(\d+)\//.exec(out);
    if (m) resolve(Number(m[1]));
  });
  server.on("exit", (code) => reject(new Error("damas serve exited with " + code)));
});
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

function post(op, body) {
  return new Promise((resolve, reject) => {
    const data = JSON.stringify(body);
    const req = http.request({ host: "127.0.0.1", port: base, path: "/api/" + op, method: "POST", agent,
                               headers: { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(data) } },
      (res) => {
        let text = "";
        res.on("data", (c) => (text += c));
        res.on("end", () => resolve({ status: res.statusCode, json: JSON.parse(text), bytes: text.length }));
      });
    req.on("error", reject);
    req.end(data);
  });
}

const { json } = await post("new", { mode: "two-players" });
const session = json.session;
const times = { move: [], undo: [], state: [] };
let bytes = 0;
for (let i = 0; i < count; i++) {
  for (const [op, body] of [["move", { session, move: "c3-d4" }], ["undo", { session }], ["state", { session }]]) {
    const t0 = process.hrtime.bigint();
    const r = await post(op, body);
    times[op].push(Number(process.hrtime.bigint() - t0) / 1e6);
    if (r.status !== 200) throw new Error(op + " answered " + r.status);
    bytes = r.bytes;
  }
}
const stats = (a) => {
  const s = [...a].sort((x, y) => x - y);
  const q = (p) => s[Math.min(s.length - 1, Math.floor(p * s.length))].toFixed(3);
  return `median ${q(0.5)} ms, p95 ${q(0.95)} ms, max ${s[s.length - 1].toFixed(3)} ms`;
};
for (const op of Object.keys(times)) console.log(`${op.padEnd(5)} ${count} requests: ${stats(times[op])}`);
console.log(`state answer of the start position: ${bytes} bytes`);
server.kill("SIGINT");
agent.destroy();
