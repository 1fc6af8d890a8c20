// The evaluation graph of a game review, drawn as SVG from the API's review (review-step or
// review): one point per position (the values are the engine's, already in men and clamped,
// won and lost scores on the edge), White's advantage up, the marked moves as coloured dots, the
// current position as a vertical line. `damas analyze --plot` draws the same values on the
// command line (review/graph.h).
const NS = "http://www.w3.org/2000/svg";
const W = 600, H = 170, LEFT = 28, RIGHT = 6, TOP = 6, BOTTOM = 6;

function el(name, attrs) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  return e;
}

// Graph coordinates of position `ply` (0 = start) and of a value in men.
function scales(review) {
  const n = review.evals.length;
  const span = W - LEFT - RIGHT;
  const half = (H - TOP - BOTTOM) / 2;
  return {
    x: (ply) => LEFT + (n > 1 ? (span * ply) / (n - 1) : 0),
    y: (value) => TOP + half - (value / review.limit) * half,
    ply: (x) => Math.max(0, Math.min(n - 1, Math.round(((x - LEFT) / span) * (n - 1)))),
  };
}

// Draws into `container`; onSelect(ply) when a point, a dot or the plot is clicked.
export function draw(container, review, current, onSelect) {
  container.textContent = "";
  const s = scales(review);
  const svg = el("svg", { viewBox: `0 0 ${W} ${H}`, class: "review-graph", role: "img",
                          "aria-label": "evaluation graph: White's advantage in men" });
  svg.appendChild(el("rect", { x: LEFT, y: TOP, width: W - LEFT - RIGHT, height: H - TOP - BOTTOM, class: "graph-black" }));
  const points = review.evals.map((e) => `${s.x(e.ply).toFixed(1)},${s.y(e.value).toFixed(1)}`);
  const last = review.evals.length - 1;
  // White's share light from the bottom edge up to the curve: all light at +3, all dark at -3.
  const bottom = s.y(-review.limit);
  svg.appendChild(el("path", { class: "graph-white",
                               d: `M${s.x(0)},${bottom} L${points.join(" L")} L${s.x(last)},${bottom} Z` }));
  svg.appendChild(el("path", { class: "graph-line", d: "M" + points.join(" L") }));
  svg.appendChild(el("line", { class: "graph-zero", x1: LEFT, x2: W - RIGHT, y1: s.y(0), y2: s.y(0) }));
  for (const v of [review.limit, -review.limit]) {
    const t = el("text", { x: 2, y: s.y(v) + (v > 0 ? 10 : -2), class: "graph-scale" });
    t.textContent = (v > 0 ? "+" : "") + v;
    svg.appendChild(t);
  }
  svg.appendChild(el("line", { class: "graph-current", x1: s.x(current), x2: s.x(current), y1: TOP, y2: H - BOTTOM }));
  for (const p of review.plies) {
    if (!p.mark) continue;
    const dot = el("circle", { class: "graph-mark " + p.mark, cx: s.x(p.ply), cy: s.y(review.evals[p.ply].value),
                               r: 5, fill: review.colours[p.mark], "data-ply": p.ply });
    const title = el("title", {});
    title.textContent = `${p.text}${p.nag} (${p.mark}, loses ${p.loss.toFixed(2)}; best ${p.best})`;
    dot.appendChild(title);
    dot.addEventListener("click", (e) => { e.stopPropagation(); onSelect(p.ply); });
    svg.appendChild(dot);
  }
  svg.addEventListener("click", (e) => {
    const box = svg.getBoundingClientRect();
    onSelect(s.ply(((e.clientX - box.left) / box.width) * W));
  });
  container.appendChild(svg);
}
