"""The table's page: how fast it follows a game, its memory, and /games over a year's database.

Usage: python benchmarks/web_live.py [--events N] [--seconds S] [--skip-browser]

1. Live: ``companion web`` runs as its own process (as the kiosk's unit runs
   it) over a fresh data dir; this process plays a Durchmarsch game through a
   :class:`companion.session.GameSession` (the app's writes: SQLite, WAL,
   ``synchronous=FULL``), while headless Chromium shows ``/``. For each event
   the time from just before the session stores it to the moment the page
   shows the new prompt (a MutationObserver in the page notes ``Date.now()``;
   both clocks are this machine's) is taken: median and worst.
2. The page server's memory (VmRSS, VmHWM of its process) after that, and
   after the load of 3.
3. /games over a year's database: the storage benchmark's year
   (``benchmarks/storage_year.py``: 300 throws a day, 365 days), games of 2-4
   players played by the rules engine with random throws and written straight
   into a store (one transaction, not event by event), then requests per second
   for ``/games`` (the first page, 50 games), sequential and with 4 clients,
   and the time of the all-time leaderboard: cold (every game replayed), again,
   and after one more game is finished (only that game replayed).
"""

import argparse
import http.client
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

THROWS_A_DAY = 300
NAMES = ["Anna", "Ben", "Clara", "David", "Emma", "Felix", "Greta", "Hugo", "Ida", "Jonas", "Karla", "Luca",
         "Mia", "Noah", "Olga", "Paul", "Rosa", "Sami", "Tina", "Uwe", "Vera", "Wim", "Xenia", "Yann", "Zoe"]


def _port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(data: str) -> tuple[subprocess.Popen, str]:
    """``companion web`` over ``data`` on a free port; returns the process and its address."""
    port = _port()
    cfg = os.path.join(data, "web.toml")
    with open(cfg, "w") as f:
        f.write(f'[app]\ndata_dir = "{data}"\nlanguage = "en"\n[web]\nenabled = true\nlisten = "127.0.0.1:{port}"\n')
    proc = subprocess.Popen([os.path.join(ROOT, ".venv", "bin", "companion"), "web", "--config", cfg],
                            stderr=subprocess.DEVNULL)
    for _ in range(200):
        try:
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=1)
            c.request("GET", "/health")
            c.getresponse().read()
            return proc, f"127.0.0.1:{port}"
        except OSError:
            time.sleep(0.05)
    proc.kill()
    raise SystemExit("the page server did not start")


def memory(pid: int) -> dict:
    """VmRSS and VmHWM of process ``pid`` in MB."""
    out = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(("VmRSS", "VmHWM")):
                out[line.split(":")[0]] = int(line.split()[1]) / 1024
    return out


def live(events: int) -> dict:
    from selenium import webdriver
    from selenium.webdriver.support.ui import WebDriverWait

    from companion import i18n
    from companion.prompts import prompt
    from companion.session import GameSession
    from companion.storage import Store

    os.environ["SE_OFFLINE"] = "true"
    data = tempfile.mkdtemp(prefix="web-live-")
    proc, addr = start_server(data)
    opts = webdriver.ChromeOptions()
    opts.binary_location = shutil.which("chromium")
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1920,1080"):
        opts.add_argument(a)
    driver = webdriver.Chrome(service=webdriver.ChromeService(executable_path=shutil.which("chromedriver")),
                              options=opts)
    try:
        session = GameSession(Store(data))
        session.start(["Anna", "Ben", "Clara"], first=0)
        driver.get(f"http://{addr}/?lang=en")
        driver.execute_script("""
            window.__seen = [];
            new MutationObserver(function () {
              var p = document.getElementById('prompt');
              if (p) window.__seen.push([Date.now(), p.textContent]);
            }).observe(document.body, {childList: true, subtree: true});""")
        rng = random.Random(11)
        waits = []
        i18n.set_language("en")
        while len(waits) < events:
            if session.game.is_over:
                session.start(["Anna", "Ben", "Clara"], first=0)
                time.sleep(0.5)
            time.sleep(0.3)  # a throw or a press at the table comes seconds apart; here 0.3 s
            t0 = time.time() * 1000
            if session.game.decision_due:
                session.decide(rng.choice(["stop", "continue"]))
            else:
                session.throw([rng.randint(1, 6) for _ in range(session.game.dice_to_throw)])
            want = " ".join(prompt(session.game).split())

            def shown(d, want=want, t0=t0):
                for t, text in d.execute_script("return window.__seen"):
                    if t >= t0 and " ".join(text.split()) == want:
                        return t
                return False

            waits.append(WebDriverWait(driver, 10, poll_frequency=0.02).until(shown) - t0)
            driver.execute_script("window.__seen = [];")
        mem = memory(proc.pid)
    finally:
        driver.quit()
        proc.terminate()
        proc.wait(5)
        shutil.rmtree(data, ignore_errors=True)
    return {"events": len(waits), "median_ms": statistics.median(waits), "worst_ms": max(waits), "memory": mem}


def _insert_game(db, rng: random.Random, t: float) -> tuple[int, int]:
    """One whole Durchmarsch game of 2-4 random players, started at ``t``, into
    the store's connection ``db``; returns ``(throws, events)``."""
    from companion.durchmarsch import Durchmarsch

    players = rng.sample(NAMES, rng.randint(2, 4))
    g = Durchmarsch(players)
    gid = db.execute("INSERT INTO games(game, players, first, started, options) VALUES (?, ?, 0, ?, '{}')",
                     ("durchmarsch", json.dumps(players), t)).lastrowid
    throws = seq = 0
    while not g.is_over:
        if g.decision_due:
            g.decide("continue" if rng.random() < 0.55 else "stop")
        else:
            g.throw([rng.randint(1, 6) for _ in range(g.dice_to_throw)])
            throws += 1
        seq += 1
        t += 20
        db.execute("INSERT INTO events(game_id, seq, event, frame, ts) VALUES (?, ?, ?, NULL, ?)",
                   (gid, seq, json.dumps(g.event_to_json(g.events[-1])), t))
    db.execute("UPDATE games SET finished=?, winner=? WHERE id=?", (t, g.winner, gid))
    return throws, seq


def year_database(data: str, rng: random.Random) -> dict:
    """A year of games (300 throws a day) written into a store at ``data``."""
    from companion.storage import Store

    store = Store(data)
    start = time.time() - 365 * 86400
    throws = games = events = 0
    target = THROWS_A_DAY * 365
    store._db.execute("BEGIN")
    while throws < target:
        n, e = _insert_game(store._db, rng, start + (throws / target) * 365 * 86400)
        throws, events, games = throws + n, events + e, games + 1
    store._db.execute("COMMIT")
    store.close()
    return {"games": games, "throws": throws, "events": events,
            "db_mb": os.path.getsize(os.path.join(data, "companion.db")) / 1e6}


def _get_s(addr: str, path: str) -> float:
    """Seconds one GET of ``path`` takes."""
    host, port = addr.split(":")
    c = http.client.HTTPConnection(host, int(port), timeout=600)
    t0 = time.monotonic()
    c.request("GET", path)
    c.getresponse().read()
    return time.monotonic() - t0


def load(addr: str, path: str, seconds: float, clients: int) -> float:
    """Requests per second for ``path`` over ``seconds`` with ``clients`` keep-alive connections."""
    host, port = addr.split(":")
    done = [0] * clients
    stop = time.monotonic() + seconds

    def run(i):
        c = http.client.HTTPConnection(host, int(port), timeout=30)
        while time.monotonic() < stop:
            c.request("GET", path)
            r = c.getresponse()
            r.read()
            assert r.status == 200, r.status
            done[i] += 1

    threads = [threading.Thread(target=run, args=(i,)) for i in range(clients)]
    t0 = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return sum(done) / (time.monotonic() - t0)


def year(seconds: float) -> dict:
    data = tempfile.mkdtemp(prefix="web-year-")
    try:
        t0 = time.monotonic()
        made = year_database(data, random.Random(5))
        made["made_s"] = time.monotonic() - t0
        proc, addr = start_server(data)
        try:
            made["leaderboard_cold_s"] = _get_s(addr, "/leaderboard?period=all")
            made["leaderboard_warm_ms"] = _get_s(addr, "/leaderboard?period=all") * 1000
            from companion.storage import Store

            store = Store(data)  # one more game finished at the table
            _insert_game(store._db, random.Random(99), time.time())
            store.close()
            made["leaderboard_next_ms"] = _get_s(addr, "/leaderboard?period=all") * 1000
            made["games_rps_1"] = load(addr, "/games", seconds, 1)
            made["games_rps_4"] = load(addr, "/games", seconds, 4)
            made["game_page_rps_1"] = load(addr, f"/games/{made['games'] // 2}", seconds, 1)
            made["memory"] = memory(proc.pid)
        finally:
            proc.terminate()
            proc.wait(5)
    finally:
        shutil.rmtree(data, ignore_errors=True)
    return made


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--events", type=int, default=40)
    ap.add_argument("--seconds", type=float, default=5.0)
    ap.add_argument("--skip-browser", action="store_true")
    args = ap.parse_args(argv)
    print("| figure | value |\n|---|---|")
    if not args.skip_browser:
        lv = live(args.events)
        print(f"| event -> shown on the live page, median of {lv['events']} | {lv['median_ms']:.0f} ms |")
        print(f"| event -> shown on the live page, worst | {lv['worst_ms']:.0f} ms |")
        print(f"| page server's memory after the live run (RSS / peak) | {lv['memory']['VmRSS']:.0f} MB / "
              f"{lv['memory']['VmHWM']:.0f} MB |")
    y = year(args.seconds)
    print(f"| a year's database: games, throws, events, size | {y['games']}, {y['throws']}, {y['events']}, "
          f"{y['db_mb']:.0f} MB |")
    print(f"| /games (first 50 of the year's games), 1 client | {y['games_rps_1']:.0f} requests/s |")
    print(f"| /games, 4 clients | {y['games_rps_4']:.0f} requests/s |")
    print(f"| /games/ID (one game's page), 1 client | {y['game_page_rps_1']:.0f} requests/s |")
    print(f"| /leaderboard all time, cold (every game replayed) / cached | {y['leaderboard_cold_s']:.1f} s / "
          f"{y['leaderboard_warm_ms']:.0f} ms |")
    print(f"| /leaderboard all time after one more game (that game replayed) | {y['leaderboard_next_ms']:.0f} ms |")
    print(f"| page server's memory after the year's load (RSS / peak) | {y['memory']['VmRSS']:.0f} MB / "
          f"{y['memory']['VmHWM']:.0f} MB |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
