"""Links for friends at the same table: each human seat's address as the other machines of the
network reach this server (not 127.0.0.1, which names each phone itself), and the same link as
a QR code a phone's camera opens, drawn as SVG for the start page and as text in the terminal
(segno, a QR library in pure Python, comes with the `serve` extra).
"""

from __future__ import annotations

import io
import ipaddress
import socket

import segno

ANY_ADDRESS = ("0.0.0.0", "::", "")
PROBE = ("192.0.2.1", 9)            # TEST-NET-1 (RFC 5737): a UDP socket "connected" to it sends nothing


def public_base(host: str, port: int) -> str | None:
    """The address other machines reach this server by (http://ADDRESS:PORT), or None when it
    listens on this machine only. Listening on every address (0.0.0.0), it is the address of the
    network interface this machine reaches others through."""
    if host in ANY_ADDRESS:
        host = lan_address()
    return None if is_loopback(host) else http_address(host, port)


def is_loopback(host: str) -> bool:
    """Whether an address or name is this machine's own (a name other than localhost is taken
    as the friends' machines resolve it: not this one)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def http_address(host: str, port: int) -> str:
    """http://HOST:PORT, an IPv6 address in brackets."""
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


def lan_address() -> str:
    """This machine's address on its network: the one its route to elsewhere leaves from (no
    packet is sent); this machine's name's address where it has no such route."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(PROBE)
            return str(probe.getsockname()[0])
        except OSError:
            return socket.gethostbyname(socket.gethostname())


def qr_svg(link: str) -> bytes:
    """The link as a QR code, an SVG image (4 pixels a module, a margin of 2)."""
    out = io.BytesIO()
    segno.make(link, error="m").save(out, kind="svg", scale=4, border=2)
    return out.getvalue()


def qr_text(link: str) -> str:
    """The link as a QR code drawn with block characters, two rows of modules a line."""
    out = io.StringIO()
    segno.make(link, error="m").terminal(out=out, compact=True)
    return out.getvalue()


def seat_links(base: str, links: list[tuple[int, str]]) -> str:
    """What the terminal is told when a game starts: each human seat's link and its QR code."""
    told = []
    for seat, path in links:
        link = base + path
        told.append(f"seat {seat}: {link}\n{qr_text(link)}")
    return "".join(told)
