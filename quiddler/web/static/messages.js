// Every sentence the page shows, by key, with named placeholders, in the
// player's language.
//
// The catalogs are JSON files, one per language (locales/<tag>.json, the
// same keys as en.json), loaded as JSON modules: English (every key's
// fallback) and the player's language at once, another when the player
// switches to it.  A sentence is never built by joining pieces in code: a
// key names a whole sentence, and a count picks its plural form through
// Intl.PluralRules (a key whose value is an object of plural categories;
// the count is `n`).  Numbers are written by Intl.NumberFormat in the
// language's own digits.
//
// The language is each browser's own: the one chosen in the page
// (remembered in localStorage), else the first of navigator.languages the
// page speaks, else English.  Card letters, the game's English words and
// the players' names reach a sentence as placeholders; where their letters
// run the other way from the sentence's (Latin words in Persian, a Persian
// name in English) they are isolated (FSI ... PDI), so a mixed sentence
// reads in the right order.

const LANGUAGE_KEY = "quiddler.language";

const catalogs = new Map(); // tag -> the catalog object, once loaded
let catalog = {};
let english = {};
let locale = "en";
const listeners = [];

async function loadJson(name) {
  const url = new URL(`./locales/${name}.json`, import.meta.url);
  return (await import(url.href, { with: { type: "json" } })).default;
}

/** The languages the page speaks, each named in itself: [{tag, name, direction}] (locales/languages.json). */
const LANGUAGES = await loadJson("languages");
const speaks = (tag) => LANGUAGES.some((language) => language.tag === tag);

async function catalogOf(tag) {
  if (!catalogs.has(tag)) catalogs.set(tag, await loadJson(tag));
  return catalogs.get(tag);
}

/** The first of the browser's preferred languages the page speaks ("fa-IR" is "fa"), else English. */
function preferredLanguage(preferred) {
  for (const wanted of preferred) {
    const tag = String(wanted).toLowerCase().split("-")[0];
    if (speaks(tag)) return tag;
  }
  return "en";
}

function rememberedLanguage() {
  try {
    const tag = localStorage.getItem(LANGUAGE_KEY);
    return speaks(tag) ? tag : null;
  } catch {
    return null;
  }
}

function use(tag) {
  locale = tag;
  catalog = catalogs.get(tag);
  const root = document.documentElement;
  root.lang = tag;
  root.dir = direction();
  for (const node of document.querySelectorAll("[data-text]")) node.textContent = t(node.dataset.text);
}

/** Switch the page to `tag` (its catalog loaded first), remember it, and draw everything again in it. */
export async function chooseLanguage(tag) {
  if (!speaks(tag) || tag === locale) return;
  await catalogOf(tag);
  try {
    localStorage.setItem(LANGUAGE_KEY, tag);
  } catch {
    // storage off: the browser's own preference is used next time
  }
  use(tag);
  for (const listener of listeners) listener(tag);
}

/** Call `listener(tag)` after every change of language (the screens draw themselves again). */
export function onLanguageChange(listener) {
  listeners.push(listener);
}

export const currentLanguage = () => locale;
const direction = () => (catalog.direction === "rtl" ? "rtl" : "ltr");
/** Each language named in itself, with its direction: [["en", "English", "ltr"], ["fa", "فارسی", "rtl"], ...]. */
export const languageNames = () => LANGUAGES.map(({ tag, name, direction: dir }) => [tag, name, dir]);

// -- numbers -----------------------------------------------------------------------

const made = new Map(); // "kind tag options" -> an Intl formatter, made once (a table shows hundreds of numbers)

function intl(Kind, options = {}) {
  const key = `${Kind.name} ${locale} ${JSON.stringify(options)}`;
  if (!made.has(key)) made.set(key, new Kind(locale, options));
  return made.get(key);
}

/**
 * A number as the language writes it.  Where Intl marks its direction (a
 * signed Persian number starts with a left-to-right mark), the number is
 * isolated, so the mark does not turn the rest of the sentence around.
 */
function format(value, options) {
  const text = intl(Intl.NumberFormat, options).format(value);
  return /[\u200e\u200f\u061c]/.test(text) ? `\u2068${text}\u2069` : text;
}

/**
 * A number shown with a fixed count of fraction digits (and a sign when
 * `signed`), as a placeholder's value.  Its plural form is chosen as it is
 * written ("1.0 points" is plural in English).
 */
class Amount {
  constructor(value, { digits = 0, signed = false } = {}) {
    this.value = Number(value);
    this.options = { minimumFractionDigits: digits, maximumFractionDigits: digits, signDisplay: signed ? "exceptZero" : "auto" };
  }

  toString() {
    return format(this.value, this.options);
  }
}

/** amount(4, {digits: 1}) placed in a sentence reads "4.0" in English, "۴٫۰" in Persian. */
export const amount = (value, options) => new Amount(value, options);

/** A number in the page's language: num(12) -> "12", "১২", "۱۲"; num(-0.5, {digits: 1, signed: true}) -> "-0.5". */
export const num = (value, options = {}) => amount(value, options).toString();

/** A whole number with its sign: "+5", "-3", "0". */
export const signed = (value) => num(value, { signed: true });

/** A share of a hundred as the language writes it: percent(22) -> "22%", "۲۲٪". */
export const percent = (value) => format(value / 100, { style: "percent" });

// -- sentences ---------------------------------------------------------------------

const RTL_LETTER = /[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFF]/u;
const LTR_LETTER = /(?![\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFF])\p{L}/u;

const ISOLATED = /\u2068[^\u2068\u2069]*\u2069/g;

/**
 * Text placed into a sentence, isolated (FSI ... PDI) when its letters run
 * the other way from the sentence's; what it holds isolated already (a card
 * in a phrase) does not count, so a phrase in the sentence's own language
 * stays part of the sentence.
 */
function isolate(text) {
  let own = text;
  let before;
  do {
    before = own;
    own = own.replace(ISOLATED, "");
  } while (own !== before);
  const other = direction() === "rtl" ? LTR_LETTER : RTL_LETTER;
  return other.test(own) ? `\u2068${text}\u2069` : text;
}

function fill(text, params) {
  return text.replace(/\{(\w+)\}/g, (whole, name) => {
    const value = params[name];
    if (value === undefined || value === null) return whole;
    if (typeof value === "number") return num(value);
    if (value instanceof Amount) return value.toString();
    return isolate(String(value));
  });
}

function pluralOf(count) {
  if (count instanceof Amount) return intl(Intl.PluralRules, count.options).select(count.value);
  return intl(Intl.PluralRules).select(Number(count ?? 0));
}

/** Whether the catalog has `key` (a sentence chosen by the server's code or reason). */
export const has = (key) => key in catalog || key in english;

/**
 * t("theyDrew", {name: "Bo"}) -> "Bo drew from the pile."; a plural key
 * takes its count as `n`: t("cards", {n: 1}) -> "1 card".  A key missing
 * from a catalog falls back to English (the tests keep none missing).
 */
export function t(key, params = {}) {
  const entry = catalog[key] ?? english[key];
  if (entry === undefined) return key;
  const text = typeof entry === "string" ? entry : entry[pluralOf(params.n)] ?? entry.other;
  return fill(text, params);
}

/** Whether a player's name is the word "you" (the name "Play now" gives): then the page says "you", not the name. */
export const calledYou = (name) => [t("you"), t("home.defaultName")].some((you) => you.toLowerCase() === String(name).toLowerCase());

/**
 * A sentence with elements in it (a link): tWith("site.note", {solver: link})
 * -> ["text ", link, " text"], each placeholder of `elements` that element.
 */
export function tWith(key, elements) {
  return t(key).split(/\{(\w+)\}/).map((part, i) => (i % 2 ? elements[part] ?? `{${part}}` : part));
}

/** A list read as one phrase: "cat", "cat and dog", "cat, dog and ax" (Intl.ListFormat), each item isolated. */
export function list(items, type = "conjunction") {
  return intl(Intl.ListFormat, { style: "long", type }).format(items.map((item) => isolate(String(item))));
}

// -- start -------------------------------------------------------------------------

// Importing this module waits for these: every screen asks for sentences at once.
{
  const first = rememberedLanguage() ?? preferredLanguage(navigator.languages ?? [navigator.language]);
  const [loaded] = await Promise.allSettled([catalogOf(first), catalogOf("en")]);
  english = catalogs.get("en");
  use(loaded.status === "fulfilled" ? first : "en");
}
