"""The table's page (companion web) through Starlette's test client: what each
page shows, names with HTML in them shown as text, 404 pages, read-only, and
serving on while the database is written, locked, damaged or replaced."""

import hashlib
import json
import os
import random
import sqlite3
import time

import pytest

pytest.importorskip("starlette")
from starlette.testclient import TestClient  # noqa: E402

from companion import i18n  # noqa: E402
from companion.session import GameSession  # noqa: E402
from companion.storage import Store  # noqa: E402
from companion.web.server import make_app  # noqa: E402

EVIL = ["<script>alert()</script>", '"><img src=x onerror=f>']


def play(session, rng, events=40):
    """Play ``events`` presses of a Durchmarsch game through the session (random throws and decisions)."""
    for _ in range(events):
        g = session.game
        if g.is_over:
            return
        if g.decision_due:
            session.decide(rng.choice(["stop", "continue", "continue"]))
        else:
            session.throw([rng.randint(1, 6) for _ in range(g.dice_to_throw)])


def play_to_end(session, rng):
    while not session.game.is_over:
        play(session, rng, 1)


def client(data_dir, **web):
    cfg = {"app": {"data_dir": str(data_dir), "language": "en"}, "web": {"pictures": False, **web}}
    return TestClient(make_app(cfg), raise_server_exceptions=False)


@pytest.fixture
def table(tmp_path):
    """A data dir with a finished Durchmarsch game of two players named with HTML, and one going on."""
    s = GameSession(Store(str(tmp_path)))
    s.start(EVIL, first=0)
    play_to_end(s, random.Random(4))
    s.start(["Anna", "Ben"], first=1)
    play(s, random.Random(5), 7)
    return s


def test_names_with_html_show_as_text_on_every_page(table, tmp_path):
    c = client(tmp_path)
    for path in ("/games", "/games/1", "/leaderboard?period=all", "/leaderboard?period=week"):
        body = c.get(path).text
        for name in EVIL:
            assert name not in body, path
        assert "&lt;script&gt;alert()&lt;/script&gt;" in body, path
        assert "&#34;&gt;&lt;img src=x onerror=f&gt;" in body, path
    # the live page while the game with those names is the one being played
    s = GameSession(table.store)
    s.resume(1)
    s.undo()
    play(s, random.Random(3), 1)  # a new event: game 1 is the one being played again
    body = c.get("/").text
    assert "<img src=x" not in body and "<script>alert" not in body
    assert "&lt;script&gt;alert()&lt;/script&gt;" in body


def test_the_live_page_shows_the_game_being_played_and_its_last_throw(table, tmp_path):
    c = client(tmp_path)
    from companion.prompts import prompt
    from companion.stats import throw_history

    i18n.set_language("en")
    want = prompt(table.game)
    body = c.get("/live?lang=en").text
    assert want.split("\n")[0] in body.replace("&#39;", "'")
    last = throw_history(table.game)[-1]
    assert "".join(f'">{v}</span>' for v in last.values[:1]) in body
    table.decide("continue") if table.game.decision_due else table.throw([6, 4, 1, 1, 1, 1, 1, 1][:table.game.dice_to_throw])
    i18n.set_language("en")
    assert prompt(table.game).split("\n")[0] in c.get("/live?lang=en").text.replace("&#39;", "'")


def test_games_list_and_a_games_page_with_every_throw(table, tmp_path):
    from companion.stats import throw_history

    c = client(tmp_path)
    body = c.get("/games?lang=en").text
    assert body.count('href="/games/1?lang=en"') >= 1 and 'href="/games/2?lang=en"' in body
    assert "being played" in body
    page = c.get("/games/1?lang=en").text
    game = Store(str(tmp_path)).load(1).game
    assert page.count("<tr><td class=\"n\">") >= len(throw_history(game))
    assert "wins!" in page


def test_export_is_what_companion_export_writes(table, tmp_path, capsys, monkeypatch):
    from companion.cli import main

    cfg = tmp_path / "c.toml"
    cfg.write_text(f'[app]\ndata_dir = "{tmp_path}"\n')
    assert main(["export", "--config", str(cfg), "1"]) == 0
    r = client(tmp_path).get("/games/1/export")
    assert r.status_code == 200 and r.headers["content-type"].startswith("application/x-ndjson")
    assert r.text == capsys.readouterr().out
    assert json.loads(r.text.splitlines()[0]) == {"players": EVIL}


@pytest.mark.parametrize("path", ["/games/99", "/games/abc", "/nope", "/games/1/export/x", "/games/99/export",
                                  "/leaderboard?period=year", "/leaderboard?game=chess", "/games?page=x",
                                  "/games/1/frames/1.jpg", "/games/1/frames/../../companion.db",
                                  "/games/99999999999999999999999"])
def test_bad_paths_and_ids_give_a_404_page(table, tmp_path, path):
    r = client(tmp_path).get(path)
    assert r.status_code == 404
    assert "Traceback" not in r.text and "<html" in r.text


def test_it_never_writes_nor_creates_the_database(tmp_path):
    c = client(tmp_path)
    for path in ("/", "/live", "/games", "/leaderboard", "/health", "/games/1"):
        assert c.get(path).status_code in (200, 404)
    assert not os.path.exists(tmp_path / "companion.db")
    s = GameSession(Store(str(tmp_path)))
    s.start(["Anna", "Ben"], first=0)
    play(s, random.Random(1), 10)
    s.store.close()
    before = {n: hashlib.sha256((tmp_path / n).read_bytes()).hexdigest() for n in os.listdir(tmp_path)
              if n.startswith("companion.db")}
    for path in ("/", "/live", "/games", "/games/1", "/games/1/export", "/leaderboard?period=all", "/health"):
        assert c.get(path).status_code == 200
    after = {n: hashlib.sha256((tmp_path / n).read_bytes()).hexdigest() for n in os.listdir(tmp_path)
             if n.startswith("companion.db")}
    assert after["companion.db"] == before["companion.db"]
    # SQLite may make the empty write-ahead log a reader of a WAL database needs; nothing is written to it
    assert after.get("companion.db-wal", before.get("companion.db-wal")) in (before.get("companion.db-wal"),
                                                                            hashlib.sha256(b"").hexdigest())
    from companion.web.data import ReadOnlyStore

    ro = ReadOnlyStore(str(tmp_path))
    with pytest.raises(sqlite3.OperationalError):
        ro.new_game(["X", "Y"], first=0)


def test_serves_on_while_the_database_is_locked_damaged_or_replaced(table, tmp_path):
    c = client(tmp_path)
    other = sqlite3.connect(str(tmp_path / "companion.db"), isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # the app in the middle of writing an event
    other.execute("INSERT INTO games(players, first, started) VALUES ('[\"Zoe\", \"Yan\"]', 0, 0)")
    assert c.get("/games").status_code == 200 and "Zoe" not in c.get("/games").text
    other.execute("COMMIT")
    assert "Zoe" in c.get("/games").text
    other.execute("VACUUM")
    assert "Zoe" in c.get("/games").text
    other.close()
    table.store.close()
    # damaged: a page saying so, never a traceback
    for n in ("companion.db-wal", "companion.db-shm"):
        if os.path.exists(tmp_path / n):
            os.remove(tmp_path / n)
    (tmp_path / "companion.db").write_bytes(b"not a database" * 100)
    for path in ("/", "/games", "/games/1", "/leaderboard"):
        r = c.get(path)
        assert r.status_code == 503 and "Traceback" not in r.text
    # replaced: the app moves the damaged file aside and starts a fresh one
    fresh = Store(str(tmp_path))
    assert fresh.recovered_from
    fresh.new_game(["Neu", "Start"], first=0)
    assert "Neu" in c.get("/games").text and c.get("/").status_code == 200


def test_every_page_in_every_language(table, tmp_path):
    c = client(tmp_path)
    for lang in i18n.LANGUAGES:
        t = i18n.translation(lang)
        for path, word in (("/games", "Games"), ("/leaderboard", "Leaderboard"), ("/health", "Health"),
                           ("/", "Roller"), ("/games/1", "Figures")):
            body = c.get(f"{path}?lang={lang}").text
            assert f'<html lang="{lang}">' in body
            assert f">{t.gettext(word)}<" in body, (lang, path)
            if lang != "en":
                assert t.gettext(word) != word, (lang, word)


def test_the_tables_language_by_default(table, tmp_path):
    from companion.settings import remember

    remember(str(tmp_path), "app", "language", "fr")
    assert '<html lang="fr">' in client(tmp_path).get("/games").text


def test_leaderboard_periods(table, tmp_path):
    s = GameSession(Store(str(tmp_path)))
    s.start(["Old", "Timer"], first=0)
    play_to_end(s, random.Random(9))
    s.store._db.execute("UPDATE games SET started = ? WHERE id = ?", (time.time() - 40 * 86400, s.game_id))
    c = client(tmp_path)
    assert "Timer" in c.get("/leaderboard?period=all").text
    assert "Timer" not in c.get("/leaderboard?period=month").text
    week = c.get("/leaderboard?period=week").text
    assert "&lt;script&gt;" in week and "Timer" not in week


def test_fenn_live_board_and_page(tmp_path):
    from companion.fenn import BlackThrow

    s = GameSession(Store(str(tmp_path)))
    s.start(["Anna", "Ben"], game="fenn", first=0)
    s.apply(BlackThrow(6))
    c = client(tmp_path)
    body = c.get("/live?lang=en").text
    assert 'id="board"' in body and 'class="mdie black" id="black">6<' in body
    pos = s.game.position()
    assert f'class="mdie blue" title="Blue">{pos.dice[0][1]}<' in body
    page = c.get("/games/1?lang=en").text
    assert "Black die thrown: 6" in page
    assert c.get("/leaderboard?game=fenn&period=all").status_code == 200


def test_pictures_only_when_the_setting_allows(tmp_path):
    import numpy as np

    s = GameSession(Store(str(tmp_path)))
    s.start(["Anna", "Ben"], first=0)
    s.throw([6, 4, 1, 1, 1, 1, 1, 1], frame=np.full((40, 60, 3), 128, np.uint8))
    assert client(tmp_path).get("/games/1/frames/1.jpg").status_code == 404
    on = client(tmp_path, pictures=True)
    r = on.get("/games/1/frames/1.jpg")
    assert r.status_code == 200 and r.headers["content-type"] == "image/jpeg" and r.content[:2] == b"\xff\xd8"
    assert 'src="/games/1/frames/1.jpg"' in on.get("/live").text
    assert "frames/1.jpg" not in client(tmp_path).get("/live").text


def test_health_from_the_apps_heartbeat(tmp_path):
    import logging

    from companion.status import AppStatus

    c = client(tmp_path)
    assert ">not running<" in c.get("/health?lang=en").text
    st = AppStatus(str(tmp_path), source="pi")
    for what in ("scored", "scored", "asked"):
        st.count(what)
    log = logging.getLogger("test.web")
    log.addHandler(st.handler)
    log.error("the card is full\nsecond line")
    log.removeHandler(st.handler)
    st.write(frame_seen=True)
    body = c.get("/health?lang=en").text
    assert 'id="camera">reading' in body
    assert "33 % (1 / 3)" in body
    assert "the card is full" in body and "second line" not in body
    assert "running" in body and "MB" in body


def test_status_counts_continue_the_same_day_after_a_restart(tmp_path):
    from companion.status import AppStatus, read_status

    a = AppStatus(str(tmp_path))
    a.count("asked")
    a.write(frame_seen=False)
    b = AppStatus(str(tmp_path))
    b.count("scored")
    b.write(frame_seen=False)
    assert read_status(str(tmp_path))["today"] | {"date": None} == {"date": None, "scored": 1, "asked": 1}
    assert read_status(str(tmp_path))["camera"]["reading"] is False


def test_the_live_stream_says_when_the_database_changed(table, tmp_path):
    from companion.web.data import Watch

    w = Watch(str(tmp_path))
    v0 = w.version()
    assert w.version() == v0
    play(table, random.Random(2), 1)
    assert w.version() != v0
    w.close()


def test_listen_and_the_address_in_the_qr_code():
    from companion.config import ConfigError
    from companion.web.address import base_url, game_url, parse_listen

    assert parse_listen("[::1]:8081") == ("::1", 8081)
    for bad in ("8080", "localhost", "host:99999", ":80", "host:x"):
        with pytest.raises(ConfigError):
            parse_listen(bad)
    assert game_url({"web": {"url": "http://table.local:8080/", "listen": "x"}}, 3) == "http://table.local:8080/games/3"
    assert base_url({"web": {"url": "", "listen": "0.0.0.0:9000"}}).endswith(":9000")
    assert "0.0.0.0" not in base_url({"web": {"url": "", "listen": "0.0.0.0:9000"}})


def test_web_check_says_whether_the_page_is_on(tmp_path, capsys):
    from companion.cli import main

    cfg = tmp_path / "c.toml"
    cfg.write_text(f'[app]\ndata_dir = "{tmp_path}"\n')
    assert main(["web", "--check", "--config", str(cfg)]) == 1
    cfg.write_text(f'[app]\ndata_dir = "{tmp_path}"\n[web]\nenabled = true\nlisten = "0.0.0.0:8080"\n')
    assert main(["web", "--check", "--config", str(cfg)]) == 0
    cfg.write_text(f'[app]\ndata_dir = "{tmp_path}"\n[web]\nlisten = "nowhere"\n')
    assert main(["web", "--check", "--config", str(cfg)]) == 2
    assert "web.listen" in capsys.readouterr().err


def test_companion_web_serves_until_stopped(tmp_path):
    import http.client
    import signal
    import socket
    import subprocess
    import sys

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    cfg = tmp_path / "c.toml"
    cfg.write_text(f'[app]\ndata_dir = "{tmp_path}"\n[web]\nlisten = "127.0.0.1:{port}"\n')
    p = subprocess.Popen([sys.executable, "-m", "companion.cli", "web", "--config", str(cfg)],
                         stderr=subprocess.PIPE, text=True)
    try:
        for _ in range(100):
            try:
                c = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
                c.request("GET", "/games?lang=de")
                r = c.getresponse()
                break
            except OSError:
                time.sleep(0.1)
        else:
            pytest.fail("companion web did not answer")
        assert r.status == 200 and "Noch keine Spiele." in r.read().decode()
    finally:
        p.send_signal(signal.SIGTERM)
        _out, err = p.communicate(timeout=15)
    assert p.returncode in (0, -signal.SIGTERM), err  # uvicorn ends by the signal it got, after a clean shutdown
    assert f"127.0.0.1:{port}" in err and "QR codes" in err  # [web] enabled is off: said so
