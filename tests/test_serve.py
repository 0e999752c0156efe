"""`amunre serve` through HTTP (Starlette's test client, no browser): starting games, seats'
views and actions by the engine's ids, several people at one game, replays of logs, and the
server's bounds and errors. tests/test_serve_browser.py drives the same app in Chromium.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx2")

from starlette.testclient import TestClient

import amunre
from amunre.cli.render import outcome_text
from amunre.cli.serve import views
from amunre.cli.serve.app import GONE, Limits, Server, create_app
from amunre.cli.serve.catalog import Catalog
from amunre.cli.serve.tables import Table
from amunre.interpreter.base.actions import PLAY
from amunre.tools.agents import AGENTS, choose_id, make_agent
from amunre.tools.rulebook_render import style_hash
from conftest import REPO


def serving(limits: Limits | None = None, given: list[str] | None = None) -> tuple[Server, TestClient]:
    server = Server(Catalog(given), limits or Limits(pace=0))
    return server, TestClient(create_app(server), base_url="http://127.0.0.1", raise_server_exceptions=False)


@pytest.fixture
def client() -> TestClient:
    return serving()[1]


def start(client: TestClient, rules: str, agents: list[str], **more: Any) -> dict[str, Any]:
    response = client.post("/api/games", json={"rules": rules, "agents": agents, **more})
    assert response.status_code == 201, response.text
    return response.json()


def settled(client: TestClient, url: str, seconds: float = 60) -> dict[str, Any]:
    """The view at `url` once no bot is thinking (a person is to move, or the game is over)."""
    deadline = time.monotonic() + seconds
    while True:
        view = client.get(url).json()
        if not view.get("thinking") or time.monotonic() > deadline:
            assert not view.get("thinking"), "the bots did not finish in time"
            return view
        time.sleep(0.02)


def api(url: str) -> str:
    """The API address of a seat's or a watcher's page."""
    return "/api" + url


def upload(client: TestClient, log: bytes) -> Any:
    """A log sent to be replayed, as the page sends it."""
    return client.post("/api/replays", content=log, headers={"content-type": "application/x-ndjson"})


def table_of(server: Server) -> Table:
    (table,) = server.games()
    return table


def seated(server: Server, client: TestClient, agents: list[str], seed: int) -> tuple[str, dict[str, Any], Any]:
    """A 2016 game's first human seat: its API address, its view once it is to move, the game."""
    url = api(start(client, "knizia2016", agents, seed=seed)["seats"][0]["url"])
    return url, settled(client, url), table_of(server).game


def test_start_page_and_setup_list_every_shipped_rules_file(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200 and "board.js" in page.text
    setup = client.get("/api/setup").json()
    names = {r["name"] for r in setup["rules"]}
    assert {"knizia2016", "knizia2003", "pharaohs-heir", "modern-art", "house/no_theft"} <= names
    assert setup["default"] == "knizia2016" and "human" in setup["agents"] and "greedy" in setup["agents"]
    by_name = {r["name"]: r for r in setup["rules"]}
    assert by_name["knizia2016"]["options"]["temple_scoring"]["default"] == "age_end"


def test_a_seat_sees_its_observation_and_acts_by_action_id() -> None:
    server, client = serving()
    url, view, game = seated(server, client, ["human", "greedy", "greedy"], seed=11)
    assert view["you"] == 0 and view["to_move"] == 0 == game.to_move
    assert [a["id"] for a in view["actions"]] == game.legal_action_ids()
    assert view["actions"][0]["label"].startswith("bid ")
    observed = game.observation(0)
    assert [s["resources"] for s in view["seats"]] == [{k: str(v) for k, v in r.items()} for r in observed["resources"]]
    places = {p["id"]: p for c in view["board"]["columns"] for b in c["bands"] for p in b["places"]}
    assert sorted(places) == sorted(game.rules.place_ids)          # the 2016 board shows every province
    assert [c["label"] for c in view["board"]["columns"]] == ["west", "east"]
    assert view["board"]["between"] == "the Nile"
    before = len(game.history)
    chosen = view["actions"][-1]["id"]
    after = client.post(url + "/act", json={"id": chosen})
    assert after.status_code == 200
    assert game.history[before] == chosen
    assert any(line.strip().startswith("Seat 0 ") for line in after.json()["log"])


SHIPPED = list(Catalog().paths)


@pytest.mark.parametrize("name", SHIPPED)
def test_every_shipped_rules_file_starts_and_takes_an_action(name: str) -> None:
    server, client = serving()
    rules = server.catalog.rules(name)
    agents = ["human"] + ["random"] * (rules.min_players - 1)
    url = api(start(client, name, agents, seed=1)["seats"][0]["url"])
    view = settled(client, url)
    if view["over"]:
        return
    assert view["actions"] and view["board"]["columns"]
    answer = client.post(url + "/act", json={"id": view["actions"][-1]["id"]})
    assert answer.status_code == 200 and answer.json()["version"] > view["version"]


def test_a_refused_action_leaves_the_game_as_it_was() -> None:
    server, client = serving()
    url, view, game = seated(server, client, ["human", "greedy", "greedy"], seed=3)
    history = list(game.history)
    legal = {a["id"] for a in view["actions"]}
    illegal = next(i for i in range(game.num_distinct_actions()) if i not in legal)
    for body in ({"id": illegal}, {"id": "1"}, {"id": 10**30}, {"id": True}):
        answer = client.post(url + "/act", json=body)
        assert answer.status_code in (400, 409) and "error" in answer.json(), body
    not_json = client.post(url + "/act", content=b"not json", headers={"content-type": "application/json"})
    assert not_json.status_code == 400
    assert game.history == history


def test_the_other_seats_links_and_a_seat_not_to_move() -> None:
    server, client = serving()
    made = start(client, "knizia2016", ["human", "human", "human"], seed=5)
    urls = [api(s["url"]) for s in made["seats"]]
    assert len(set(urls)) == 3 and all(len(u.rsplit("/", 1)[1]) >= 20 for u in urls)   # unguessable tokens
    game = table_of(server).game
    mover = game.to_move
    waiting = urls[(mover + 1) % 3]
    view = client.get(waiting).json()
    assert view["actions"] == []
    answer = client.post(waiting + "/act", json={"id": game.legal_action_ids()[0]})
    assert answer.status_code == 409 and "turn" in answer.json()["error"]
    assert client.post(urls[mover] + "/act", json={"id": game.legal_action_ids()[0]}).status_code == 200


def test_a_seat_handed_to_a_bot_is_played_by_it_to_the_end(client: TestClient) -> None:
    made = start(client, "knizia2016", ["human", "random", "random"], seed=3)
    seat_url, watch_url = api(made["seats"][0]["url"]), api(made["watch"])
    view = settled(client, seat_url)
    assert view["bots"] == list(AGENTS) and "bots" not in client.get(watch_url).json()
    for body, status in (({"agent": "human"}, 400), ({"agent": "no_such_bot"}, 400), ({}, 400),
                         ({"agent": "greedy:iterations=99999"}, 400)):
        assert client.post(seat_url + "/bot", json=body).status_code == status, body
    assert client.post(watch_url.replace("/watch/", "/seat/") + "/bot", json={"agent": "random"}).status_code == 404
    answer = client.post(seat_url + "/bot", json={"agent": "Random"})
    assert answer.status_code == 200, answer.text
    assert "    Seat 0 is played by random from here on" in answer.json()["log"]
    again = client.post(seat_url + "/bot", json={"agent": "greedy"})
    assert again.status_code in (400, 409) and ("bot already" in again.text or "over" in again.text)
    view = settled(client, seat_url, seconds=300)
    assert view["over"] and "bots" not in view and view["seats"][0]["agent"] == "random"
    assert client.post(seat_url + "/bot", json={"agent": "random"}).status_code == 400     # the game is over


def test_one_seats_responses_never_carry_another_seats_hidden_facts() -> None:
    """Modern Art: every painting is a card of its own, so a seat's answers must name none of the
    other human seat's cards in hand, and its purse shows the other's money as hidden. (The
    payments themselves are public events, told to all, as at the table: docs/serve.md.)"""
    server, client = serving()
    made = start(client, "modern-art", ["human", "human", "greedy"], seed=21)
    urls = {s["seat"]: api(s["url"]) for s in made["seats"] if s["url"]}
    game = table_of(server).game
    acted = 0
    for _ in range(12):
        view = settled(client, urls[0])
        mover = view["to_move"]
        if view["over"] or mover not in urls:
            break
        for seat, url in urls.items():
            other = 1 - seat
            texts = [client.get(url).text]
            secret = set(game.state.hands[other])
            assert secret, "the other seat holds paintings"
            for text in texts:
                assert not any(card in text for card in secret), f"seat {seat} was sent seat {other}'s hand"
                seats = json.loads(text)["seats"]
                assert seats[other]["resources"]["funds"] == "hidden"
                assert seats[seat]["resources"]["funds"] == str(game.state.resources[seat]["funds"])
        choices = client.get(urls[mover]).json()["actions"]
        answer = client.post(urls[mover] + "/act", json={"id": choices[len(choices) // 2]["id"]})
        assert not any(card in answer.text for card in game.state.hands[1 - mover])
        acted += 1
    assert acted >= 6                                  # both people acted, in auctions and lays
    watch = client.get(api(made["watch"])).text
    assert not any(card in watch for hand in game.state.hands for card in hand)


def test_a_seat_gets_the_log_only_once_the_game_is_over(tmp_path: Path) -> None:
    server, client = serving()
    made = start(client, "knizia2016", ["human", "greedy", "greedy"], seed=2)
    url = api(made["seats"][0]["url"])
    settled(client, url)
    early = client.get(url + "/log")
    assert early.status_code == 409 and "over" in early.json()["error"]
    while not (view := settled(client, url))["over"]:
        client.post(url + "/act", json={"id": view["actions"][0]["id"]})
    log = client.get(url + "/log")
    assert log.status_code == 200 and log.text.count('"action"') == len(table_of(server).game.history)
    header = json.loads(log.text.splitlines()[0])
    assert header["rules"] == "knizia2016.yaml"        # not where the server keeps its files
    saved = tmp_path / "game.jsonl"                     # and the command line replays it all the same
    saved.write_text(log.text)
    replayed = subprocess.run([sys.executable, "-m", "amunre.cli.app", "replay", str(saved), "-q"],
                              capture_output=True, text=True, cwd=tmp_path)
    assert replayed.returncode == 0, replayed.stderr


def test_a_watcher_replays_the_log_of_a_game_it_watched() -> None:
    server, client = serving()
    made = start(client, "knizia2016", ["random", "random", "random"], seed=2)
    table = table_of(server)
    view = settled(client, api(made["watch"]))
    assert view["over"] and view["result"]["winners"] == table.game.result()["winners"]
    log = client.get(api(made["watch"]) + "/log")
    assert log.status_code == 200 and log.text.startswith('{"amunre_log": 1')
    assert log.text.count('"action"') == len(table.game.history)
    replay = upload(client, log.text.encode())
    assert replay.status_code == 201
    last = client.get(api(replay.json()["url"]) + "?step=0").json()["replay"]["steps"] - 1
    end = client.get(api(replay.json()["url"]) + f"?step={last}").json()
    assert end["over"] and end["result"]["scores"] == table.game.result()["scores"]


@pytest.fixture(scope="module")
def logged_game(tmp_path_factory: pytest.TempPathFactory) -> Path:
    log = tmp_path_factory.mktemp("serve") / "game.jsonl"
    subprocess.run([sys.executable, "-m", "amunre.cli.app", "run", str(REPO / "rules" / "knizia2016.yaml"),
                    "--seed", "4", "--players", "3", "--agents", "random,random,random", "--log", str(log), "-q"],
                   check=True, capture_output=True, cwd=REPO.parent)
    return log


def test_a_replay_steps_back_and_forth_through_a_logged_game(client: TestClient, logged_game: Path) -> None:
    made = upload(client, logged_game.read_bytes())
    assert made.status_code == 201
    url = api(made.json()["url"])
    first = client.get(url + "?step=0").json()
    steps = first["replay"]["steps"]
    actions = [json.loads(line) for line in logged_game.read_text().splitlines() if '"action"' in line]
    assert steps == len(actions) + 1 and first["replay"]["action"] == "set-up"
    rules = amunre.load_rules(REPO / "rules" / "knizia2016.yaml")
    game = amunre.new_game(rules, players=3, seed=4)
    own = next(i for i, a in enumerate(actions, 1) if a["seat"] == 1)
    other = next(i for i, a in enumerate(actions, 1) if a["seat"] != 1)
    for step in sorted({1, 2, 7, own, other}):
        view = client.get(url + f"?step={step}&seat=1").json()
        actor = actions[step - 1]["seat"]
        assert view["replay"]["seat"] == actor
        assert (view["replay"]["action"] is None) == (actor != 1)      # another's action may be secret
        while len(game.history) < step:
            game.apply(actions[len(game.history)]["action"])
        assert [s["resources"] for s in view["seats"]] == \
            [{k: str(v) for k, v in r.items()} for r in game.observation(1)["resources"]]
        assert view["seats"][1]["hand"] == [{"id": c, "doc": rules.cards[c].doc} for c in sorted(game.state.hands[1])]
    back = client.get(url + "?step=1&seat=public").json()
    assert back["replay"]["step"] == 1 and back["you"] is None and back["actions"] == []
    assert client.get(url + f"?step={steps}").status_code == 404
    assert client.get(url + "?step=-1").status_code == 404
    assert client.get(url + "?step=0&seat=9").status_code == 404


def test_a_log_that_does_not_replay_is_refused_with_its_line(client: TestClient, logged_game: Path) -> None:
    lines = logged_game.read_text().splitlines()
    at = next(i for i, line in enumerate(lines) if '"event": "gain"' in line and '"amount": 20' in line)
    lines[at] = lines[at].replace('"amount": 20', '"amount": 99')
    answer = upload(client, "\n".join(lines).encode())
    assert answer.status_code == 400 and f"line {at + 1}" in answer.json()["error"]
    garbage = upload(client, b"\x00\xff not a log")
    assert garbage.status_code == 400 and "replayed" in garbage.json()["error"]


def test_a_log_of_rules_the_server_does_not_have_is_refused(client: TestClient, logged_game: Path) -> None:
    lines = logged_game.read_text().splitlines()
    header = json.loads(lines[0])
    header.update(rules="/etc/passwd", digest="0123456789abcdef")
    answer = upload(client, "\n".join([json.dumps(header), *lines[1:]]).encode())
    assert answer.status_code == 400 and "amunre serve FILE" in answer.json()["error"]


def test_rules_are_chosen_by_name_never_by_path(client: TestClient) -> None:
    for name in ("/etc/passwd", str(REPO / "rules" / "knizia2016.yaml"), "../rules/knizia2016", ""):
        answer = client.post("/api/games", json={"rules": name, "agents": ["human"] * 3})
        assert answer.status_code == 400 and "rules" in answer.json()["error"]


def test_a_rules_file_named_on_the_command_line_is_offered(tmp_path: Path) -> None:
    house = tmp_path / "my_house.yaml"
    house.write_text("extends: knizia2016\nid: my_house\ntitle: My house rules\n")
    _, client = serving(given=[str(house)])
    setup = client.get("/api/setup").json()
    assert setup["default"] == "my_house" and "my_house" in {r["name"] for r in setup["rules"]}
    assert start(client, "my_house", ["human", "greedy", "greedy"])["seats"][0]["url"]


@pytest.mark.parametrize("body, words", [
    ({"rules": "knizia2016", "agents": ["human", "nobody", "greedy"]}, "unknown agent"),
    ({"rules": "knizia2016", "agents": ["human"]}, "3 to 5 players"),
    ({"rules": "knizia2016", "agents": "human,greedy"}, "agents"),
    ({"rules": "knizia2016", "agents": ["human"] * 3, "seed": -1}, "seed"),
    ({"rules": "knizia2016", "agents": ["human"] * 3, "options": {"nope": "x"}}, "no option nope"),
    ({"rules": "knizia2016", "agents": ["human"] * 3, "options": {"temple_scoring": "never"}}, "temple_scoring"),
    ({"rules": "knizia2016", "agents": ["greedy:samples=0"] * 3}, "samples"),
])
def test_a_bad_start_form_says_what_is_wrong(client: TestClient, body: dict[str, Any], words: str) -> None:
    answer = client.post("/api/games", json=body)
    assert answer.status_code == 400 and words in answer.json()["error"]


def test_bounds_on_bodies_games_and_idle_ones() -> None:
    server, client = serving(Limits(games=2, idle=3600, pace=0, log_bytes=1000))
    big = client.post("/api/games", content=b"{" + b" " * 20_000 + b"}", headers={"content-type": "application/json"})
    assert big.status_code == 413
    assert upload(client, b"x" * 2000).status_code == 413
    for _ in range(2):
        start(client, "knizia2016", ["human"] * 3)
    full = client.post("/api/games", json={"rules": "knizia2016", "agents": ["human"] * 3})
    assert full.status_code == 503 and "2 games" in full.json()["error"]
    for table in server.games():
        table.touched -= 7200                           # nobody looked at them for two hours
    start(client, "knizia2016", ["human"] * 3)
    assert len(server.games()) == 1


def test_errors_are_json_or_pages_never_tracebacks(client: TestClient) -> None:
    api_missing = client.get("/api/seat/not-a-token")
    assert api_missing.status_code == 404 and api_missing.json() == {"error": api_missing.json()["error"]}
    page_missing = client.get("/no/such/page")
    assert page_missing.status_code == 404 and "<h1>404</h1>" in page_missing.text
    wrong_method = client.delete("/api/games")
    assert wrong_method.status_code == 405 and "error" in wrong_method.json()
    assert "Traceback" not in api_missing.text + page_missing.text + wrong_method.text
    headers = client.get("/").headers
    assert headers["referrer-policy"] == "no-referrer" and "script-src 'self'" in headers["content-security-policy"]


def test_a_failure_inside_the_server_is_a_short_json_error(monkeypatch: pytest.MonkeyPatch) -> None:
    server, client = serving()
    made = start(client, "knizia2016", ["human"] * 3)
    monkeypatch.setattr(Table, "view", lambda self, seat: 1 / 0)
    answer = client.get(api(made["seats"][0]["url"]))
    assert answer.status_code == 500 and answer.json() == {"error": answer.json()["error"]}
    assert "ZeroDivision" not in answer.text


def test_serve_refuses_a_broken_rules_file_or_log_before_it_listens(tmp_path: Path) -> None:
    broken = tmp_path / "broken.yaml"
    broken.write_text("extends: knizia2016\nlayout:\n  columns: {by: sides}\n")
    done = subprocess.run([sys.executable, "-m", "amunre.cli.app", "serve", str(broken)], capture_output=True,
                          text=True, timeout=60, cwd=REPO.parent)
    assert done.returncode == 1
    assert f"{broken}:3:" in done.stderr and "did you mean 'side'" in done.stderr
    not_a_log = tmp_path / "game.jsonl"
    not_a_log.write_text('{"amunre_log": 1}\n')
    done = subprocess.run([sys.executable, "-m", "amunre.cli.app", "serve", "--replay", str(not_a_log)],
                          capture_output=True, text=True, timeout=60, cwd=REPO.parent)
    assert done.returncode == 1 and f"{not_a_log}: this log cannot be replayed" in done.stderr


def test_a_pages_stream_tells_each_new_version_and_ends_with_the_game() -> None:
    import asyncio
    from types import SimpleNamespace

    from amunre.cli.serve import app as served

    class Page:                                # a browser that stays for eight looks, then leaves
        looks = 0

        async def is_disconnected(self) -> bool:
            self.looks += 1
            return self.looks > 8

    def target(closed: bool = False) -> Any:
        return SimpleNamespace(version=3, closed=closed, touched=0.0, game=SimpleNamespace(over=False))

    async def read(game: Any, end_after: int = 0) -> list[str]:
        said = []
        async for message in served._versions(Page(), game):     # type: ignore[arg-type]
            said.append(message)
            if len(said) == 1:
                game.version += 1                                # a move: its version is told
            if end_after and len(said) == end_after:
                game.version, game.game.over = game.version + 1, True
        return said

    served.STREAM_POLL, served.KEEP_ALIVE, saved = 0.0, 0.0, (served.STREAM_POLL, served.KEEP_ALIVE)
    try:
        quiet = target()
        told = asyncio.run(read(quiet))
        assert told[:2] == ["data: 3\n\n", "data: 4\n\n"] and set(told[2:]) == {": still here\n\n"}
        assert quiet.touched > 0                                 # an open page keeps its game from idling
        assert asyncio.run(read(target(), end_after=2)) == ["data: 3\n\n", "data: 4\n\n", "data: 5\n\n"]
        assert asyncio.run(read(target(closed=True))) == ["event: gone\ndata: dropped\n\n"]
    finally:
        served.STREAM_POLL, served.KEEP_ALIVE = saved


def test_a_request_from_another_site_or_host_name_is_refused(client: TestClient) -> None:
    form = client.post("/api/games", content=b'{"rules": "knizia2016", "agents": ["human", "human", "human"]}',
                       headers={"content-type": "text/plain"})          # what a form of another site may send
    assert form.status_code == 415 and "application/json" in form.json()["error"]
    assert client.post("/api/replays", content=b"{}", headers={"content-type": "text/plain"}).status_code == 415
    rebound = client.get("/api/setup", headers={"host": "attacker.example"})
    assert rebound.status_code == 400
    assert client.get("/api/setup", headers={"host": "localhost:8000"}).status_code == 200


def test_tokens_of_any_text_are_only_unknown(client: TestClient) -> None:
    for token in ("%C3%A9", "..%2F..%2Fetc", "x" * 300):
        for kind in ("seat", "watch"):
            answer = client.get(f"/api/{kind}/{token}")
            assert answer.status_code == 404 and answer.json()["error"] in (GONE, "nothing here")
    made = start(client, "knizia2016", ["human"] * 3)
    assert client.get(api(made["watch"].replace("/watch/", "/seat/"))).status_code == 404   # not a seat's link
    assert client.get(api(made["seats"][0]["url"].replace("/seat/", "/watch/"))).status_code == 404


def test_a_request_cannot_set_a_bot_thinking_for_hours(client: TestClient) -> None:
    for spec in ("ismcts:ms=3600000", "ismcts:iterations=10000000"):
        answer = client.post("/api/games", json={"rules": "knizia2016", "agents": ["human", spec, "random"]})
        assert answer.status_code == 400 and "at most 2000" in answer.json()["error"]
    assert start(client, "knizia2016", ["human", "ismcts:iterations=20", "greedy:samples=2"])["seats"]


def test_at_the_limit_the_game_over_longest_ago_makes_room() -> None:
    server, client = serving(Limits(games=2, pace=0))
    done = start(client, "knizia2016", ["random"] * 3, seed=1)
    settled(client, api(done["watch"]))
    start(client, "knizia2016", ["human"] * 3)
    start(client, "knizia2016", ["human"] * 3)                   # the finished one goes
    assert client.get(api(done["watch"])).status_code == 404 and len(server.games()) == 2
    assert client.post("/api/games", json={"rules": "knizia2016", "agents": ["human"] * 3}).status_code == 503


def test_a_bot_that_fails_stops_its_table_with_words_on_every_page(monkeypatch: pytest.MonkeyPatch) -> None:
    from amunre.tools.agents import GreedyAgent

    def broken(self: Any, game: Any, ids: list[int]) -> int:
        raise RuntimeError("out of ideas")
    monkeypatch.setattr(GreedyAgent, "choose_id", broken)
    server, client = serving()
    made = start(client, "knizia2016", ["greedy", "human", "human"], seed=1)
    deadline = time.monotonic() + 30
    while not (view := client.get(api(made["watch"])).json())["failure"]:
        assert time.monotonic() < deadline
        time.sleep(0.02)
    assert "seat 0's bot (greedy) failed" in view["failure"] and "out of ideas" not in view["failure"]
    assert table_of(server).game.history == []
    assert client.get(api(made["seats"][1]["url"])).json()["failure"] == view["failure"]


# ---- the rulebooks ---------------------------------------------------------------------------------------

def test_each_offered_file_s_rulebook_is_served_with_its_own_style_allowed_alone(client: TestClient) -> None:
    page = client.get("/rules/knizia2016")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert "<h1>Amun-Re (2016 edition)</h1>" in page.text and 'id="phase-auction"' in page.text
    policy = page.headers["content-security-policy"]
    assert f"style-src 'sha256-{style_hash()}'" in policy and "script-src" not in policy
    house = client.get("/rules/house/no_theft")
    assert house.status_code == 200 and 'id="changes"' in house.text        # a house rule's changes marked
    missing = client.get("/rules/atlantis")
    assert missing.status_code == 404 and "atlantis" in missing.text


def test_a_game_links_its_phase_in_the_rulebook(client: TestClient) -> None:
    url = api(start(client, "knizia2016", ["human", "random", "random"], seed=3)["seats"][0]["url"])
    view = settled(client, url)
    assert view["rulebook"] == f"/rules/knizia2016#phase-{view['step']['phase'].replace('_', '-')}"


def test_a_game_says_how_many_ages_and_rounds_it_has(client: TestClient) -> None:
    url = api(start(client, "knizia2016", ["human", "random", "random"], seed=3)["seats"][0]["url"])
    step = settled(client, url)["step"]
    assert (step["age"], step["ages"], step["round"], step["rounds"]) == (1, 2, 1, 3)
    url = api(start(client, "modern-art", ["human", "random", "random"], seed=3)["seats"][0]["url"])
    step = settled(client, url)["step"]
    assert (step["ages"], step["rounds"]) == (None, 4)                # no ages; four rounds


def test_a_persons_only_legal_move_is_made_for_them_and_said() -> None:
    """Three people click at random through a 2016 game: whenever one of them is to move there
    is a choice to make; where there was none the move was made for them, told as any move (not
    as forced: a hidden purse would show). The game is the engine's own game of those moves."""
    rules = amunre.load_rules(REPO / "rules" / "knizia2016.yaml")
    table = Table(rules, 3, 11, ["human"] * 3, {}, pace=0)
    pick = random.Random(11)
    while not table.game.over:
        legal = table.game.legal_action_ids()
        assert len(legal) > 1, "a person was left to make a move with no choice"
        table.act(table.game.to_move, pick.choice(legal))
    assert table.forced, "no move was ever forced in a whole game: the test shows nothing"
    assert not [line for line in table.story.lines if "only" in line and "move" in line]
    replayed = amunre.new_game(rules, 3, 11, {"options": {}}, events=False)
    for action_id in table.game.history:
        replayed.apply_id(action_id)
    assert replayed.over and replayed.result()["scores"] == table.game.result()["scores"]


def test_what_changed_since_a_persons_last_move_is_marked() -> None:
    """After seat 0's move the others move: seat 0's view counts the lines told since and names
    the places and purses that changed, as seat 0 sees them (compared here with its
    observations before and after); before its first move, and for a watcher, nothing is marked."""
    rules = amunre.load_rules(REPO / "rules" / "knizia2016.yaml")
    table = Table(rules, 3, 2, ["human"] * 3, {}, pace=0)
    pick = random.Random(2)
    game = table.game
    assert "changed" not in table.view(0)
    marked_places = marked_purses = 0
    told, before = None, None
    while not game.over and game.step.age == 1:
        mover = game.to_move
        if mover == 0:
            table.act(0, pick.choice(game.legal_action_ids()))
            told, before = len(table.story.lines), game.observation(0)
            continue
        table.act(mover, pick.choice(game.legal_action_ids()))
        if game.to_move != 0 or told is None:
            continue
        view, now = table.view(0), game.observation(0)
        assert view["since"] == len(table.story.lines) - told
        places = [p for i, p in enumerate(rules.place_ids)
                  if (before["owner"][i], before["tokens"][i]) != (now["owner"][i], now["tokens"][i])]
        purses = [[s, k] for s, purse in enumerate(now["resources"]) for k, v in purse.items()
                  if before["resources"][s][k] != v]
        assert view["changed"] == {"places": places, "resources": purses}
        marked_places, marked_purses = marked_places + len(places), marked_purses + len(purses)
        assert "changed" not in table.view(None)
    assert marked_places and marked_purses, "nothing ever changed between seat 0's moves: the test shows nothing"


def test_every_action_says_what_it_costs_or_brings_and_paying_cards_are_marked() -> None:
    """2016 with random moves to the first harvest a seat may play a card at: every action of
    every view carries the engine's outcome and its words; a card play that raises the harvest
    says by how much on collect and is marked, with its card; a sale is never marked."""
    rules = amunre.load_rules(REPO / "rules" / "knizia2016.yaml")
    marked = 0
    for seed in range(1, 40):
        game = amunre.new_game(rules, players=3, seed=seed)
        pick = random.Random(seed)
        while not game.over and game.step.round == 1:
            seat = game.to_move
            view = views.game_view(game, seat, ["human"] * 3)
            outcomes = game.outcomes()
            for action in view["actions"]:
                assert action["outcome"] == outcomes[action["id"]].to_json()
                assert action["gain"] == outcome_text(action["outcome"])
                play = game.rules.actions.block_at[action["id"]].rank == PLAY
                assert action["pays"] == (play and bool(action["outcome"].get("then") or action["outcome"].get("now"))
                                          and min([*action["outcome"].get("then", {}).values(),
                                                   *action["outcome"].get("now", {}).values()]) > 0)
                if action["pays"]:
                    marked += 1
                    assert action["card"] in [card["id"] for card in view["seats"][seat]["hand"]]
                    if game.step.phase == "harvest":
                        assert action["gain"].startswith("+") and " gold on collect" in action["gain"]
            for bid in [a for a in view["actions"] if a["type"] == "bid"]:
                space = game.action_from_id(bid["id"])["space"]
                assert bid["gain"] == (f"-{space} gold if it stands" if space else "")
            game.apply_id(pick.choice(game.legal_action_ids()))
        if marked:
            return
    pytest.fail("no card play that pays was met")


@pytest.mark.parametrize("name", ["knizia2016", "modern-art", "pharaohs-heir", "knizia2003"])
def test_the_scoring_table_is_public_and_sums_to_the_scores(name: str) -> None:
    """The latest scoring's table is the same for every seat and a watcher (it is summed from
    public events); over an age of 2016 it sums to each seat's points gained since the scoring
    before; once the game is over it is the whole game's, summing to the result's scores."""
    rules = amunre.load_rules(REPO / "rules" / f"{name}.yaml")
    game = amunre.new_game(rules, players=3, seed=4)
    pick, score = random.Random(4), rules.winner.score
    key, before, tables = None, [0, 0, 0], 0
    while not game.over:
        game.apply_id(pick.choice(game.legal_action_ids()))
        shown = [views.game_view(game, seat, ["human"] * 3)["scoring"] for seat in (None, 0, 1, 2)]
        assert all(table == shown[0] for table in shown)
        if shown[0] is not None and shown[0]["key"] != key and not game.over:
            key, tables = shown[0]["key"], tables + 1
            now = [game.state.resources[seat][score] for seat in range(3)]
            if name == "knizia2016":        # points come only from scorings and the cards played at them
                assert shown[0]["totals"] == [a - b for a, b in zip(now, before)]
            before = now
    final = views.game_view(game, 0, ["human"] * 3)["scoring"]
    assert final["totals"] == game.result()["scores"]
    assert tables >= (1 if name != "modern-art" else 0)


@pytest.mark.parametrize("name", ["knizia2016", "pharaohs-heir"])
def test_no_place_shows_a_raw_key_and_value(name: str) -> None:
    """With a layout's symbols, a place shows each chosen property or modifier as its symbol
    (its words in the tooltip), never as a key and a value; what it folds away is the rest, in
    words. Checked on every place at positions all through a random game."""
    rules = amunre.load_rules(REPO / "rules" / f"{name}.yaml")
    names = {*rules.place_props[0], *rules.vocab.modifiers}
    game = amunre.new_game(rules, players=3, seed=2)
    pick, seen = random.Random(2), 0
    while not game.over:
        if len(game.history) % 7 == 0:
            view = views.game_view(game, game.to_move, ["human"] * 3)
            assert view["board"]["symbols"]
            places = [p for column in view["board"]["columns"] for band in column["bands"] for p in band["places"]]
            for place in places + view["phase"]["lots"]:
                assert place.get("marks", {}) == {}, place       # every place modifier has a symbol
                for symbol in place["symbols"]:
                    assert not any(key in symbol["text"] or key.replace("_", " ") in symbol["text"] for key in names)
                    assert symbol["title"].startswith(symbol["name"].replace("_", " "))
                    seen += 1
        game.apply_id(pick.choice(game.legal_action_ids()))
    assert seen > 50


def test_a_hint_ranks_the_moves_as_the_bot_would_choose_and_only_when_allowed() -> None:
    """With hints on, the seat to move may ask a bot: its first move is the move that bot makes
    with the seed the answer names, every move is labelled; a seat not to move, a bot that does
    not rank moves, a bot thinking too long and a game without hints are refused."""
    server, client = serving()
    made = start(client, "knizia2016", ["human", "human", "random"], seed=6, hints=True)
    settled(client, api(made["watch"]))
    game = table_of(server).game
    urls = {seat["seat"]: api(seat["url"]) for seat in made["seats"] if seat.get("url")}
    first, second = urls[game.to_move], urls[1 - game.to_move]      # seat 0 or 1 begins: both are people
    assert client.get(first).json()["hints"] is True and client.get(api(made["watch"])).json()["hints"] is False
    for spec in ("greedy", "ismcts:iterations=30"):
        answer = client.get(first + "/hint", params={"agent": spec})
        assert answer.status_code == 200, answer.text
        found = answer.json()
        assert found["seed"] == 6 + len(game.history)
        assert found["choice"] == found["moves"][0]["id"] == choose_id(make_agent(spec, found["seed"]), game)
        assert all(move["label"] and move["words"] for move in found["moves"])
    assert client.get(second + "/hint").status_code == 409
    for spec in ("random", "human", "no_such_bot", "ismcts:iterations=99999"):
        assert client.get(first + "/hint", params={"agent": spec}).status_code == 400, spec
    off = start(client, "knizia2016", ["human", "random", "random"], seed=6)
    seat = api(off["seats"][0]["url"])
    assert settled(client, seat)["hints"] is False
    assert client.get(seat + "/hint").status_code == 403
    assert client.post("/api/games", json={"rules": "knizia2016", "agents": ["human"] * 3,
                                           "hints": "yes"}).status_code == 400


def test_a_phases_table_is_drawn_with_the_row_it_keeps() -> None:
    """2016's offering tiles: a row per tile, as the file writes them (label, the totals that
    pick it, its values); drawn open while the offering runs, the tile the latest offering
    picked marked after it."""
    rules = amunre.load_rules(REPO / "rules" / "knizia2016.yaml")
    game = amunre.new_game(rules, players=3, seed=1)
    pick, seen = random.Random(1), set()
    while not game.over and game.step.age == 1:
        (table,) = views.game_view(game, game.to_move, ["human"] * 3)["phase"]["tables"]
        assert [row["id"] for row in table["rows"]] == [tile.id for tile in rules.phases["offering"].tiles]
        assert table["rows"][1]["cells"][:2] == ["3>12", "3 to 12"]
        assert table["open"] == (game.step.phase == "offering")
        assert table["kept"] == (game.state.kept.get("offering") or {}).get("tile")
        seen.add(table["kept"])
        game.apply_id(pick.choice(game.legal_action_ids()))
    assert len(seen - {None}) >= 1


def test_all_n_makes_the_same_move_again_while_the_turn_goes_on() -> None:
    """A move the seat could make several times in a row (stones placed on one province) says
    how many (`repeat`, counted on a copy), and `times` makes it so many times in one request,
    each told as a move; a count out of range is refused, one beyond what is legal stops."""
    server, client = serving()
    made = start(client, "knizia2016", ["human", "human", "human"], seed=1)
    urls = {seat["seat"]: api(seat["url"]) for seat in made["seats"]}
    game, pick = table_of(server).game, random.Random(1)
    while True:
        view = client.get(urls[game.to_move]).json()
        repeated = [a for a in view["actions"] if a["repeat"] > 1]
        if repeated:
            break
        assert client.post(urls[game.to_move] + "/act", json={"id": pick.choice(game.legal_action_ids())}).is_success
    action, seat, before = repeated[0], game.to_move, len(game.history)
    for times in (0, 21, "2", 1.5):
        assert client.post(urls[seat] + "/act", json={"id": action["id"], "times": times}).status_code == 400
    assert len(game.history) == before
    answer = client.post(urls[seat] + "/act", json={"id": action["id"], "times": action["repeat"] + 5})
    assert answer.status_code == 200, answer.text
    assert game.history[before:before + action["repeat"]] == [action["id"]] * action["repeat"]
    assert len(game.history) == before + action["repeat"] or game.history[before + action["repeat"]] != action["id"]
