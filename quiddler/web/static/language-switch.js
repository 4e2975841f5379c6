// The language switch in the page's header: each language named in itself
// (with its own `lang`, so a screen reader says "فارسی" in Persian), the
// choice applied at once and remembered (messages.js).

import { el } from "./dom.js";
import { chooseLanguage, currentLanguage, languageNames, onLanguageChange, t } from "./messages.js";

export function languageSwitch() {
  const select = el("select", { id: "language", class: "language", "aria-label": t("page.language"), onchange: (e) => {
    // A catalog that cannot be loaded (the network gone) leaves the page in its language.
    chooseLanguage(e.target.value).catch(() => { select.value = currentLanguage(); });
  } },
    languageNames().map(([tag, name, dir]) => el("option", { value: tag, lang: tag, dir, selected: tag === currentLanguage() }, name)));
  onLanguageChange(() => {
    select.setAttribute("aria-label", t("page.language"));
    select.value = currentLanguage();
  });
  return select;
}
