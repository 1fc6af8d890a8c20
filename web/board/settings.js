// The page's own settings: the board style (Brazilian, or the mirrored Filipino board, kept in
// localStorage "damas.board"), where the engine runs (the server or this browser) and the game
// the address asks for.
import { browserTransport, serverTransport, showMessage } from "./transport.js";

const $ = (id) => document.getElementById(id);
const STYLE_KEY = "damas.board";

// The style asked for (?board=), else the one kept, else Brazilian.
export function initialStyle(params) {
  let style = params.get("board");
  try { style = style || localStorage.getItem(STYLE_KEY); } catch (e) { /* no storage */ }
  return style === "filipino" ? "filipino" : "brazilian";
}

export function showStyle(style) {
  $("board-style").value = style;
  document.body.dataset.board = style;
}

// Sets and keeps the style; the caller draws the board again.
export function setBoardStyle(app, style) {
  app.view.style = style === "filipino" ? "filipino" : "brazilian";
  try { localStorage.setItem(STYLE_KEY, app.view.style); } catch (e) { /* not kept: this page only */ }
  showStyle(app.view.style);
}

// The draw laws as the selector and the header name them; a law set the page does not know by its
// API name.
const RULES_TITLES = { seed: "seed (80 plies)", fmjd64: "lidraughts (FMJD-64)" };
export function rulesTitle(name) { return RULES_TITLES[name] || name; }

function fill(select, items) {
  select.textContent = "";
  for (const { value, text } of items) {
    const option = document.createElement("option");
    option.value = value;
    option.textContent = text;
    select.appendChild(option);
  }
}

// The game and law selectors from what the engine offers (the API's `games`: every game with its
// title, the draw laws, the default game), so no list of games lives in the page.
export function offerGames(offered) {
  if (!offered) return;
  fill($("variant"), offered.games.map((g) => ({ value: g.name, text: g.title })));
  fill($("rules"), offered.rules.map((r) => ({ value: r, text: rulesTitle(r) })));
  if (offered.games.some((g) => g.name === offered.default)) $("variant").value = offered.default;
}

// The game ?variant= asks for, chosen in the game selector (the API's variant names); what is
// wrong with it, or null (an unknown one leaves the selector as it is).
export function chooseVariant(params) {
  const wanted = params.get("variant");
  const names = [...$("variant").options].map((o) => o.value);
  if (!wanted || !names.includes(wanted)) return wanted ? `?variant=${wanted}: unknown game (${names.join(", ")})` : null;
  $("variant").value = wanted;
  return null;
}

// The transport the engine selector asks for, or null (with the selector put back) where it
// cannot run here.
export function chosenTransport(app) {
  const wanted = $("engine-where").value === "browser" ? browserTransport(app.browserAvailable) : serverTransport();
  if (!wanted) {
    showMessage("the engine in this browser is not available here");
    $("engine-where").value = app.transport.name;
  }
  return wanted;
}

// Offers the engines this folder has (engines.json) and picks one: ?engine=browser, or the
// browser's where no server answers.
export function chooseEngine(app, here, params) {
  const onServer = here.server === true;
  $("engine-where").querySelector('[value="browser"]').disabled = !app.browserAvailable;
  $("engine-where").querySelector('[value="server"]').disabled = !onServer;
  if (app.browserAvailable && (params.get("engine") === "browser" || !onServer)) {
    app.transport = browserTransport(true);
    $("engine-where").value = "browser";
  }
}
