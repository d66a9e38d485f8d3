"""systemd's watchdog: READY and WATCHDOG reach the notify socket while the UI loop runs, and stop when it hangs."""

import os
import socket
import threading
import time

import pytest

from hardware.watchdog import Notifier


@pytest.fixture
def notify_socket(tmp_path):
    path = str(tmp_path / "notify")
    s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    s.bind(path)
    s.settimeout(0.05)
    yield path, s
    s.close()


def _received(s):
    """The notifications queued on the socket now."""
    got = []
    s.setblocking(False)
    while True:
        try:
            got.append(s.recv(4096).decode())
        except BlockingIOError:
            return got


def test_ready_and_the_watchdog_interval(notify_socket):
    path, s = notify_socket
    n = Notifier(env={"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "30000000"})
    assert n.enabled and n.interval() == 15.0
    assert n.ready("playing")
    assert _received(s) == ["READY=1\nSTATUS=playing"]


def test_a_hung_ui_loop_stops_the_pings(notify_socket):
    """A stand-in UI loop pings every 20 ms; when it hangs, no ping arrives, as systemd would see."""
    path, s = notify_socket
    n = Notifier(env={"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "40000"})
    hang = threading.Event()
    stop = threading.Event()

    def ui_loop():
        while not stop.is_set():
            if hang.is_set():
                time.sleep(0.01)  # stuck: a hung callback never returns to the loop
                continue
            n.ping()
            time.sleep(n.interval())

    t = threading.Thread(target=ui_loop, daemon=True)
    t.start()
    time.sleep(0.3)
    alive = _received(s)
    hang.set()
    time.sleep(0.05)
    _received(s)
    time.sleep(0.3)
    hung = _received(s)
    stop.set()
    t.join(1)
    assert len(alive) >= 5 and set(alive) == {"WATCHDOG=1"}
    assert hung == []


def test_outside_systemd_nothing_is_sent_and_a_dead_socket_is_no_error(tmp_path):
    assert not Notifier(env={}).ping()
    n = Notifier(env={"NOTIFY_SOCKET": str(tmp_path / "gone")})
    assert n.enabled and not n.ready() and not n.ping()


def test_an_abstract_socket_name(tmp_path):
    name = f"dice-companion-test-{os.getpid()}"
    s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    s.bind("\0" + name)
    s.settimeout(0.5)
    try:
        assert Notifier(env={"NOTIFY_SOCKET": "@" + name}).ping()
        assert s.recv(100) == b"WATCHDOG=1"
    finally:
        s.close()
