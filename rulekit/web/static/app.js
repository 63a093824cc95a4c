"use strict";
// The page of `rulekit serve`: it asks the server for the table as the person sees it and
// sends the moves clicked. No game logic here: the server lists every legal move.
let game = null;      // the last state the server sent
let pending = null;   // a hand card whose play matches two field cards: the target is chosen next

// A card as the table draws it (cards.js), with this game's month names and points.
function card(c, extra) {
  return drawCard(c, extra, { months: game.months, points: game.points_count });
}

// Face-down cards: `n` backs (a hidden hand, the stock), with the count said.
function backs(n, label) {
  const el = document.createElement("div");
  el.className = "backs";
  el.setAttribute("role", "img");
  el.setAttribute("aria-label", `${n} ${label}`);
  for (let i = 0; i < Math.min(n, 8); i++) {
    const b = document.createElement("div");
    b.className = "card back small";
    el.appendChild(b);
  }
  const count = document.createElement("span");
  count.className = "count";
  count.textContent = `${n}`;
  el.appendChild(count);
  return el;
}

function button(text, action, stakes) {
  const b = document.createElement("button");
  b.type = "button";
  b.textContent = text;
  b.dataset.action = action;
  if (stakes) b.title = stakes;
  b.addEventListener("click", () => send(action));
  return b;
}

async function send(action) {
  pending = null;
  if (table) { table.send({ action }); return; }  // at a table, the server pushes the result
  try {
    render(await api("POST", `/api/games/${game.id}/move`, { action }));
    showError(null);
  } catch (err) { showError(err); }
}

function render(state) {
  if (table && game && state.version < game.version) return;  // an older push, overtaken
  if (!game || state.id !== game.id || state.log.length !== game.log.length) $("explain").hidden = true;
  game = state;
  if ([...$("rules").options].some((o) => o.value === state.rules)) $("rules").value = state.rules;
  $("board").hidden = false;
  $("title").textContent = `${state.title} · seed ${state.seed}`;
  const t = state.table;
  $("board").classList.toggle("between", !t);  // between rounds: no empty field and hand
  const scores = state.names.map((n, i) => `${n} ${state.scores[i]}`).join(" · ");
  $("status").textContent = `round ${state.round} of ${state.rounds} · scores: ${scores}` +
    (t ? ` · multiplier x${t.multiplier} · stock ${t.stock}` : "");
  renderPlayers(t);
  renderField(t);
  renderHand(t);
  renderDecision(state, t);
  renderRoundOver(state);
  if (table) renderPlaces(state);
  $("save").href = `/api/games/${state.id}/scenario`;
  const links = $("round-downloads");
  links.innerHTML = "";
  const finished = state.last_round ? state.last_round.number : 0;
  for (let r = 1; r <= finished; r++) {
    const a = document.createElement("a");
    a.href = `/api/games/${state.id}/scenario?rounds=${r}`;
    a.textContent = `round ${r}`;
    a.setAttribute("download", "");
    links.appendChild(a);
  }
  $("log").innerHTML = "";
  state.log.slice(-60).forEach((line) => {
    const li = document.createElement("li");
    li.textContent = line;
    $("log").appendChild(li);
  });
}

function renderPlayers(t) {
  const box = $("players");
  box.innerHTML = "";
  if (!t) return;
  t.players.forEach((p, seat) => {
    const el = document.createElement("div");
    el.className = "player" + (seat === game.you ? " you" : "") + (t.current === seat ? " turn" : "");
    const you = seat === game.you && p.name !== "You";  // "You (you)" says it twice
    const called = p.calls ? `called ${game.call}${p.calls > 1 ? ` x${p.calls}` : ""}` : "";
    const tags = [p.dealer ? "dealer" : "", you ? "you" : "", p.folded ? "folded" : "", called]
      .filter(Boolean).join(", ");
    const pts = game.points_count ? ` · ${esc(p.points)} pts` : "";
    el.innerHTML = `<h3>${esc(p.name)}${tags ? ` (${tags})` : ""}${pts} · ${p.hand_size} in hand</h3>`;
    if (seat !== game.you && p.hand_size) el.appendChild(backs(p.hand_size, "cards in hand"));
    const piles = document.createElement("div");
    piles.className = "piles";  // each class's captures side by side, overlapped
    p.captured.forEach((g) => {
      const row = document.createElement("div");
      row.className = "pile";
      const points = g.cards.reduce((s, c) => s + c.points, 0);
      const pts = game.points_count ? `, ${esc(points)} pts` : "";
      row.innerHTML = `<span class="group">${esc(g.class)} (${g.cards.length}${pts})</span>`;
      const took = p.last ? p.last.took : [];
      g.cards.forEach((c) => row.appendChild(card(c, took.includes(c.id) ? "small fresh" : "small")));
      piles.appendChild(row);
    });
    el.appendChild(piles);
    if (p.last) el.title = `last move: ${p.last.said}`;  // its cards are marked; the log says it
    const lines = [];
    if (p.yaku.length) lines.push(`yaku: ${p.yaku.join(", ")}`);
    if (p.progress) lines.push(`toward: ${p.progress}`);
    if (p.teyaku.length) lines.push(`shows: ${p.teyaku.join(", ")}`);
    if (lines.length) {
      const info = document.createElement("p");
      info.className = "yaku";
      info.textContent = lines.join(" · ");
      el.appendChild(info);
    }
    if (p.shown.length) {  // a shown teyaku's cards: another's may be a target, as field cards
      const row = document.createElement("div");
      row.className = "pile";
      const choices = targets(t);
      p.shown.forEach((c) => {
        const m = choices.find((x) => x.target === c.id);
        const shown = card(c, m ? "small choice" : "small");
        if (m) shown.addEventListener("click", () => send(m.action));
        row.appendChild(shown);
      });
      el.appendChild(row);
    }
    box.appendChild(el);
  });
}

function targets(t) {
  if (!t) return [];
  if (t.phase === "take") return t.moves.filter((m) => m.kind === "take");
  if (pending !== null) return t.moves.filter((m) => m.kind === "play" && m.card === pending);
  return [];
}

function renderField(t) {
  const box = $("field");
  box.innerHTML = "";
  $("drawn-box").innerHTML = "";
  if (!t) return;
  const choices = targets(t);
  const laid = new Set(t.players.flatMap((p) => (p.last ? p.last.laid : [])));
  t.field.forEach((c) => {
    const m = choices.find((x) => x.target === c.id);
    const el = card(c, (m ? "choice" : "") + (laid.has(c.id) ? " fresh" : "") + (c.rides ? " rides" : ""));
    if (m) el.addEventListener("click", () => send(m.action));
    box.appendChild(el);
  });
  if (t.stock) box.appendChild(backs(t.stock, "cards in the stock"));
  if (t.drawn) {
    $("drawn-box").append("· drawn: ");
    $("drawn-box").appendChild(card(t.drawn, "small"));
  }
}

function renderHand(t) {
  const box = $("hand");
  box.innerHTML = "";
  if (!t) return;
  t.hand.forEach((c) => {
    const plays = t.moves.filter((m) => m.kind === "play" && m.card === c.id);
    const el = card(c, plays.length ? "playable" : "");
    if (pending === c.id) el.classList.add("selected");
    el.tabIndex = plays.length ? 0 : -1;
    const matched = (on) => $("field").querySelectorAll(".card").forEach((f) => {
      if (game.months && t.field.some((x) => x.id === Number(f.dataset.card) && x.month === c.month)) {
        f.classList.toggle("matches", on);
      }
    });
    el.addEventListener("mouseenter", () => matched(true));
    el.addEventListener("mouseleave", () => matched(false));
    el.addEventListener("focus", () => matched(true));
    el.addEventListener("blur", () => matched(false));
    el.addEventListener("keydown", (e) => { if (e.key === "Enter" && plays.length) { e.stopPropagation(); el.click(); } });
    if (plays.length) {
      el.addEventListener("click", () => {
        if (plays.length === 1) { send(plays[0].action); return; }
        pending = c.id;   // two field cards match: the field shows which may be taken
        render(game);
      });
    }
    box.appendChild(el);
  });
}

function renderDecision(state, t) {
  const box = $("decision");
  box.innerHTML = "";
  if (!t || !t.your_turn) {
    if (t && !state.game_over) box.textContent = `waiting for ${state.names[t.current] ?? "..."}`;
    return;
  }
  if (t.stakes) {
    const p = document.createElement("p");
    p.className = "stakes";
    p.textContent = t.stakes;
    box.appendChild(p);
  }
  const shown = t.players.some((p) => p.shown.some((c) => targets(t).some((m) => m.target === c.id)));
  const where = shown ? "cards (on the field or shown)" : "field cards";
  if (t.phase === "take") box.append(`the drawn card matches two ${where}: click the one to take`);
  if (pending !== null) box.append(`two ${where} match: click the one to take`);
  t.moves.filter((m) => m.kind === "button" || m.kind === "hiki")
    .forEach((m) => box.appendChild(button(m.words, m.action, t.stakes)));
}

// The round's end: the final piles stay, each player's count against the par, each yaku and
// teyaku with its value, the payments in words with their factors, the forfeits; at the game's
// end, every round's result and "play again".
function renderRoundOver(state) {
  const box = $("round-over");
  box.innerHTML = "";
  const last = state.last_round;
  box.hidden = !(state.waiting || state.game_over) || !last;
  if (box.hidden) return;
  const head = document.createElement("h2");
  head.textContent = last.void ? `round ${last.number}: void` :
    `round ${last.number} over (${last.ended_by}): it goes to ${last.winner || "nobody"}`;
  box.appendChild(head);
  if (!last.void && last.players) box.appendChild(finalPiles(last));
  const said = [...(last.explained || []), ...(last.forfeits || [])];
  if (said.length) {
    const ul = document.createElement("ul");
    ul.className = "explained";
    said.forEach((line) => { const li = document.createElement("li"); li.textContent = line; ul.appendChild(li); });
    box.appendChild(ul);
  }
  const pre = document.createElement("pre");
  pre.textContent = last.payments.join("\n");
  box.appendChild(pre);
  if (state.game_over) {
    const p = document.createElement("p");
    p.id = "final";
    p.textContent = "game over: " + state.final.map((f) => `${f.name} ${f.score_text ?? f.score}`).join(", ");
    box.appendChild(p);
    box.appendChild(roundsTable(state));
    if (table) return;  // a table plays one game: open another from New game…
    const again = document.createElement("button");
    again.id = "play-again";
    again.type = "button";
    again.textContent = "Play again";
    again.addEventListener("click", playAgain);
    box.appendChild(again);
  } else {
    const next = document.createElement("button");
    next.id = "next-round";
    next.type = "button";
    next.textContent = "Next round";
    next.addEventListener("click", async () => {
      if (table) { table.send({ next: true }); return; }
      try { render(await api("POST", `/api/games/${game.id}/next`)); showError(null); }
      catch (err) { showError(err); }
    });
    box.appendChild(next);
  }
}

function finalPiles(last) {
  const wrap = document.createElement("div");
  wrap.className = "final-piles";
  last.players.forEach((p) => {
    const el = document.createElement("div");
    el.className = "player final";
    const count = p.points === null ? "" : p.par === null ? ` · ${p.points} points` :
      ` · ${p.points} points, ${p.over_par >= 0 ? `${p.over_par} over` : `${-p.over_par} under`} the par of ${p.par}`;
    const calls = p.calls ? ` · called ${game.call} ${p.calls > 1 ? `${p.calls} times` : "once"}` : "";
    const h = document.createElement("h3");
    h.textContent = `${p.name}${p.folded ? " (folded)" : ""} · net ${p.net}${count}${calls}`;
    el.appendChild(h);
    const row = document.createElement("div");
    row.className = "pile";
    p.cards.forEach((c) => row.appendChild(card(c, "small")));
    el.appendChild(row);
    const made = [...(p.reading ? [p.reading] : []),
      ...p.teyaku.map((e) => `teyaku ${e.label} (${e.value})`),
      ...p.yaku.map((e) => `${e.label} (${e.value})`)];
    if (made.length) {
      const info = document.createElement("p");
      info.className = "yaku";
      info.textContent = made.join(" · ");
      el.appendChild(info);
    }
    wrap.appendChild(el);
  });
  return wrap;
}

function roundsTable(state) {
  const table = document.createElement("table");
  table.className = "rounds";
  const head = table.insertRow();
  ["round", ...state.names].forEach((n) => { const th = document.createElement("th"); th.textContent = n; head.appendChild(th); });
  state.history.forEach((nets, i) => {
    const row = table.insertRow();
    [String(i + 1), ...nets].forEach((v) => { row.insertCell().textContent = v; });
  });
  const total = table.insertRow();
  total.className = "total";
  ["total", ...state.scores].forEach((v) => { total.insertCell().textContent = v; });
  return table;
}

// A new game of the same rules (the editor's house rules too), seats and bots; a new seed.
async function playAgain() {
  try { pending = null; render(await api("POST", `/api/games/${game.id}/again`, {})); showError(null); }
  catch (err) { showError(err); }
}

async function start(event) {
  event.preventDefault();
  const bots = [...$("bots").selectedOptions].map((o) => o.value);
  const spec = { rules: $("rules").value, bots: bots.length ? bots : ["search"] };
  if ($("seats").value) spec.seats = Number($("seats").value);
  if ($("seed").value) spec.seed = Number($("seed").value);
  if ($("think").value) spec.think_ms = Number($("think").value);
  try {
    pending = null;
    render(await api("POST", "/api/games", spec));
    $("setup").close();
    showError(null);
  } catch (err) { showError(err); }
}

async function resume(event) {
  event.preventDefault();
  const file = $("saved").files[0];
  if (!file) { showError(new Error("choose a saved game first")); return; }
  try {
    pending = null;
    render(await api("POST", "/api/resume", await file.text(), true));
    $("setup").close();
    showError(null);
  } catch (err) { showError(err); }
}

async function why() {
  const t = game && game.table;
  const last = game && game.last_round;
  const lines = t ? t.payments : last ? (last.explained || last.payments) : [];
  $("explain").textContent = "payments this round:\n" + lines.join("\n");
  $("explain").hidden = false;
}

async function hint() {
  try {
    const h = await api("POST", `/api/games/${game.id}/hint`);
    $("explain").textContent = `the search bot would ${h.words}\n` +
      h.estimates.map((e) => `  ${e.words}: ${e.mean >= 0 ? "+" : ""}${e.mean} over ${e.rollouts} deals`).join("\n");
    $("explain").hidden = false;
    showError(null);
  } catch (err) { showError(err); }
}

// ---------------------------------------------------------------- a table of friends
// At /table/ID the page plays one seat of a table (or watches it): the seat's token is kept in
// this browser, the server pushes the seat's view over a WebSocket after every change, and the
// moves go back the same way. Closing the tab and coming back finds the same seat.
let table = null;

function tableKey(id) { return `rulekit-table-${id}`; }

function openSocket(id, token) {
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const url = `${proto}://${location.host}/ws/tables/${encodeURIComponent(id)}` +
    (token ? `?token=${encodeURIComponent(token)}` : "");
  const ws = new WebSocket(url);
  table = { id, token, ws, send: (m) => { if (ws.readyState === 1) ws.send(JSON.stringify(m)); } };
  ws.onmessage = (event) => {
    const m = JSON.parse(event.data);
    if (m.error) { showError(new Error(m.error)); return; }
    showError(null);
    render(m.state);
  };
  ws.onclose = (event) => {
    if (event.code === 4404) {
      if (token) {  // a seat this browser held at a table gone, or at a server started again
        localStorage.removeItem(tableKey(id));
        table = null;
        initTable(id);
      } else {
        showError(new Error("no such table: it may have expired"));
      }
      return;
    }
    if (event.code === 4403) { showError(new Error("this page is not the server's own")); return; }
    setTimeout(() => { if (table && table.ws === ws) openSocket(id, token); }, 1000);  // back
  };
}

function renderPlaces(state) {
  const box = $("places");
  box.hidden = false;
  box.innerHTML = "";
  const link = `${location.origin}/table/${state.table_id}`;
  const invite = document.createElement("p");
  invite.innerHTML = `Friends join with this link: <a id="invite" href="${esc(link)}">${esc(link)}</a> `;
  const copy = document.createElement("button");
  copy.type = "button";
  copy.textContent = "Copy";
  copy.addEventListener("click", () => navigator.clipboard && navigator.clipboard.writeText(link));
  invite.appendChild(copy);
  box.appendChild(invite);
  const list = document.createElement("ul");
  state.places.forEach((p) => {
    const li = document.createElement("li");
    const who = !p.person ? "a bot" : !p.joined ? "free: waiting for a friend" :
      p.bot_playing ? "away: a bot plays for now" : p.here ? "here" : "away";
    li.textContent = `${p.name}${p.seat === state.you ? " (you)" : ""}: ${who}`;
    list.appendChild(li);
  });
  box.appendChild(list);
  if (state.you === null) box.append("You are watching: no hand is shown.");
}

async function joinTable(id, watch) {
  if (watch) { $("join").close(); openSocket(id, null); return; }
  try {
    const answer = await api("POST", `/api/tables/${encodeURIComponent(id)}/join`, { name: $("join-name").value });
    localStorage.setItem(tableKey(id), answer.token);
    $("join").close();
    openSocket(id, answer.token);
  } catch (err) { showError(err); }
}

async function openTable() {
  const bots = [...$("bots").selectedOptions].map((o) => o.value);
  const spec = { rules: $("rules").value, bots: bots.length ? bots : ["search"],
    people: Number($("people").value || 2), name: $("your-name").value || "You" };
  if ($("seats").value) spec.seats = Number($("seats").value);
  if ($("seed").value) spec.seed = Number($("seed").value);
  if ($("think").value) spec.think_ms = Number($("think").value);
  try {
    const answer = await api("POST", "/api/tables", spec);
    localStorage.setItem(tableKey(answer.table), answer.token);
    location.href = `/table/${encodeURIComponent(answer.table)}`;
  } catch (err) { showError(err); }
}

async function initTable(id) {
  document.body.classList.add("at-table");
  $("setup").close();
  const given = /^#seat=([\w-]+)$/.exec(location.hash);  // the opener's link (rulekit serve --table)
  if (given) {
    localStorage.setItem(tableKey(id), given[1]);
    history.replaceState(null, "", location.pathname);  // the token leaves the address bar
  }
  const token = localStorage.getItem(tableKey(id));
  if (token) { openSocket(id, token); return; }
  try {
    const seats = await api("GET", `/api/tables/${encodeURIComponent(id)}`);
    $("join-title").textContent = `Join ${seats.title}`;
    $("join-free").textContent = seats.places.filter((p) => p.person && !p.joined).length ?
      "" : "Every seat is taken: you may watch.";
  } catch (err) { showError(err); return; }
  $("join").show();
}

async function init() {
  const atTable = /^\/table\/([\w-]+)$/.exec(location.pathname);
  $("join-form").addEventListener("submit", (e) => { e.preventDefault(); joinTable(atTable[1], false); });
  $("watch").addEventListener("click", () => joinTable(atTable[1], true));
  $("open-table").addEventListener("click", openTable);
  const opts = await api("GET", "/api/options");
  opts.rules.forEach((name) => $("rules").add(new Option(name, name)));
  opts.bots.forEach((name) => $("bots").add(new Option(name, name, false, name === "search")));
  $("think").min = opts.think_ms[0];
  $("think").max = opts.think_ms[1];
  $("rules").value = opts.rules.includes("hachihachi") ? "hachihachi" : opts.rules[0];
  $("new-game").addEventListener("submit", start);
  $("resume-game").addEventListener("submit", resume);
  $("why").addEventListener("click", why);
  $("hint").addEventListener("click", hint);
  $("new").addEventListener("click", () => $("setup").show());
  $("close-setup").addEventListener("click", () => $("setup").close());
  document.addEventListener("keydown", key);
  const opened = /^#game=([\w-]+)$/.exec(location.hash);  // a game started elsewhere (the editor)
  if (atTable) await initTable(atTable[1]);
  else if (opened) render(await api("GET", `/api/games/${opened[1]}`));
  else $("setup").show();  // the setup first, then the board alone
}

// Keyboard play: 1-9 click the hand card at that position (or, when two field cards match, the
// field card offered at that position), Enter the first button offered, Escape undoes a
// half-made play.
function key(event) {
  if (!game || !game.table || $("setup").open || event.altKey || event.ctrlKey || event.metaKey) return;
  if (["INPUT", "SELECT", "TEXTAREA", "BUTTON", "A"].includes(document.activeElement.tagName) &&
      event.key === "Enter") return;  // Enter on a focused control is that control's
  if (event.key === "Escape" && pending !== null) { pending = null; render(game); return; }
  if (event.key === "Enter") {
    const first = $("decision").querySelector("button") || $("round-over").querySelector("button");
    if (first) { event.preventDefault(); first.click(); }
    return;
  }
  if (!/^[1-9]$/.test(event.key)) return;
  const n = Number(event.key) - 1;
  const choices = $("field").querySelectorAll(".card.choice");
  const cards = choices.length ? choices : $("hand").querySelectorAll(".card.playable");
  const all = choices.length ? choices : $("hand").querySelectorAll(".card");
  if (n < all.length && [...cards].includes(all[n])) { event.preventDefault(); all[n].click(); }
}

init().catch(showError);
