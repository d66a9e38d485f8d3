"""Settings changed on the screen, kept in ``<data_dir>/settings.json``.

The config file (:mod:`companion.config`) is the café owner's base; the
settings screen stores only what it changed, laid over it when the app
starts. The settings PIN is stored as a salted PBKDF2 hash, never in clear.

Example::

    >>> import tempfile
    >>> from companion.config import DEFAULTS
    >>> d = tempfile.mkdtemp()
    >>> save_settings(d, {"app": {"odds": False}, "pin_hash": hash_pin("4711")})
    >>> cfg = apply_settings(DEFAULTS, load_settings(d))
    >>> cfg["app"]["odds"], check_pin("4711", cfg), check_pin("1234", cfg)
    (False, True, False)
"""

from __future__ import annotations

import copy
import hashlib
import hmac
import json
import os
import secrets

from .config import DEFAULTS, ConfigError, merge, validate
from .files import InputError, read_input, short_path, write_atomically

__all__ = ["SETTINGS_FILE", "SettingsError", "load_settings", "save_settings", "apply_settings",
           "hash_pin", "check_pin"]

SETTINGS_FILE = "settings.json"
_ROUNDS = 100_000


class SettingsError(ValueError):
    """A settings file that cannot be used (the message names the file)."""


def load_settings(data_dir: str) -> dict:
    """The stored settings (``{}`` when none were saved).

    A file that is not regular, over 64 KiB, not UTF-8 JSON (or nested too
    deep), or holds keys or values the config does not accept (:func:`companion.config.validate`)
    raises :class:`SettingsError`; the file is left as it is for inspection.
    """
    path = os.path.join(data_dir, SETTINGS_FILE)
    name = short_path(path)
    try:
        data = json.loads(read_input(path, most=64 * 1024).decode("utf-8"))
    except FileNotFoundError:
        return {}
    except InputError as e:
        raise SettingsError(str(e)) from None
    except RecursionError:
        raise SettingsError(f"{name}: cannot be read: JSON nested too deep") from None
    except (OSError, ValueError) as e:
        raise SettingsError(f"{name}: cannot be read: {short_path(str(e), 120)}") from None
    if not isinstance(data, dict):
        raise SettingsError(f"{name}: must hold a JSON object")
    if not isinstance(data.get("pin_hash", ""), str):
        raise SettingsError(f"{name}: pin_hash must be text")
    apply_settings(DEFAULTS, data, source=name)  # raises SettingsError for what the config refuses
    return data


def save_settings(data_dir: str, settings: dict) -> None:
    """Write ``settings`` atomically (a power cut leaves the old or the new file,
    never half of one). Raises ``OSError`` when the folder cannot be written."""
    os.makedirs(data_dir, exist_ok=True)
    write_atomically(os.path.join(data_dir, SETTINGS_FILE),
                     json.dumps(settings, indent=1, sort_keys=True).encode("utf-8"))


def apply_settings(cfg: dict, settings: dict, *, source: str = SETTINGS_FILE) -> dict:
    """A copy of ``cfg`` with ``settings`` laid over it (``pin_hash`` kept at the top level).
    Raises :class:`SettingsError` (naming ``source``) for keys or values the config does not accept."""
    out = {k: (copy.deepcopy(v) if isinstance(v, dict) else v) for k, v in cfg.items()}
    try:
        merge(out, {k: v for k, v in settings.items() if k != "pin_hash"}, source)
        validate(out, source)
    except ConfigError as e:
        raise SettingsError(str(e)) from None
    if "pin_hash" in settings:
        out["pin_hash"] = settings["pin_hash"]
    return out


def hash_pin(pin: str) -> str:
    """A salted PBKDF2-SHA256 hash of ``pin`` (digits), as ``salt$hash`` in hex.
    Raises ``ValueError`` unless ``pin`` is 4-8 digits."""
    if not (pin.isdigit() and 4 <= len(pin) <= 8):
        raise ValueError("a PIN is 4 to 8 digits")
    salt = secrets.token_bytes(16)
    digest = hashlib.pbkdf2_hmac("sha256", pin.encode(), salt, _ROUNDS)
    return salt.hex() + "$" + digest.hex()


def check_pin(pin: str, cfg: dict) -> bool:
    """True when ``pin`` opens the settings: it matches the stored hash, or,
    before any PIN was set on the screen, the config's ``app.pin``."""
    stored = cfg.get("pin_hash")
    if not stored:
        return hmac.compare_digest(pin.encode(), str(cfg["app"]["pin"]).encode())
    try:
        salt, digest = stored.split("$")
        got = hashlib.pbkdf2_hmac("sha256", pin.encode(), bytes.fromhex(salt), _ROUNDS)
    except ValueError:
        return False
    return hmac.compare_digest(got.hex(), digest)


#: Wrong PINs allowed before the settings lock for a while.
PIN_TRIES = 5
#: The first wait after :data:`PIN_TRIES` wrong PINs, seconds; each further wrong PIN doubles it.
PIN_FIRST_WAIT = 30.0
#: The longest wait, seconds (a quarter of an hour).
PIN_LONGEST_WAIT = 900.0
#: The PIN the product ships with: the settings screen says so until it is changed.
DEFAULT_PIN = "1234"


class PinGuard:
    """The settings PIN with a growing delay after wrong guesses.

    After :data:`PIN_TRIES` wrong PINs in a row, the next try is refused for
    :data:`PIN_FIRST_WAIT` seconds, doubling with each further wrong PIN up
    to :data:`PIN_LONGEST_WAIT`; a right PIN resets it. Times are seconds of
    ``clock`` (``time.monotonic`` by default).

    >>> g = PinGuard(clock=lambda: 0.0)
    >>> [g.check("0000", {"app": {"pin": "1234"}}) for _ in range(5)]
    [False, False, False, False, False]
    >>> g.wait()
    30.0
    """

    def __init__(self, *, clock=None):
        import time

        self._clock = clock or time.monotonic
        self.wrong = 0
        self._until = 0.0

    def wait(self) -> float:
        """Seconds until the next try is taken (0 when it is taken now)."""
        return max(0.0, self._until - self._clock())

    def check(self, pin: str, cfg: dict) -> bool:
        """True when ``pin`` opens the settings (:func:`check_pin`). While a
        wait runs (:meth:`wait`) every try is refused without being checked."""
        if self.wait() > 0:
            return False
        if check_pin(pin, cfg):
            self.wrong, self._until = 0, 0.0
            return True
        self.wrong += 1
        if self.wrong >= PIN_TRIES:
            delay = min(PIN_LONGEST_WAIT, PIN_FIRST_WAIT * 2 ** (self.wrong - PIN_TRIES))
            self._until = self._clock() + delay
        return False


def uses_default_pin(cfg: dict) -> bool:
    """True while the settings open with the PIN the product ships with
    (:data:`DEFAULT_PIN`): none was set on the screen and the config's is it."""
    return not cfg.get("pin_hash") and str(cfg["app"]["pin"]) == DEFAULT_PIN


def remember(data_dir: str, section: str, key: str, value) -> None:
    """Keep one setting chosen at the table (the language on the start screen)
    in the settings file, so a restart keeps it. Raises ``OSError`` when the
    folder cannot be written and :class:`SettingsError` for a value the
    config refuses; the file is unchanged then."""
    try:
        saved = load_settings(data_dir)
    except SettingsError:
        saved = {}
    saved.setdefault(section, {})[key] = value
    apply_settings(DEFAULTS, saved)  # refuses a bad value before anything is written
    save_settings(data_dir, saved)
