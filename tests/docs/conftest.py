"""The documentation site, built once per test session for the tests here."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def site_build(tmp_path_factory: pytest.TempPathFactory) -> subprocess.CompletedProcess[str]:
    """`mkdocs build --strict` of this tree, into a temporary folder."""
    site = tmp_path_factory.mktemp("docs") / "site"
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
        check=False, cwd=ROOT, capture_output=True, text=True, timeout=300,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},  # `-m` puts this tree first on the path
    )  # fmt: skip


@pytest.fixture(scope="session")
def site(site_build: subprocess.CompletedProcess[str]) -> Path:
    """The built site's folder; the build must have succeeded."""
    assert site_build.returncode == 0, site_build.stdout + site_build.stderr
    return Path(site_build.args[site_build.args.index("--site-dir") + 1])
