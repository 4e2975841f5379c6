"""Shared test settings, and the hostile files several subjects' tests use.

Hypothesis deadlines are off: the first numba call in a process compiles or
loads kernels (a second or more), which would trip any per-example deadline.
Set HYPOTHESIS_PROFILE=thorough for many more examples.
"""

import ctypes
import os
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "default", deadline=None, max_examples=100, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "thorough", deadline=None, max_examples=2000, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


@pytest.fixture
def fifo(tmp_path):
    """A FIFO nothing writes to: reading it, or opening it to write, waits forever."""
    path = tmp_path / "pipe"
    os.mkfifo(path)
    return path


@pytest.fixture
def unwritable_folder(tmp_path):
    """A folder in which no file can be made, even by root (CI runs as
    root, for whom permission bits do not count: there the folder is made
    immutable)."""
    folder = tmp_path / "locked"
    folder.mkdir()
    if os.geteuid() == 0:
        subprocess.run(["chattr", "+i", str(folder)], check=True)
        yield folder
        subprocess.run(["chattr", "-i", str(folder)], check=True)
    else:
        folder.chmod(0o555)
        yield folder
        folder.chmod(0o755)


def _without_file_overrides() -> None:  # pragma: no cover - runs in the child before exec
    """Drop the capabilities that let root ignore file modes (reading and
    searching anything: CAP_DAC_OVERRIDE, CAP_DAC_READ_SEARCH) from the
    bounding set, so the program about to run is held to file modes."""
    libc = ctypes.CDLL(None, use_errno=True)
    for capability in (1, 2):
        if libc.prctl(24, capability, 0, 0, 0) != 0:  # PR_CAPBSET_DROP
            raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP)")


def _run_held_to_file_modes(code: str, *args: str) -> subprocess.CompletedProcess[str]:
    import quiddler

    env = dict(os.environ, PYTHONPATH=os.path.dirname(os.path.dirname(quiddler.__file__)))
    hold = _without_file_overrides if os.geteuid() == 0 else None
    return subprocess.run([sys.executable, "-c", code, *args], env=env, capture_output=True, text=True,
                          timeout=120, check=False, preexec_fn=hold)  # fmt: skip


@pytest.fixture
def held_to_file_modes():
    """``run(code, *args)``: Python ``code`` run in a child process that
    file modes apply to, as any user's would, also when the tests run as
    root (as in CI): there the child is root without the capabilities that
    bypass file modes."""
    return _run_held_to_file_modes
