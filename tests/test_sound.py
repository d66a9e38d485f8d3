"""Sounds through the Pi's audio: made as WAVs, played on the table's events, off in the settings."""

import wave

from hardware.sound import TONES, SoundPlayer, write_tones


class Played:
    def __init__(self):
        self.loaded, self.plays = [], 0

    def __call__(self, path):
        self.loaded.append(path)
        return self

    def play(self):
        self.plays += 1


def test_each_event_has_a_short_wav(tmp_path):
    paths = write_tones(str(tmp_path))
    assert set(paths) == set(TONES) == {"success", "misthrow", "win", "ask"}
    for event, path in paths.items():
        with wave.open(path) as w:
            secs = w.getnframes() / w.getframerate()
            assert w.getnchannels() == 1 and w.getsampwidth() == 2
            assert abs(secs - sum(d for _, d in TONES[event])) < 0.01 and secs < 1.0


def test_a_player_plays_each_event_once_loaded(tmp_path):
    backend = Played()
    p = SoundPlayer(str(tmp_path), backend=backend)
    assert p.play("success") and p.play("success") and p.play("win")
    assert backend.plays == 3 and len(backend.loaded) == 2 and p.played == ["success", "success", "win"]
    assert not p.play("nothing")


def test_sound_off_plays_nothing(tmp_path):
    backend = Played()
    p = SoundPlayer(str(tmp_path), enabled=False, backend=backend)
    assert not p.play("win") and backend.plays == 0


def test_no_audio_device_never_stops_the_game(tmp_path):
    p = SoundPlayer(str(tmp_path), backend=lambda path: None)  # SoundLoader finds no provider
    assert not p.play("ask")

    def broken(path):
        raise RuntimeError("ALSA: no card")

    assert not SoundPlayer(str(tmp_path), backend=broken).play("ask")
