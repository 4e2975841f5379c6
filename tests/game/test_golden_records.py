"""Golden records: game records written by earlier versions of the engine
must replay on this one, to the same deals, results and final scores.

tests/data/golden/v1 holds records of format 1 (written by the engine before
the turn limit, the per-round shuffles and the content hash of the word
list), v2 those of format 2; both were made by make_records.py there and are
never regenerated."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from quiddler.game.record import FORMATS, replay
from quiddler.wordlist import WordList, load_wordlist

GOLDEN = Path(__file__).parents[1] / "data" / "golden"
RECORDS = sorted(GOLDEN.glob("v*/*.json"))


def wordlist_for(record: dict[str, Any]) -> WordList | None:
    name = record["rules"]["wordlist"]
    return None if name == "ENABLE" else load_wordlist(GOLDEN / name)


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_golden_record_replays(path: Path) -> None:
    record = json.loads(path.read_text())
    assert record["format"] == FORMATS[int(path.parent.name[1:]) - 1]
    game = replay(record, wordlist_for(record))
    assert list(game.totals) == record["final_scores"]
    assert game.over == record["finished"]
    assert game.shuffle == record.get("shuffle", "single-stream")


def test_golden_records_cover_both_formats_and_the_features() -> None:
    v1 = [json.loads(p.read_text()) for p in RECORDS if p.parent.name == "v1"]
    v2 = [json.loads(p.read_text()) for p in RECORDS if p.parent.name == "v2"]
    assert len(v1) >= 12 and len(v2) >= 14
    assert any(not r["finished"] for r in v1) and any(not r["finished"] for r in v2)
    assert any(r["rules"]["wordlist"] != "ENABLE" for r in v1 + v2)
    assert any(entry["reshuffles"] for r in v2 for entry in r["rounds"])
    assert any(entry.get("result", {}).get("turn_limit") for r in v2 for entry in r["rounds"])


def test_format_1_records_do_not_depend_on_the_solvers_cache_key(monkeypatch: pytest.MonkeyPatch) -> None:
    """The perf branch changes WordList.digest (the card-trie cache key):
    old records hold the key of their day and must keep replaying."""
    monkeypatch.setattr(WordList, "digest", property(lambda self: "0" * 64))
    for path in RECORDS:
        record = json.loads(path.read_text())
        replay(record, wordlist_for(record))
