// The damas board page: draws the position the API describes and sends it the moves entered.
// It knows no rules: legal moves, their landing squares, results and notation come from the API
// (POST /api/<op> on `damas serve`, or the same API in the WebAssembly worker).
// URL options: ?movetime=S (seconds per computer move), ?engine=browser|server, ?board=brazilian|filipino.
"use strict";

(() => {
  const params = new URLSearchParams(location.search);
  const FILES = "abcdefgh";
  const $ = (id) => document.getElementById(id);

  // ---- Transports: the same JSON API on the server or in a Web Worker ----
  function serverTransport() {
    return {
      name: "server",
      async call(op, body) {
        const r = await fetch("api/" + op, { method: "POST", headers: { "Content-Type": "application/json" },
                                            body: JSON.stringify(body) });
        return { status: r.status, json: await r.json() };
      },
      // Analysis events over the WebSocket; falls back to polling when it cannot open.
      subscribe(session, onEvent) {
        const url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host +
                    location.pathname.replace(/[^/]*$/, "") + "ws?session=" + encodeURIComponent(session);
        let ws = null;
        try { ws = new WebSocket(url); } catch (e) { return null; }
        ws.onmessage = (e) => { try { onEvent(JSON.parse(e.data)); } catch (err) { /* not JSON: ignore */ } };
        return { close() { ws.close(); } };
      },
    };
  }

  let browserAvailable = false;  // decided at start (engines.json, worker-api.js)
  function browserTransport() {
    return browserAvailable ? self.DamasWorkerApi.get() : null;
  }

  // Which engines this folder offers: engines.json beside the page says it without a failing
  // request (`damas serve` answers {"server": true}; tools/build-web ships {"browser": true}).
  async function enginesHere() {
    try {
      const r = await fetch("engines.json", { cache: "no-store" });
      if (r.ok) return await r.json();
    } catch (e) { /* no answer: neither */ }
    return {};
  }

  let transport = serverTransport();

  // ---- State ----
  let state = null;            // the API's answer for the session
  let flipped = false;
  let selected = null;         // square picked, or null
  let entered = [];            // landing squares entered so far for the picked piece
  let hintMove = null;
  let busy = 0;
  let analysing = false;
  let subscription = null;
  let pollTimer = null;
  let setup = null;            // {board: {sq: "w"|"b"|"W"|"B"}, piece} while editing
  let focusSquare = "a1";
  let boardStyle = "brazilian";  // or "filipino": the mirrored board (localStorage "damas.board")
  let review = null;           // the finished review of the game (API review-step / review)
  let reviewRun = 0;           // bumped by cancel: a running review loop stops at its next step
  let lineView = null;         // {ply, steps, index}: a best line shown on the board
  let puzzles = null;          // the puzzle set (puzzles.js), loaded on first use
  let puzzle = null;           // {index, solution, step, failed} in puzzle mode

  function setBusy(delta) {
    busy += delta;
    document.body.dataset.busy = busy > 0 ? "1" : "0";
  }

  // A busy server (503 {"busy": true}: every engine is searching for other games) is said so;
  // the computer's move is asked again a few times before giving up.
  const BUSY_RETRIES = 5;
  async function api(op, body) {
    setBusy(1);
    try {
      let r = await transport.call(op, body);
      for (let i = 0; i < BUSY_RETRIES && r.status === 503 && r.json.busy && op === "engine-move"; ++i) {
        showMessage("The server is busy with other games; asking again in a moment...");
        await new Promise((done) => setTimeout(done, 2000));
        r = await transport.call(op, body);
      }
      if (r.status !== 200) {
        showMessage(r.json.busy ? "The server is busy: " + r.json.error : r.json.error || ("error " + r.status));
        return null;
      }
      showMessage("");
      return r.json;
    } catch (e) {
      showMessage("no answer from the engine: " + e.message);
      return null;
    } finally {
      setBusy(-1);
    }
  }

  function showMessage(text) { $("message").textContent = text; }

  const RULES_NAMES = { seed: "seed (80 plies)", fmjd64: "lidraughts (FMJD-64)" };

  function settings() {
    const s = { mode: $("mode").value, level: $("level").value, human: $("human").value, rules: $("rules").value };
    const mt = Number(params.get("movetime"));
    if (mt > 0) s.movetime = mt;
    return s;
  }

  // ---- Board drawing ----
  function squareName(col, row) { return FILES[col] + String(row + 1); }  // col, row from a1
  function isDark(col, row) { return (col + row) % 2 === 0; }               // a1 is dark

  // The API names squares on the Brazilian board; the Filipino board is its mirror image (a light
  // square in each player's near-left corner), so its own names swap the files a..h.
  const mirrored = () => boardStyle === "filipino";
  function shown(text) {
    return mirrored() ? text.replace(/[a-h](?=[1-8])/g, (f) => FILES[7 - FILES.indexOf(f)]) : text;
  }
  // Board column and row (from a1) of the cell drawn at x, y (from the bottom left), and back.
  function fromDisplay(x, y) { return [flipped !== mirrored() ? 7 - x : x, flipped ? 7 - y : y]; }

  function buildBoard() {
    const board = $("board");
    board.textContent = "";
    for (let r = 7; r >= 0; r--) {
      for (let c = 0; c < 8; c++) {
        const [col, row] = fromDisplay(c, r);
        const cell = document.createElement(isDark(col, row) ? "button" : "div");
        cell.className = "sq " + (isDark(col, row) ? "dark" : "light");
        if (isDark(col, row)) {
          const name = squareName(col, row);
          cell.type = "button";
          cell.dataset.square = name;
          cell.setAttribute("aria-label", shown(name));
          cell.tabIndex = name === focusSquare ? 0 : -1;
          cell.addEventListener("click", () => onSquare(name));
          cell.addEventListener("keydown", onKey);
        }
        if (r === 0 || c === 0) {
          const coord = document.createElement("span");
          coord.className = "coord";
          coord.textContent = (r === 0 ? shown(squareName(col, row))[0] : "") + (c === 0 ? String(row + 1) : "");
          cell.appendChild(coord);
        }
        board.appendChild(cell);
      }
    }
    $("eval-bar").classList.toggle("flipped", flipped);
  }

  function cell(name) { return document.querySelector(`[data-square="${name}"]`); }

  function pieceMap() {
    const map = {};
    if (setup) return Object.assign({}, setup.board);
    if (!state) return map;
    const pieces = lineView ? lineView.steps[lineView.index].pieces : state.pieces;
    for (const p of pieces) map[p.square] = (p.color === "white" ? "w" : "b")[p.king ? "toUpperCase" : "toString"]();
    return map;
  }

  // Moves from the picked square whose route starts with the squares entered.
  function candidates() {
    if (!state || !selected) return [];
    const out = [];
    for (const m of state.legal) {
      if (m.from !== selected) continue;
      for (const route of m.routes) {
        if (entered.every((sq, i) => route[i] === sq)) out.push({ move: m, route });
      }
    }
    return out;
  }

  function render() {
    const map = pieceMap();
    const cands = candidates();
    const targets = new Set(cands.map((c) => c.route[entered.length]).filter(Boolean));
    const captured = new Set();
    if (entered.length) {
      // Pieces jumped so far: those every remaining route has taken.
      for (const c of cands) for (const sq of c.move.captured) captured.add(sq);
    }
    const capturers = new Set(state && !setup && !lineView && state.must_capture ? state.capturers : []);
    const lastMove = lineView ? lineView.steps[lineView.index].last_move : state && state.last_move;
    const last = lastMove && !setup ? [lastMove.from, lastMove.to] : [];
    $("board").classList.toggle("line-view", !!lineView);
    document.querySelectorAll(".sq.dark").forEach((el) => {
      const name = el.dataset.square;
      el.classList.toggle("target", !setup && targets.has(name));
      el.classList.toggle("path", !setup && entered.includes(name));
      el.classList.toggle("last", last.includes(name));
      el.classList.toggle("hint", !!hintMove && !setup && (hintMove.from === name || hintMove.to === name));
      el.querySelectorAll(".piece").forEach((p) => p.remove());
      let code = map[name];
      const moving = selected && entered.length && name === entered[entered.length - 1];
      if (moving) code = map[selected];
      if (!code) return;
      const piece = document.createElement("span");
      piece.className = "piece " + (code.toLowerCase() === "w" ? "white" : "black") + (code === code.toUpperCase() ? " king" : "");
      if (name === selected && entered.length) piece.classList.add("ghost");
      if (name === selected && !entered.length) piece.classList.add("selected");
      if (capturers.has(name) && name !== selected) piece.classList.add("must");
      if (captured.size && cands.every((c) => c.move.captured.includes(name)) && capturedSoFar(cands).has(name)) piece.classList.add("captured");
      piece.setAttribute("aria-hidden", "true");
      el.appendChild(piece);
      el.setAttribute("aria-label", shown(name) + " " + describe(code));
    });
    renderStatus();
  }

  // Squares jumped by the landing squares entered: the pieces between consecutive landings.
  function capturedSoFar(cands) {
    const out = new Set();
    if (!cands.length || !entered.length) return out;
    const route = [selected].concat(entered);
    const taken = new Set(cands[0].move.captured);
    for (let i = 0; i + 1 < route.length; i++) {
      for (const sq of between(route[i], route[i + 1])) if (taken.has(sq)) out.add(sq);
    }
    return out;
  }

  function between(a, b) {
    const out = [];
    const ac = FILES.indexOf(a[0]), ar = Number(a[1]) - 1, bc = FILES.indexOf(b[0]), br = Number(b[1]) - 1;
    const dc = Math.sign(bc - ac), dr = Math.sign(br - ar);
    for (let c = ac + dc, r = ar + dr; c !== bc && r !== br; c += dc, r += dr) out.push(squareName(c, r));
    return out;
  }

  function describe(code) {
    return { w: "white man", W: "white king", b: "black man", B: "black king" }[code] || "";
  }

  function renderStatus() {
    const banner = $("banner");
    if (setup) {
      $("status").textContent = "Setting up a position";
      banner.hidden = true;
      return;
    }
    if (!state) return;
    const side = state.side === "white" ? "White" : "Black";
    let text;
    if (lineView) text = lineViewText();
    else if (state.result.over) text = state.result.text;
    else if (state.turn === "computer") text = side + " to move (computer thinking)";
    else text = side + " to move" + (state.must_capture ? " (must capture)" : "");
    if (selected && entered.length && candidates().length > 1) text += " — choose the next landing square";
    $("status").textContent = text;
    banner.hidden = !state.result.over;
    banner.textContent = state.result.over ? state.result.text : "";
    document.body.dataset.over = state.result.over ? "1" : "0";
    document.body.dataset.side = state.side;
  }

  function renderMoves() {
    const list = $("move-list");
    list.textContent = "";
    const moves = puzzle ? state.moves.slice(0, state.cursor) : state.moves;
    // The first move may be Black's (a set-up position).
    const firstIsBlack = state.start_side === "black";
    let li = null;
    moves.forEach((m, i) => {
      const isBlack = (i % 2 === 0) === firstIsBlack;
      if (!li || !isBlack) {
        li = document.createElement("li");
        const num = document.createElement("span");
        num.className = "num";
        num.textContent = String(list.children.length + 1) + ".";
        li.appendChild(num);
        list.appendChild(li);
        if (isBlack) li.appendChild(document.createTextNode(" …"));
      }
      const b = document.createElement("button");
      b.type = "button";
      const r = reviewOfGame() ? review.plies[i] : null;
      b.className = "mv" + (i + 1 === state.cursor ? " current" : "") + (r && r.mark ? " " + r.mark : "");
      b.textContent = shown(m.text) + (r ? r.nag : "");
      b.dataset.ply = String(i + 1);
      b.addEventListener("click", () => (reviewOfGame() ? selectReviewPly(i + 1) : gotoPly(i + 1)));
      li.appendChild(b);
    });
    const current = list.querySelector(".current");
    if (current) current.scrollIntoView({ block: "nearest" });
  }

  function update(newState) {
    if (!newState) return;
    state = newState;
    selected = null;
    entered = [];
    hintMove = null;
    $("hint-text").textContent = "";
    $("fen").value = state.fen;
    $("mode").value = state.mode;
    $("level").value = state.level;
    $("rules").value = state.rules;
    $("game-laws").textContent = "Laws: " + RULES_NAMES[state.rules];
    $("human").value = state.human;
    $("computer-move").hidden = state.mode !== "computer";
    lineView = null;
    render();
    renderMoves();
    renderReview();
  }

  // ---- Input ----
  async function onSquare(name) {
    focusSquare = name;
    if (setup) return placeSetupPiece(name);
    if (lineView) return closeLine();
    if (!state || busy || state.result.over || state.turn !== "human") return;
    if (selected) {
      const next = candidates().filter((c) => c.route[entered.length] === name);
      if (next.length) {
        entered.push(name);
        const moves = new Set(next.map((c) => c.move.id));
        if (moves.size === 1) return playMove(next[0].move);
        return render();
      }
      if (entered.length) return render();  // mid-capture: only a landing square continues
    }
    const movable = state.legal.some((m) => m.from === name);
    selected = movable && selected !== name ? name : null;
    entered = [];
    render();
  }

  // Arrows move the focus to a diagonal neighbour on the board as drawn: up goes right and down
  // left (the other way at the edge), left goes up and right down (likewise).
  function onKey(e) {
    const name = e.currentTarget.dataset.square;
    if (e.key === "Escape") { selected = null; entered = []; render(); return; }
    const steps = { ArrowUp: [[1, 1], [-1, 1]], ArrowDown: [[-1, -1], [1, -1]],
                    ArrowLeft: [[-1, 1], [-1, -1]], ArrowRight: [[1, -1], [1, 1]] }[e.key];
    if (!steps) return;
    e.preventDefault();
    const [col, row] = [FILES.indexOf(name[0]), Number(name[1]) - 1];
    const [x, y] = fromDisplay(col, row);  // the mapping is its own inverse
    const inside = ([dx, dy]) => x + dx >= 0 && x + dx < 8 && y + dy >= 0 && y + dy < 8;
    const step = steps.find(inside);
    if (!step) return;
    const target = cell(squareName(...fromDisplay(x + step[0], y + step[1])));
    if (!target) return;
    e.currentTarget.tabIndex = -1;
    target.tabIndex = 0;
    target.focus();
    focusSquare = target.dataset.square;
  }

  async function playMove(move) {
    if (puzzle) return puzzleMove(move);
    const s = await api("move", { session: state.session, move: move.id });
    if (!s) { selected = null; entered = []; render(); return; }
    update(s);
    await afterChange();
  }

  // After the position changes: the computer answers, and the analysis follows the board.
  async function afterChange() {
    if (state.turn === "computer" && !state.result.over) {
      render();
      const s = await api("engine-move", { session: state.session });
      if (s && s.session === state.session) update(s);
    }
    if (analysing) startAnalysis();
  }

  async function newGame(extra) {
    stopAnalysisView();
    if (puzzle) setPuzzleMode(false);
    reviewRun++;  // a running review ends with its session (closed below)
    setReviewing(false);
    review = null;
    const previous = state && state.session;
    const s = await api(extra && extra.pdn !== undefined ? "load-pdn" : "new", Object.assign(settings(), extra || {}));
    if (!s) return false;
    if (previous) transport.call("close", { session: previous }).catch(() => {});
    update(s);
    await afterChange();
    return true;
  }

  async function gotoPly(ply) {
    if (!state || busy) return;
    if (puzzle && ply > state.cursor) return;  // the moves ahead are the solution
    const s = await api("goto", { session: state.session, ply });
    update(s);
    if (puzzle && s) puzzle.step = s.cursor;
    if (analysing) startAnalysis();
  }

  // ---- Analysis ----
  function formatLine(ev) {
    return `<span class="score">${ev.white_score_text}</span><span class="depth">depth ${ev.depth}</span> ${ev.pv.map(shown).join(" ")}`;
  }

  function showAnalysis(lines) {
    const ol = $("analysis-lines");
    ol.textContent = "";
    for (const ev of lines) {
      const li = document.createElement("li");
      li.innerHTML = formatLine(ev);
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

  const lines = new Map();
  function onEvent(ev) {
    if (!state || ev.session !== state.session) return;
    if (ev.type === "info") {
      lines.set(ev.multipv, ev);
      showAnalysis([...lines.values()].sort((a, b) => a.multipv - b.multipv));
    }
  }

  async function startAnalysis() {
    if (!state || state.result.over) return;
    lines.clear();
    const r = await api("analysis-start", { session: state.session, multipv: 3 });
    if (!r) return;
    analysing = true;
    $("analysis-toggle").textContent = "Stop analysis";
    if (subscription) subscription.close();
    subscription = transport.subscribe ? transport.subscribe(state.session, onEvent) : null;
    clearInterval(pollTimer);
    // Polling as well keeps the lines right when the socket is slow to open or cannot.
    pollTimer = setInterval(async () => {
      if (!analysing || !state) return;
      const r2 = await transport.call("analysis", { session: state.session }).catch(() => null);
      if (r2 && r2.status === 200 && r2.json.session === state.session && r2.json.lines.length) {
        for (const l of r2.json.lines) if (!lines.has(l.multipv) || lines.get(l.multipv).depth <= l.depth) lines.set(l.multipv, l);
        showAnalysis([...lines.values()].sort((a, b) => a.multipv - b.multipv));
      }
    }, 500);
  }

  function stopAnalysisView() {
    analysing = false;
    clearInterval(pollTimer);
    if (subscription) subscription.close();
    subscription = null;
    $("analysis-toggle").textContent = "Start analysis";
  }

  async function toggleAnalysis() {
    if (analysing) {
      stopAnalysisView();
      if (state) await api("analysis-stop", { session: state.session });
    } else {
      await startAnalysis();
    }
  }

  // ---- Review: the API searches one position per review-step, so the page stays free ----
  // The review when it is of the game on the board (same moves), else null.
  function reviewOfGame() {
    if (!review || !state || review.plies.length !== state.moves.length) return null;
    return review.plies.every((p, i) => p.text === state.moves[i].text) ? review : null;
  }

  function sideText(name, s) {
    return `${name}: ${s.inaccuracies} inaccuracies, ${s.mistakes} mistakes, ${s.blunders} blunders, ` +
           `average loss ${s.average_loss.toFixed(2)} per move`;
  }

  function renderReview() {
    const r = reviewOfGame();
    $("review-save").hidden = !r;
    if (!r) {
      $("review-graph").textContent = "";
      $("review-summary").textContent = "";
      $("review-line").hidden = true;
      return;
    }
    DamasReviewGraph.draw($("review-graph"), r, state.cursor, selectReviewPly);
    $("review-summary").textContent = `Here: ${r.evals[state.cursor].text}. ` + sideText("White", r.white) + ". " +
                                      sideText("Black", r.black) + ".";
  }

  function setReviewing(on) {
    $("review-start").hidden = on;
    $("review-cancel").hidden = !on;
    $("review-progress").hidden = !on;
    document.body.dataset.reviewing = on ? "1" : "0";
  }

  async function startReview() {
    if (!state || busy) return;
    stopAnalysisView();
    const [kind, value] = $("review-limit").value.split(":");
    const start = await api("review-start", { session: state.session, [kind]: Number(value) });
    if (!start) return;
    const run = ++reviewRun;
    const session = state.session;
    setReviewing(true);
    let a = start;
    // One request per position: other requests (and other sessions) go in between.
    while (run === reviewRun && !a.finished) {
      $("review-progress").max = a.total;
      $("review-progress").value = a.done;
      const r = await transport.call("review-step", { session }).catch((e) => ({ status: 0, json: { error: e.message } }));
      if (r.status !== 200) {
        if (run === reviewRun) showMessage("review stopped: " + (r.json.error || "error " + r.status));
        break;
      }
      a = r.json;
    }
    if (run !== reviewRun) return;
    setReviewing(false);
    if (a.finished && state && state.session === session) {
      review = a.review;
      renderMoves();
      renderReview();
    }
  }

  async function cancelReview() {
    reviewRun++;
    setReviewing(false);
    if (state) await api("review-cancel", { session: state.session });
  }

  // A move of the review chosen (graph, dot or move list): the board goes after it and the
  // engine's line instead of it is offered, from the position before it.
  async function selectReviewPly(ply) {
    if (!state || busy) return;
    const s = await api("goto", { session: state.session, ply });
    if (!s) return;
    update(s);
    if (ply === 0 || !reviewOfGame()) return;
    const line = await api("review-line", { session: state.session, ply });
    if (!line) return;
    const p = review.plies[ply - 1];
    const number = Math.floor((ply - 1 + (state.start_side === "black" ? 1 : 0)) / 2) + 1;
    $("review-line-text").textContent = `${number}${p.side === "white" ? "." : "..."} ${shown(p.text)}${p.nag}` +
      ` (loses ${p.loss.toFixed(2)}); best ${shown(p.best)}: ${line.steps.slice(1).map((x) => shown(x.text)).join(" ")}`;
    $("review-line").hidden = false;
    $("review-line").dataset.ply = String(ply);
    lineView = { ply, steps: line.steps, index: 0 };
    render();
  }

  function lineViewText() {
    const n = lineView.steps.length - 1;
    const step = lineView.steps[lineView.index];
    return `Best line: ${lineView.index} of ${n}` + (step.text ? ` (${shown(step.text)})` : " (before the move)");
  }

  function stepLine(to) {
    if (!lineView && $("review-line").hidden) return;
    if (!lineView) {
      const ply = Number($("review-line").dataset.ply);
      return selectReviewPly(ply).then(() => lineView && stepLine(to));
    }
    lineView.index = Math.max(0, Math.min(lineView.steps.length - 1, to(lineView.index)));
    render();
  }

  function closeLine() {
    lineView = null;
    render();
  }

  function saveReview() {
    const r = reviewOfGame();
    if (r) download(r.pdn, "damas-review.pdn");
  }

  // ---- Puzzles: the solution played from the puzzle's position; a wrong move gets the engine's answer ----
  function showPuzzle(text, how) {
    $("puzzle-text").textContent = text;
    $("puzzle-text").className = "puzzle-text" + (how ? " " + how : "");
  }

  function showSolvedCount() {
    const total = puzzles ? puzzles.length : 0;
    $("puzzle-solved").textContent = `Solved in this browser: ${DamasPuzzles.solved().size} of ${total}`;
  }

  function setPuzzleMode(on) {
    $("puzzle-toggle").textContent = on ? "Stop puzzles" : "Solve puzzles";
    for (const id of ["puzzle-hint", "puzzle-next"]) $(id).hidden = !on;
    $("puzzle-retry").hidden = true;
    document.body.dataset.puzzle = on ? "1" : "0";
    if (!on) { puzzle = null; showPuzzle(""); }
  }

  async function togglePuzzles() {
    if (puzzle) { setPuzzleMode(false); return newGame(); }
    try {
      if (!puzzles) puzzles = await DamasPuzzles.load();
    } catch (e) {
      showMessage(e.message);
      return;
    }
    if (!puzzles.length) { showMessage("the puzzle set is empty"); return; }
    const solved = DamasPuzzles.solved();
    const first = puzzles.findIndex((p) => !solved.has(p.id));
    await startPuzzle(first < 0 ? 0 : first);
  }

  // Loads puzzle i: its PDN through the API (which reads the solution), then back to its start.
  async function startPuzzle(i) {
    const p = puzzles[i];
    if (!(await newGame({ pdn: p.pdn, mode: "two-players" }))) return;
    // The solution stays out of sight: the move list shows the moves up to the cursor only.
    puzzle = { index: i, solution: state.moves.map((m) => m.text), step: 0, failed: false };
    setPuzzleMode(true);
    const s = await api("goto", { session: state.session, ply: 0 });
    if (!s) return;
    update(s);
    const side = state.side === "white" ? "White" : "Black";
    const source = p.source.replace(/ \(best [^)]*\)$/, "");  // the source names the answer
    showPuzzle(`Puzzle ${i + 1} of ${puzzles.length}: ${side} to play and win a piece. (${source})`);
    showSolvedCount();
  }

  async function puzzleMove(move) {
    const expected = puzzle.solution[puzzle.step];
    const s = await api("move", { session: state.session, move: move.id });
    if (!s) { selected = null; entered = []; render(); return; }
    update(s);
    if (move.text !== expected) return refute(move);
    puzzle.step++;
    if (puzzle.step < puzzle.solution.length) {
      const reply = state.legal.find((m) => m.text === puzzle.solution[puzzle.step]);
      const r = reply && (await api("move", { session: state.session, move: reply.id }));
      if (r) update(r);
      puzzle.step++;
      showPuzzle(`Right. ${shown(puzzle.solution[puzzle.step - 1])} came back: go on.`);
      return;
    }
    const count = puzzle.failed ? DamasPuzzles.solved().size : DamasPuzzles.markSolved(puzzles[puzzle.index].id);
    showPuzzle(puzzle.failed ? "Solved, after a wrong try." : "Solved!", "solved");
    $("puzzle-solved").textContent = `Solved in this browser: ${count} of ${puzzles.length}`;
  }

  // A wrong move: the engine answers it on the board; "Try again" goes back before it.
  async function refute(move) {
    puzzle.failed = true;
    $("puzzle-retry").hidden = false;
    $("puzzle-retry").dataset.ply = String(state.cursor - 1);
    if (state.result.over) { showPuzzle(`${shown(move.text)} is not it.`, "failed"); return; }
    const h = await api("hint", { session: state.session });
    const r = h && (await api("move", { session: state.session, move: h.hint.id }));
    if (r) update(r);
    showPuzzle(`${shown(move.text)} is not it: ${h ? shown(h.hint.text) : "the answer"} refutes it.`, "failed");
  }

  async function retryPuzzle() {
    const s = await api("goto", { session: state.session, ply: Number($("puzzle-retry").dataset.ply) });
    if (!s) return;
    update(s);
    puzzle.step = s.cursor;
    $("puzzle-retry").hidden = true;
    showPuzzle("Try again.");
  }

  function puzzleHint() {
    if (!puzzle || puzzle.step >= puzzle.solution.length) return;
    hintMove = state.legal.find((m) => m.text === puzzle.solution[puzzle.step]) || null;
    if (hintMove) showPuzzle(`Hint: the piece on ${shown(hintMove.from)} moves.`);
    render();
  }

  // ---- Board style ----
  function setBoardStyle(style) {
    boardStyle = style === "filipino" ? "filipino" : "brazilian";
    $("board-style").value = boardStyle;
    try { localStorage.setItem("damas.board", boardStyle); } catch (e) { /* not kept: this page only */ }
    document.body.dataset.board = boardStyle;
    buildBoard();
    if (state) { render(); renderMoves(); renderReview(); }
  }

  // ---- Set-up editor ----
  function startSetup() {
    stopAnalysisView();
    setup = { board: pieceMap(), piece: "w" };
    $("setup").hidden = false;
    $("setup-side").value = state && state.side === "black" ? "B" : "W";
    selectPalette("w");
    render();
    updateSetupFen();
  }

  function selectPalette(piece) {
    setup.piece = piece;
    document.querySelectorAll(".pal").forEach((b) => b.setAttribute("aria-checked", String(b.dataset.piece === piece)));
  }

  function placeSetupPiece(name) {
    if (setup.piece === "." || setup.board[name] === setup.piece) delete setup.board[name];
    else setup.board[name] = setup.piece;
    render();
    updateSetupFen();
  }

  // The FEN of the editor's board, with algebraic squares (the API validates it).
  function setupFen() {
    const part = (color) => Object.keys(setup.board).filter((sq) => setup.board[sq].toLowerCase() === color).sort()
      .map((sq) => (setup.board[sq] === color.toUpperCase() ? "K" : "") + sq).join(",");
    return `${$("setup-side").value}:W${part("w")}:B${part("b")}`;
  }

  function updateSetupFen() { $("fen").value = setupFen(); }

  async function endSetup(play) {
    const fen = setupFen();
    if (play && !(await newGame({ fen }))) return;
    setup = null;
    $("setup").hidden = true;
    render();
    if (state) $("fen").value = state.fen;
  }

  function startPosition() {
    setup.board = {};
    for (let r = 0; r < 8; r++) for (let c = 0; c < 8; c++) {
      if (!isDark(c, r)) continue;
      if (r < 3) setup.board[squareName(c, r)] = "w";
      if (r > 4) setup.board[squareName(c, r)] = "b";
    }
    $("setup-side").value = "W";
    render();
    updateSetupFen();
  }

  // ---- PDN ----
  function savePdn() {
    if (state) download(state.pdn, "damas-game.pdn");
  }

  // Puts the PDN text in the PDN field and offers it as a file.
  function download(text, name) {
    $("pdn").value = text;
    const a = document.createElement("a");
    a.href = URL.createObjectURL(new Blob([text], { type: "application/x-chess-pdn" }));
    a.download = name;
    document.body.appendChild(a);
    a.click();
    setTimeout(() => { URL.revokeObjectURL(a.href); a.remove(); }, 0);
  }

  // ---- Wiring ----
  function wire() {
    $("new-game").addEventListener("click", () => newGame());
    $("undo").addEventListener("click", async () => {
      if (!state || busy) return;
      const s = await api("undo", { session: state.session });
      if (s) { update(s); if (analysing) startAnalysis(); }
    });
    $("hint").addEventListener("click", async () => {
      if (!state || busy) return;
      const r = await api("hint", { session: state.session });
      if (!r || r.session !== state.session) return;
      hintMove = r.hint;
      $("hint-text").textContent = "Hint: " + shown(r.hint.text) + " (" + r.score_text + ")";
      render();
    });
    $("computer-move").addEventListener("click", async () => {
      if (!state || busy) return;
      const s = await api("engine-move", { session: state.session });
      if (s) { update(s); if (analysing) startAnalysis(); }
    });
    $("flip").addEventListener("click", () => { flipped = !flipped; buildBoard(); render(); });
    $("mode").addEventListener("change", () => newGame());
    $("level").addEventListener("change", () => newGame());
    $("rules").addEventListener("change", () => newGame());
    $("human").addEventListener("change", () => {
      flipped = $("human").value === "black";
      buildBoard();
      newGame();
    });
    $("nav-start").addEventListener("click", () => gotoPly(0));
    $("nav-back").addEventListener("click", () => state && state.cursor > 0 && gotoPly(state.cursor - 1));
    $("nav-forward").addEventListener("click", () => state && state.cursor < state.moves.length && gotoPly(state.cursor + 1));
    $("nav-end").addEventListener("click", () => state && gotoPly(state.moves.length));
    $("analysis-toggle").addEventListener("click", toggleAnalysis);
    $("fen-load").addEventListener("click", () => newGame({ fen: $("fen").value.trim() }));
    $("setup-toggle").addEventListener("click", () => (setup ? endSetup(false) : startSetup()));
    document.querySelectorAll(".pal").forEach((b) => b.addEventListener("click", () => selectPalette(b.dataset.piece)));
    $("setup-side").addEventListener("change", updateSetupFen);
    $("setup-clear").addEventListener("click", () => { setup.board = {}; render(); updateSetupFen(); });
    $("setup-start").addEventListener("click", startPosition);
    $("setup-done").addEventListener("click", () => endSetup(true));
    $("setup-cancel").addEventListener("click", () => endSetup(false));
    $("pdn-load").addEventListener("click", () => newGame({ pdn: $("pdn").value }));
    $("pdn-save").addEventListener("click", savePdn);
    $("review-start").addEventListener("click", startReview);
    $("review-cancel").addEventListener("click", cancelReview);
    $("review-save").addEventListener("click", saveReview);
    $("line-start").addEventListener("click", () => stepLine(() => 0));
    $("line-back").addEventListener("click", () => stepLine((i) => i - 1));
    $("line-forward").addEventListener("click", () => stepLine((i) => i + 1));
    $("line-end").addEventListener("click", () => stepLine(() => Infinity));
    $("line-close").addEventListener("click", () => { $("review-line").hidden = true; closeLine(); });
    $("puzzle-toggle").addEventListener("click", togglePuzzles);
    $("puzzle-next").addEventListener("click", () => puzzles && startPuzzle((puzzle ? puzzle.index + 1 : 0) % puzzles.length));
    $("puzzle-retry").addEventListener("click", retryPuzzle);
    $("puzzle-hint").addEventListener("click", puzzleHint);
    $("board-style").addEventListener("change", () => setBoardStyle($("board-style").value));
    $("engine-where").addEventListener("change", async () => {
      const wanted = $("engine-where").value === "browser" ? browserTransport() : serverTransport();
      if (!wanted) {
        showMessage("the engine in this browser is not available here");
        $("engine-where").value = transport.name;
        return;
      }
      stopAnalysisView();
      transport = wanted;
      state = null;
      await newGame();
    });
  }

  async function main() {
    document.body.dataset.busy = "0";
    const here = await enginesHere();
    browserAvailable = here.browser === true && !!self.DamasWorkerApi && self.DamasWorkerApi.available();
    const onServer = here.server === true;
    $("engine-where").querySelector('[value="browser"]').disabled = !browserAvailable;
    $("engine-where").querySelector('[value="server"]').disabled = !onServer;
    if (browserAvailable && (params.get("engine") === "browser" || !onServer)) {
      transport = browserTransport();
      $("engine-where").value = "browser";
    }
    if (params.get("mode")) $("mode").value = params.get("mode");
    if (params.get("level")) $("level").value = params.get("level");
    let style = params.get("board");
    try { style = style || localStorage.getItem("damas.board"); } catch (e) { /* no storage */ }
    boardStyle = style === "filipino" ? "filipino" : "brazilian";
    $("board-style").value = boardStyle;
    document.body.dataset.board = boardStyle;
    setReviewing(false);
    buildBoard();
    wire();
    await newGame();
    document.body.dataset.ready = "1";
  }

  // Read-only view for tests and the console.
  self.damasBoard = {
    get state() { return state; },
    get transport() { return transport.name; },
    get review() { return review; },
    get puzzle() { return puzzle; },
  };
  main();
})();
