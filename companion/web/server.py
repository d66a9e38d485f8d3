"""The table's page: a Starlette app over the data dir, read-only, served by uvicorn.

Paths: ``/`` the game being played (``/live`` its part that the page's small
script reloads when ``/events``, a server-sent event stream, says the database
changed), ``/games`` (``?page=N``), ``/games/ID``, ``/games/ID/export`` (the
replay script, as ``companion export``), ``/games/ID/frames/SEQ.jpg`` (a
throw's picture, only with ``[web] pictures``), ``/leaderboard``
(``?game=durchmarsch|fenn&period=week|month|all``), ``/health``. ``?lang=de``
(de, en, fr, it) on any page; the table's language otherwise.

Safe by construction: the database is opened ``mode=ro`` with ``query_only``;
no setting, PIN or write is reachable; Jinja2 escapes every value
(autoescape); a bad path or id is a 404 page and any other failure a short
error page, never a traceback.

    >>> from starlette.testclient import TestClient
    >>> import tempfile
    >>> cfg = {"app": {"data_dir": tempfile.mkdtemp(), "language": "en"}, "web": {"pictures": False}}
    >>> TestClient(make_app(cfg)).get("/games").status_code
    200
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import sqlite3
import time
from contextlib import contextmanager

from jinja2 import Environment, FileSystemLoader, select_autoescape
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, Response, StreamingResponse
from starlette.routing import Route

from .. import i18n
from ..storage import StorageError
from . import data
from .words import duration_words, game_name, result_words, size_words, words

__all__ = ["make_app", "serve", "PAGE_SIZE"]

log = logging.getLogger(__name__)
TEMPLATES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "templates")
#: Games on one page of ``/games``.
PAGE_SIZE = 50
#: Sent with every answer: nothing but this page's own script, styles and pictures runs or loads.
SECURITY_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Content-Security-Policy": "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; "
                               "img-src 'self'; frame-ancestors 'none'",
}
#: Seconds between two looks at the database for the live page's event stream.
POLL = 0.1


class Page:
    """The app's state: the config, the templates, the cached leaderboards."""

    def __init__(self, cfg: dict):
        self.cfg = cfg
        self.data_dir = cfg["app"]["data_dir"]
        self.pictures = bool(cfg.get("web", {}).get("pictures"))
        self.env = Environment(loader=FileSystemLoader(TEMPLATES), autoescape=select_autoescape(default=True),
                               trim_blocks=True, lstrip_blocks=True)
        self.watch = data.Watch(self.data_dir)
        self._cache: dict = {}
        self._parts: dict = {}
        self._parts_ino = None

    def language(self, request: Request) -> str:
        """``?lang=`` when offered, else the table's language (the config with the settings screen's choice)."""
        lang = request.query_params.get("lang", "")
        if lang in i18n.LANGUAGES:
            return lang
        from ..settings import SettingsError, apply_settings, load_settings

        try:
            cfg = apply_settings(self.cfg, load_settings(self.data_dir))
        except (SettingsError, KeyError, OSError):
            cfg = self.cfg
        return cfg["app"].get("language", "en") if cfg["app"].get("language") in i18n.LANGUAGES else "en"

    def render(self, request: Request, template: str, status: int = 200, **values) -> HTMLResponse:
        """The page ``template`` in the request's language (set and rendered with no await between)."""
        lang = self.language(request)
        i18n.set_language(lang)
        here = request.url.path
        body = self.env.get_template(template).render(
            w=words(), lang=lang, languages=i18n.LANGUAGES, here=here, q=lambda path, **kw: _link(path, lang, **kw),
            game_name=game_name, **values)
        return HTMLResponse(body, status_code=status)

    def game_parts(self) -> dict:
        """Each finished game's figures for the leaderboards (``cache`` of
        :func:`companion.stats.totals`), for the database there now (a new one: a new dict)."""
        try:
            ino = os.stat(os.path.join(self.data_dir, "companion.db")).st_ino
        except OSError:
            ino = None
        if ino != self._parts_ino:
            self._parts, self._parts_ino = {}, ino
        return self._parts

    def cached(self, key, make, version=None):
        """``make()`` once per ``version`` (by default the database's: :class:`data.Watch`)."""
        version = self.watch.version() if version is None else version
        hit = self._cache.get(key)
        if hit is not None and hit[0] == version:
            return hit[1]
        value = make()
        if len(self._cache) > 64:
            self._cache.clear()
        self._cache[key] = (version, value)
        return value


def _link(path: str, lang: str, **params) -> str:
    from urllib.parse import urlencode

    params["lang"] = lang
    return path + "?" + urlencode({k: v for k, v in params.items() if v is not None})


def _store(page: Page, since: float | None = None) -> data.ReadOnlyStore | None:
    try:
        return data.ReadOnlyStore(page.data_dir, since=since)
    except data.NoDatabase:
        return None


# -- the live view ------------------------------------------------------------
def live_values(page: Page) -> dict:
    """What the live part shows: ``game`` (the engine, or None), ``game_id``,
    ``prompt``, Durchmarsch's ``last`` throw (values, formed, words, picture
    address) or Fenn's ``fields``; with ``version`` of the database."""
    from ..prompts import prompt as d_prompt
    from ..prompts import result_text

    out = {"game": None, "version": page.watch.version()}
    store = _store(page)
    if store is None:
        return out
    try:
        gid = data.live_game_id(store)
        if gid is None:
            return out
        game = store.load(gid).game
        out.update(game=game, game_id=gid)
        if game.name == "fenn":
            from ..fenn_prompts import outcome_text, prompt

            out["prompt"] = outcome_text(game) if game.is_over else prompt(game)
            out["fields"] = fenn_fields(game)
        else:
            out["prompt"] = d_prompt(game)
            last = data.last_throw(store, gid, game)
            if last is not None:
                r = last.result
                out["last"] = {"name": game.players[r.player], "values": r.values, "formed": set(r.formed_by),
                               "words": result_text(r, game.players),
                               "picture": f"/games/{gid}/frames/{last.seq}.jpg"
                               if page.pictures and last.frame else None}
        return out
    finally:
        store.close()


def fenn_fields(game) -> list[dict]:
    """Fenn's nine fields, 1 to 9: each with the dice on it (``colour``, ``top``)."""
    pos = game.position()
    fields = [{"n": n, "dice": []} for n in range(1, 10)]
    for colour, (field, top) in zip(("blue", "red"), pos.dice):
        fields[field - 1]["dice"].append({"colour": colour, "top": top})
    return fields


async def home(request: Request):
    page: Page = request.app.state.page
    return page.render(request, "live.html", live=live_values(page))


async def live_part(request: Request):
    page: Page = request.app.state.page
    return page.render(request, "_live.html", live=live_values(page))


async def events(request: Request):
    """Server-sent events: ``data: changed`` whenever the database changed; a comment every 15 s."""
    watch = data.Watch(request.app.state.page.data_dir)

    async def stream():
        last, quiet = watch.version(), time.monotonic()
        yield "retry: 1000\n\n"
        try:
            while not await request.is_disconnected():
                await asyncio.sleep(POLL)
                now = watch.version()
                if now != last:
                    last, quiet = now, time.monotonic()
                    yield "data: changed\n\n"
                elif time.monotonic() - quiet > 15:
                    quiet = time.monotonic()
                    yield ": still here\n\n"
        finally:
            watch.close()

    return StreamingResponse(stream(), media_type="text/event-stream",
                             headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


# -- games ------------------------------------------------------------------------
def _ended(store, g) -> str:
    if g.finished is not None and g.winner is None and g.game == "fenn":
        try:
            o = store.load(g.id).game.outcome()
        except StorageError:
            o = None
        if o is None:
            return i18n._("ended")
    return result_words(g)


async def games(request: Request):
    page: Page = request.app.state.page
    try:
        n = max(0, int(request.query_params.get("page", "0")))
    except ValueError:
        raise HTTPException(404) from None
    store = _store(page)
    if store is None:
        return page.render(request, "games.html", rows=[], n=0, pages=0)
    try:
        found, total = store.games_page(n * PAGE_SIZE, PAGE_SIZE)
        i18n.set_language(page.language(request))
        rows = [{"id": g.id, "game": g.game, "players": g.players, "date": _date(g.started),
                 "result": _ended(store, g)} for g in found]
    finally:
        store.close()
    return page.render(request, "games.html", rows=rows, n=n, pages=(total + PAGE_SIZE - 1) // PAGE_SIZE)


def _date(t: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(t))


def _game_id(request: Request) -> int:
    gid = request.path_params["id"]
    if gid > 2**62:
        raise HTTPException(404)
    return gid


@contextmanager
def _game_store(request: Request):
    """``(page, game id, store)`` for a ``/games/ID`` path, the store closed after;
    404 when there is no database, no such game, or it cannot be replayed."""
    page: Page = request.app.state.page
    gid = _game_id(request)
    store = _store(page)
    if store is None:
        raise HTTPException(404)
    try:
        yield page, gid, store
    except StorageError:
        raise HTTPException(404) from None
    finally:
        store.close()


async def game_page(request: Request):
    with _game_store(request) as (page, gid, store):
        game = store.load(gid).game
        summary = store.summary(gid)
        i18n.set_language(page.language(request))
        values = {"game": game, "game_id": gid, "date": _date(summary.started) if summary else "",
                  "result": _ended(store, summary) if summary else ""}
        if game.name == "fenn":
            from ..fenn_hints import hints_used
            from ..fenn_prompts import hints_text, outcome_text, turn_log

            values.update(lines=turn_log(game), outcome=outcome_text(game),
                          hints=hints_text(hints_used(store, gid, game.players)))
        else:
            from ..prompts import result_text
            from ..stats import game_stats, throw_history

            values.update(throws=[{"name": game.players[r.player], "values": r.values, "formed": set(r.formed_by),
                                   "target": r.target, "words": result_text(r, game.players)}
                                  for r in throw_history(game)],
                          stats=game_stats(game))
    return page.render(request, "game.html", **values)


async def export(request: Request):
    from ..replay import export_game

    with _game_store(request) as (_page, gid, store):
        lines = export_game(store, gid)
    body = "".join(json.dumps(line) + "\n" for line in lines)
    return Response(body, media_type="application/x-ndjson",
                    headers={"Content-Disposition": f'attachment; filename="game-{gid}.jsonl"'})


async def frame(request: Request):
    if not request.app.state.page.pictures:
        raise HTTPException(404)
    with _game_store(request) as (page, gid, store):
        seq = request.path_params["seq"]
        found = [f for q, _d, f in store.events(gid) if q == seq]
    frames = os.path.realpath(os.path.join(page.data_dir, "frames")) + os.sep
    if not found or not found[0] or not os.path.realpath(found[0]).startswith(frames) or not os.path.isfile(found[0]):
        raise HTTPException(404)
    return FileResponse(found[0], media_type="image/jpeg")


# -- leaderboards and health ---------------------------------------------------------
async def leaderboard(request: Request):
    page: Page = request.app.state.page
    kind = request.query_params.get("game", "durchmarsch")
    period = request.query_params.get("period", "week")
    if kind not in ("durchmarsch", "fenn") or period not in data.PERIODS:
        raise HTTPException(404)

    def make():
        """The totals, once per change of the finished games and per hour (the period moves on);
        each game replayed once (its figures kept in :meth:`Page.game_parts`)."""
        from ..stats import fenn_totals, totals

        store = _store(page, since=data.period_start(period))
        if store is None:
            return []
        try:
            version = (store.finished_version(), int(time.time() // 3600))
            parts = page.game_parts()
            return page.cached(("leaderboard", kind, period),
                               lambda: (fenn_totals if kind == "fenn" else totals)(store, cache=parts), version=version)
        finally:
            store.close()

    # In a worker thread: the live page's event streams go on meanwhile.
    rows = await run_in_threadpool(make)
    return page.render(request, "leaderboard.html", rows=rows, kind=kind, period=period, periods=list(data.PERIODS),
                       keep=f"&game={kind}&period={period}")


async def health(request: Request):
    page: Page = request.app.state.page
    used = page.cached(("used", int(time.time() // 30)), lambda: data.folder_size(page.data_dir))
    h = data.health(page.data_dir, used=used)
    i18n.set_language(page.language(request))
    shown = {"uptime": duration_words(h["uptime"]) if h["uptime"] is not None else None,
             "share": f"{100 * h['asked_share']:.0f} % ({h['asked']} / {h['asked'] + h['scored']})"
             if h["asked_share"] is not None else "–",
             "used": size_words(h["used"]), "free": size_words(h["free"])}
    return page.render(request, "health.html", h=h, shown=shown)


# -- errors ------------------------------------------------------------------------------
async def not_found(request: Request, exc: Exception):
    page: Page = request.app.state.page
    return page.render(request, "error.html", status=404, what="not_found")


async def failed(request: Request, exc: Exception):
    """Any other failure: the database busy, replaced or damaged meanwhile. Logged, never shown."""
    if isinstance(exc, sqlite3.Error):
        log.warning("%s: %s", request.url.path, exc)
    else:
        log.exception("%s failed", request.url.path)
    page: Page = request.app.state.page
    try:
        return page.render(request, "error.html", status=503, what="unavailable")
    except Exception:  # the templates themselves unreadable: plain words
        return Response("The games cannot be read just now.", status_code=503, media_type="text/plain")


class _Headers:
    """ASGI middleware: :data:`SECURITY_HEADERS` on every answer (streams untouched)."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)

        async def send_with_headers(message):
            if message["type"] == "http.response.start":
                message["headers"] = list(message.get("headers", [])) + [
                    (k.lower().encode(), v.encode()) for k, v in SECURITY_HEADERS.items()]
            await send(message)

        await self.app(scope, receive, send_with_headers)


def make_app(cfg: dict) -> Starlette:
    """The page's Starlette app for config ``cfg`` (``app.data_dir``, ``app.language``, ``web.pictures``)."""
    routes = [
        Route("/", home), Route("/live", live_part), Route("/events", events),
        Route("/games", games), Route("/games/{id:int}", game_page), Route("/games/{id:int}/export", export),
        Route("/games/{id:int}/frames/{seq:int}.jpg", frame),
        Route("/leaderboard", leaderboard), Route("/health", health),
    ]
    handlers = {404: not_found, 405: not_found, HTTPException: not_found, Exception: failed}
    app = Starlette(routes=routes, middleware=[Middleware(_Headers)], exception_handlers=handlers)
    app.state.page = Page(cfg)
    return app


def serve(cfg: dict) -> int:
    """Serve the page on ``[web] listen`` until stopped (SIGINT, SIGTERM). Returns 0.
    Raises :class:`companion.config.ConfigError` for a bad ``listen``."""
    import uvicorn

    from .address import parse_listen

    host, port = parse_listen(cfg["web"]["listen"])
    uvicorn.run(make_app(cfg), host=host, port=port, log_level="warning", access_log=False,
                timeout_graceful_shutdown=2)
    return 0
