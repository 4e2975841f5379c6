"""Paths that name anything but an ordinary file, for the tests of every
surface that opens a file the user names (word lists, saves, logs,
batches): each must be refused at once and left as it was."""

from __future__ import annotations

import os
from pathlib import Path


def hostile_path(kind: str, folder: Path, name: str, head: bytes = b"cat\n") -> Path:
    """``folder / name`` made into ``kind``; a ``"100 MB file"`` starts with
    ``head`` (a plausible start of the file it poses as) and is sparse, so it
    takes no disk."""
    path = folder / name
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "link to /dev/zero":
        path.symlink_to("/dev/zero")
    elif kind == "link to /dev/full":
        path.symlink_to("/dev/full")
    elif kind == "directory":
        path.mkdir()
    elif kind == "loop of links":
        path.symlink_to(folder / f"other-{name}")
        (folder / f"other-{name}").symlink_to(path)
    elif kind == "100 MB file":
        with path.open("wb") as handle:
            handle.write(head)
            handle.truncate(100 << 20)
    else:
        raise AssertionError(f"no such kind of hostile path: {kind!r}")
    return path


def file_state(path: Path) -> tuple[int, int, int]:
    """What changes if anything writes to or replaces ``path`` (not following links)."""
    info = os.lstat(path)
    return info.st_mode, info.st_size, info.st_mtime_ns
