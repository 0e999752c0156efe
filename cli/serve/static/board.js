// The pages of `amunre serve`: the start form, a seat's game, a watcher's game and a replay.
// Everything drawn comes from the server's JSON views (cli/serve/views.py); nothing here knows a
// game. Text is always set with textContent, never parsed as HTML.
"use strict";

const MANY_ACTIONS = 40;     // more actions of one kind than this are offered as a list, not buttons
const SEAT_COLORS = ["#c0392b", "#2e6fd0", "#2f9e44", "#d4a017", "#a23fb5", "#1b9aaa", "#e8590c", "#5c7cfa"];

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value);
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

function seatName(seat) { return `Seat ${seat}`; }
function seatChip(seat, extra) {
  const chip = el("span", {class: "seat-chip", "data-seat": seat, text: seatName(seat) + (extra || "")});
  chip.style.setProperty("--seat", SEAT_COLORS[seat % SEAT_COLORS.length]);
  return chip;
}

async function api(path, options) {
  const response = await fetch(path, options);
  let data;
  try { data = await response.json(); } catch (e) { data = {error: `the server answered ${response.status}`}; }
  if (!response.ok) throw new Error(data.error || `the server answered ${response.status}`);
  return data;
}

function showError(message) {
  let box = document.getElementById("error");
  if (!box) {
    box = el("div", {id: "error", class: "error", role: "alert"});
    document.getElementById("main").prepend(box);
  }
  box.textContent = message;
  box.hidden = !message;
}

// ---- the start page ---------------------------------------------------------------------------

async function startPage() {
  document.getElementById("title").textContent = "Start a game";
  const setup = await api("/api/setup");
  const main = document.getElementById("main");
  main.replaceChildren();
  const rulesSelect = el("select", {id: "rules", name: "rules"},
    setup.rules.map(r => el("option", {value: r.name, text: `${r.title} (${r.name})`})));
  rulesSelect.value = setup.default;
  const players = el("input", {id: "players", type: "number", min: 1, max: setup.max_players, value: 4});
  const seed = el("input", {id: "seed", type: "number", min: 0, placeholder: "fresh"});
  const agents = el("div", {id: "agents"});
  const options = el("div", {id: "options"});
  const links = el("div", {id: "links"});
  const rulebookLink = el("a", {id: "rulebook-link", target: "_blank", rel: "noopener", text: "read the rulebook"});

  function chosen() { return setup.rules.find(r => r.name === rulesSelect.value); }
  function drawAgents() {
    const count = Number(players.value);
    const old = [...agents.querySelectorAll("select")].map(s => s.value);
    agents.replaceChildren(...Array.from({length: count}, (_, seat) => {
      const select = el("select", {class: "agent", "data-seat": seat, "aria-label": `agent of seat ${seat}`},
        setup.agents.map(a => el("option", {value: a, text: a})));
      select.value = old[seat] || (seat === 0 ? "human" : "greedy");
      return el("label", {class: "agent-row"}, seatChip(seat), select);
    }));
  }
  function drawRules() {
    const rules = chosen();
    rulebookLink.href = `/rules/${rules.name}`;
    players.min = rules.min_players; players.max = rules.max_players;
    const count = Math.min(Math.max(Number(players.value) || 4, rules.min_players), rules.max_players);
    players.value = count;
    options.replaceChildren(...Object.entries(rules.options).map(([name, option]) =>
      el("label", {class: "option", title: option.doc}, name + " ",
        (() => {
          const select = el("select", {class: "option-value", "data-option": name},
            option.values.map(v => el("option", {value: v, text: v})));
          select.value = option.default;
          return select;
        })())));
    drawAgents();
  }
  rulesSelect.addEventListener("change", drawRules);
  players.addEventListener("change", drawAgents);

  async function start(event) {
    event.preventDefault();
    showError("");
    const body = {
      rules: rulesSelect.value,
      agents: [...agents.querySelectorAll("select")].map(s => s.value),
      seed: seed.value === "" ? null : Number(seed.value),
      hints: document.getElementById("hints").checked,
      options: Object.fromEntries([...options.querySelectorAll("select")].map(s => [s.dataset.option, s.value])),
    };
    try {
      const made = await api("/api/games", {method: "POST", headers: {"content-type": "application/json"},
                                            body: JSON.stringify(body)});
      const humans = made.seats.filter(s => s.url);
      links.replaceChildren(el("h2", {text: "Your game"}),
        el("p", {text: "Each human seat has its own link: open yours, send the others to their players (or let them scan its code)."}),
        el("ul", {class: "seat-links"}, humans.map(s => el("li", {}, seatChip(s.seat), " ",
          el("a", {href: s.url, class: "seat-link", "data-seat": s.seat, text: s.link}),
          el("img", {class: "qr", src: s.qr, "data-seat": s.seat, width: 148, height: 148,
                     alt: `QR code of seat ${s.seat}'s link`})))),
        el("p", {}, "Watch (public view): ", el("a", {href: made.watch, id: "watch-link", text: "watch"})));
      if (humans.length === 1) location.assign(humans[0].url);
      else if (humans.length === 0) location.assign(made.watch);
    } catch (error) { showError(error.message); }
  }

  async function openReplay(event) {
    event.preventDefault();
    showError("");
    const file = document.getElementById("log-file").files[0];
    if (!file) { showError("choose a log file first (made by amunre run --log FILE)"); return; }
    try {
      const made = await api("/api/replays", {method: "POST", headers: {"content-type": "application/x-ndjson"},
                                              body: await file.text()});
      location.assign(made.url);
    } catch (error) { showError(error.message); }
  }

  main.append(
    el("form", {id: "start-form", class: "panel", onsubmit: start},
      el("h2", {text: "New game"}),
      el("label", {}, "Rules ", rulesSelect), " ", rulebookLink,
      el("label", {}, "Players ", players),
      el("label", {}, "Seed ", seed),
      el("h3", {text: "Seats"}), agents,
      el("h3", {text: "Options"}), options,
      el("label", {class: "option", title: "a person to move may ask a bot to rank their moves"},
        el("input", {id: "hints", type: "checkbox"}), " hints: a person may ask a bot to rank their moves"),
      el("button", {id: "start", type: "submit", text: "Start"})),
    el("form", {id: "replay-form", class: "panel", onsubmit: openReplay},
      el("h2", {text: "Replay a log"}),
      el("p", {text: "A log written by amunre run --log FILE, or downloaded from a finished game here."}),
      el("input", {id: "log-file", type: "file", accept: ".jsonl,.json,.log,.txt"}),
      el("button", {id: "open-replay", type: "submit", text: "Open"})),
    links);
  drawRules();
}

// ---- a game: the board, the seats, the phase, the actions, the log ------------------------------

// ---- acting on the board: an action whose target is a place or a card is made there ------------

// The actions each drawn thing carries: "place ID" or "card ID" -> its actions, in id order.
function carriedActions(view) {
  const carried = new Map();
  for (const action of view.actions) {
    if (!action.on) continue;
    const key = action.on.card ? `card ${action.on.card}` : `place ${action.on.place}`;
    if (!carried.has(key)) carried.set(key, []);
    carried.get(key).push(action);
  }
  return carried;
}

// One button of a chooser: the action's words there (a bid's amount), and what it costs or brings.
function choiceButton(action, act) {
  return [el("button", {class: "choice" + (action.pays ? " pays" : ""), type: "button", "data-action-id": action.id,
                        "data-confirm": action.confirm ? "yes" : null, title: action.label,
                        onclick: () => { if (confirmed(action)) act(action.id); }},
            action.short, action.gain ? el("small", {class: "gain", text: action.gain}) : null),
          allButton(action, act)];
}

// The same move as many times as it may be made in a row, in one go ("all 5": every piece bought, placed on one place).
function allButton(action, act) {
  if (!(action.repeat > 1)) return null;
  return el("button", {class: "choice-all", type: "button", "data-action-id": action.id, "data-times": action.repeat,
                       title: `${action.label}, ${action.repeat} times`, text: `all ${action.repeat}`,
                       onclick: () => { if (confirmed(action)) act(action.id, action.repeat); }});
}

// A place's or card's actions as rows of buttons, one row per kind (every bid amount in a row).
function choiceRows(actions, act) {
  const kinds = new Map();
  for (const action of actions) {
    if (!kinds.has(action.type)) kinds.set(action.type, []);
    kinds.get(action.type).push(action);
  }
  return [...kinds].map(([kind, list]) => el("div", {class: "choice-row", "data-type": kind},
    el("span", {class: "choice-kind", text: kind.replaceAll("_", " ")}), list.map(action => choiceButton(action, act))));
}

// A drawn place or card made clickable (and reachable by Tab, pressed by Enter or Space): it
// opens the chooser of its actions in the move panel.
function actionable(node, name, actions, act) {
  if (!actions || !actions.length) return node;
  node.classList.add("actionable");
  node.setAttribute("tabindex", "0");
  node.setAttribute("role", "button");
  node.setAttribute("aria-label", `${name.replaceAll("_", " ")}: ${actions.length} move(s)`);
  node.dataset.actionIds = actions.map(action => action.id).join(" ");
  const open = event => { event.stopPropagation(); openChooser(name, actions, act); };
  node.addEventListener("click", open);
  node.addEventListener("keydown", event => { if (event.key === "Enter" || event.key === " ") { event.preventDefault(); open(event); } });
  return node;
}

function openChooser(name, actions, act) {
  const chooser = el("div", {id: "chooser", role: "dialog", "aria-label": `moves on ${name.replaceAll("_", " ")}`},
    el("h3", {text: name.replaceAll("_", " ")}), choiceRows(actions, act),
    el("button", {id: "close-chooser", type: "button", text: "cancel", onclick: () => chooser.remove()}));
  chooser.addEventListener("keydown", event => { if (event.key === "Escape") chooser.remove(); });
  document.getElementById("chooser")?.remove();
  document.getElementById("actions").querySelector("h2").after(chooser);
  chooser.querySelector("button.choice").focus();
}

// A place's printed facts: the symbols its layout chooses (each with its words on hover), the
// rest folded away; without symbols, every fact in words.
function placeFacts(place, symbols) {
  if (!symbols) return el("div", {class: "place-facts", text: place.facts});
  return el("div", {class: "place-facts"},
    place.symbols.map(symbol => el("span", {class: "symbol", "data-name": symbol.name, title: symbol.title,
                                            "aria-label": symbol.title, text: symbol.text})),
    place.more ? el("details", {class: "more", onclick: keepToItself, onkeydown: keepToItself},
                    el("summary", {text: "…", title: "more about this place"}), el("span", {text: place.more})) : null);
}

// Opening a place's folded facts is not a move on the place: the click (or Enter) stays here.
function keepToItself(event) {
  event.stopPropagation();
}

function drawPlace(place, lots, changed, symbols, carried, act) {
  const box = el("div", {class: "place" + (place.owner >= 0 ? " owned" : "") + (place.face_up ? " face-up" : "") +
                                  (lots.has(place.id) ? " lot-here" : "") + (changed.has(place.id) ? " changed" : ""),
                         "data-place": place.id, "data-owner": place.owner, title: symbols ? null : place.facts},
    el("div", {class: "place-name", text: place.id.replaceAll("_", " ")}),
    placeFacts(place, symbols),
    el("div", {class: "tokens"}, Object.entries(place.tokens).map(([token, count]) =>
      el("span", {class: "token", "data-token": token, text: `${token.replaceAll("_", " ")} ${count}`}))),
    Object.keys(place.marks).length ? el("div", {class: "marks"}, Object.entries(place.marks).map(([name, value]) =>
      el("span", {class: "mark", text: `${name} ${value}`}))) : null);
  if (place.owner >= 0) {
    box.style.setProperty("--seat", SEAT_COLORS[place.owner % SEAT_COLORS.length]);
    box.append(el("div", {class: "owner", text: seatName(place.owner)}));
  }
  return actionable(box, place.id, carried.get(`place ${place.id}`), act);
}

function drawBoard(board, lots, changed, carried, act) {
  const columns = board.columns.map(column => el("div", {class: "column", "data-column": column.label},
    column.label ? el("h3", {class: "column-label", text: column.label}) : null,
    column.bands.filter(band => band.places.length).map(band => el("div", {class: "band", "data-band": band.label},
      band.label ? el("h4", {text: band.label}) : null,
      el("div", {class: "places"}, band.places.map(place => drawPlace(place, lots, changed, board.symbols, carried, act)))))));
  if (board.between && columns.length > 1) {
    columns.splice(1, 0, el("div", {class: "between", "aria-hidden": "true"}, el("span", {text: board.between})));
  }
  const decks = Object.entries(board.decks).map(([name, deck]) =>
    el("span", {class: "deck", "data-deck": name, text: `${name}: ${deck.left} left, ${deck.discards} discarded`}));
  const supply = Object.entries(board.supply).map(([name, count]) =>
    el("span", {class: "supply", text: `${name} ${count}`}));
  return el("section", {id: "board", class: "panel"},
    el("h2", {text: board.title || "Board"}),
    el("div", {class: "columns" + (board.between ? " with-between" : "")}, columns),
    el("div", {class: "material"}, decks, supply.length ? el("span", {class: "label", text: "supply:"}) : null, supply));
}

function drawSeats(view, carried, act) {
  const changed = new Set(((view.changed || {}).resources || []).map(([seat, name]) => `${seat} ${name}`));
  const paying = new Set(view.actions.filter(action => action.pays && action.card).map(action => action.card));
  return el("section", {id: "seats", class: "panel"}, el("h2", {text: "Seats"}),
    view.seats.map(seat => {
      const mine = seat.seat === view.you;
      const hand = el("ul", {class: "hand"}, seat.hand.map(card => actionable(
        el("li", {class: "card" + (mine && paying.has(card.id) ? " pays" : ""), "data-card": card.id,
                  title: mine && paying.has(card.id) ? "would pay or score if played now" : null},
          el("b", {text: card.id.replaceAll("_", " ")}),
          card.doc ? el("span", {class: "doc", text: " — " + card.doc}) : null),
        card.id, mine ? carried.get(`card ${card.id}`) : null, act)));
      const box = el("div", {class: "seat" + (mine ? " mine" : "") + (view.to_move === seat.seat ? " to-move" : ""),
                             "data-seat": seat.seat},
        el("div", {class: "seat-head"}, seatChip(seat.seat, mine ? " (you)" : ""),
          el("span", {class: "agent", text: seat.agent}), seat.start ? el("span", {class: "start", text: "start player"}) : null),
        el("div", {class: "resources"}, Object.entries(seat.resources).map(([name, value]) =>
          el("span", {class: "resource" + (changed.has(`${seat.seat} ${name}`) ? " changed" : ""), "data-resource": name,
                      title: changed.has(`${seat.seat} ${name}`) ? "changed since your last move" : null},
            el("span", {class: "name", text: name}), " ",
            el("b", {class: "value", text: value})))),
        seat.held ? el("div", {class: "held"}, Object.entries(seat.held).map(([name, cards]) =>
          el("span", {text: `${name} cards: ${cards}`}))) : null,
        seat.hand.length || seat.hidden_cards ? el("div", {class: "hand-head",
          text: mine ? "Your hand" : `Hand: ${seat.hand.length + (seat.hidden_cards || 0)} card(s)` +
                (seat.hidden_cards ? `, ${seat.hidden_cards} hidden` : "")}) : null,
        hand);
      box.style.setProperty("--seat", SEAT_COLORS[seat.seat % SEAT_COLORS.length]);
      return box;
    }));
}

function drawPhase(view, carried, act) {
  const phase = view.phase;
  const parts = [el("h2", {text: view.step.phase ? `Phase: ${view.step.phase.replaceAll("_", " ")}` : "Phase"})];
  if (view.rulebook) {
    parts.push(el("p", {class: "rulebook"}, el("a", {id: "phase-rules", href: view.rulebook, target: "_blank",
                                                   rel: "noopener", text: "this phase in the rulebook"})));
  }
  if (view.step.about) parts.push(el("p", {class: "about", text: view.step.about}));
  if (phase.lots.length) {
    parts.push(el("h3", {text: "Lots"}), el("ul", {class: "lots"}, phase.lots.map(lot =>
      el("li", {class: "lot", "data-lot": lot.id}, el("b", {text: lot.id.replaceAll("_", " ")}),
        view.board.symbols ? placeFacts(lot, true) : el("span", {class: "doc", text: ` (${lot.facts})`}),
        lot.bids.map(bid => el("span", {class: "bid" + (bid.outbid ? " outbid" : ""), "data-seat": bid.seat,
                                        title: bid.outbid ? "outbid" : null},
          " ", seatChip(bid.seat), ` ${bid.space}`, bid.outbid ? " (outbid)" : "")),
        carried.has(`place ${lot.id}`) ? choiceRows(carried.get(`place ${lot.id}`), act) : null))));
  }
  if (phase.offers.length) {
    parts.push(el("h3", {text: "Offers"}), el("ul", {class: "offers"}, phase.offers.map(offer =>
      el("li", {class: "offer", "data-seat": offer.seat}, seatChip(offer.seat), ` ${offer.offer}`))));
  }
  for (const [deck, cards] of Object.entries(phase.shown)) {
    parts.push(el("p", {class: "shown", text: `Face up beside ${deck}: ${cards.join(", ")}`}));
  }
  if (phase.kept.length) {          // under a heading of their own: not the running phase's lots or offers
    parts.push(el("h3", {class: "kept-head", text: "Kept from earlier phases"}),
               el("ul", {class: "kept"}, phase.kept.map(k => el("li", {text: k}))));
  }
  if (phase.private.length) {
    parts.push(el("ul", {class: "private"}, phase.private.map(p => el("li", {text: "Only you see: " + p}))));
  }
  const facts = Object.entries(phase.facts);
  if (facts.length) {
    parts.push(el("details", {class: "facts"}, el("summary", {text: "the phase's other facts"}),
      el("dl", {}, facts.flatMap(([k, v]) => [el("dt", {text: k}),
                                               el("dd", {text: typeof v === "string" ? v : JSON.stringify(v)})]))));
  }
  for (const table of phase.tables) {
    parts.push(el("details", {class: "phase-table", "data-phase": table.phase, open: table.open ? "" : null},
      el("summary", {text: `${table.phase.replaceAll("_", " ")}: ${table.title}`}),
      el("table", {}, el("tr", {}, table.columns.map(name => el("th", {text: name}))),
        table.rows.map(row => el("tr", {"data-row": row.id, class: row.id === table.kept ? "kept-row" : "",
                                        title: row.id === table.kept ? "the row it keeps now" : null},
          row.cells.map(cell => el("td", {text: cell})))))));
  }
  if (view.scoring && !view.over && closedScorings.has(view.scoring.key)) {
    parts.push(el("details", {class: "last-scoring"}, el("summary", {text: view.scoring.title}),
                  scoringTable(view.scoring, view.seats)));
  }
  return el("section", {id: "phase", class: "panel"}, parts);
}

// The latest scoring's table: each seat's points by source. A scoring the person has not yet
// closed is shown first, above the move (the game pauses for them there); once closed, it is
// kept folded in the phase panel. Which ones were closed is kept for the tab's life.
const closedScorings = new Set(JSON.parse(sessionStorage.getItem("amunre-closed-scorings") || "[]"));

function scoringTable(scoring, seats) {
  return el("table", {class: "scoring-table"},
    el("tr", {}, el("th", {text: scoring.resource}), seats.map(s => el("th", {}, seatChip(s.seat)))),
    scoring.rows.map(row => el("tr", {"data-source": row.source}, el("td", {class: "source", text: row.source.replaceAll("_", " ")}),
      row.points.map(points => el("td", {text: points})))),
    el("tr", {class: "total"}, el("td", {text: "total"}), scoring.totals.map(points => el("td", {text: points}))));
}

function drawScoring(view, redraw) {
  const scoring = view.scoring;
  if (!scoring || view.over || closedScorings.has(scoring.key)) return null;
  return el("section", {id: "scoring", class: "panel", role: "status", "data-key": scoring.key},
    el("h2", {text: scoring.title}), scoringTable(scoring, view.seats),
    el("button", {id: "close-scoring", type: "button", text: "continue", onclick: () => {
      closedScorings.add(scoring.key);
      sessionStorage.setItem("amunre-closed-scorings", JSON.stringify([...closedScorings]));
      redraw();
    }}));
}

// A bot's ranking of the moves, asked by the person to move (when the game's starter allowed
// hints): kept with the view's version it was asked at, so a redraw of that view keeps it.
let hintChoice = "greedy", shownHint = null;
const HINT_BOTS = ["greedy", "heuristic", "ismcts"];

function drawHint(view, askHint) {
  const select = el("select", {id: "hint-agent", "aria-label": "the bot that ranks your moves",
                               onchange: () => { hintChoice = select.value; }},
    HINT_BOTS.map(name => el("option", {value: name, text: name, selected: name === hintChoice ? "" : null})));
  const box = el("div", {id: "hint-box"}, el("span", {text: "Ask a bot: "}), select, " ",
    el("button", {id: "ask-hint", type: "button", text: "hint", onclick: () => askHint(select.value)}));
  if (shownHint && shownHint.version === view.version) {
    const found = shownHint.hint;
    box.append(el("p", {class: "about", text: found.about}),
      el("ol", {id: "hint"}, found.moves.map(move => el("li", {"data-action-id": move.id,
                                                              class: move.id === found.choice ? "choice-of-bot" : ""},
        el("b", {text: move.label}), " — ", move.words))));
    if (found.weighed < found.legal) {
      box.append(el("p", {class: "about", text: `${found.legal - found.weighed} other moves it did not weigh.`}));
    }
  }
  return box;
}

let handOverChoice = "greedy";   // the bot picked to take the seat over, kept across redraws

function drawHandOver(view, handOver) {
  const select = el("select", {id: "hand-over-agent", "aria-label": "the bot to play your seat"},
    view.bots.map(name => el("option", {value: name, text: name})));
  select.value = view.bots.includes(handOverChoice) ? handOverChoice : view.bots[0];
  select.addEventListener("change", () => { handOverChoice = select.value; });
  return el("p", {class: "hand-over"}, "Leaving? Hand your seat to ", select, " ",
    el("button", {id: "hand-over", type: "button", text: "hand over", onclick: () => handOver(select.value)}));
}

// An action the view marks `confirm` (a card sold) is sent only once the person says yes.
function confirmed(action) {
  return !action.confirm || window.confirm(`${action.label}? This cannot be taken back.`);
}

function drawActions(view, act, handOver, askHint) {
  const box = el("section", {id: "actions", class: "panel"});
  if (view.result) {
    box.append(el("h2", {text: "Game over"}), el("p", {id: "result", text: view.result.text}),
      el("table", {class: "scores"}, el("tr", {}, view.seats.map(s => el("th", {}, seatChip(s.seat)))),
        el("tr", {}, view.result.scores.map((score, seat) =>
          el("td", {class: view.result.winners.includes(seat) ? "winner" : "", text: score})))));
    if (view.scoring) box.append(el("h3", {text: view.scoring.title}), scoringTable(view.scoring, view.seats));
    return box;
  }
  if (view.failure) box.append(el("p", {class: "error", text: view.failure}));
  if (!view.actions.length) {
    const who = view.to_move === null || view.to_move === undefined ? "" : seatName(view.to_move);
    box.append(el("h2", {text: "Waiting"}), el("p", {id: "waiting",
      text: view.thinking ? `${who} (a bot) is thinking…` : `${who} is to move.`}));
    if (view.bots && handOver) box.append(drawHandOver(view, handOver));
    return box;
  }
  box.append(el("h2", {text: "Your move"}));
  const lost = view.phase.lots.filter(lot => lot.bids.some(bid => bid.seat === view.you && bid.outbid));
  if (lost.length) {
    box.append(el("p", {id: "outbid", role: "status",
                        text: `You were outbid on ${lost.map(lot => lot.id.replaceAll("_", " ")).join(", ")}.`}));
  }
  const onBoard = view.actions.filter(action => action.on).length;
  if (onBoard) {
    box.append(el("p", {id: "act-on-board", text: `Click a highlighted place or card to act on it (${onBoard} move${onBoard === 1 ? "" : "s"}).`}));
  }
  const groups = new Map();
  for (const action of view.actions.filter(action => !action.on)) {
    if (!groups.has(action.type)) groups.set(action.type, []);
    groups.get(action.type).push(action);
  }
  for (const [type, list] of groups) {
    if (list.length > MANY_ACTIONS) {          // every amount one may bid, say: a list to pick from
      const select = el("select", {class: "action-select", "data-type": type, "aria-label": type},
        list.map(action => el("option", {value: action.id, text: action.label + (action.gain ? ` (${action.gain})` : "")})));
      box.append(el("div", {class: "action-group", "data-type": type}, select,
        el("button", {class: "action-choose", type: "button", text: "do it", onclick: () => {
          const action = list.find(a => a.id === Number(select.value));
          if (confirmed(action)) act(action.id);
        }})));
      continue;
    }
    box.append(el("div", {class: "action-group", "data-type": type}, list.map(action =>
      [el("button", {class: "action" + (action.pays ? " pays" : ""), type: "button", "data-action-id": action.id,
                     "data-confirm": action.confirm ? "yes" : null,
                     onclick: () => { if (confirmed(action)) act(action.id); }},
        action.label, action.gain ? el("small", {class: "gain", text: action.gain}) : null), allButton(action, act)])));
  }
  if (view.hints && askHint) box.append(drawHint(view, askHint));
  if (view.bots && handOver) box.append(drawHandOver(view, handOver));
  return box;
}

function drawLog(lines, fresh, skipped) {
  const log = el("ol", {id: "log", class: "panel"}, skipped ? el("li", {class: "skipped",
    text: `… ${skipped} earlier lines (the whole log: the game's log file)`}) : null, lines.map((line, i) => {
    const rule = line.match(/^─+ (.*?) ─+$/);
    const item = el("li", {class: "line" + (rule ? " heading" : "") + (i >= lines.length - fresh ? " fresh" : ""),
                           text: rule ? rule[1] : line.replace(/^ {4}/, "")});
    if (/^\S/.test(line) && !rule) item.classList.add("subheading");
    return item;
  }));
  return el("section", {class: "log-box"}, el("h2", {text: "What happened"}), log);
}

function statusText(view) {
  const step = view.step;
  const of = total => (total ? ` of ${total}` : "");
  const where = [step.age !== null && step.age !== undefined ? `age ${step.age}${of(step.ages)}` : "",
                 step.round !== null && step.round !== undefined ? `round ${step.round}${of(step.rounds)}` : "",
                 (step.phase || "").replaceAll("_", " ")]
    .filter(Boolean).join(", ");
  if (view.over) return "Game over";
  const mover = view.to_move === view.you && !view.replay ? "Your move" : `${seatName(view.to_move)} to move`;
  return `${mover} — ${where}`;
}

function drawGame(view, act, extra, handOver, askHint) {
  document.title = `${view.title} — amunre`;
  document.getElementById("title").textContent = view.title + (view.you !== null && view.you !== undefined
    ? ` — you are ${seatName(view.you)}` : " — public view");
  document.getElementById("status").textContent = statusText(view);
  const main = document.getElementById("main");
  const logBox = document.getElementById("log");
  const atBottom = !logBox || logBox.scrollTop + logBox.clientHeight >= logBox.scrollHeight - 8;
  const scrolled = logBox ? logBox.scrollTop : 0;
  const facts = document.querySelector("details.facts");
  const factsOpen = facts ? facts.open : false;
  const fresh = view.replay ? view.replay.new_lines : (view.since || 0);      // a seat: told since its last move
  const carried = carriedActions(view);
  main.replaceChildren(
    el("div", {class: "layout"},
      el("div", {class: "left"}, extra || null, drawBoard(view.board, new Set(view.phase.lots.map(lot => lot.id)),
                                                                 new Set((view.changed || {}).places || []), carried, act)),
      el("div", {class: "right"}, drawScoring(view, () => drawGame(view, act, extra, handOver, askHint)),
         view.replay && !view.over ? null : drawActions(view, act, handOver, askHint), drawPhase(view, carried, act),
         drawSeats(view, carried, act))),
    drawLog(view.log, fresh, view.log_skipped));
  main.dataset.version = view.version ?? "";
  main.dataset.phase = view.step.phase || "";
  main.dataset.toMove = view.to_move ?? "";
  const log = document.getElementById("log");
  if (view.replay) {
    const first = log.querySelector(".fresh");       // the step's own lines, without scrolling the page
    if (first) log.scrollTop = Math.max(0, first.offsetTop - 3 * first.offsetHeight);
  } else log.scrollTop = atBottom ? log.scrollHeight : scrolled;   // a reader who scrolled up stays there
  const newFacts = document.querySelector("details.facts");
  if (newFacts) newFacts.open = factsOpen;
}

function gamePage(kind, token) {
  const base = `/api/${kind}/${token}`;
  let busy = false, again = false, drawn = -1, redraw = false;
  // Answers may arrive out of order: never draw an older view. Nor the one shown again (the
  // answer to a move and the stream's news of it are the same view): drawn anew, the page would
  // close the chooser a person just opened, or drop the place about to be clicked. `redraw`
  // asks for it where the same version must show something else (a hint, buttons after a refusal).
  function draw(view) {
    if (view.version < drawn || (view.version === drawn && !redraw)) return;
    drawn = view.version;
    redraw = false;
    drawGame(view, act, null, handOver, askHint);
    if (view.over) { over = true; quiet(); }
    if (view.over && !document.getElementById("download-log")) {     // the log tells every secret: only now
      document.getElementById("top").append(el("a", {href: `${base}/log`, id: "download-log", download: "amunre-game.jsonl",
                                                     text: "download the log"}));
    }
  }
  async function refresh() {
    if (busy) { again = true; return; }
    busy = true;
    try {
      draw(await api(base));
      showError("");
    } catch (error) { showError(error.message); }
    busy = false;
    if (again) { again = false; refresh(); }
  }
  async function act(id, times) {
    for (const button of document.querySelectorAll("button.action, button.action-choose, button.choice, button.choice-all")) {
      button.disabled = true;
    }
    try {
      draw(await api(`${base}/act`, {method: "POST", headers: {"content-type": "application/json"},
                                     body: JSON.stringify(times ? {id, times} : {id})}));
    } catch (error) { showError(error.message); redraw = true; refresh(); }
  }
  async function askHint(agent) {
    const version = drawn;
    try {
      const found = await api(`${base}/hint?agent=${encodeURIComponent(agent)}`);
      if (drawn !== version) return;              // the game moved on while the bot thought
      shownHint = {version, hint: found};
      redraw = true;
      refresh();
    } catch (error) { showError(error.message); }
  }
  async function handOver(agent) {
    if (!window.confirm(`Hand your seat to ${agent}? It plays your seat from now on; this page goes on showing what your seat sees.`)) return;
    try {
      draw(await api(`${base}/bot`, {method: "POST", headers: {"content-type": "application/json"},
                                     body: JSON.stringify({agent})}));
    } catch (error) { showError(error.message); redraw = true; refresh(); }
  }
  // One stream per open page, closed while the tab is hidden and once the game is over: a
  // browser keeps only six connections to one server, and a person may have several seats open.
  let stream = null, over = false;
  function listen() {
    if (stream || over || document.hidden) return;
    stream = new EventSource(`${base}/stream`);
    stream.onmessage = refresh;
    stream.addEventListener("gone", () => {
      quiet();
      over = true;
      showError("this game was dropped after a long idle time; start a new one from the start page");
    });
    stream.onerror = () => { if (stream && stream.readyState === EventSource.CLOSED) showError("lost the server"); };
  }
  function quiet() { if (stream) { stream.close(); stream = null; } }
  document.addEventListener("visibilitychange", () => {
    if (document.hidden) quiet();
    else { listen(); refresh(); }
  });
  listen();
  refresh();
}

function replayPage(token) {
  const base = `/api/replay/${token}`;
  let step = 0, steps = 1, seat = "public";
  const seatSelect = el("select", {id: "view-as", "aria-label": "view as"}, el("option", {value: "public", text: "public view"}));
  const counter = el("span", {id: "step"});
  const said = el("span", {id: "replay-action"});
  let asked = 0;
  async function go(to) {
    step = Math.max(0, Math.min(steps - 1, to));
    const mine = ++asked;
    try {
      const view = await api(`${base}?step=${step}&seat=${seat}`);
      if (mine !== asked) return;                // a later step or seat was asked for meanwhile
      steps = view.replay.steps;
      if (seatSelect.options.length === 1) {
        for (const s of view.seats) seatSelect.append(el("option", {value: s.seat, text: `as ${seatName(s.seat)}`}));
      }
      counter.textContent = `step ${view.replay.step} of ${view.replay.steps - 1}`;
      const actor = view.replay.seat;
      said.textContent = actor === null || actor === undefined ? view.replay.action
        : view.replay.action === null ? `${seatName(actor)} moved (what could be seen of it is marked in the log)`
        : `${seatName(actor)}: ${view.replay.action}`;
      drawGame(view, null, controls);
      document.getElementById("main").dataset.step = view.replay.step;
      showError("");
    } catch (error) { showError(error.message); }
  }
  seatSelect.addEventListener("change", () => { seat = seatSelect.value; go(step); });
  const controls = el("section", {id: "replay-controls", class: "panel"},
    el("button", {id: "first", type: "button", text: "« start", onclick: () => go(0)}),
    el("button", {id: "back", type: "button", text: "◀ back", onclick: () => go(step - 1)}),
    el("button", {id: "next", type: "button", text: "next ▶", onclick: () => go(step + 1)}),
    el("button", {id: "last", type: "button", text: "end »", onclick: () => go(steps - 1)}),
    counter, seatSelect, el("div", {class: "replay-action"}, said));
  document.addEventListener("keydown", event => {
    if (event.target.tagName === "INPUT" || event.target.tagName === "SELECT") return;
    if (event.key === "ArrowRight") go(step + 1);
    if (event.key === "ArrowLeft") go(step - 1);
  });
  go(0);
}

function route() {
  const [, kind, token] = location.pathname.split("/");
  if (!kind) return startPage().catch(error => showError(error.message));
  if (kind === "seat" || kind === "watch") return gamePage(kind, token);
  if (kind === "replay") return replayPage(token);
  showError("nothing here");
}

route();
