"""Wheel build hook: ship the ENABLE card trie prebuilt inside the package.

Indexing ENABLE takes a few seconds, which a new user would otherwise wait
through on their first command.  This builds the trie with the very code
being packaged and adds it to the wheel as ``quiddler/data/enable.cardtrie``.
At run time it is only a first choice: it is read like any cache file
(regular file, size bound, checksum, the list's hash and this build's
version in its header, shape checks), so a damaged or stale copy is rebuilt
into the user cache, never trusted.  Editable installs skip it (the user
cache does the job in a checkout).
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


class CustomBuildHook(BuildHookInterface):  # type: ignore[misc]
    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel" or version == "editable":
            return
        sys.path.insert(0, self.root)
        try:
            from quiddler.wordlist import default_wordlist, write_prebuilt_trie
        finally:
            sys.path.remove(self.root)
        target = Path(tempfile.mkdtemp(prefix="quiddler-build-")) / "enable.cardtrie"
        write_prebuilt_trie(default_wordlist(), target)
        build_data["force_include"][str(target)] = "quiddler/data/enable.cardtrie"
