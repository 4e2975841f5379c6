"""The browser game's message catalogs, one per language (quiddler/web/static/locales/).

Each catalog has every key of the English one, in its order, with the
same placeholders; a count has exactly its language's plural categories
(CLDR's, as Intl.PluralRules gives them: the browser tests check this
table against Chromium's); and nothing is left in English.  A language
whose catalog is missing fails here: the languages are listed, not found.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

LOCALES = Path(__file__).resolve().parents[2] / "quiddler" / "web" / "static" / "locales"

#: Each language the page speaks, with its CLDR plural categories and its writing direction.
LANGUAGES = {
    "en": ({"one", "other"}, "ltr", "English"),
    "hi": ({"one", "other"}, "ltr", "हिन्दी"),
    "bn": ({"one", "other"}, "ltr", "বাংলা"),
    "fa": ({"one", "other"}, "rtl", "فارسی"),
    "sk": ({"one", "few", "many", "other"}, "ltr", "slovenčina"),
    "vi": ({"other"}, "ltr", "Tiếng Việt"),
}
TRANSLATIONS = [tag for tag in LANGUAGES if tag != "en"]

#: Keys whose value may be the English one: the page's direction where it is "ltr", the game's name;
#: and words a language spells as English does.
SAME_AS_ENGLISH = {"direction", "page.brand"}
SAME_WORD = {("sk", "levelShort.expert")}  # Slovak "expert"

#: Letters in Latin script, for the languages written in another (a Latin word there must come from English).
LATIN_WORD = re.compile(r"[A-Za-z]+")
OWN_SCRIPT = {"hi", "bn", "fa"}


def catalog(tag: str) -> dict[str, Any]:
    path = LOCALES / f"{tag}.json"
    assert path.is_file(), f"the {tag} catalog is missing: {path}"
    data: dict[str, Any] = json.loads(path.read_text("utf-8"))
    return data


ENGLISH = catalog("en")


def placeholders(text: str) -> set[str]:
    return set(re.findall(r"\{(\w+)\}", text))


def forms(value: str | dict[str, str]) -> dict[str, str]:
    """A value's texts by plural category ("other" alone for a plain string)."""
    return value if isinstance(value, dict) else {"other": value}


def words_of(text: str) -> str:
    """The text without its placeholders, digits and punctuation: what a translation must change."""
    return re.sub(r"[\W\d_]+", " ", re.sub(r"\{\w+\}", " ", text)).strip()


def test_english_counts_have_the_english_categories() -> None:
    plural = {key: set(value) for key, value in ENGLISH.items() if isinstance(value, dict)}
    assert plural and all(categories == {"one", "other"} for categories in plural.values()), plural


@pytest.mark.parametrize("tag", list(LANGUAGES))
def test_a_catalog_is_its_file_as_the_contract_writes_it(tag: str) -> None:
    """UTF-8, two-space indent, the English key order, a newline at the end; its name and direction."""
    text = (LOCALES / f"{tag}.json").read_text("utf-8")
    data = catalog(tag)
    assert text == json.dumps(data, ensure_ascii=False, indent=2) + "\n"
    assert list(data) == list(ENGLISH), "keys missing, extra or out of the English order"
    _, direction, name = LANGUAGES[tag]
    assert (data["languageName"], data["direction"]) == (name, direction)


def test_the_page_offers_every_language_named_in_itself() -> None:
    """locales/languages.json, the language switch's list, names each catalog as the catalog names itself."""
    offered = json.loads((LOCALES / "languages.json").read_text("utf-8"))
    assert offered == [{"tag": tag, "name": name, "direction": direction} for tag, (_, direction, name) in LANGUAGES.items()]


@pytest.mark.parametrize("tag", TRANSLATIONS)
def test_every_key_has_the_english_placeholders_and_the_language_s_plurals(tag: str) -> None:
    categories = LANGUAGES[tag][0]
    data = catalog(tag)
    wrong = []
    for key, english in ENGLISH.items():
        value = data.get(key)
        if isinstance(english, dict) != isinstance(value, dict):
            wrong.append(f"{key}: a count in one language, a plain string in the other")
            continue
        if isinstance(value, dict) and set(value) != categories:
            wrong.append(f"{key}: plural forms {sorted(value)}, not {sorted(categories)}")
            continue
        wanted = set().union(*map(placeholders, forms(english).values())) - {"n"}
        for category, text in forms(value).items():  # type: ignore[arg-type]
            if not isinstance(text, str) or placeholders(text) - {"n"} != wanted:
                wrong.append(f"{key} ({category}): placeholders {sorted(placeholders(str(text)))}, not {sorted(wanted)}")
        if isinstance(value, dict) and "n" in placeholders(english["other"]) and "n" not in placeholders(value["other"]):
            wrong.append(f"{key} (other): the count {{n}} is missing")
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("tag", TRANSLATIONS)
def test_nothing_is_left_in_english(tag: str) -> None:
    """A value with words in it differs from the English one; in a language
    written in its own script, every Latin word comes from the English text
    (a card's letter, a key's name such as Shift, an example of typed words)."""
    data = catalog(tag)
    left = []
    for key, english in ENGLISH.items():
        if key in SAME_AS_ENGLISH or (tag, key) in SAME_WORD or key not in data:  # a missing key fails above
            continue
        english_words = " ".join(forms(english).values())
        for category, text in forms(data[key]).items():
            if words_of(text) and text == forms(english).get(category, forms(english)["other"]):
                left.append(f"{key} ({category}): {text!r} is the English text")
            elif tag in OWN_SCRIPT:
                foreign = set(LATIN_WORD.findall(re.sub(r"\{\w+\}", " ", text))) - set(LATIN_WORD.findall(english_words))
                if foreign:
                    left.append(f"{key} ({category}): Latin words {sorted(foreign)} that the English does not have")
    assert not left, "\n".join(left)


@pytest.mark.parametrize("tag", list(LANGUAGES))
def test_the_page_without_javascript_says_so_in_every_language(tag: str) -> None:
    """No catalog loads without JavaScript: index.html holds each language's line itself."""
    page = (LOCALES.parent / "index.html").read_text(encoding="utf-8")
    noscript = re.search(r"<noscript>(.*?)</noscript>", page, re.DOTALL)
    assert noscript is not None
    text = catalog(tag)["page.noscript"]
    direction = ' dir="rtl"' if LANGUAGES[tag][1] == "rtl" else ""
    assert f'<p lang="{tag}"{direction}>{text}</p>' in noscript.group(1)
