// The seat credentials kept in this browser.
//
// A seat's token is the only proof of the seat.  It is kept in
// localStorage under the table's id, so a reload, a closed tab or a server
// restart puts the player back in their seat; it never goes into the URL
// (URLs end up in histories, logs and Referer headers).

const STORE_PREFIX = "quiddler.seat.";

/** {token, seat, name, invite?} for the table, or null. */
export function loadSeat(table) {
  try {
    const raw = localStorage.getItem(STORE_PREFIX + table);
    const seat = raw ? JSON.parse(raw) : null;
    return seat && typeof seat.token === "string" ? seat : null;
  } catch {
    return null; // storage disabled or a damaged entry: play on as a newcomer
  }
}

export function saveSeat(table, seat) {
  localStorage.setItem(STORE_PREFIX + table, JSON.stringify(seat));
}

export function forgetSeat(table) {
  localStorage.removeItem(STORE_PREFIX + table);
}
