"""Short sounds through the Pi's audio (HDMI or a speaker on the jack or USB):
a mark, a misthrow, a win, a question. The GPIO piezo (:mod:`hardware.lights`)
beeps too where one is wired; this is for tables without one.

The sounds are made here as small WAV files (16-bit mono, 22,050 Hz) from
:data:`TONES`, so nothing is shipped or downloaded; they play through Kivy's
``SoundLoader`` (SDL2's audio), or any backend given.

    >>> import tempfile
    >>> paths = write_tones(tempfile.mkdtemp())
    >>> sorted(paths)
    ['ask', 'misthrow', 'success', 'win']
"""

from __future__ import annotations

import logging
import os
import wave

import numpy as np

__all__ = ["TONES", "RATE", "write_tones", "SoundPlayer"]

log = logging.getLogger(__name__)

#: Samples a second.
RATE = 22050

#: Each event's notes: ``(frequency Hz, seconds)``, 0 Hz a rest. A mark rises,
#: a misthrow falls, a win climbs a C major arpeggio, a question asks twice.
TONES = {
    "success": [(660.0, 0.08), (880.0, 0.12)],
    "misthrow": [(330.0, 0.15), (220.0, 0.25)],
    "win": [(523.25, 0.1), (659.25, 0.1), (783.99, 0.1), (1046.5, 0.35)],
    "ask": [(880.0, 0.08), (0.0, 0.06), (880.0, 0.08)],
}


def _samples(notes, volume: float = 0.5) -> np.ndarray:
    parts = []
    for freq, secs in notes:
        t = np.arange(int(RATE * secs)) / RATE
        tone = np.sin(2 * np.pi * freq * t) if freq > 0 else np.zeros_like(t)
        ramp = np.minimum(1.0, np.minimum(t, secs - t) / 0.008)  # no clicks at the ends
        parts.append(tone * ramp)
    return (np.concatenate(parts) * volume * 32767).astype(np.int16)


def write_tones(folder: str) -> dict[str, str]:
    """Write one WAV per event of :data:`TONES` into ``folder`` (created when
    missing; files already there are kept). Returns ``{event: path}``. Raises
    ``OSError`` when the folder cannot be written."""
    os.makedirs(folder, exist_ok=True)
    out = {}
    for event, notes in TONES.items():
        path = os.path.join(folder, f"{event}.wav")
        if not os.path.exists(path):
            tmp = path + ".tmp"
            with wave.open(tmp, "wb") as w:
                w.setnchannels(1)
                w.setsampwidth(2)
                w.setframerate(RATE)
                w.writeframes(_samples(notes).tobytes())
            os.replace(tmp, path)
        out[event] = path
    return out


class SoundPlayer:
    """Plays an event's sound (``success``, ``misthrow``, ``win``, ``ask``).

    ``folder``: where the WAVs are written; ``enabled``: sound on (the
    settings' *sound*); ``backend(path)``: returns an object with ``play()``
    (Kivy's ``SoundLoader.load`` by default, imported on first use). A
    missing audio device or a broken file is logged once and never stops the
    game.
    """

    def __init__(self, folder: str, *, enabled: bool = True, backend=None):
        self.enabled = enabled
        self.played: list[str] = []
        self._backend = backend
        self._sounds: dict[str, object] = {}
        self._warned = False
        try:
            self.paths = write_tones(folder)
        except OSError as e:
            log.warning("no sounds: %s", e)
            self.paths = {}

    def _load(self, event: str):
        if event not in self._sounds:
            if self._backend is None:
                from kivy.core.audio import SoundLoader

                self._backend = SoundLoader.load
            self._sounds[event] = self._backend(self.paths[event])
        return self._sounds[event]

    def play(self, event: str) -> bool:
        """Play ``event``'s sound; False when off, unknown or not playable."""
        if not self.enabled or event not in self.paths:
            return False
        try:
            sound = self._load(event)
            if sound is None:
                raise OSError("no audio output")
            sound.play()
        except Exception as e:  # no audio device on this machine
            if not self._warned:
                log.warning("cannot play sounds: %s", e)
                self._warned = True
            return False
        self.played.append(event)
        return True
