"""The simulate progress bar: the solver's notices print above it, never
into it, and it shows no time left while the rate means nothing yet (the
kernels compiling, the first games) - a first run would otherwise promise
minutes for what takes seconds."""

from __future__ import annotations

import importlib
import io
import sys

import pytest

command = importlib.import_module("quiddler.cli.simulate")

COMPILING = "quiddler: compiling the solver kernels in the background (once per install, about 10-30 s); solving in pure Python until they are ready\n"
COMPILED = "quiddler: solver kernels compiled in 12.3 s; using them from now on\n"


def _frames(text: str) -> list[str]:
    """What the terminal showed, frame by frame: the pieces between carriage returns and newlines."""
    return [piece for piece in text.replace("\r", "\n").split("\n") if piece.strip()]


def test_notices_go_above_the_bar_and_no_time_left_is_shown_while_compiling(monkeypatch: pytest.MonkeyPatch) -> None:
    screen = io.StringIO()
    monkeypatch.setattr(sys, "stderr", screen)
    monkeypatch.setattr(command, "_SETTLING_SECONDS", 0.0)
    with command._progress_bar(100, True) as bar:
        bar.update(1)
        sys.stderr.write(COMPILING)  # as the solver's notice handler writes it, to whatever stderr is now
        for _ in range(10):
            bar.update(1)
        while_compiling = screen.getvalue()
        sys.stderr.write(COMPILED)
        for _ in range(command._SETTLING_GAMES + 1):
            bar.update(1)
        bar.refresh()
        settled = screen.getvalue()
    assert sys.stderr is screen  # put back
    frames = _frames(while_compiling)
    assert COMPILING.strip() in frames  # a line of its own, not glued into a bar
    bars = [f for f in frames if f.startswith("games:")]
    assert bars and all("estimating the time left" in f and "game/s" not in f for f in bars)
    assert COMPILED.strip() in _frames(settled)
    last = [f for f in _frames(settled) if f.startswith("games:")][-1]
    assert "game/s" in last and "<" in last  # the rate and time left, once there is one to show


def test_without_a_compile_the_rate_shows_after_the_first_games(monkeypatch: pytest.MonkeyPatch) -> None:
    screen = io.StringIO()
    monkeypatch.setattr(sys, "stderr", screen)
    monkeypatch.setattr(command, "_SETTLING_SECONDS", 0.0)
    with command._progress_bar(50, True) as bar:
        bar.update(1)
        assert "estimating the time left" in _frames(screen.getvalue())[-1]
        for _ in range(command._SETTLING_GAMES + 1):
            bar.update(1)
        bar.refresh()
    assert "game/s" in [f for f in _frames(screen.getvalue()) if f.startswith("games:")][-1]


class _FinishedCompile:
    """A background compile that has just ended well (what ``Popen.poll`` says)."""

    returncode = 0

    def poll(self) -> int:
        return 0


def test_a_run_on_spawned_workers_says_when_the_kernels_are_compiled(monkeypatch: pytest.MonkeyPatch) -> None:
    from click.testing import CliRunner

    from quiddler.cli import main
    from quiddler.game import workers
    from quiddler.solver import _backends, _native

    auto = _backends.get_backend("auto")
    monkeypatch.setattr(workers, "start_method", lambda: "spawn")
    # This process started the compile (its first games, before the workers): it has just ended.
    monkeypatch.setattr(auto, "compiled", None)
    monkeypatch.setattr(auto, "_compiler", _FinishedCompile())
    monkeypatch.setattr(auto, "_next_poll", 0.0)
    monkeypatch.setattr(_native, "ready", lambda: True)
    result = CliRunner().invoke(main, ["simulate", "--games", "16", "--workers", "2", "--seed", "1", "--json"])
    assert result.exit_code == 0, result.stderr
    assert "quiddler: solver kernels compiled in " in result.stderr
