// The pace of the table: states from the server are shown one at a time,
// in order, with a pause after each move by someone else so a person sees
// every card move; a card flies from where it was to where it went.
//
// Nothing is hidden or reordered: every state is shown, only later.  A
// person's own move is shown at once.  Under prefers-reduced-motion cards
// do not fly (the pause, which is about reading, stays: "instant" turns it
// off too).

/** Milliseconds of pause after someone else's move, by setting. */
export const PACES = { instant: 0, normal: 800, slow: 1600 };
const PACE_KEY = "quiddler.pace";
const SOUND_KEY = "quiddler.sound";

export function rememberedPace() {
  try {
    const pace = localStorage.getItem(PACE_KEY);
    return pace in PACES ? pace : "normal";
  } catch {
    return "normal";
  }
}

export function rememberPace(pace) {
  try {
    localStorage.setItem(PACE_KEY, pace);
  } catch {
    // storage off: the pace is asked again next time
  }
}

export function rememberedSound() {
  try {
    return localStorage.getItem(SOUND_KEY) === "on";
  } catch {
    return false;
  }
}

export function rememberSound(on) {
  try {
    localStorage.setItem(SOUND_KEY, on ? "on" : "off");
  } catch {
    // storage off
  }
}

export const reducedMotion = () => window.matchMedia("(prefers-reduced-motion: reduce)").matches;

/**
 * Which seats moved between two states (the log entries that are new),
 * and whether a round ended between them.  Returns {events, roundEnded}.
 */
export function changes(old, next) {
  if (!old) {
    // The first state seen: what happened since this seat's last move is news.
    const log = Array.isArray(next.log) ? next.log : [];
    let since = log.length;
    while (since > 0 && log[since - 1]?.player !== next.seat) since -= 1;
    return { events: log.slice(since), roundEnded: false };
  }
  const rounds = (v) => (Array.isArray(v.history) ? v.history.length : 0);
  const roundEnded = rounds(next) > rounds(old);
  if (old.round === next.round) {
    const before = Array.isArray(old.log) ? old.log.length : 0;
    return { events: Array.isArray(next.log) ? next.log.slice(before) : [], roundEnded };
  }
  return { events: Array.isArray(next.log) ? next.log : [], roundEnded };
}

/**
 * Holds the states that wait their turn.  `show(message)` draws one and
 * returns the pause (ms) before the next may be drawn; `held()` is true
 * while the page holds the table (a round's result is up).
 */
export class StatePacer {
  constructor({ show, held }) {
    this.queue = [];
    this.show = show;
    this.held = held;
    this.readyAt = 0;
    this.timer = null;
  }

  push(message, instant) {
    this.queue.push(message);
    if (instant && this.queue.length === 1 && !this.held()) {
      // The person's own move: no waiting for a pause that is still running.
      clearTimeout(this.timer);
      this.timer = null;
      this.readyAt = 0;
    }
    this.pump();
  }

  get waiting() {
    return this.queue.length;
  }

  pump() {
    if (this.timer || this.held()) return;
    while (this.queue.length) {
      const now = performance.now();
      if (now < this.readyAt) {
        this.timer = setTimeout(() => {
          this.timer = null;
          this.pump();
        }, this.readyAt - now);
        return;
      }
      const message = this.queue.shift();
      const pause = this.show(message);
      if (pause > 0) this.readyAt = performance.now() + pause;
      if (this.held()) return;
    }
  }

  /** Every waiting state at once (the person chose "instant"). */
  flush() {
    clearTimeout(this.timer);
    this.timer = null;
    this.readyAt = 0;
    this.pump();
  }

  close() {
    clearTimeout(this.timer);
    this.queue = [];
  }
}

/**
 * A card flying from one element to another: a copy of `look` (a card or
 * a card back) moves from `from`'s box to `to`'s in `ms`.  Nothing when
 * motion is reduced, an end is missing, or there is no time.
 */
export function fly(look, from, to, ms) {
  if (!look || !from || !to || ms <= 0 || reducedMotion() || typeof look.animate !== "function") return;
  const a = from.getBoundingClientRect();
  const b = to.getBoundingClientRect();
  if (!a.width || !b.width) return;
  const ghost = look.cloneNode(true);
  ghost.classList.add("flying");
  ghost.removeAttribute("id");
  ghost.setAttribute("aria-hidden", "true");
  for (const node of ghost.querySelectorAll("[id]")) node.removeAttribute("id");
  ghost.style.top = `${a.top}px`;
  ghost.style.left = `${a.left}px`; // screen coordinates: physical on purpose
  document.body.append(ghost);
  const dx = b.left + b.width / 2 - (a.left + a.width / 2);
  const dy = b.top + b.height / 2 - (a.top + a.height / 2);
  const run = ghost.animate([{ transform: "translate(0, 0)" }, { transform: `translate(${dx}px, ${dy}px)` }],
    { duration: ms, easing: "ease-in-out" });
  run.onfinish = () => ghost.remove();
  run.oncancel = () => ghost.remove();
}

let audio = null;

/** A short soft click for a card put down (only when the player turned sound on). */
export function tick() {
  try {
    audio = audio || new AudioContext();
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.frequency.value = 660;
    gain.gain.setValueAtTime(0.08, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.0001, audio.currentTime + 0.12);
    osc.connect(gain).connect(audio.destination);
    osc.start();
    osc.stop(audio.currentTime + 0.12);
  } catch {
    // no audio here: silence
  }
}
