"""Links for friends on the same network (cli/serve/links.py): each human seat's link, made from
the address other machines reach the server by, given with a QR code on the start page and
told to the terminal when a game starts.
"""

from __future__ import annotations

import ipaddress
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx2")
pytest.importorskip("segno")

from starlette.testclient import TestClient

from amunre.cli.serve import links
from amunre.cli.serve.app import Limits, Server, create_app
from amunre.cli.serve.catalog import Catalog
from amunre.cli.serve.links import public_base, qr_svg, qr_text

PUBLIC = "http://192.0.2.7:8000"


def serving(public: str | None) -> tuple[list[str], TestClient]:
    told: list[str] = []
    server = Server(Catalog(), Limits(pace=0), public=public, told=told.append)
    return told, TestClient(create_app(server), base_url="http://127.0.0.1", raise_server_exceptions=False)


def start(client: TestClient, agents: list[str]) -> dict[str, Any]:
    answer = client.post("/api/games", json={"rules": "knizia2016", "agents": agents, "seed": 1})
    assert answer.status_code == 201, answer.text
    return answer.json()


def test_a_game_of_friends_gets_each_seat_a_public_link_and_its_qr_code() -> None:
    told, client = serving(PUBLIC)
    made = start(client, ["human", "human", "greedy"])
    humans = [s for s in made["seats"] if s["url"]]
    assert [s["seat"] for s in humans] == [0, 1]
    assert made["seats"][2]["link"] is None and made["seats"][2]["qr"] is None
    for seat in humans:
        assert seat["link"] == PUBLIC + seat["url"]
        image = client.get(seat["qr"])
        assert image.status_code == 200 and image.headers["content-type"].startswith("image/svg+xml")
        assert image.content == qr_svg(seat["link"])       # the code of the seat's public link
    assert len(told) == 1                                   # the terminal: each human seat, its link, its code
    assert [line for line in told[0].splitlines() if line.startswith("seat ")] == \
        [f"seat {s['seat']}: {s['link']}" for s in humans]
    assert all(qr_text(s["link"]) in told[0] for s in humans)


def test_on_this_machine_only_links_use_the_address_asked_and_nothing_is_told() -> None:
    told, client = serving(None)
    made = start(client, ["human", "human", "human"])
    assert [s["link"] for s in made["seats"]] == [f"http://127.0.0.1{s['url']}" for s in made["seats"]]
    assert client.get(made["seats"][0]["qr"]).content == qr_svg(made["seats"][0]["link"])
    assert told == []


def test_only_a_seats_token_has_a_qr_code() -> None:
    _, client = serving(PUBLIC)
    made = start(client, ["human", "greedy", "greedy"])
    watch_token = made["watch"].rsplit("/", 1)[1]
    assert client.get(f"/qr/seat/{watch_token}").status_code == 404
    assert client.get("/qr/seat/not-a-token").status_code == 404


@pytest.mark.parametrize(("host", "expected"), [
    ("127.0.0.1", None), ("localhost", None), ("::1", None),
    ("192.168.1.5", "http://192.168.1.5:8000"), ("fe80::1", "http://[fe80::1]:8000"),
    ("table.local", "http://table.local:8000"),
    ("0.0.0.0", "http://10.1.2.3:8000"), ("::", "http://10.1.2.3:8000"),
])
def test_the_public_address_is_the_one_other_machines_reach(host: str, expected: str | None,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(links, "lan_address", lambda: "10.1.2.3")
    assert public_base(host, 8000) == expected


def test_this_machines_network_address_is_an_address() -> None:
    ipaddress.ip_address(links.lan_address())
