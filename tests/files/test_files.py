"""Files the user names are read and written as untrusted input."""

from __future__ import annotations

import errno
import os
import stat
import subprocess
import sys
import threading

import pytest

from quiddler.errors import QuiddlerError
from quiddler.files import (
    MAX_JSON_DEPTH,
    FileInUseError,
    FileLock,
    FileRefusedError,
    check_writable,
    json_depth,
    loads_json,
    nesting_depth,
    read_bytes,
    read_text,
    write_atomic,
)

# -- reading ------------------------------------------------------------------


def test_a_regular_file_is_read_whole(tmp_path):
    path = tmp_path / "words.txt"
    path.write_bytes(b"cat\ndog\n")
    assert read_bytes(path, limit=100) == b"cat\ndog\n"
    assert read_text(path, limit=8) == "cat\ndog\n"


@pytest.mark.timeout(10)
def test_a_fifo_is_refused_at_once_not_waited_on(fifo):
    with pytest.raises(FileRefusedError, match="is a FIFO, not a regular file"):
        read_bytes(fifo, limit=100)


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/full", "/dev/null"])
def test_a_device_is_refused(device):
    with pytest.raises(FileRefusedError, match="character device"):
        read_bytes(device, limit=100)


def test_a_link_to_a_device_is_refused(tmp_path):
    link = tmp_path / "save.json"
    link.symlink_to("/dev/zero")
    with pytest.raises(FileRefusedError, match="character device"):
        read_bytes(link, limit=100)


def test_a_directory_is_refused(tmp_path):
    with pytest.raises(FileRefusedError, match="is a directory"):
        read_bytes(tmp_path, limit=100)


def test_a_loop_of_links_is_refused(tmp_path):
    (tmp_path / "a").symlink_to(tmp_path / "b")
    (tmp_path / "b").symlink_to(tmp_path / "a")
    with pytest.raises(FileRefusedError, match="loop of symbolic links"):
        read_bytes(tmp_path / "a", limit=100)


def test_a_file_over_the_limit_is_refused_without_reading_it(tmp_path):
    path = tmp_path / "big.txt"
    with open(path, "wb") as out:
        out.truncate(100 * 1024 * 1024)  # 100 MB, sparse
    with pytest.raises(FileRefusedError, match="too large: 104,857,600 bytes, at most 1,000"):
        read_bytes(path, limit=1000)


def test_a_missing_file_is_still_file_not_found(tmp_path):
    with pytest.raises(FileNotFoundError) as caught:
        read_bytes(tmp_path / "nope", limit=10)
    assert "nope" in str(caught.value)


def test_refusals_are_quiddler_errors_and_os_errors(fifo):
    with pytest.raises(QuiddlerError):
        read_bytes(fifo, limit=1)
    with pytest.raises(OSError):
        read_bytes(fifo, limit=1)


# -- writing ------------------------------------------------------------------


def test_a_write_replaces_the_file_whole(tmp_path):
    path = tmp_path / "save.json"
    path.write_text("old")
    path.chmod(0o640)
    write_atomic(path, "new")
    assert path.read_text() == "new"
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["save.json"]


def test_a_write_through_a_link_keeps_the_link(tmp_path):
    target = tmp_path / "real.json"
    target.write_text("old")
    link = tmp_path / "link.json"
    link.symlink_to(target)
    write_atomic(link, "new")
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert target.read_text() == "new"


def test_a_dangling_link_writes_its_target(tmp_path):
    link = tmp_path / "link.json"
    link.symlink_to(tmp_path / "later.json")
    write_atomic(link, "made")
    assert link.is_symlink() and (tmp_path / "later.json").read_text() == "made"


def test_a_write_that_fails_part_way_leaves_the_old_file(tmp_path, monkeypatch):
    path = tmp_path / "save.json"
    path.write_text("the previous save")

    def full(fd):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(FileRefusedError, match="No space left on device"):
        write_atomic(path, "x" * 10_000)
    assert path.read_text() == "the previous save"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["save.json"]  # no temporary file left


def test_a_write_over_a_file_size_limit_leaves_the_old_file(tmp_path):
    """A real failure, not a stand-in: the child may write at most 1 kB."""
    path = tmp_path / "save.json"
    path.write_text("the previous save")
    code = (
        "import resource, signal, sys\n"
        "signal.signal(signal.SIGXFSZ, signal.SIG_IGN)\n"
        "resource.setrlimit(resource.RLIMIT_FSIZE, (1024, 1024))\n"
        "from quiddler.files import write_atomic\n"
        f"write_atomic({str(path)!r}, 'x' * 100_000)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], check=False, capture_output=True, text=True)
    assert result.returncode != 0 and "FileRefusedError" in result.stderr
    assert path.read_text() == "the previous save"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["save.json"]


@pytest.mark.timeout(10)
@pytest.mark.parametrize("kind", ["fifo", "device", "directory"])
def test_a_write_to_what_is_not_a_regular_file_is_refused_and_leaves_it(kind, tmp_path, fifo):
    target = {"fifo": fifo, "device": "/dev/full", "directory": tmp_path}[kind]
    with pytest.raises(FileRefusedError, match="not a regular file"):
        write_atomic(target, "data")
    with pytest.raises(FileRefusedError, match="not a regular file"):
        check_writable(target)
    if kind == "fifo":
        assert stat.S_ISFIFO(os.stat(fifo).st_mode)


def test_a_folder_that_cannot_be_written_is_found_before_writing(unwritable_folder):
    with pytest.raises(FileRefusedError, match="cannot write"):
        check_writable(unwritable_folder / "save.json")
    with pytest.raises(FileRefusedError, match="cannot write"):
        write_atomic(unwritable_folder / "save.json", "data")


def test_a_missing_folder_is_found_before_writing(tmp_path):
    with pytest.raises(FileRefusedError, match="no folder"):
        check_writable(tmp_path / "nowhere" / "save.json")


def test_a_writable_place_passes_and_is_left_clean(tmp_path):
    check_writable(tmp_path / "save.json")
    assert list(tmp_path.iterdir()) == []


# -- locking ------------------------------------------------------------------


def test_a_second_holder_is_refused_at_once(tmp_path):
    path = tmp_path / "save.json"
    with FileLock(path), pytest.raises(FileInUseError, match="in use by another game"):
        FileLock(path).acquire()
    with FileLock(path):  # free again once released
        pass
    assert list(tmp_path.iterdir()) == []  # the lock file goes with the lock


def test_a_lock_holds_across_processes(tmp_path):
    path = tmp_path / "save.json"
    code = f"from quiddler.files import FileLock\nFileLock({str(path)!r}).acquire()\n"
    with FileLock(path):
        other = subprocess.run([sys.executable, "-c", code], check=False, capture_output=True, text=True)
    assert other.returncode != 0 and "in use by another game" in other.stderr
    free = subprocess.run([sys.executable, "-c", code], check=False, capture_output=True, text=True)
    assert free.returncode == 0, free.stderr


def test_a_lock_taken_through_a_link_is_the_targets_lock(tmp_path):
    target = tmp_path / "real.json"
    link = tmp_path / "link.json"
    link.symlink_to(target)
    with FileLock(target), pytest.raises(FileInUseError):
        FileLock(link).acquire()


def test_racing_lockers_never_both_hold_it(tmp_path):
    path = tmp_path / "save.json"
    holders, overlaps = [], []
    barrier = threading.Barrier(4)

    def race():
        barrier.wait()
        for _ in range(200):
            lock = FileLock(path)
            try:
                lock.acquire()
            except FileInUseError:
                continue
            holders.append(1)
            if len(holders) > 1:
                overlaps.append(1)
            holders.pop()
            lock.release()

    threads = [threading.Thread(target=race) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not overlaps


# -- parsed data --------------------------------------------------------------


def test_depth_counts_brackets_outside_strings_only():
    assert json_depth("[]") == 1
    assert json_depth('{"a": [{"b": []}]}') == 4
    assert json_depth('["[[[[", "\\"[[["]') == 1
    assert json_depth("3") == 0


def test_deep_json_is_refused_with_a_value_error():
    with pytest.raises(ValueError, match="nested 100,000 levels deep|nested 100000 levels deep"):
        loads_json("[" * 100_000)
    with pytest.raises(ValueError, match="levels deep"):
        loads_json('{"rules": {"round_sizes": ' + "[" * 5000 + "]" * 5000 + "}}")


def test_ordinary_json_loads_as_before():
    assert loads_json('{"a": [1, 2, {"b": null}]}') == {"a": [1, 2, {"b": None}]}
    with pytest.raises(ValueError):  # malformed: json's own error, a ValueError
        loads_json("{")


def test_nesting_depth_counts_containers_without_recursion():
    assert nesting_depth(3) == 0 and nesting_depth([]) == 1 and nesting_depth({"a": [1, (2,)]}) == 3
    deep: object = 0
    for _ in range(100_000):
        deep = [deep]
    assert nesting_depth(deep) == MAX_JSON_DEPTH + 1  # counting stops past the bound
    assert nesting_depth(deep, limit=10**6) == 100_000


def test_nesting_depth_of_a_value_that_contains_itself_ends():
    looped: list[object] = [1]
    looped.append(looped)
    assert nesting_depth(looped, limit=50) == 51
