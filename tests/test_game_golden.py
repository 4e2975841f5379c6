"""Golden records: game records written by earlier versions of the engine
(tests/data/golden/v1, by the code of commit "golden records") must replay
on this one, to the same deals, results and final scores."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from quiddler.game.record import replay
from quiddler.wordlist import WordList, load_wordlist

GOLDEN = Path(__file__).parent / "data" / "golden"
RECORDS = sorted(GOLDEN.glob("v*/*.json"))


def wordlist_for(record: dict) -> WordList | None:
    name = record["rules"]["wordlist"]
    return None if name == "ENABLE" else load_wordlist(GOLDEN / name)


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_golden_record_replays(path: Path) -> None:
    record = json.loads(path.read_text())
    game = replay(record, wordlist_for(record))
    assert list(game.totals) == record["final_scores"]
    assert game.over == record["finished"]


def test_golden_records_cover_the_formats() -> None:
    assert len([p for p in RECORDS if p.parent.name == "v1"]) >= 12
