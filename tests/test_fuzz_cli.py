"""Fuzz the command line (issue 39): scripts, configs, images, settings and
database rows made at random go through ``companion``'s entry points in this
process; none may end in a traceback, the exit code is 0, 1 or 2, and a
failing call says why in one line.

Bounded for CI (a few seconds: :data:`EXAMPLES` cases per test); for a longer
run set ``COMPANION_FUZZ`` to the number of cases per test::

    COMPANION_FUZZ=250 .venv/bin/python -m pytest -q -s tests/test_fuzz_cli.py
"""

import contextlib
import io
import json
import math
import os
import shutil
import sqlite3
import tempfile

import cv2
import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.cli import main
from companion.settings import SettingsError, load_settings

#: Cases per test (``COMPANION_FUZZ`` overrides; 25 keeps CI to a few seconds).
EXAMPLES = int(os.environ.get("COMPANION_FUZZ", "25"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
COUNT = {"cases": 0, "tracebacks": 0}


def call(*args) -> tuple[int, str, str]:
    """``companion ARGS`` in this process: (exit code, stdout, stderr). An
    exception escaping ``main`` is a traceback: it fails the test."""
    out, err = io.StringIO(), io.StringIO()
    COUNT["cases"] += 1
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main([str(a) for a in args])
        except SystemExit as e:  # argparse
            code = e.code
        except BaseException:
            COUNT["tracebacks"] += 1
            raise
    text = err.getvalue()
    assert "Traceback" not in text, text
    assert code in (0, 1, 2), (code, text)
    if code:
        said = [line for line in text.splitlines() if "error" in line]
        assert said or "error" in out.getvalue(), (args, text)
        assert all(len(line) < 600 for line in said), said
    return code, out.getvalue(), text


text = st.text(max_size=40)
weird = st.sampled_from(["", " ", "\0", "\n", "\u202e", "x" * 30, "Zoë", "\ud7ff", "名前", "a\tb"])
name = st.one_of(text, weird, st.integers(), st.none(), st.lists(st.integers(), max_size=2), st.floats())
number = st.one_of(st.integers(-10, 12), st.integers(), st.floats(allow_nan=True), st.booleans(),
                   st.text(max_size=3), st.none())
json_value = st.recursive(st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), text),
                          lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                  st.dictionaries(text, inner, max_size=3)), max_leaves=8)


@st.composite
def script_line(draw) -> bytes:
    kind = draw(st.sampled_from(["players", "roll", "decision", "frame", "fenn", "black", "turn", "json",
                                 "bytes", "deep"]))
    if kind == "players":
        data = {"players": draw(st.lists(name, max_size=5))}
    elif kind == "roll":
        data = {"roll": draw(st.lists(number, max_size=9))}
    elif kind == "decision":
        data = {"decision": draw(st.one_of(st.sampled_from(["stop", "continue"]), json_value))}
    elif kind == "frame":
        data = {"frame": draw(st.one_of(text, weird, st.integers()))}
    elif kind == "fenn":
        data = {"game": "fenn", "players": draw(st.lists(name, max_size=3))}
    elif kind == "black":
        data = {"black": draw(number)}
    elif kind == "turn":
        data = {"turn": draw(st.one_of(st.just("pass"), st.fixed_dictionaries(
            {"field": number, "top": number}, optional={"black": number}), json_value))}
    elif kind == "json":
        data = draw(json_value)
    elif kind == "deep":
        n = draw(st.integers(1, 5000))
        return b"[" * n + b"]" * n
    else:
        return draw(st.binary(max_size=60)).replace(b"\n", b" ")
    try:
        return json.dumps(data, allow_nan=True).encode("utf-8", "surrogatepass")
    except (ValueError, UnicodeEncodeError):
        return b"{}"


@FUZZ
@given(st.lists(script_line(), max_size=8), st.booleans())
def test_replay_scripts(lines, as_json):
    with tempfile.TemporaryDirectory() as d:
        p = os.path.join(d, "s.jsonl")
        with open(p, "wb") as f:
            f.write(b"\n".join(lines))
        code, _, err = call("replay", *(["--json"] if as_json else []), p)
        assert code in (0, 2)
        if code and not as_json:
            assert len(err.strip().splitlines()) == 1, err


KEYS = {"camera": ["source", "width", "height", "index", "loop"],
        "gpio": ["enabled", "stop_pin", "continue_pin", "stop_led", "continue_led", "buzzer", "debounce",
                 "hold_undo"],
        "app": ["language", "fullscreen", "sound", "odds", "pin", "keyboard", "keep_frame_games", "keep_recorded",
                "data_dir"],
        "fenn": ["faces", "stuck", "dice"], "other": ["x"]}


def toml_value(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return "nan" if math.isnan(v) else ("inf" if v > 0 else "-inf") if math.isinf(v) else repr(v)
    if isinstance(v, int):
        return str(v)
    if isinstance(v, list):
        return "[" + ", ".join(toml_value(x) for x in v) + "]"
    return json.dumps(str(v)).replace("\\ud", "\\u00")  # a TOML basic string


@st.composite
def config_text(draw, data_dir: str) -> bytes:
    if draw(st.booleans()) and draw(st.booleans()):
        return draw(st.binary(max_size=200))
    lines = []
    for section in draw(st.lists(st.sampled_from(sorted(KEYS)), max_size=3, unique=True)):
        lines.append(f"[{section}]")
        for key in draw(st.lists(st.sampled_from(KEYS[section]), max_size=4, unique=True)):
            if key == "data_dir":  # never a folder outside the test's own
                value = draw(st.sampled_from(["", " ", data_dir, data_dir + "\0x", data_dir + "/sub"]))
            else:
                value = draw(st.one_of(number, weird, st.lists(st.integers(), max_size=3),
                                       st.sampled_from(["pi", "mock", "de", "1234", "12", "tip", "lose"])))
            lines.append(f"{key} = {toml_value(value)}")
    body = "\n".join(lines) + "\n"
    encoding = draw(st.sampled_from(["utf-8", "utf-8", "utf-16", "latin-1"]))
    return body.encode(encoding, "replace")


@FUZZ
@given(st.data())
def test_configs(data):
    with tempfile.TemporaryDirectory() as d:
        p = os.path.join(d, "c.toml")
        with open(p, "wb") as f:
            f.write(data.draw(config_text(os.path.join(d, "data"))))
        code, _, err = call(*data.draw(st.sampled_from([["games"], ["stats"], ["export", "1"]])), "--config", p)
        if code:
            assert len(err.strip().splitlines()) == 1, err


@st.composite
def image_bytes(draw) -> bytes:
    kind = draw(st.sampled_from(["png", "jpg", "bytes", "empty"]))
    if kind == "bytes":
        return draw(st.binary(min_size=1, max_size=300))
    if kind == "empty":
        return b""
    h, w = draw(st.integers(1, 80)), draw(st.integers(1, 80))
    c = draw(st.sampled_from([1, 3, 4]))
    seed = draw(st.integers(0, 2 ** 16))
    img = np.random.default_rng(seed).integers(0, 256, (h, w, c) if c > 1 else (h, w), dtype=np.uint8)
    if c == 4 and kind == "jpg":
        img = img[:, :, :3]
    ok, buf = cv2.imencode("." + kind, img)
    raw = buf.tobytes()
    cut = draw(st.integers(0, len(raw)))
    return raw[:cut] if draw(st.booleans()) and draw(st.booleans()) else raw


@FUZZ
@given(st.lists(image_bytes(), min_size=1, max_size=3), st.sampled_from([[], ["--game", "fenn", "--find-board"],
                                                                         ["--find-tray"], ["--expect", "5"]]))
def test_read_images(images, extra):
    with tempfile.TemporaryDirectory() as d:
        paths = []
        for i, raw in enumerate(images):
            paths.append(os.path.join(d, f"{i}.png"))
            with open(paths[-1], "wb") as f:
                f.write(raw)
        code, out, err = call("read", "--json", *extra, *paths)
        assert code in (0, 1)
        assert len(out.strip().splitlines()) == len(paths), out  # one line per image, good or bad


_BASE: list[str] = []


def base_store() -> str:
    """A data folder with a Durchmarsch game, a finished one and a Fenn game with a hint (made once)."""
    if not _BASE:
        from companion.fenn import BlackThrow
        from companion.session import GameSession
        from companion.storage import Store

        d = tempfile.mkdtemp(prefix="companion-fuzz-")
        s = GameSession(Store(d))
        s.start(["Anna", "Ben"], first=0)
        s.throw([6, 4, 1, 1, 1, 1, 1, 1], frame=np.zeros((40, 60, 3), np.uint8))
        s.decide("stop")
        s.start(["Dora", "Emil"], first=0, game="fenn")
        s.apply(BlackThrow(6))
        s.store.note(s.game_id, "hint", {"move": [3, 2]})
        s.store.close()
        _BASE.append(d)
    return _BASE[0]


CELLS = [("games", c) for c in ("game", "players", "first", "started", "finished", "winner", "options")] + \
        [("events", c) for c in ("event", "frame", "ts", "seq")] + [("notes", c) for c in ("data", "kind", "seq")]
cell = st.one_of(st.none(), st.integers(), st.floats(), text, weird, st.binary(max_size=20),
                 json_value.map(lambda v: json.dumps(v)), st.sampled_from(['["A", "B"]', '{"throw": [9]}',
                                                                         '[6]', '{"black": "6"}', "null"]))


@FUZZ
@given(st.lists(st.tuples(st.sampled_from(CELLS), cell, st.integers(1, 2)), min_size=1, max_size=3))
def test_database_rows(changes):
    with tempfile.TemporaryDirectory() as d:
        data = os.path.join(d, "data")
        shutil.copytree(base_store(), data)
        db = sqlite3.connect(os.path.join(data, "companion.db"), isolation_level=None)
        for (table, column), value, gid in changes:
            key = "id" if table == "games" else "game_id"
            try:
                db.execute(f"UPDATE {table} SET {column}=? WHERE {key}=?", (value, gid))
            except (sqlite3.Error, OverflowError):
                pass  # a constraint, or an integer SQLite cannot hold: the row stays
        db.close()
        cfg = os.path.join(d, "c.toml")
        with open(cfg, "w") as f:
            f.write(f"[app]\ndata_dir = {json.dumps(data)}\n")
        for args in (["games"], ["games", "--json"], ["stats"], ["stats", "--game", "fenn", "--json"],
                     ["export", "1"], ["export", "2"]):
            code, _, err = call(*args, "--config", cfg)
            if code:
                assert len([line for line in err.splitlines() if "error" in line]) == 1, err


@FUZZ
@given(st.one_of(json_value.map(lambda v: json.dumps(v).encode()), st.binary(max_size=100),
                 st.fixed_dictionaries({}, optional={"app": st.dictionaries(st.sampled_from(KEYS["app"]), number),
                                                     "gpio": st.dictionaries(st.sampled_from(KEYS["gpio"]), number),
                                                     "pin_hash": number}).map(lambda v: json.dumps(v).encode())))
def test_settings_files(raw):
    with tempfile.TemporaryDirectory() as d:
        with open(os.path.join(d, "settings.json"), "wb") as f:
            f.write(raw)
        COUNT["cases"] += 1
        try:
            load_settings(d)
        except SettingsError as e:
            assert "\n" not in str(e)


def test_zz_count(capsys):
    """Print the total (the figure in docs/robustness.md)."""
    with capsys.disabled():
        print(f"\nfuzz: {COUNT['cases']} cases through the command line, {COUNT['tracebacks']} tracebacks")
    assert COUNT["tracebacks"] == 0
