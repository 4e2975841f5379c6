"""Derive quiddler/data/common-words.tsv: the ENABLE words people commonly
use, with how common they are, for the human-like AI levels.

    pip install wordfreq==3.1.1
    python wordlists/make_common_words.py

Each line is ``word<TAB>zipf``: an ENABLE word and its Zipf frequency in
English (wordfreq's "large" list; Zipf 6 is once per thousand words, 3 once
per million), for every word at or above ``MIN_ZIPF``.  Two-letter words
are left out: almost every two-letter string occurs as a token somewhere
(aa, qi, xu, za all pass Zipf 3), so the levels use the hand-made list
``quiddler/data/two-letter-words.txt`` instead.

wordfreq's code is Apache-2.0 and its data CC BY-SA 4.0: the derived file
carries that licence and attribution (quiddler/data/common-words.LICENSE).
Only development needs wordfreq; the package ships the file.
"""

from __future__ import annotations

from pathlib import Path

from wordfreq import zipf_frequency

ROOT = Path(__file__).resolve().parent.parent
MIN_ZIPF = 2.5


def main() -> None:
    words = (ROOT / "wordlists" / "enable.txt").read_text().split()
    rows = []
    for word in words:
        if len(word) < 3:
            continue
        zipf = zipf_frequency(word, "en", wordlist="large")
        if zipf >= MIN_ZIPF:
            rows.append(f"{word}\t{zipf:.2f}\n")
    out = ROOT / "quiddler" / "data" / "common-words.tsv"
    out.write_text("".join(rows))
    print(f"{len(rows)} words with Zipf >= {MIN_ZIPF} written to {out.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
