"""`amunre serve` end to end: the real server (uvicorn, in a thread) driven by Playwright in
Debian's Chromium. A whole 2016 game and a Modern Art round are played by clicking places,
cards and buttons, at desktop and phone size, the page checked against the engine's state at
every decision; a Pharaoh's Heir game is started and one action taken; a replay is stepped back
and forth; two seats' HTTP responses are checked for each other's secrets.

Chromium is the system's (`.ci/run` installs Debian's `chromium`; AMUNRE_CHROMIUM may name
another binary): Playwright downloads no browser. Without one the tests skip, except in CI
(CI set), where a missing browser is a failure, so that they never stop running unnoticed.
A screenshot of each phase is kept in test-artifacts/ (AMUNRE_ARTIFACTS to put them elsewhere);
with AMUNRE_DOCS_IMAGES set, the tests also write docs/serve.md's screenshots (DOCS_IMAGES).
"""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
uvicorn = pytest.importorskip("uvicorn")
playwright = pytest.importorskip("playwright.sync_api")

from amunre.cli.render import outcome_text
from amunre.cli.serve.app import Limits, Server, create_app
from amunre.cli.serve.catalog import Catalog
from amunre.cli.serve.tables import LINES_SENT, Table
from amunre.tools.agents import choose_id, make_agent
from conftest import REPO

ARTIFACTS = Path(os.environ.get("AMUNRE_ARTIFACTS", REPO / "test-artifacts"))
WAIT_MS = 60_000


def chromium() -> str:
    found = os.environ.get("AMUNRE_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    if not found:
        if os.environ.get("CI"):
            pytest.fail("no chromium for the browser tests: .ci/run installs Debian's chromium")
        pytest.skip("no chromium on this machine (apt-get install chromium)")
    return found


class Live:
    """A server on a free port of this machine, and the state behind it."""

    def __init__(self) -> None:
        self.server = Server(Catalog(), Limits(pace=0))
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        config = uvicorn.Config(create_app(self.server), host="127.0.0.1", port=self.port, log_level="warning",
                                timeout_graceful_shutdown=1)
        self.uvicorn = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.uvicorn.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.uvicorn.started:
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.05)
        self.url = f"http://127.0.0.1:{self.port}"

    def newest(self) -> Table:
        return self.server.games()[-1]

    def stop(self) -> None:
        self.uvicorn.should_exit = True
        self.thread.join(timeout=10)


@pytest.fixture(scope="module")
def live() -> Iterator[Live]:
    server = Live()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    path = chromium()
    with playwright.sync_playwright() as p:
        launched = p.chromium.launch(executable_path=path, args=["--no-sandbox", "--disable-gpu"])
        yield launched
        launched.close()


def watched_page(browser: Any, **device: Any) -> Iterator[Any]:
    """A fresh page; the test fails if the page reports an error."""
    context = browser.new_context(**device)
    opened = context.new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    opened.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    yield opened
    context.close()
    assert errors == [], f"the page reported errors: {errors}"


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    yield from watched_page(browser, viewport={"width": 1400, "height": 1000})


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    """A phone's screen (390 x 844 CSS pixels, touch)."""
    yield from watched_page(browser, viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True,
                            has_touch=True)


# The screenshots docs/serve.md shows, taken by these tests: with AMUNRE_DOCS_IMAGES set, each
# of these shots is also written to docs/images/ under its name there (the visible screen only).
DOCS_IMAGES = {"knizia2016-01-auction": "serve-knizia2016", "knizia2016-phone-02-market": "serve-phone",
               "knizia2016-hint": "serve-hint", "knizia2016-scoring": "serve-scoring",
               "modern-art-01-auction_painting": "serve-modern-art",
               "pharaohs-heir-after-one-action": "serve-pharaohs-heir"}


def shoot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)
    if os.environ.get("AMUNRE_DOCS_IMAGES") and name in DOCS_IMAGES:
        page.screenshot(path=str(REPO / "docs" / "images" / f"{DOCS_IMAGES[name]}.png"))


def submit_start_form(page: Any, live: Live, rules: str, agents: list[str], seed: int, hints: bool = False) -> None:
    """Fill the start page's form and press Start."""
    page.goto(live.url + "/")
    page.wait_for_selector("#start")
    page.select_option("#rules", rules)
    page.fill("#players", str(len(agents)))
    page.dispatch_event("#players", "change")
    for seat, agent in enumerate(agents):
        page.select_option(f"select.agent[data-seat='{seat}']", agent)
    page.fill("#seed", str(seed))
    if hints:
        page.check("#hints")
    page.click("#start")


def start_from_form(page: Any, live: Live, rules: str, agents: list[str], seed: int) -> Table:
    before = len(live.server.games())
    submit_start_form(page, live, rules, agents, seed)
    page.wait_for_url("**/seat/**", timeout=WAIT_MS)
    assert len(live.server.games()) == before + 1
    return live.newest()


def settle(page: Any, table: Table, seat: int) -> None:
    """Wait for the bots to hand the move back (or end the game), then for the page to show it."""
    deadline = time.monotonic() + 120
    while True:
        with table.lock:                  # the move and its version are told together under it
            if table.game.over or table.game.to_move == seat:
                version = table.version
                break
        assert time.monotonic() < deadline, "the bots did not finish in time"
        time.sleep(0.02)
    page.wait_for_function("v => document.getElementById('main').dataset.version === String(v)",
                           arg=version, timeout=WAIT_MS)


# What check_page_against_engine reads of the page, in one call: a round trip
# to the browser an element made a whole game's checks take a minute.
PAGE_FACTS = """() => {
    const all = (selector, root = document) => Array.from(root.querySelectorAll(selector));
    const text = (node) => node ? node.textContent : null;
    return {
        purses: all('.seat[data-seat] .resource[data-resource]').map(node =>
            [node.closest('.seat').dataset.seat, node.dataset.resource, text(node.querySelector('.value'))]),
        places: all('.place[data-place]').map(box => ({
            place: box.dataset.place, owner: box.getAttribute('data-owner'),
            tokens: all('.token[data-token]', box).map(chip => [chip.dataset.token, chip.textContent])})),
        facts: all('.place .place-facts').map(node => node.innerText),
        phase: document.getElementById('main').getAttribute('data-phase'),
        changed: all('.place.changed').map(box => box.getAttribute('data-place')),
        fresh: all('#log .line.fresh').length,
        tables: all('#phase details.phase-table').map(table => ({
            phase: table.getAttribute('data-phase'), open: table.getAttribute('open') !== null,
            kept: table.querySelector('tr.kept-row')?.getAttribute('data-row') ?? null})),
        keptHeading: document.querySelector('#phase ul.kept')?.previousElementSibling.textContent ?? null,
        buttons: all('button.action').map(button => button.getAttribute('data-action-id')),
        gains: all('button.action, .lot button.choice').map(button =>
            [button.getAttribute('data-action-id'), text(button.querySelector('small.gain')) ?? '']),
        listed: all('select.action-select option').map(option => option.getAttribute('value')),
        carried: all('[data-action-ids]').map(node => node.getAttribute('data-action-ids')),
        outbid: text(document.querySelector('#outbid')),
    };
}"""


def page_facts(page: Any) -> dict[str, Any]:
    return page.evaluate(PAGE_FACTS)


def check_page_against_engine(page: Any, table: Table, seat: int) -> dict[str, Any]:
    """What the page shows is the seat's observation: purses, owners, tokens, phase, actions;
    what it read of the page (page_facts)."""
    game = table.game
    facts = page_facts(page)
    check_purses_and_places(facts, game.observation(seat), game.rules)
    assert facts["phase"] == (game.step.phase or "")
    marked = table.view(seat)               # what changed since the seat's last move, as the server says
    assert sorted(facts["changed"]) == sorted(marked.get("changed", {}).get("places", []))
    assert facts["fresh"] == min(marked.get("since", 0), len(marked["log"]))
    for drawn_table in facts["tables"]:     # a phase's table, its kept row marked
        phase_id = drawn_table["phase"]
        assert drawn_table["kept"] == (game.state.kept.get(phase_id) or {}).get("tile")
        assert drawn_table["open"] == (phase_id == game.step.phase)
    if facts["keptHeading"] is not None:  # what earlier phases keep is not listed under the lots or offers
        assert facts["keptHeading"] == "Kept from earlier phases", facts["keptHeading"]
    if not game.over and game.to_move == seat:
        check_moves(facts, game, marked, seat)
    return facts


def check_purses_and_places(facts: dict[str, Any], observed: dict[str, Any], rules: Any) -> None:
    """Each purse amount, each place's owner and tokens (the first element of each, as a
    selector finds it), and no place's facts as `key value` where symbols are chosen."""
    purses: dict[tuple[str, str], str | None] = {}
    for other, name, value in facts["purses"]:
        purses.setdefault((other, name), value)
    for other, purse in enumerate(observed["resources"]):
        for name, value in purse.items():
            assert purses.get((str(other), name)) == str(value), (other, name)
    boxes: dict[str, dict[str, Any]] = {}
    for box in facts["places"]:
        boxes.setdefault(box["place"], box)
    for p, place in enumerate(rules.place_ids):
        box = boxes.get(place)
        if box is None:                   # a layout of `show: occupied` draws only the places in use
            assert rules.layout.show == "occupied", place
            assert observed["owner"][p] < 0 and not any(observed["tokens"][p].values()), place
            continue
        assert box["owner"] == str(observed["owner"][p]), place
        chips: dict[str, str] = {}
        for token, shown in box["tokens"]:
            chips.setdefault(token, shown)
        for token, count in observed["tokens"][p].items():
            chip = chips.get(token)
            assert (chip.rsplit(" ", 1)[1] if chip is not None else "0") == str(count), (place, token)
    if rules.layout.symbols:              # a place shows symbols, never `key value` (the rest is folded)
        for shown in facts["facts"]:
            assert not re.search(r"[A-Za-z_]+ -?\d", shown), shown


def check_moves(facts: dict[str, Any], game: Any, marked: dict[str, Any], seat: int) -> None:
    """The moves offered are the legal ones, each once, each saying what the engine says it
    costs or brings; the lots the seat was outbid on are named."""
    offered = offered_from(facts)
    assert sorted(offered) == game.legal_action_ids()
    carried = {a["id"] for a in marked.get("actions", []) if a["on"]}
    assert not carried & {int(b) for b in facts["buttons"]}, \
        "an action made on a place or card is a button of its own too"
    outcomes = game.outcomes()
    for action_id, gain in facts["gains"]:
        assert gain == outcome_text(outcomes[int(action_id)].to_json())
    lost = outbid_on(game, seat)
    assert facts["outbid"] == (f"You were outbid on {', '.join(lost)}." if lost else None)


def offered_from(facts: dict[str, Any]) -> dict[int, str]:
    """Every action the page offers, by id: as a button of the move panel, or made on a place
    or a card (its element lists the ids it carries)."""
    offered = {int(action_id): "button" for action_id in facts["buttons"]}
    for action_id in facts["listed"]:
        offered[int(action_id)] = "list"
    for ids in facts["carried"]:
        for action_id in ids.split():
            offered.setdefault(int(action_id), "carried")
    return offered


def take(page: Any, action_id: int, answer: str | None = None, times: int = 1) -> None:
    """Make the action as a person would: its button, or a click on the place or card that
    carries it and then its choice (a dialog answered `accept` or `dismiss` when one opens);
    with `times`, its "all N" button."""
    if answer is not None:
        page.once("dialog", lambda dialog: getattr(dialog, answer)())
    listed = page.query_selector(f"select.action-select option[value='{action_id}']")
    if listed is not None:                  # one of many of a kind: picked from its list
        group = listed.evaluate_handle("option => option.closest('.action-group')").as_element()
        group.query_selector("select").select_option(str(action_id))
        group.query_selector("button.action-choose").click()
        return
    kind = "choice-all" if times > 1 else "action"
    button = page.query_selector(f"button.{kind}[data-action-id='{action_id}']")
    if button is None:
        carriers = page.query_selector_all(f"[data-action-ids~='{action_id}']")
        assert carriers, f"action {action_id} is neither a button nor carried by a place or card"
        carriers[action_id % len(carriers)].click()            # the board's place, a lot's row, a card
        kind = "choice-all" if times > 1 else "choice"
        button = page.wait_for_selector(f"#chooser button.{kind}[data-action-id='{action_id}']")
    if times > 1:
        assert button.get_attribute("data-times") == str(times) and button.text_content() == f"all {times}"
    button.click()


def outbid_on(game: Any, seat: int) -> list[str]:
    """The lots the seat's standing bid was beaten on, from the auction's own working data
    (each seat's [lot, bid space]), not from the events the page's view reads."""
    data = game.state.working
    bids = data.get("bids") if isinstance(data, dict) else None
    if not isinstance(bids, list) or seat >= len(bids) or not bids[seat]:
        return []
    lot, space = bids[seat]
    if lot not in data.get("lots", []):
        return []
    beaten = any(other != seat and bid and bid[0] == lot and bid[1] > space for other, bid in enumerate(bids))
    return [game.rules.place_ids[lot].replace("_", " ")] if beaten else []


def play_by_clicking(page: Any, live: Live, shots: str, rules: str = "knizia2016", seed: int = 7,
                     done: Callable[[Any], bool] = lambda game: game.over,
                     look: Callable[[], None] = lambda: None) -> dict[str, Any]:
    """Seat 0 against two greedy bots makes random legal moves as a person would (on the
    board's places and the hand's cards where they carry the move, else by the move panel's
    buttons and lists) until `done`, the page checked against the engine at every decision (and
    by `look`); what it met on the way."""
    table = start_from_form(page, live, rules, ["human", "greedy", "greedy"], seed=seed)
    game, pick = table.game, random.Random(seed)
    met: dict[str, Any] = {"phases": [], "clicks": 0, "kept": False, "changed": False, "sale asked": False,
                           "on the board": False, "scoring": False, "all": False}
    while True:
        settle(page, table, 0)
        facts = check_page_against_engine(page, table, 0)
        look()
        met["kept"] = met["kept"] or page.query_selector("#phase ul.kept") is not None
        met["changed"] = met["changed"] or page.query_selector(".place.changed") is not None
        met["scoring"] = met["scoring"] or page.query_selector("#scoring tr.total") is not None
        phase = game.step.phase or ""
        if phase not in met["phases"]:
            met["phases"].append(phase)
            shoot(page, f"{shots}-{len(met['phases']):02d}-{phase}")
        if game.over or done(game):
            break
        for action in table.view(0)["actions"]:     # the engine's card sale, and only it, is asked about first
            assert action["confirm"] == (action["type"] == "sell"), action
        offered = offered_from(facts)
        repeated = [a for a in table.view(0)["actions"] if a["repeat"] > 1]
        if repeated and not met["all"]:                # "all N" once: the same move N times in one go
            action = repeated[0]
            before = len(game.history)
            take(page, action["id"], times=action["repeat"])
            deadline = time.monotonic() + 30
            while len(game.history) < before + action["repeat"]:
                assert time.monotonic() < deadline, "'all' did not reach the game"
                time.sleep(0.01)
            assert game.history[before:before + action["repeat"]] == [action["id"]] * action["repeat"]
            met["all"] = True
            continue
        action_id = pick.choice(sorted(offered))
        met["on the board"] = met["on the board"] or offered[action_id] == "carried"
        confirm = game.action_from_id(action_id)["type"] == "sell"
        before = len(game.history)
        if confirm and not met["sale asked"]:
            take(page, action_id, "dismiss")   # declined: nothing is sent
            page.wait_for_timeout(300)         # (Playwright handles the dialog while it waits)
            assert len(game.history) == before
            met["sale asked"] = True
        take(page, action_id, "accept" if confirm else None)
        met["clicks"] += 1
        deadline = time.monotonic() + 30
        while len(game.history) <= before:
            assert time.monotonic() < deadline, "the click did not reach the game"
            time.sleep(0.01)
        assert game.history[before] == action_id                # the engine took the action clicked
    log_lines = page.query_selector_all("#log .line")
    assert len(log_lines) == min(len(table.story.lines), LINES_SENT)
    return met


def a_whole_2016_game(page: Any, live: Live, shots: str, look: Callable[[], None] = lambda: None) -> None:
    met = play_by_clicking(page, live, shots, look=look)
    assert live.newest().game.over and page.query_selector("#result") is not None
    assert {"auction", "market", "offering"} <= set(met["phases"]) and met["clicks"] >= 30
    assert met["kept"], "no earlier phase's kept facts were shown"
    assert met["changed"], "no place was marked changed since seat 0's move"
    assert met["sale asked"], "no card sale was chosen: its confirmation went untried"
    assert met["on the board"], "no action was made on a place or card"
    assert met["scoring"], "no scoring table was shown at an age's end"
    assert met["all"], "no move was made N times in one go"
    shoot(page, f"{shots}-game-over")


def a_modern_art_round(page: Any, live: Live, shots: str, look: Callable[[], None] = lambda: None) -> None:
    met = play_by_clicking(page, live, shots, "modern-art", seed=4, done=lambda game: game.step.round != 1, look=look)
    assert live.newest().game.step.round == 2 or live.newest().game.over
    assert met["on the board"], "no painting was laid from the hand"


def fits_and_keeps_the_move_in_view(phone: Any) -> Callable[[], None]:
    """At 390 px nothing is wider than the screen, and the move stays in view at the top while
    the page scrolls (the board and the log under it)."""
    def look() -> None:
        width = phone.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, f"the page is {width} px wide on a 390 px screen"
        phone.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
        top = phone.evaluate("document.getElementById('actions').getBoundingClientRect().top")
        assert 0 <= top <= 1, f"scrolled to the bottom, the move is at {top} px, not at the top"
        phone.evaluate("window.scrollTo(0, 0)")
    return look


def test_a_2016_game_played_by_clicking(page: Any, live: Live) -> None:
    a_whole_2016_game(page, live, "knizia2016")


def test_a_2016_age_played_on_a_phone(phone: Any, live: Live) -> None:
    """The first age, every kind of phase and its scoring, fits a phone at every decision (the
    whole game on a phone took a CI run over its 20 minutes: the desktop test plays it whole)."""
    met = play_by_clicking(phone, live, "knizia2016-phone", done=lambda game: game.step.age != 1,
                           look=fits_and_keeps_the_move_in_view(phone))
    assert {"auction", "market", "offering"} <= set(met["phases"]) and met["clicks"] >= 10
    assert met["scoring"], "no scoring table was shown at the age's end"


def test_a_modern_art_round_played_by_clicking(page: Any, live: Live) -> None:
    a_modern_art_round(page, live, "modern-art")


def test_a_modern_art_round_played_on_a_phone(phone: Any, live: Live) -> None:
    a_modern_art_round(phone, live, "modern-art-phone", fits_and_keeps_the_move_in_view(phone))


def test_a_seat_outbid_is_told_so_in_words(page: Any, live: Live) -> None:
    """Seat 0 bids on a lot, another seat bids higher on it: when seat 0 is to move again its
    page says which lot it was outbid on, and its old bid is marked as beaten."""
    submit_start_form(page, live, "knizia2016", ["human"] * 3, seed=5)
    page.wait_for_selector("a.seat-link[data-seat='0']")
    table = live.newest()
    game = table.game
    page.goto(live.url + page.get_attribute("a.seat-link[data-seat='0']", "href"))
    target = None
    while not (game.to_move == 0 and outbid_on(game, 0)):
        assert game.step.phase == "auction", "the auction ended before seat 0 was outbid"
        legal = game.legal_actions()
        mover = game.to_move
        if mover == 0:
            bid = legal[0] if target is None else next(a for a in legal if a["lot"] != target)
            if target is None:
                target = bid["lot"]
            settle(page, table, 0)
            take(page, game.action_to_id(bid))
            deadline = time.monotonic() + 30
            while game.to_move == 0:
                assert time.monotonic() < deadline, "the click did not reach the game"
                time.sleep(0.01)
            continue
        over_target = [a for a in legal if a.get("lot") == target]
        bid = over_target[0] if target is not None and over_target and not outbid_on(game, 0) else \
            next((a for a in legal if a.get("lot") != target), legal[0])
        table.act(mover, game.action_to_id(bid))
    settle(page, table, 0)
    assert page.text_content("#outbid") == f"You were outbid on {target.replace('_', ' ')}."
    assert "outbid" in page.get_attribute(f".lot[data-lot='{target}'] .bid[data-seat='0']", "class")
    shoot(page, "knizia2016-outbid")


def test_the_same_view_again_leaves_an_open_chooser_alone(page: Any, live: Live) -> None:
    """The answer to a move and the stream's news of it bring the same view: drawn again, the
    page closed the chooser a person had just opened on a place (and a click on the place's old
    element was lost). A refresh of the shown version (here: the tab shown again) changes
    nothing on the page."""
    table = start_from_form(page, live, "knizia2016", ["human", "random", "random"], seed=3)
    settle(page, table, 0)
    carrier = page.query_selector("[data-action-ids]")
    assert carrier is not None, "no move is made on a place at the game's start"
    carrier.click()
    chooser = page.wait_for_selector("#chooser")
    with page.expect_response(lambda response: response.url.endswith(f"/api/seat/{next(iter(table.tokens))}")):
        page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")      # refreshes the view
    page.wait_for_timeout(100)
    assert chooser.evaluate("node => node.isConnected") and carrier.evaluate("node => node.isConnected")


def test_a_places_folded_facts_open_without_opening_its_moves(page: Any, live: Live) -> None:
    """"…" on a place that carries moves unfolds the place's other facts, by click or by Enter;
    the chooser of its moves stays shut."""
    submit_start_form(page, live, "pharaohs-heir", ["human"] * 3, seed=3)     # its places fold facts
    page.wait_for_selector("a.seat-link[data-seat='0']")
    table = live.newest()
    game, pick = table.game, random.Random(3)
    page.goto(live.url + page.get_attribute("a.seat-link[data-seat='0']", "href"))
    while True:                             # on to seat 0's first move made on a place
        assert not game.over, "no move on a place with folded facts in the whole game"
        if game.to_move == 0:
            settle(page, table, 0)
            folded = page.query_selector(".place[data-action-ids] details.more")
            if folded is not None:
                break
        table.act(game.to_move, pick.choice(game.legal_action_ids()))
    folded.query_selector("summary").click()
    assert folded.evaluate("node => node.open") and page.query_selector("#chooser") is None
    folded.query_selector("summary").press("Enter")
    assert not folded.evaluate("node => node.open") and page.query_selector("#chooser") is None


def test_a_game_of_friends_shows_each_seats_link_and_qr_code(page: Any, live: Live) -> None:
    """With two human seats the start page stays, listing both links, each with its QR code
    drawn (an image the browser decoded), and each link opens its seat."""
    submit_start_form(page, live, "knizia2016", ["human", "human", "random"], seed=1)
    page.wait_for_selector(".seat-links img.qr[data-seat='1']")
    table = live.newest()
    for token, seat in table.tokens.items():
        link = page.text_content(f"a.seat-link[data-seat='{seat}']")
        assert link == f"{live.url}/seat/{token}"
        page.wait_for_function("s => document.querySelector(`img.qr[data-seat='${s}']`).naturalWidth > 0", arg=seat,
                               timeout=WAIT_MS)
    shoot(page, "start-friends")
    page.click("a.seat-link[data-seat='1']")
    page.wait_for_url(f"**/seat/{next(t for t, s in table.tokens.items() if s == 1)}", timeout=WAIT_MS)
    page.wait_for_selector("#phase")


def test_a_seat_handed_to_a_bot_from_its_page_and_reached_by_the_keyboard(page: Any, live: Live) -> None:
    """The move's buttons and the hand-over are reached with Tab and pressed with Enter; after
    the confirmation the chosen bot plays the seat to the end of the game."""
    table = start_from_form(page, live, "knizia2016", ["human", "random", "random"], seed=5)
    settle(page, table, 0)
    page.focus(".actionable")                                # a lot of the auction: its moves open
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.classList.contains('choice')")
    before = len(table.game.history)
    page.keyboard.press("Enter")                            # the focused choice, taken by the keyboard
    deadline = time.monotonic() + 30
    while len(table.game.history) <= before:
        assert time.monotonic() < deadline, "Enter on an action did not reach the game"
        time.sleep(0.01)
    settle(page, table, 0)
    page.select_option("#hand-over-agent", "random")
    page.focus("#hand-over-agent")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "hand-over"
    page.once("dialog", lambda dialog: dialog.accept())
    page.keyboard.press("Enter")
    page.wait_for_selector("#result", timeout=WAIT_MS * 2)
    assert table.game.over and table.agents[0] == "random"
    assert page.query_selector("#hand-over") is None


def test_a_pharaohs_heir_game_started_and_one_action_taken(page: Any, live: Live) -> None:
    table = start_from_form(page, live, "pharaohs-heir", ["human", "random", "random"], seed=3)
    settle(page, table, 0)
    facts = check_page_against_engine(page, table, 0)
    shoot(page, "pharaohs-heir-start")
    before = len(table.game.history)
    action_id = min(offered_from(facts))
    take(page, action_id)
    deadline = time.monotonic() + 30
    while len(table.game.history) <= before:
        assert time.monotonic() < deadline
        time.sleep(0.01)
    assert table.game.history[before] == action_id
    settle(page, table, 0)
    check_page_against_engine(page, table, 0)
    shoot(page, "pharaohs-heir-after-one-action")


SHIPPED = sorted(str(p.relative_to(REPO / "rules").with_suffix("")) for p in (REPO / "rules").rglob("*.yaml"))


def test_every_rulebook_opens_without_an_error_and_a_game_links_its_phase(page: Any, live: Live) -> None:
    for name in SHIPPED:
        page.goto(f"{live.url}/rules/{name}")
        page.wait_for_selector("nav a")
        anchors = page.eval_on_selector_all("nav a", "links => links.map(a => a.getAttribute('href').slice(1))")
        assert anchors and all(page.query_selector(f"[id='{a}']") for a in anchors), name
    page.goto(f"{live.url}/rules/knizia2016")
    shoot(page, "rulebook-knizia2016")
    page.goto(f"{live.url}/rules/house/once_around_auction")
    page.wait_for_selector("#changes")
    shoot(page, "rulebook-house-once-around-auction")
    page.goto(live.url + "/")
    page.wait_for_selector("#rulebook-link")
    page.select_option("#rules", "house/no_theft")
    assert page.get_attribute("#rulebook-link", "href") == "/rules/house/no_theft"
    table = start_from_form(page, live, "knizia2016", ["human", "random", "random"], seed=5)
    settle(page, table, 0)
    assert "age 1 of 2, round 1 of 3" in page.text_content("#status")
    link = page.get_attribute("#phase-rules", "href")
    assert link == f"/rules/knizia2016#phase-{table.game.step.phase.replace('_', '-')}"
    for details in page.query_selector_all("details.facts"):        # its facts, not "[object HTMLElement]"
        details.evaluate("d => d.open = true")
        assert "[object" not in details.inner_text()


@pytest.fixture(scope="module")
def logged(tmp_path_factory: pytest.TempPathFactory) -> Path:
    log = tmp_path_factory.mktemp("browser") / "game.jsonl"
    subprocess.run([sys.executable, "-m", "amunre.cli.app", "run", str(REPO / "rules" / "knizia2016.yaml"),
                    "--seed", "9", "--players", "4", "--agents", "random,random,random,random", "--log", str(log),
                    "-q"], check=True, capture_output=True, cwd=REPO.parent)
    return log


def test_a_replay_stepped_back_and_forth(page: Any, live: Live, logged: Path) -> None:
    import amunre
    actions = [json.loads(line) for line in logged.read_text().splitlines() if '"action"' in line]
    rules = amunre.load_rules(REPO / "rules" / "knizia2016.yaml")
    page.goto(live.url + "/")
    page.wait_for_selector("#open-replay")
    page.set_input_files("#log-file", str(logged))
    page.click("#open-replay")
    page.wait_for_url("**/replay/**", timeout=WAIT_MS)

    def at(step: int) -> None:
        page.wait_for_function("s => document.getElementById('main').dataset.step === String(s)", arg=step,
                               timeout=WAIT_MS)
        game = amunre.new_game(rules, players=4, seed=9)
        for record in actions[:step]:
            game.apply(record["action"])
        assert page.text_content("#step") == f"step {step} of {len(actions)}"
        observed = game.public_observation()
        for other, purse in enumerate(observed["resources"]):
            assert page.text_content(f".seat[data-seat='{other}'] .resource[data-resource='gold'] .value") \
                == str(purse["gold"])
        for p, place in enumerate(rules.place_ids):
            assert page.get_attribute(f".place[data-place='{place}']", "data-owner") == str(observed["owner"][p])

    at(0)
    for step in (1, 2, 3):
        page.click("#next")
        at(step)
    page.click("#back")
    at(2)
    page.keyboard.press("ArrowRight")
    at(3)
    page.click("#last")
    at(len(actions))
    assert "Game over" in page.text_content("#status")
    shoot(page, "replay-end")
    page.click("#first")
    at(0)


def test_two_seats_http_responses_hold_only_their_own_secrets(live: Live) -> None:
    """Over real HTTP: each human seat's view names none of the other's paintings (each painting
    of Modern Art is a card of its own) and shows its money as hidden."""
    request = urllib.request.Request(live.url + "/api/games", method="POST",
                                     data=json.dumps({"rules": "modern-art", "agents": ["human", "human", "random"],
                                                      "seed": 13}).encode(),
                                     headers={"content-type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        made = json.load(answer)
    table = live.newest()
    links = {s["seat"]: live.url + "/api" + s["url"] for s in made["seats"] if s["url"]}
    for seat, link in links.items():
        with urllib.request.urlopen(link, timeout=30) as answer:
            text = answer.read().decode()
        other = 1 - seat
        assert table.game.state.hands[other] and not any(card in text for card in table.game.state.hands[other])
        assert all(card in text for card in table.game.state.hands[seat])
        assert json.loads(text)["seats"][other]["resources"]["funds"] == "hidden"


def test_an_ages_scoring_pauses_with_a_table_of_points_by_source(page: Any, live: Live) -> None:
    """Played to the end of 2016's first age, seat 0's page shows the age's scoring first: a row
    per source, a column per seat, the numbers the engine's own score events and card plays
    gave; "continue" folds it into the phase panel, and a new view keeps it folded."""
    submit_start_form(page, live, "knizia2016", ["human"] * 3, seed=11)
    page.wait_for_selector("a.seat-link[data-seat='0']")
    table = live.newest()
    game, pick = table.game, random.Random(11)
    link = page.get_attribute("a.seat-link[data-seat='0']", "href")
    while game.step.age == 1 or game.to_move != 0:
        table.act(game.to_move, pick.choice(game.legal_action_ids()))
    page.goto(live.url + link)
    settle(page, table, 0)
    points: dict[str, list[int]] = {}         # the age's points as the engine told them: scored and played
    for event in game.log or []:
        if event.get("event") == "gain" and event["resource"] == "vp":
            points.setdefault(event["cause"]["id"], [0, 0, 0])[event["seat"]] += event["amount"]
    rows = page.query_selector_all("#scoring tr[data-source]")
    shown = {row.get_attribute("data-source"): [int(td.text_content()) for td in row.query_selector_all("td")[1:]]
             for row in rows}
    assert shown == {source: seats for source, seats in points.items() if any(seats)}
    totals = [int(td.text_content()) for td in page.query_selector_all("#scoring tr.total td")[1:]]
    assert totals == [game.state.resources[seat]["vp"] for seat in range(3)]    # nothing else gave points yet
    assert "age 1" in page.text_content("#scoring h2")
    shoot(page, "knizia2016-scoring")
    page.click("#close-scoring")
    assert page.query_selector("#scoring") is None
    assert page.query_selector("#phase details.last-scoring") is not None
    page.reload()
    settle(page, table, 0)
    assert page.query_selector("#scoring") is None, "a closed scoring came back"


def test_a_person_asks_a_bot_for_a_hint(page: Any, live: Live) -> None:
    """In a game started with hints, the person to move asks greedy: the page lists the moves
    it weighed, its choice first and marked, the move the bot makes with the seed the server
    used; then the person makes that move on the board."""
    submit_start_form(page, live, "knizia2016", ["human", "greedy", "greedy"], seed=8, hints=True)
    page.wait_for_url("**/seat/**", timeout=WAIT_MS)
    table = live.newest()
    game = table.game
    settle(page, table, 0)
    page.select_option("#hint-agent", "greedy")
    page.click("#ask-hint")
    page.wait_for_selector("#hint li", timeout=WAIT_MS)
    expected = choose_id(make_agent("greedy", table.seed + len(game.history)), game)
    first = page.query_selector("#hint li")
    assert int(first.get_attribute("data-action-id")) == expected
    assert "its choice" in first.text_content() and "choice-of-bot" in first.get_attribute("class")
    assert "null" not in page.text_content("#hint-box") and "undefined" not in page.text_content("#hint-box")
    shoot(page, "knizia2016-hint")
    before = len(game.history)
    take(page, expected)
    deadline = time.monotonic() + 30
    while len(game.history) <= before:
        assert time.monotonic() < deadline, "the hinted move did not reach the game"
        time.sleep(0.01)
    assert game.history[before] == expected
