// The move list: the game's moves by number (the review's marks on them), each a button that goes
// to the position after it; in puzzle mode only the moves played so far (the rest is the solution).
import { shown } from "./layout.js";
import { reviewOfGame } from "./review-panel.js";

function numberItem(list, blackFirst) {
  const li = document.createElement("li");
  const num = document.createElement("span");
  num.className = "num";
  num.textContent = String(list.children.length + 1) + ".";
  li.appendChild(num);
  list.appendChild(li);
  if (blackFirst) li.appendChild(document.createTextNode(" …"));
  return li;
}

// `onSelect(ply)` when a move is clicked.
export function renderMoves(app, onSelect) {
  const { game } = app;
  const list = document.getElementById("move-list");
  list.textContent = "";
  const moves = app.puzzles.current ? game.moves.slice(0, game.cursor) : game.moves;
  const review = reviewOfGame(app);
  const firstIsBlack = game.start_side === "black";  // a set-up position
  let li = null;
  moves.forEach((m, i) => {
    const isBlack = (i % 2 === 0) === firstIsBlack;
    if (!li || !isBlack) li = numberItem(list, isBlack);
    const b = document.createElement("button");
    b.type = "button";
    const r = review ? review.plies[i] : null;
    b.className = "mv" + (i + 1 === game.cursor ? " current" : "") + (r && r.mark ? " " + r.mark : "");
    b.textContent = shown(app.view, m.text) + (r ? r.nag : "");
    b.dataset.ply = String(i + 1);
    b.addEventListener("click", () => onSelect(i + 1));
    li.appendChild(b);
  });
  const current = list.querySelector(".current");
  if (current) current.scrollIntoView({ block: "nearest" });
}
