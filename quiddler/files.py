"""The files a user names, read and written as untrusted input.

A path on the command line, in a save or in a game record may name anything:
a FIFO that never answers, a device that never ends (``/dev/zero``), a
directory, a symbolic link to any of those or to itself, or a file far
larger than any word list.  Reading one with ``Path.read_text`` hangs or
takes all memory, so every file quiddler reads goes through
:func:`read_bytes`: only a regular file is read, and never more than a
stated size.

Writing keeps what is there: :func:`write_atomic` writes a temporary file
beside the target and renames it over, so a write that fails part-way (a
full disk, a size limit) leaves the previous file whole.  A symbolic link is
followed to its target, never replaced by a file of its own.
:func:`check_writable` finds a save that cannot happen before a game starts
rather than after it ends, and :class:`FileLock` stops two programs from
writing one file at the same time.

Parsed data is bounded too: :func:`loads_json` refuses JSON nested deeper
than any record of ours (deep nesting makes :mod:`json` and every walk over
the result raise ``RecursionError``).
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import stat
from pathlib import Path
from types import TracebackType
from typing import Any, Self

from .errors import QuiddlerError

__all__ = [
    "MAX_JSON_DEPTH",
    "FileInUseError",
    "FileLock",
    "FileRefusedError",
    "check_writable",
    "json_depth",
    "loads_json",
    "nesting_depth",
    "open_regular",
    "read_bytes",
    "read_text",
    "write_atomic",
]

#: Nesting deeper than this is refused: a game record nests five levels.
MAX_JSON_DEPTH = 32


class FileRefusedError(QuiddlerError, OSError):
    """A named file is not one quiddler will read or write: not a regular
    file, too large, or in a folder that cannot be written."""


class FileInUseError(FileRefusedError):
    """Another program holds the file's lock (another game saving to it)."""


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISCHR(mode):
        return "a character device"
    if stat.S_ISBLK(mode):
        return "a block device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def _oserror(path: Path | str, exc: OSError) -> OSError:
    """``exc`` with a message that names the path, the same class kept
    (``FileNotFoundError`` stays one, for callers that say "no such file")."""
    if exc.errno == errno.ELOOP:
        return FileRefusedError(f"'{path}' is a loop of symbolic links")
    reason = exc.strerror or str(exc)
    made = type(exc)(exc.errno, reason) if exc.errno is not None else type(exc)(reason)
    made.filename = str(path)
    return made


def open_regular(path: Path | str, flags: int, mode: int = 0o644) -> int:
    """A descriptor of the regular file at ``path``, opened with ``flags``
    (``os.O_RDONLY``, or ``os.O_RDWR | os.O_CREAT``...) and set to block.

    It is opened without blocking, so that a FIFO is refused at once rather
    than waited on, and anything but a regular file raises
    :class:`FileRefusedError`; other ``OSError``\\ s (no such file, no
    permission) come as they are, naming the path."""
    try:
        fd = os.open(path, flags | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0), mode)
    except OSError as exc:
        raise _oserror(path, exc) from None
    kind = os.fstat(fd).st_mode
    if not stat.S_ISREG(kind):
        os.close(fd)
        raise FileRefusedError(f"'{path}' is {_kind(kind)}, not a regular file")
    os.set_blocking(fd, True)
    return fd


def read_bytes(path: Path | str, *, limit: int) -> bytes:
    """The contents of the regular file at ``path``, at most ``limit`` bytes.

    Raises :class:`FileRefusedError` for anything but a regular file (opened
    without blocking, so a FIFO is refused at once rather than waited on) and
    for a file larger than ``limit``; other ``OSError``\\ s (no such file, no
    permission) as they come, naming the path."""
    fd = open_regular(path, os.O_RDONLY)
    try:
        size = os.fstat(fd).st_size
        if size > limit:
            raise FileRefusedError(f"'{path}' is too large: {size:,} bytes, at most {limit:,}")
        chunks: list[bytes] = []
        total = 0
        # The first read asks for the whole file and one byte more: a file that
        # did not change comes in one piece, which ``join`` returns as it is
        # (reading it in pieces and joining them copied a cached card trie
        # once more on every start).
        step = max(size + 1, 1 << 16)
        while True:
            chunk = os.read(fd, min(step, limit + 1 - total))
            if not chunk:
                return b"".join(chunks)
            chunks.append(chunk)
            total += len(chunk)
            if total > limit:  # it grew while being read
                raise FileRefusedError(f"'{path}' is too large: over {limit:,} bytes")
    except FileRefusedError:
        raise
    except OSError as exc:
        raise _oserror(path, exc) from None
    finally:
        os.close(fd)


def read_text(path: Path | str, *, limit: int) -> str:
    """:func:`read_bytes` decoded as UTF-8; a file that is not UTF-8 raises
    ``UnicodeDecodeError``."""
    return read_bytes(path, limit=limit).decode("utf-8")


def _target(path: Path | str) -> Path:
    """Where a write to ``path`` lands: a symbolic link's final target (made
    absolute), or the path itself."""
    try:
        return Path(os.path.realpath(path, strict=False))
    except OSError as exc:  # a loop of links, on Pythons that raise for it
        raise _oserror(path, exc) from None


def _check_target(path: Path | str, target: Path) -> None:
    try:
        mode = os.stat(target).st_mode
    except FileNotFoundError:
        mode = None
    except OSError as exc:
        raise _oserror(path, exc) from None
    if mode is not None and not stat.S_ISREG(mode):
        raise FileRefusedError(f"cannot write '{path}': it is {_kind(mode)}, not a regular file")
    folder = target.parent
    if not folder.is_dir():
        raise FileRefusedError(f"cannot write '{path}': no folder '{folder}'")


def check_writable(path: Path | str) -> None:
    """Raise :class:`FileRefusedError` now if :func:`write_atomic` to
    ``path`` would fail for a reason known in advance: the target is not a
    regular file, its folder is missing, or no file can be made in it (no
    permission, a read-only file system).  Checked by making and removing a
    temporary file there: permission bits alone do not tell (root, ACLs, a
    read-only mount)."""
    target = _target(path)
    _check_target(path, target)
    import tempfile  # here: reading files (every solve's word list) never needs it

    try:
        with tempfile.NamedTemporaryFile(dir=target.parent, prefix=f".{target.name}.", suffix=".check"):
            pass
    except OSError as exc:
        raise FileRefusedError(f"cannot write '{path}': {exc.strerror or exc}") from None


def write_atomic(path: Path | str, data: bytes | str) -> None:
    """Write ``data`` to ``path`` whole or not at all.

    The data goes to a temporary file in the target's folder, is flushed to
    disk, and is renamed over the target, so a reader (or a crash) sees the
    old contents or the new, never part of either.  A symbolic link is
    followed: its target is replaced, the link stays.  A new file gets the
    permissions the umask gives; an existing one keeps its own."""
    raw = data.encode("utf-8") if isinstance(data, str) else data
    target = _target(path)
    _check_target(path, target)
    try:
        mode = target.stat().st_mode & 0o777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    import tempfile

    tmp = None
    try:
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
        with os.fdopen(fd, "wb") as out:
            out.write(raw)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, target)
        tmp = None
    except OSError as exc:
        raise FileRefusedError(f"cannot write '{path}': {exc.strerror or exc}") from None
    finally:
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp)


class FileLock:
    """An exclusive lock on ``path`` across processes, held while the
    context is open: ``with FileLock(save): ...``.

    The lock is an ``flock`` on a small file beside the target
    (``.NAME.lock``), not on the target itself, which each atomic write
    replaces with a new file.  It is taken without waiting: a second holder
    gets :class:`FileInUseError` at once.  The lock file is removed on
    release."""

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        target = _target(path)
        self.lock_path = target.parent / f".{target.name}.lock"
        self._fd: int | None = None

    def acquire(self) -> None:
        import fcntl

        while True:
            try:
                fd = os.open(self.lock_path, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o644)
            except OSError as exc:
                raise FileRefusedError(f"cannot lock '{self.path}': {exc.strerror or exc}") from None
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                raise FileInUseError(f"'{self.path}' is in use by another game: choose another file") from None
            # The holder before us may have removed the lock file after we
            # opened it: then our lock is on a file nobody else will open.
            try:
                same = os.stat(self.lock_path).st_ino == os.fstat(fd).st_ino
            except FileNotFoundError:
                same = False
            if same:
                self._fd = fd
                return
            os.close(fd)

    def release(self) -> None:
        if self._fd is None:
            return
        with contextlib.suppress(OSError):
            os.unlink(self.lock_path)
        os.close(self._fd)
        self._fd = None

    def __enter__(self) -> Self:
        self.acquire()
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.release()


_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKET = re.compile(r"[\[\]{}]")


def json_depth(text: str) -> int:
    """How deeply ``text``'s arrays and objects nest (brackets inside
    strings do not count).

    >>> json_depth('{"a": [1, [2]], "b": "[[["}')
    3
    """
    depth = deepest = 0
    for match in _BRACKET.finditer(_STRING.sub('""', text)):
        if match.group() in "[{":
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest


def nesting_depth(value: Any, *, limit: int = MAX_JSON_DEPTH) -> int:
    """How deeply the lists, tuples and dicts in ``value`` nest (0 for a
    scalar), counted without recursion and only up to ``limit + 1``: a value
    built in Python may nest deeper than any recursion allows, or contain
    itself.

    >>> nesting_depth({"a": [1, [2]]}), nesting_depth(3)
    (3, 0)
    """
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children: Any = item.values()
        elif isinstance(item, (list, tuple)):
            children = item
        else:
            continue
        depth += 1
        deepest = max(deepest, depth)
        if deepest > limit:
            return deepest
        stack.extend((child, depth) for child in children)
    return deepest


def loads_json(text: str, *, max_depth: int = MAX_JSON_DEPTH) -> Any:
    """``json.loads(text)``, refusing nesting deeper than ``max_depth`` with
    a ``ValueError`` (``json.JSONDecodeError`` for malformed JSON, as
    before) instead of a ``RecursionError`` from here or from whatever walks
    the result."""
    depth = json_depth(text)
    if depth > max_depth:
        raise ValueError(f"JSON nested {depth} levels deep (at most {max_depth})")
    import json  # here: a solve reads no JSON

    return json.loads(text)
