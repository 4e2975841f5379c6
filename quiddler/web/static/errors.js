// The server's refusals in the player's language.
//
// An error reply carries a `code` (and, for the engine's refusals, the
// `reason`: which rule refused) and the `params` it names; the sentence is
// the catalog's `error.<code>.<reason>`, else `error.<code>`.  The English
// `message` stays the fallback: for a code the page does not know, and on
// an English page for a reason it has no sentence for (the server's
// English names the detail).

import { currentLanguage, has, t } from "./messages.js";

const seatName = (seat) => t("seatN", { n: Number(seat) + 1 });

/** The params as the sentences take them: seats as names, counts as `n`. */
function sentenceParams(params, nameOf) {
  const out = { ...params };
  if ("count" in params) out.n = Number(params.count);
  if ("turn" in params) out.name = nameOf(params.turn);
  else if ("player" in params) out.name = nameOf(params.player);
  if ("used" in params) out.used = t("timesCount", { n: Number(params.used) });
  if ("held" in params) out.held = t("timesCount", { n: Number(params.held) });
  return out;
}

/**
 * errorText({code, reason, params, message}, nameOf) -> the sentence that
 * says it; `nameOf(seat)` names the seats a refusal names.  Works on an
 * error message ({type: "error", ...}) and on an ApiError alike.
 */
export function errorText(error, nameOf = seatName) {
  const { code, reason } = error;
  const params = error.params && typeof error.params === "object" ? error.params : {};
  const english = typeof error.message === "string" && error.message ? error.message : null;
  if (code && reason && has(`error.${code}.${reason}`)) return t(`error.${code}.${reason}`, sentenceParams(params, nameOf));
  if (english && (currentLanguage() === "en" || !code || !has(`error.${code}`))) return english;
  return t(code && has(`error.${code}`) ? `error.${code}` : "error.unknown");
}
