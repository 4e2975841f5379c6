"""Printing and prompting: ``rich`` colour on a terminal, plain text otherwise.

Plain mode (stdout not a terminal, ``NO_COLOR`` set, or ``--plain``) prints
the same renderables with every style dropped and no cursor movement, lines
stripped of trailing blanks, so a transcript can be scripted, diffed and
tested.  When input does not come from a terminal, each line read is echoed
after its prompt, so the transcript shows the moves too.

Input is read so that no line can end the game: stdin's decoder keeps
bytes that are not text (``surrogateescape``) instead of failing on the
whole buffered chunk, and :meth:`Screen.ask` explains such a line and asks
again, so the valid lines before and after it still count.
"""

from __future__ import annotations

import io
import os
import sys
import time
from contextlib import AbstractContextManager, nullcontext
from typing import IO

from rich.console import Console, RenderableType
from rich.text import Text

__all__ = ["Screen"]

#: Seconds between a computer player's moves when a person is watching.
HUMAN_PACE = 0.8
#: At most this many seconds of pauses for all the computer players between two of the person's
#: prompts: with many opponents each move's pause shrinks, so the table's turn takes a bounded time.
TABLE_PACE = 1.5
_PLAIN_WIDTH = 1000  # plain text is never wrapped: a line is a line, whatever its length


class Screen:
    """Where the game is shown and moves are read from."""

    def __init__(self, *, plain: bool, pace: float = 0.0, echo_input: bool = False,
                 stdin: IO[str] | None = None, stdout: IO[str] | None = None) -> None:  # fmt: skip
        self.plain = plain
        self.pace = pace
        self.echo_input = echo_input
        self._stdin = stdin if stdin is not None else sys.stdin
        _keep_undecodable_bytes(self._stdin)
        self._paused = 0.0  # seconds paused since the last prompt
        self._stdout = stdout if stdout is not None else sys.stdout
        if plain:
            self._console = Console(file=io.StringIO(), force_terminal=False, no_color=True, highlight=False,
                                    emoji=False, markup=False, width=_PLAIN_WIDTH, soft_wrap=True)  # fmt: skip
        else:
            self._console = Console(file=self._stdout, highlight=False, emoji=False, markup=False)

    @classmethod
    def for_terminal(cls, *, plain: bool = False, pace: float | None = None) -> Screen:
        """Colour when stdout is a terminal and ``NO_COLOR`` is unset; a
        person's pace when both ends are a terminal, instant when scripted."""
        out_tty, in_tty = _isatty(sys.stdout), _isatty(sys.stdin)
        plain = plain or not out_tty or bool(os.environ.get("NO_COLOR"))
        if pace is None:
            pace = HUMAN_PACE if out_tty and in_tty else 0.0
        if in_tty:
            try:  # line editing and history at the prompt (input() uses it once imported)
                import readline  # noqa: F401
            except ImportError:  # pragma: no cover - not on every platform
                pass
        return cls(plain=plain, pace=pace, echo_input=not in_tty)

    def show(self, *renderables: RenderableType) -> None:
        if not self.plain:
            for renderable in renderables:
                self._console.print(renderable)
            return
        buffer = self._console.file
        assert isinstance(buffer, io.StringIO)
        for renderable in renderables:
            self._console.print(renderable)
        text = buffer.getvalue()
        buffer.seek(0)
        buffer.truncate()
        self._stdout.write("\n".join(line.rstrip() for line in text.split("\n")))
        self._stdout.flush()

    def say(self, message: str, style: str = "") -> None:
        self.show(Text(message, style=style))

    def problem(self, message: str) -> None:
        """A short explanation of why the input was not taken."""
        self.show(Text(message, style="red"))

    def blank(self) -> None:
        self.show(Text(""))

    def ask(self, prompt: str) -> str:
        """One line of input (without its newline); a line that is not text
        (bytes the input's encoding cannot decode) is explained and asked
        again.  Raises EOFError at the end of input and KeyboardInterrupt on Ctrl-C."""
        self._paused = 0.0
        while True:
            try:
                line = self._read_line(prompt)
            except UnicodeDecodeError:  # a stream whose decoder could not be told to keep bad bytes
                line = "\udcff"
            except _LineTooLong as long:
                self.problem(f"that line is over {long.limit:,} characters long: type it again")
                continue
            if not _undecodable(line):
                return line
            self.problem(f"that line is not {_encoding(self._stdin)} text (bytes that are not characters): "
                         "type it again")  # fmt: skip

    def _read_line(self, prompt: str) -> str:
        label = f"{prompt}> "
        if not self.echo_input and self._stdin is sys.stdin:  # a person at a terminal: line editing, echo
            return self._console.input(Text(label, style="bold")) if not self.plain else input(label)
        if self.plain:
            self._stdout.write(label)
            self._stdout.flush()
        else:
            self._console.print(Text(label, style="bold"), end="")
        line = _read_bounded_line(self._stdin)
        if line is None:
            self.say("")
            raise EOFError
        if self.plain:
            self._stdout.write(_printable(line) + "\n" if self.echo_input else "")
            self._stdout.flush()
        elif self.echo_input:
            self._console.print(_printable(line))
        return line

    def working(self, message: str) -> AbstractContextManager[object]:
        """A spinner while the computer works out a move (terminal only: no cursor tricks in plain mode)."""
        if self.plain:
            return nullcontext()
        return self._console.status(message, spinner="dots")

    def forget_typeahead(self) -> None:
        """Drop keys typed while the computer was playing, so a move is only
        ever typed after seeing the table it answers (terminal input only)."""
        if self.echo_input or self._stdin is not sys.stdin:
            return
        try:
            import termios

            termios.tcflush(self._stdin.fileno(), termios.TCIFLUSH)
        except (ImportError, OSError, ValueError, AttributeError):
            pass  # not a POSIX terminal: nothing to drop

    def new_table(self) -> None:
        """Start the pause budget of a new table of computer moves (what a
        prompt does; ``auto round`` plays the person's turns without one)."""
        self._paused = 0.0

    def pause(self, moves: int = 1) -> None:
        """Let a person follow the computer players' moves: ``moves`` is how
        many computer moves come between two of the person's prompts, so the
        pauses of a whole table add up to at most :data:`TABLE_PACE` seconds
        (``pace`` per move when that is less); and never more than that
        between two prompts, whatever happens between them (a round's end
        and the next round's first moves)."""
        if self.pace > 0:
            step = min(self.pace, TABLE_PACE / max(1, moves), max(0.0, TABLE_PACE - self._paused))
            if step > 0:
                time.sleep(step)
                self._paused += step


#: The longest line read from a pipe or file; a longer one is skipped to its end and explained.
MAX_LINE = 65_536


class _LineTooLong(Exception):
    def __init__(self, limit: int) -> None:
        super().__init__(limit)
        self.limit = limit


def _read_bounded_line(stream: IO[str], limit: int = MAX_LINE) -> str | None:
    """One line without its line ending, None at the end of input; a line
    longer than ``limit`` is read to its end in ``limit``-sized pieces (so
    memory stays bounded) and raises :class:`_LineTooLong`."""
    line = stream.readline(limit + 1)
    if not line:
        return None
    if len(line) > limit and not line.endswith("\n"):
        while True:
            rest = stream.readline(limit)
            if not rest or rest.endswith("\n"):
                raise _LineTooLong(limit)
    return line.rstrip("\r\n")


def _keep_undecodable_bytes(stream: IO[str]) -> None:
    """Make a text stream's decoder keep bytes it cannot decode as lone
    surrogates, line by line, instead of raising on (and losing) a whole
    buffered chunk of input."""
    reconfigure = getattr(stream, "reconfigure", None)
    if reconfigure is None:
        return
    try:
        reconfigure(errors="surrogateescape")
    except (ValueError, OSError, TypeError, AttributeError):  # pragma: no cover - a closed or odd stream
        pass


def _undecodable(line: str) -> bool:
    """Whether a line holds bytes its decoder kept as lone surrogates."""
    return any("\udc80" <= ch <= "\udcff" for ch in line)


def _printable(line: str) -> str:
    """The line with any lone surrogate shown as U+FFFD, so echoing it never fails."""
    return line.encode("utf-8", "replace").decode("utf-8") if _undecodable(line) else line


def _encoding(stream: IO[str]) -> str:
    name = getattr(stream, "encoding", None)
    return "UTF-8" if not isinstance(name, str) or name.lower().replace("-", "") == "utf8" else name


def _isatty(stream: IO[str]) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False
