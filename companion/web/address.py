"""Where the table's page is: the ``[web] listen`` setting parsed, and the
address a phone opens (the QR codes on the end screen and in the history).

    >>> parse_listen("0.0.0.0:8080")
    ('0.0.0.0', 8080)
    >>> game_url({"web": {"listen": "192.168.1.20:8080", "url": ""}}, 42)
    'http://192.168.1.20:8080/games/42'
"""

from __future__ import annotations

import socket

from ..config import ConfigError

__all__ = ["parse_listen", "base_url", "game_url", "lan_address"]


def parse_listen(value: str) -> tuple[str, int]:
    """``"host:port"`` (``"[::1]:8080"`` for IPv6) as ``(host, port)``;
    raises :class:`companion.config.ConfigError` naming ``web.listen``."""
    host, sep, port = str(value).rpartition(":")
    host = host.strip("[]")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ConfigError(f"web.listen must be address:port like \"127.0.0.1:8080\", got {value!r}")
    return host, int(port)


def lan_address() -> str | None:
    """This machine's address on the local network (the interface of its
    default route; no packet is sent), or None without a network."""
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        s.connect(("192.0.2.1", 9))  # TEST-NET-1: only picks the route
        return s.getsockname()[0]
    except OSError:
        return None
    finally:
        s.close()


def base_url(cfg: dict) -> str:
    """The page's address for others: ``[web] url`` when set, else
    ``http://<host>:<port>`` from ``[web] listen``, with this machine's network
    address in place of ``0.0.0.0`` (or ``::``). Raises ``ConfigError`` for a bad ``listen``."""
    web = cfg["web"]
    if web.get("url"):
        return web["url"].rstrip("/")
    host, port = parse_listen(web["listen"])
    if host in ("0.0.0.0", "::", ""):
        host = lan_address() or "127.0.0.1"
    if ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{port}"


def game_url(cfg: dict, game_id: int) -> str:
    """The address of game ``game_id``'s page (``/games/ID``)."""
    return f"{base_url(cfg)}/games/{int(game_id)}"
