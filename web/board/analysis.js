// The Analysis panel: the engine's best lines of the position on the board (WebSocket or worker
// events, polled as well) and the evaluation bar.
import { api } from "./transport.js";
import { shown } from "./layout.js";

const $ = (id) => document.getElementById(id);

function formatLine(app, ev) {
  return `<span class="score">${ev.white_score_text}</span><span class="depth">depth ${ev.depth}</span> ` +
         ev.pv.map((m) => shown(app.view, m)).join(" ");
}

function showLines(app) {
  const lines = [...app.analysis.lines.values()].sort((a, b) => a.multipv - b.multipv);
  const ol = $("analysis-lines");
  ol.textContent = "";
  for (const ev of lines) {
    const li = document.createElement("li");
    li.innerHTML = formatLine(app, ev);
    ol.appendChild(li);
  }
  const best = lines.find((l) => l.multipv === 1);
  if (best) {
    const s = best.white_score;
    const share = Math.abs(s) > 9000 ? (s > 0 ? 1 : 0) : 1 / (1 + Math.exp(-s / 150));
    $("eval-white").style.height = (share * 100).toFixed(1) + "%";
    $("eval-text").textContent = best.white_score_text;
  }
}

function onEvent(app, ev) {
  if (!app.game || ev.session !== app.game.session || ev.type !== "info") return;
  app.analysis.lines.set(ev.multipv, ev);
  showLines(app);
}

// Polling as well keeps the lines right when the socket is slow to open or cannot.
async function poll(app) {
  const { analysis, game } = app;
  if (!analysis.on || !game) return;
  const r = await app.transport.call("analysis", { session: game.session }).catch(() => null);
  if (!r || r.status !== 200 || r.json.session !== app.game.session || !r.json.lines.length) return;
  for (const l of r.json.lines) {
    if (!analysis.lines.has(l.multipv) || analysis.lines.get(l.multipv).depth <= l.depth) analysis.lines.set(l.multipv, l);
  }
  showLines(app);
}

export async function startAnalysis(app) {
  const { analysis, game } = app;
  if (!game || game.result.over) return;
  analysis.lines.clear();
  if (!(await api(app, "analysis-start", { session: game.session, multipv: 3 }))) return;
  analysis.on = true;
  $("analysis-toggle").textContent = "Stop analysis";
  if (analysis.subscription) analysis.subscription.close();
  const { transport } = app;
  analysis.subscription = transport.subscribe ? transport.subscribe(game.session, (ev) => onEvent(app, ev)) : null;
  clearInterval(analysis.timer);
  analysis.timer = setInterval(() => poll(app), 500);
}

// The analysis follows the board: started again on the new position while it is on.
export function followBoard(app) {
  if (app.analysis.on) startAnalysis(app);
}

// Stops showing the lines (the session's analysis ends with it, or with analysis-stop).
export function stopAnalysisView(app) {
  const { analysis } = app;
  analysis.on = false;
  clearInterval(analysis.timer);
  if (analysis.subscription) analysis.subscription.close();
  analysis.subscription = null;
  $("analysis-toggle").textContent = "Start analysis";
}

export async function toggleAnalysis(app) {
  if (!app.analysis.on) return startAnalysis(app);
  stopAnalysisView(app);
  if (app.game) await api(app, "analysis-stop", { session: app.game.session });
}
