// The hand as the player arranges it: word groups, then the loose cards.
//
// The server knows the hand as a list of cards; the order and the groups
// are this page's alone (a person's arrangement is nobody else's business
// and needs no round trip).  Arrangement holds faces, not positions, so a
// new state (a draw, a discard) is reconciled into it: cards still held
// keep their place, a new card joins the end of the loose cards.
//
// Dragging uses pointer events, one code path for mouse, pen and touch: a
// press becomes a drag only past a minimum distance (so a tap is still a
// press of the card), a ghost follows the pointer, and the drop place is
// the card or group under it.  The keyboard does the same with Shift and
// the arrow keys, G and U (see handKeys).

import { points } from "./cards.js";

/** How far (px) a pointer moves before a press becomes a drag. */
const DRAG_DISTANCE = 6;

let nextId = 0;

/** A card held: its face, and an identity that survives a move (two e's are two cards). */
const held = (face) => ({ face, id: nextId++ });

export class Arrangement {
  constructor() {
    this.groups = []; // [[card, ...], ...]: the word groups, in order
    this.loose = []; // the cards in no group, in order
  }

  /** Every card in order: [{group: g, or -1 for a loose card, index, card, face}]. */
  places() {
    const out = [];
    this.groups.forEach((g, group) => g.forEach((card, index) => out.push({ group, index, card, face: card.face })));
    this.loose.forEach((card, index) => out.push({ group: -1, index, card, face: card.face }));
    return out;
  }

  posOf(card) {
    return this.places().findIndex((p) => p.card === card);
  }

  /** Keep the arrangement of the cards still in `hand`; new cards go to the end of the loose cards. Returns the new cards' faces. */
  reconcile(hand) {
    const left = {};
    hand.forEach((f) => { left[f] = (left[f] || 0) + 1; });
    const keep = (card) => {
      if (!left[card.face]) return false;
      left[card.face] -= 1;
      return true;
    };
    this.groups = this.groups.map((g) => g.filter(keep)).filter((g) => g.length);
    this.loose = this.loose.filter(keep);
    const added = [];
    for (const face of hand) {
      if (left[face]) {
        left[face] -= 1;
        this.loose.push(held(face));
        added.push(face);
      }
    }
    return added;
  }

  list(group) {
    return group === -1 ? this.loose : this.groups[group];
  }

  /** Move the card at flat position `pos` to just before {group, index} (index may be the list's length; group "new": a new word group). Returns its new position. */
  move(pos, to) {
    const from = this.places()[pos];
    if (!from) return pos;
    const target = to.group === "new" ? null : this.list(to.group)[to.index] ?? null; // the card it goes before
    if (target === from.card) return pos; // dropped where it was
    const list = this.list(from.group);
    list.splice(from.index, 1);
    if (to.group === "new") {
      this.groups.push([from.card]);
    } else {
      const into = this.list(to.group);
      const at = target ? into.indexOf(target) : into.length;
      into.splice(at < 0 ? into.length : at, 0, from.card);
    }
    this.tidy();
    return this.posOf(from.card);
  }

  /** Move the card at `pos` one place back (-1) or on (+1), across group edges. */
  step(pos, direction) {
    const all = this.places();
    const here = all[pos];
    const there = all[pos + direction];
    if (!here || !there) return pos;
    if (there.group === here.group) {
      const list = this.list(here.group);
      [list[here.index], list[there.index]] = [list[there.index], list[here.index]];
    } else {
      // Into the neighbouring list: the card becomes its first (moving on) or last (moving back) card.
      this.list(here.group).splice(here.index, 1);
      const into = this.list(there.group);
      if (direction > 0) into.unshift(here.card);
      else into.push(here.card);
      this.tidy();
    }
    return this.posOf(here.card);
  }

  /** The card at `pos` starts a word group: a loose card a new group of its own, a grouped one splits its group there. */
  startGroup(pos) {
    const here = this.places()[pos];
    if (!here) return pos;
    if (here.group === -1) {
      this.loose.splice(here.index, 1);
      this.groups.push([here.card]);
    } else if (here.index > 0) {
      const group = this.groups[here.group];
      this.groups.splice(here.group + 1, 0, group.splice(here.index));
    }
    return this.posOf(here.card);
  }

  /** The card at `pos` goes back to the loose cards (at their start). */
  ungroup(pos) {
    const here = this.places()[pos];
    if (!here || here.group === -1) return pos;
    this.groups[here.group].splice(here.index, 1);
    this.loose.unshift(here.card);
    this.tidy();
    return this.posOf(here.card);
  }

  tidy() {
    this.groups = this.groups.filter((g) => g.length);
  }

  /** Sort the loose cards by letter or by points (highest first); groups stay as they are. */
  sort(by) {
    const letter = (a, b) => a.face.localeCompare(b.face);
    this.loose.sort(by === "points" ? (a, b) => points(b.face) - points(a.face) || letter(a, b) : letter);
  }

  /** The groups as lists of faces. */
  words() {
    return this.groups.map((g) => g.map((c) => c.face));
  }
}

/**
 * The keyboard on a hand card: arrows choose (roving focus), Shift+arrows
 * move, G groups, U ungroups.  `act(kind, pos)` applies one and returns the
 * new flat position of the card, or undefined for a key it does not take.
 */
export function handKeys(event, pos, count, act) {
  const rtl = getComputedStyle(event.currentTarget).direction === "rtl";
  const forward = rtl ? "ArrowLeft" : "ArrowRight";
  const back = rtl ? "ArrowRight" : "ArrowLeft";
  let kind = null;
  if (event.key === forward || event.key === back) {
    const direction = event.key === forward ? 1 : -1;
    kind = event.shiftKey ? ["move", direction] : ["focus", Math.max(0, Math.min(count - 1, pos + direction))];
  } else if (event.key === "Home" || event.key === "End") {
    kind = ["focus", event.key === "Home" ? 0 : count - 1];
  } else if (event.key === "g" || event.key === "G") {
    kind = ["group"];
  } else if (event.key === "u" || event.key === "U") {
    kind = ["ungroup"];
  }
  if (!kind) return;
  event.preventDefault();
  act(kind, pos);
}

/**
 * Let cards in `container` be dragged: a card is an element with
 * data-pos (its flat position); a drop target is a card (insert before it,
 * or after it past its middle), a group frame (data-group: append), the
 * loose row (data-group="-1") or the new-group slot (data-group="new").
 * `onDrop(fromPos, {group, index})` applies it.  Returns nothing; the
 * listeners go with the container when it is replaced.
 */
export function enableDrag(container, places, onDrop) {
  let press = null;
  container.addEventListener("pointerdown", (event) => {
    const card = event.target.closest("[data-pos]");
    if (!card || event.button > 0) return;
    press = { card, pos: Number(card.dataset.pos), x: event.clientX, y: event.clientY, id: event.pointerId, ghost: null };
  });
  container.addEventListener("pointermove", (event) => {
    if (!press || event.pointerId !== press.id) return;
    const dx = event.clientX - press.x;
    const dy = event.clientY - press.y;
    if (!press.ghost) {
      if (Math.hypot(dx, dy) < DRAG_DISTANCE) return;
      press.card.setPointerCapture(event.pointerId);
      press.ghost = press.card.cloneNode(true);
      press.ghost.classList.add("ghost");
      press.ghost.removeAttribute("data-pos");
      press.ghost.removeAttribute("data-focus");
      press.ghost.setAttribute("aria-hidden", "true");
      const rect = press.card.getBoundingClientRect();
      press.ghost.style.inlineSize = `${rect.width}px`;
      press.ghost.style.blockSize = `${rect.height}px`;
      press.ghost.style.insetBlockStart = `${rect.top}px`;
      press.ghost.style.left = `${rect.left}px`; // a physical coordinate: the pointer's, not the writing direction's
      document.body.append(press.ghost);
      press.card.classList.add("dragging");
    }
    press.ghost.style.transform = `translate(${dx}px, ${dy}px)`;
    mark(container, dropTarget(container, event, places));
  });
  const finish = (event, drop) => {
    if (!press || event.pointerId !== press.id) return;
    const { ghost, pos, card } = press;
    press = null;
    if (!ghost) return; // a press without a drag: the card's click does its job
    ghost.remove();
    card.classList.remove("dragging");
    mark(container, null);
    // The click that follows a drag is not a press of the card.
    container.addEventListener("click", (e) => { e.stopPropagation(); e.preventDefault(); }, { capture: true, once: true });
    setTimeout(() => container.dispatchEvent(new Event("dragdone")), 0);
    if (!drop) return;
    const target = dropTarget(container, event, places);
    if (target) onDrop(pos, target);
  };
  container.addEventListener("pointerup", (event) => finish(event, true));
  container.addEventListener("pointercancel", (event) => finish(event, false));
}

function dropTarget(container, event, places) {
  const under = document.elementsFromPoint(event.clientX, event.clientY).find((node) => container.contains(node) && !node.classList.contains("dragging") && (node.dataset.pos !== undefined || node.dataset.group !== undefined));
  if (!under) return null;
  if (under.dataset.pos !== undefined) {
    const place = places[Number(under.dataset.pos)];
    const rect = under.getBoundingClientRect();
    const rtl = getComputedStyle(under).direction === "rtl";
    const after = rtl ? event.clientX < rect.left + rect.width / 2 : event.clientX > rect.left + rect.width / 2;
    return { group: place.group, index: place.index + (after ? 1 : 0), node: under, after };
  }
  const group = under.dataset.group === "new" ? "new" : Number(under.dataset.group);
  const length = group === "new" ? 0 : places.filter((p) => p.group === group).length;
  return { group, index: length, node: under, after: true };
}

function mark(container, target) {
  for (const node of container.querySelectorAll(".drop-before, .drop-after, .drop-into")) {
    node.classList.remove("drop-before", "drop-after", "drop-into");
  }
  if (!target) return;
  if (target.node.dataset.pos !== undefined) target.node.classList.add(target.after ? "drop-after" : "drop-before");
  else target.node.classList.add("drop-into");
}
