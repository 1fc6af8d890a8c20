// The puzzle set (puzzles.pdn beside the page, written by `damas puzzles`): one PDN game per
// puzzle, its FEN the position, its moves the solution, PuzzleSource the game it came from. The
// page loads each puzzle's PDN through the API (load-pdn), which reads the moves; here only the
// games are split and their tags read. Solved puzzles are remembered in this browser.
const KEY = "damas.puzzles.solved";

export function parse(text) {
  return text.split(/\r?\n\s*\r?\n(?=\[)/).map((pdn) => pdn.trim()).filter((pdn) => pdn.startsWith("[")).map((pdn) => {
    const tags = {};
    for (const m of pdn.matchAll(/^\[(\w+) "((?:[^"\\]|\\.)*)"\]$/gm)) tags[m[1]] = m[2].replace(/\\(.)/g, "$1");
    return { pdn, id: tags.Event || pdn, source: tags.PuzzleSource || "", fen: tags.FEN || "" };
  });
}

export async function load() {
  const r = await fetch("puzzles.pdn", { cache: "no-store" });
  if (!r.ok) throw new Error("no puzzle set here (puzzles.pdn: " + r.status + ")");
  return parse(await r.text());
}

export function solved() {
  try {
    const list = JSON.parse(localStorage.getItem(KEY) || "[]");
    return new Set(Array.isArray(list) ? list : []);
  } catch (e) {
    return new Set();
  }
}

export function markSolved(id) {
  const s = solved();
  s.add(id);
  try { localStorage.setItem(KEY, JSON.stringify([...s])); } catch (e) { /* storage full or off: count this page only */ }
  return s.size;
}
