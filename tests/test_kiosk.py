"""The kiosk install: the systemd unit and the config it writes (dry run)."""

import configparser
import os
import re
import shutil
import subprocess

from companion.config import load_config

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _dry_run(*args):
    p = subprocess.run(["bash", os.path.join(ROOT, "systemd", "install"), "--dry-run", *args],
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    parts = p.stdout.split("### ")[1:]
    return {part.split("\n", 1)[0]: part.split("\n", 1)[1] for part in parts}


def _verify(tmp_path, name, text):
    """``systemd-analyze verify`` finds nothing wrong with unit ``name`` (where it is installed)."""
    if not shutil.which("systemd-analyze"):
        return
    path = tmp_path / name
    path.write_text(text)
    p = subprocess.run(["systemd-analyze", "verify", str(path)], capture_output=True, text=True, timeout=60)
    # Only complaints about this host (no user pi, no /etc config, no venv here) are acceptable.
    bad = [line for line in p.stderr.splitlines()
           if name in line and "Failed to" not in line and "not found" not in line.lower()
           and "No such file" not in line and "is not executable" not in line and "user" not in line.lower()]
    assert not bad, p.stderr


def test_unit_starts_the_app_and_restarts_it(tmp_path):
    files = _dry_run("--user", "pi", "--pin", "4711")
    unit_text = files["/etc/systemd/system/dice-companion.service"]
    assert not re.search(r"@[A-Z]+@", unit_text)  # every placeholder filled
    unit = configparser.ConfigParser(strict=False, interpolation=None)
    unit.optionxform = str
    unit.read_string(unit_text)
    svc = unit["Service"]
    assert svc["ExecStart"] == f"{ROOT}/.venv/bin/companion kiosk --config /etc/dice-companion/config.toml"
    assert svc["Restart"] == "always" and svc["User"] == "pi"
    # systemd restarts a hung UI: the app notifies READY and pings the watchdog (hardware/watchdog.py).
    assert svc["Type"] == "notify" and int(svc["WatchdogSec"]) > 0 and svc["NotifyAccess"] == "main"
    # Hardened, with the data dir the one place written.
    assert svc["NoNewPrivileges"] == "yes" and svc["ProtectSystem"] == "strict" and svc["PrivateTmp"] == "yes"
    assert svc["ReadWritePaths"] == "/var/lib/dice-companion" and svc["UMask"] == "0077"
    assert "PrivateDevices" not in svc  # the display, GPIO and camera are devices
    assert unit["Install"]["WantedBy"] == "multi-user.target"
    _verify(tmp_path, "dice-companion.service", unit_text)


def test_kiosk_config_is_valid_and_full_screen(tmp_path):
    files = _dry_run("--pin", "4711")
    path = tmp_path / "config.toml"
    path.write_text(files["/etc/dice-companion/config.toml"])
    cfg = load_config(str(path))
    assert cfg["app"]["fullscreen"] and cfg["app"]["keyboard"] == "onscreen" and cfg["app"]["pin"] == "4711"
    assert cfg["app"]["data_dir"] == "/var/lib/dice-companion"


def test_bad_pin_is_refused():
    p = subprocess.run(["bash", os.path.join(ROOT, "systemd", "install"), "--dry-run", "--pin", "12ab"],
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 2 and "4-8 digits" in p.stderr


def test_the_tables_page_runs_beside_the_kiosk_read_only_and_only_when_enabled(tmp_path):
    files = _dry_run("--user", "pi", "--pin", "4711")
    text = files["/etc/systemd/system/dice-companion-web.service"]
    assert not re.search(r"@[A-Z]+@", text)
    unit = configparser.ConfigParser(strict=False, interpolation=None)
    unit.optionxform = str
    unit.read_string(text)
    svc = unit["Service"]
    cmd = f"{ROOT}/.venv/bin/companion web"
    assert svc["ExecStart"] == f"{cmd} --config /etc/dice-companion/config.toml"
    assert svc["ExecCondition"] == f"{cmd} --check --config /etc/dice-companion/config.toml"
    assert svc["User"] == "pi" and svc["Restart"] == "always" and int(svc["Nice"]) > 0
    assert svc["ProtectSystem"] == "strict" and svc["PrivateDevices"] == "yes"
    # The kiosk's config turns it on, on the café's network.
    path = tmp_path / "config.toml"
    path.write_text(files["/etc/dice-companion/config.toml"])
    cfg = load_config(str(path))
    assert cfg["web"]["enabled"] and cfg["web"]["listen"] == "0.0.0.0:8080"
    from companion.cli import main

    assert main(["web", "--check", "--config", str(path)]) == 0
    _verify(tmp_path, "dice-companion-web.service", text)
