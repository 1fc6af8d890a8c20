// The damas board page: draws the position the API describes and sends it the moves entered.
// It knows no rules: legal moves, their landing squares, results and notation come from the API
// (POST /api/<op> on `damas serve`, or the same API in the WebAssembly worker).
// URL options: ?movetime=S (seconds per computer move), ?engine=browser|server.
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

  function settings() {
    const s = { mode: $("mode").value, level: $("level").value, human: $("human").value };
    const mt = Number(params.get("movetime"));
    if (mt > 0) s.movetime = mt;
    return s;
  }

  // ---- Board drawing ----
  function squareName(col, row) { return FILES[col] + String(row + 1); }  // col, row from a1
  function isDark(col, row) { return (col + row) % 2 === 0; }               // a1 is dark

  function buildBoard() {
    const board = $("board");
    board.textContent = "";
    for (let r = 7; r >= 0; r--) {
      for (let c = 0; c < 8; c++) {
        const col = flipped ? 7 - c : c;
        const row = flipped ? 7 - r : r;
        const cell = document.createElement(isDark(col, row) ? "button" : "div");
        cell.className = "sq " + (isDark(col, row) ? "dark" : "light");
        if (isDark(col, row)) {
          const name = squareName(col, row);
          cell.type = "button";
          cell.dataset.square = name;
          cell.setAttribute("aria-label", name);
          cell.tabIndex = name === focusSquare ? 0 : -1;
          cell.addEventListener("click", () => onSquare(name));
          cell.addEventListener("keydown", onKey);
        }
        if ((flipped ? row === 7 : row === 0) || (flipped ? col === 7 : col === 0)) {
          const coord = document.createElement("span");
          coord.className = "coord";
          coord.textContent = (row === (flipped ? 7 : 0) ? FILES[col] : "") + (col === (flipped ? 7 : 0) ? String(row + 1) : "");
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
    for (const p of state.pieces) map[p.square] = (p.color === "white" ? "w" : "b")[p.king ? "toUpperCase" : "toString"]();
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
    const capturers = new Set(state && !setup && state.must_capture ? state.capturers : []);
    const last = state && state.last_move && !setup ? [state.last_move.from, state.last_move.to] : [];
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
      el.setAttribute("aria-label", name + " " + describe(code));
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
    if (state.result.over) text = state.result.text;
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
    const moves = state.moves;
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
      b.className = "mv" + (i + 1 === state.cursor ? " current" : "");
      b.textContent = m.text;
      b.dataset.ply = String(i + 1);
      b.addEventListener("click", () => gotoPly(i + 1));
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
    $("human").value = state.human;
    $("computer-move").hidden = state.mode !== "computer";
    render();
    renderMoves();
  }

  // ---- Input ----
  async function onSquare(name) {
    focusSquare = name;
    if (setup) return placeSetupPiece(name);
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

  function onKey(e) {
    const name = e.currentTarget.dataset.square;
    let col = FILES.indexOf(name[0]), row = Number(name[1]) - 1;
    const dir = flipped ? -1 : 1;
    const moves = { ArrowUp: [1, 1], ArrowDown: [-1, -1], ArrowLeft: [-1, 1], ArrowRight: [1, -1] };
    if (e.key === "Escape") { selected = null; entered = []; render(); return; }
    if (!moves[e.key]) return;
    e.preventDefault();
    // Diagonal neighbours only are dark: up/down keep the file side, left/right the rank side.
    const [dc, dr] = moves[e.key];
    if (e.key === "ArrowUp" || e.key === "ArrowDown") { row += dr * dir; col += (col + dir * dc < 8 && col + dir * dc >= 0 ? dc : -dc) * dir; }
    else { col += dc * dir; row += (row + dir * dr < 8 && row + dir * dr >= 0 ? dr : -dr) * dir; }
    if (col < 0 || col > 7 || row < 0 || row > 7) return;
    const target = cell(squareName(col, row));
    if (!target) return;
    e.currentTarget.tabIndex = -1;
    target.tabIndex = 0;
    target.focus();
    focusSquare = target.dataset.square;
  }

  async function playMove(move) {
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
    const s = await api("goto", { session: state.session, ply });
    update(s);
    if (analysing) startAnalysis();
  }

  // ---- Analysis ----
  function formatLine(ev) {
    return `<span class="score">${ev.white_score_text}</span><span class="depth">depth ${ev.depth}</span> ${ev.pv.join(" ")}`;
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
    if (!state) return;
    $("pdn").value = state.pdn;
    const a = document.createElement("a");
    a.href = URL.createObjectURL(new Blob([state.pdn], { type: "application/x-chess-pdn" }));
    a.download = "damas-game.pdn";
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
      $("hint-text").textContent = "Hint: " + r.hint.text + " (" + r.score_text + ")";
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
    buildBoard();
    wire();
    await newGame();
    document.body.dataset.ready = "1";
  }

  // Read-only view for tests and the console.
  self.damasBoard = { get state() { return state; }, get transport() { return transport.name; } };
  main();
})();
