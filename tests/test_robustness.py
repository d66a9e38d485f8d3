"""Issue 39: nothing lost, nothing crashes. One test (or one parameter) per case
of the issue's "Why": one action, one transaction; damaged storage never stops
the kiosk; every bad input gets one line and the right exit code."""

import json
import os
import sqlite3
import sys
import threading
import time

import cv2
import numpy as np
import pytest

from companion.cli import main
from companion.config import ConfigError, load_config
from companion.names import clean_name
from companion.session import GameSession
from companion.settings import SettingsError, load_settings
from companion.storage import StorageError, Store

sys.path.insert(0, os.path.dirname(__file__))
from storage_damage import DAMAGES, damaged, make_games  # noqa: E402

WIN = [6, 4, 1, 1, 1, 1, 1, 1]


def run(capsys, *args):
    code = main([str(a) for a in args])
    out = capsys.readouterr()
    return code, out.out, out.err


def config_for(tmp_path, data) -> str:
    p = tmp_path / "c.toml"
    p.write_text(f'[app]\ndata_dir = "{data}"\n')
    return str(p)


def one_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


def trigger(root, when: str, table: str):
    """Make SQLite refuse every ``when`` (INSERT, UPDATE, DELETE) on ``table``:
    a write of an action that fails half-way."""
    db = sqlite3.connect(os.path.join(root, "companion.db"), isolation_level=None)
    db.execute(f"CREATE TRIGGER refuse BEFORE {when} ON {table} BEGIN SELECT RAISE(ABORT, 'refused'); END")
    db.close()


# -- 1. one user action, one transaction --------------------------------------------------
def test_a_winning_event_and_the_game_end_commit_together(tmp_path):
    s = GameSession(Store(str(tmp_path)))
    # Fenn: a start throw then set the board so blue's next step wins.
    s.start(["Dora", "Emil"], first=0, game="fenn")
    from companion.fenn import BlackThrow, Step
    s.apply(BlackThrow(6))
    s.game.set_position(blue=(7, 2), red=(8, 1), black=3)
    gid = s.game_id
    before = s.store.events(gid)
    trigger(tmp_path, "UPDATE", "games")  # the game's end cannot be written
    with pytest.raises(sqlite3.DatabaseError):
        s.apply(Step(9, 1))
    store = Store(str(tmp_path))
    assert store.events(gid) == before  # not a won game left "unfinished"
    assert gid in {g.id for g in store.unfinished_games()}


def test_a_correction_is_one_transaction(tmp_path):
    s = GameSession(Store(str(tmp_path)))
    s.start(["Anna", "Ben"], first=0)
    s.throw([6, 3, 1, 1, 1, 1, 1, 1])
    trigger(tmp_path, "INSERT", "events")  # the corrected throw cannot be written
    with pytest.raises(sqlite3.DatabaseError):
        s.correct([6, 4, 1, 1, 1, 1, 1, 1])
    store = Store(str(tmp_path))
    assert [e for _, e, _ in store.events(s.game_id)] == [{"throw": [6, 3, 1, 1, 1, 1, 1, 1]}]  # not lost


def test_a_correction_keeps_the_first_picture_and_names_the_new_one(tmp_path):
    s = GameSession(Store(str(tmp_path)))
    s.start(["Anna", "Ben"], first=0)
    s.throw([6, 3, 1, 1, 1, 1, 1, 1], frame=np.full((40, 60, 3), 10, np.uint8))
    s.correct(WIN, frame=np.full((40, 60, 3), 200, np.uint8))
    (_, data, frame), = s.store.events(s.game_id)
    assert data == {"throw": WIN} and os.path.isfile(frame)
    assert cv2.imread(frame).mean() > 150  # the corrected throw's own picture
    kept = os.listdir(os.path.dirname(frame))
    assert any(".undone-" in n for n in kept)  # the first one is kept, renamed


def test_pictures_are_removed_only_after_the_rows_naming_them(tmp_path):
    s = GameSession(Store(str(tmp_path)))
    for _ in range(2):
        s.start(["Anna", "Ben"], first=0)
        s.throw(WIN, frame=np.zeros((40, 60, 3), np.uint8))
        s.store.abandon(s.game_id)
    old = s.store.games()[-1].id
    trigger(tmp_path, "UPDATE", "events")  # the rows cannot stop naming the pictures
    with pytest.raises(sqlite3.DatabaseError):
        s.store.prune_frames(keep_games=1)
    for _, _, frame in s.store.events(old):
        assert frame is None or os.path.isfile(frame)  # no row names a removed picture


def test_export_says_a_missing_picture_and_the_script_still_replays(tmp_path, capsys):
    data = tmp_path / "data"
    s = GameSession(Store(str(data)))
    s.start(["Anna", "Ben"], first=0)
    s.throw(WIN, frame=np.zeros((40, 60, 3), np.uint8))
    s.decide("stop")
    gid = s.game_id
    (_, _, frame), _ = s.store.events(gid)
    os.remove(frame)
    s.store.close()
    code, out, err = run(capsys, "export", gid, "--config", config_for(tmp_path, data))
    assert code == 0 and "missing" in one_line(err)
    script = tmp_path / "g.jsonl"
    script.write_text(out)
    code, out, err = run(capsys, "replay", "--json", script)
    assert code == 0 and json.loads(out)["turn"]["player"] == "Ben"


def test_stale_temporary_files_are_removed_at_start(tmp_path):
    make_games(str(tmp_path), n=1)
    os.makedirs(tmp_path / "recorded", exist_ok=True)
    stale = [tmp_path / "recorded" / ".labels.json-x1y2.tmp", tmp_path / "frames" / ".0001.jpg-abc.tmp",
             tmp_path / ".settings.json-q.tmp"]
    for p in stale:
        p.write_bytes(b"half")
    (tmp_path / "recorded" / "labels.json").write_text("[]")
    Store(str(tmp_path)).close()
    assert not any(p.exists() for p in stale)
    assert (tmp_path / "recorded" / "labels.json").exists()


# -- 3. damaged storage never stops the kiosk ----------------------------------------------
@pytest.mark.parametrize("damage", sorted(DAMAGES))
def test_damaged_storage_opens_and_every_command_gives_a_line(tmp_path, damage, capsys):
    data = damaged(str(tmp_path / "data"), damage)
    before = {n: open(os.path.join(data, n), "rb").read() for n in os.listdir(data)
              if n.startswith("companion.db") and os.path.isfile(os.path.join(data, n))
              and not os.path.islink(os.path.join(data, n))}
    store = Store(data)
    shown = store.games()
    assert store.unfinished() is None or store.unfinished() in {g.id for g in shown}
    if store.repair is not None:  # copied aside, never deleted
        assert os.path.lexists(store.repair.kept)
        if "companion.db" in before:
            assert open(store.repair.kept, "rb").read() == before["companion.db"]
    store.close()
    cfg = config_for(tmp_path, data)
    for cmd in (["games"], ["games", "--json"], ["stats"], ["stats", "--game", "fenn"], ["stats", "--json"]):
        code, _, err = run(capsys, *cmd, "--config", cfg)
        assert code == 0 and "Traceback" not in err, (cmd, err)
    for gid in (2, 3, 25):
        code, _, err = run(capsys, "export", gid, "--config", cfg)
        assert code in (0, 2)
        if code:
            one_line(err)


def test_a_row_that_cannot_be_read_hides_only_its_game(tmp_path, capsys):
    data = damaged(str(tmp_path / "data"), "players not JSON")
    store = Store(data)
    ids = [g.id for g in store.games()]
    assert 2 not in ids and len(ids) == 24 and 2 in store.hidden
    code, out, _ = run(capsys, "stats", "--json", "--config", config_for(tmp_path, data))
    assert code == 0 and any(json.loads(line)["name"] == "Ben" for line in out.splitlines())


def test_a_game_whose_event_cannot_be_read_is_hidden_at_resume(tmp_path):
    data = damaged(str(tmp_path / "data"), "Fenn event stored as a list")
    s = GameSession(Store(data))
    assert s.resume(25) is False and 25 in s.store.hidden
    assert 25 not in {g.id for g in s.store.unfinished_games()}


def test_a_locked_database_is_waited_for_and_never_moved_aside(tmp_path):
    make_games(str(tmp_path), n=2)
    holder = sqlite3.connect(str(tmp_path / "companion.db"), isolation_level=None, check_same_thread=False)
    holder.execute("PRAGMA journal_mode=DELETE")
    holder.execute("BEGIN EXCLUSIVE")
    with pytest.raises(StorageError, match="locked"):
        Store(str(tmp_path), busy=0.2)
    assert not [n for n in os.listdir(tmp_path) if "damaged" in n or "corrupt" in n]
    threading.Timer(0.5, lambda: holder.execute("COMMIT")).start()
    t0 = time.monotonic()
    store = Store(str(tmp_path), busy=10)
    assert time.monotonic() - t0 >= 0.3 and store.repair is None and len(store.games()) == 3
    holder.close()


def test_a_wal_present_at_start_is_copied_aside_first(tmp_path):
    make_games(str(tmp_path), n=1)
    wal = b"\x37\x7f\x06\x82" + bytes(range(256)) * 16
    (tmp_path / "companion.db-wal").write_bytes(wal)
    Store(str(tmp_path)).close()
    assert (tmp_path / "companion.db-wal.at-start").read_bytes() == wal


def test_a_zeroed_page_is_repaired_with_the_readable_games(tmp_path):
    data = damaged(str(tmp_path / "data"), "zeroed page")
    store = Store(data)
    assert store.repair is not None and store.repair.carried >= 10
    assert len(store.games()) == store.repair.carried
    assert sqlite3.connect(store.path).execute("PRAGMA quick_check").fetchone() == ("ok",)
    from companion.i18n import set_language
    from companion.prompts import storage_text
    set_language("de")
    try:
        assert "beschädigt" in storage_text(store.repair)
    finally:
        set_language("en")


# -- 4. every bad input: one line, the right exit code, nothing else lost ---------------------
def test_read_goes_on_after_a_tiny_or_huge_image(tmp_path, capsys):
    from hardware.render import RenderStyle, render_throw
    frame, _ = render_throw([6, 1, 3], seed=11, style=RenderStyle(touching=0, coloured=0))
    good = str(tmp_path / "throw.png")
    cv2.imwrite(good, frame)
    tiny = str(tmp_path / "tiny.png")
    cv2.imwrite(tiny, np.zeros((8, 8, 3), np.uint8))
    thin = str(tmp_path / "thin.png")
    cv2.imwrite(thin, np.zeros((1, 4000, 3), np.uint8))
    fifo = str(tmp_path / "pipe.jpg")
    os.mkfifo(fifo)
    code, out, err = run(capsys, "read", tiny, thin, fifo, good)
    assert code == 1 and "1 dice" not in out and "3 dice: " in out
    assert len(err.strip().splitlines()) == 3 and "Traceback" not in err
    code, out, err = run(capsys, "read", "--game", "fenn", "--json", thin, fifo)
    assert code == 1 and [json.loads(l)["image"] for l in out.splitlines()] == [thin, fifo]


def test_opencv_pixel_limit_is_one_line(tmp_path, capsys):
    # A PNG header claiming 70000×70000 pixels: OpenCV refuses it with its own error.
    import struct
    import zlib
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 70000, 70000, 8, 2, 0, 0, 0)) + \
        chunk(b"IDAT", zlib.compress(b"\0" * 100)) + chunk(b"IEND", b"")
    big = tmp_path / "big.png"
    big.write_bytes(png)
    code, _, err = run(capsys, "read", big)
    assert code == 1 and "big.png" in one_line(err)


BAD_SCRIPTS = {
    "not UTF-8": b'{"players": ["Anna", "Ben"]}\n{"roll": [6, 4, 1, 1, 1, 1, 1, 1]}\n\xff\xfe\n',
    "4300 digits": b'{"players": ["Anna", "Ben"]}\n{"roll": [' + b"9" * 4400 + b"]}\n",
    "deeply nested": b'{"players": ["Anna", "Ben"]}\n' + b"[" * 100000 + b"]" * 100000 + b"\n",
    "a name null": b'{"players": [null, "Ben"]}\n',
    "a name a number": b'{"players": [3, "Ben"]}\n',
    "a name a list": b'{"players": [["A"], "Ben"]}\n',
    "a NUL in a name": b'{"players": ["An\\u0000na", "Ben"]}\n',
    "a newline in a name": b'{"players": ["An\\nna", "Ben"]}\n',
    "a bidi override": b'{"players": ["\\u202eanna", "Ben"]}\n',
    "a name of 10k characters": b'{"players": ["' + b"a" * 10000 + b'", "Ben"]}\n',
    "Fenn field as text": b'{"game": "fenn", "players": ["A", "B"]}\n{"black": 6}\n{"turn": {"field": "3", "top": 2}}\n',
    "Fenn field 3.0": b'{"game": "fenn", "players": ["A", "B"]}\n{"black": 6}\n{"turn": {"field": 3.0, "top": 2}}\n',
    "Fenn top true": b'{"game": "fenn", "players": ["A", "B"]}\n{"black": 6}\n{"turn": {"field": 3, "top": true}}\n',
    "Fenn field 3.7": b'{"game": "fenn", "players": ["A", "B"]}\n{"black": 6}\n{"turn": {"field": 3.7, "top": 2}}\n',
    "Fenn black as text": b'{"game": "fenn", "players": ["A", "B"]}\n{"black": "6"}\n',
}


@pytest.mark.parametrize("case", sorted(BAD_SCRIPTS))
def test_a_bad_script_is_one_line_and_the_others_play(tmp_path, case, capsys):
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(BAD_SCRIPTS[case])
    good = tmp_path / "good.jsonl"
    good.write_text('{"players": ["Anna", "Ben"]}\n{"roll": [6, 4, 1, 1, 1, 1, 1, 1]}\n')
    code, out, err = run(capsys, "replay", bad, good)
    assert code == 2 and "line " in one_line(err)
    assert out.startswith(f"{good}:") and "next: Anna" in out  # the good one still played


def test_fenn_whole_numbers_name_their_line(tmp_path, capsys):
    bad = tmp_path / "f.jsonl"
    bad.write_bytes(BAD_SCRIPTS["Fenn field 3.0"])
    code, _, err = run(capsys, "replay", bad)
    assert code == 2 and "line 3" in err and "whole number" in err


def test_a_fifo_script_is_refused_not_waited_on(tmp_path, capsys):
    fifo = tmp_path / "s.jsonl"
    os.mkfifo(fifo)
    code, _, err = run(capsys, "replay", fifo)
    assert code == 2 and "not a regular file" in one_line(err)


def test_long_paths_are_shortened_in_messages(tmp_path, capsys):
    name = "x" * 240
    deep = tmp_path
    for _ in range(20):
        deep = deep / name
    code, _, err = run(capsys, "replay", str(deep / "s.jsonl"))
    assert code == 2 and len(one_line(err)) < 400


@pytest.mark.parametrize("text, key", [
    ("[gpio]\nstop_pin = 40\n", "gpio.stop_pin"),
    ("[gpio]\nstop_pin = -3\n", "gpio.stop_pin"),
    ("[gpio]\ncontinue_pin = 5\n", "gpio.continue_pin must differ"),
    ("[gpio]\ndebounce = -0.1\n", "gpio.debounce"),
    ("[gpio]\nhold_undo = nan\n", "gpio.hold_undo"),
    ("[gpio]\nhold_undo = inf\n", "gpio.hold_undo"),
    ("[app]\nkeep_recorded = -1\n", "app.keep_recorded"),
    ("[app]\nkeep_frame_games = -5\n", "app.keep_frame_games"),
    ('[app]\npin = ""\n', "app.pin"),
    ('[app]\ndata_dir = ""\n', "app.data_dir"),
    ('[app]\ndata_dir = "/tmp/a\\u0000b"\n', "app.data_dir"),
    ("a = " + "[" * 5000 + "]" * 5000 + "\n", "nested too deep"),
])
def test_config_values_are_range_checked_naming_file_and_key(tmp_path, text, key, capsys):
    p = tmp_path / "c.toml"
    p.write_text(text)
    with pytest.raises(ConfigError, match=key.replace(".", r"\.")) as e:
        load_config(str(p))
    assert "c.toml" in str(e.value)
    code, _, err = run(capsys, "games", "--config", p)
    assert code == 2 and key in one_line(err)


def test_a_utf16_or_fifo_config_is_one_line(tmp_path, capsys):
    p = tmp_path / "c.toml"
    p.write_bytes('[app]\nodds = false\n'.encode("utf-16"))
    with pytest.raises(ConfigError, match="not UTF-8"):
        load_config(str(p))
    f = tmp_path / "f.toml"
    os.mkfifo(f)
    code, _, err = run(capsys, "stats", "--config", f)
    assert code == 2 and "not a regular file" in one_line(err)


def test_settings_json_is_bounded_and_range_checked(tmp_path):
    (tmp_path / "settings.json").write_text(json.dumps({"gpio": {"buzzer": 99}}))
    with pytest.raises(SettingsError, match="gpio.buzzer"):
        load_settings(str(tmp_path))
    (tmp_path / "settings.json").write_text("[" * 100000)
    with pytest.raises(SettingsError):
        load_settings(str(tmp_path))
    (tmp_path / "settings.json").write_bytes(b'{"app": {"odds": false}}'.decode().encode("utf-16"))
    with pytest.raises(SettingsError):
        load_settings(str(tmp_path))


@pytest.mark.parametrize("bad", [None, 3, ["A"], "", "   ", "An\0na", "An\nna", "\u202eanna", "a" * 25, "x" * 10_000_000])
def test_names_are_refused_wherever_they_enter(tmp_path, bad):
    with pytest.raises(ValueError):
        clean_name(bad)
    with pytest.raises(ValueError):
        GameSession(Store(str(tmp_path))).start([bad, "Ben"], first=0)


def test_names_are_trimmed_and_normalised():
    assert clean_name("  Zoe\u0308 ") == "Zoë" and clean_name("a" * 24) == "a" * 24


def test_switching_the_dice_set_is_one_transaction(tmp_path):
    """Fenn's "the set is the other kind": the new game, its moves and the old
    game's end commit together; when a write fails, the old game is as it was."""
    from companion.session import ASKED
    from tests.test_fenn_camera import fenn_at_the_table

    scene, session, c = fenn_at_the_table(str(tmp_path))
    frame, _ = scene.frame(blue=(1, 8), red=(9, 5), black=7, seed=2)
    assert session.take(session.read(frame), frame) == ASKED and c.fenn.can_switch_dice()
    old, events = session.game_id, session.store.events(session.game_id)
    trigger(tmp_path, "UPDATE", "games")  # the old game's end cannot be written
    with pytest.raises(sqlite3.DatabaseError):
        c.fenn.switch_dice()
    assert session.game_id == old and len(session.game.events) == 1
    store = Store(str(tmp_path))
    assert [g.id for g in store.games()] == [old] and store.events(old) == events


def test_the_app_starts_on_the_two_damages_that_stopped_it(tmp_path):
    """The real app, offscreen, on a zeroed page and on a players cell that is
    not JSON (both stopped it at start with a traceback): it starts, and says so."""
    import subprocess

    bench = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "benchmarks",
                         "damaged_storage.py")
    p = subprocess.run([sys.executable, bench, "--only", "zeroed page", "--only", "players not JSON", str(tmp_path)],
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stdout + p.stderr[-2000:]
    assert "started on 2 of 2" in p.stdout
    assert "The saved games were damaged" in p.stdout and "Saved games that cannot be read: 1" in p.stdout
    assert len(list(tmp_path.glob("*.png"))) == 2
