// Building the document from data, always as text.
//
// Everything the server or another player sends (names, words, error
// messages) reaches the page through textContent and createElement only:
// no innerHTML, so a name such as "<img onerror=...>" shows as those
// characters and never runs.

/**
 * el("button", {class: "card", onclick: fn, "aria-label": "x"}, "text", child)
 * Attributes starting with "on" become event listeners; `dataset` takes an
 * object; false/null/undefined attributes and children are left out.
 */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === false || value === null || value === undefined) continue;
    if (name.startsWith("on") && typeof value === "function") {
      node.addEventListener(name.slice(2), value);
    } else if (name === "dataset") {
      Object.assign(node.dataset, value);
    } else if (name === "class") {
      node.className = value;
    } else if (value === true) {
      node.setAttribute(name, "");
    } else {
      node.setAttribute(name, String(value));
    }
  }
  append(node, children);
  return node;
}

/** Append children (nodes, strings, numbers, nested arrays); strings become text nodes. */
export function append(node, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** Replace everything inside `node` with `children`. */
export function replace(node, ...children) {
  node.replaceChildren();
  return append(node, children);
}

/**
 * What the person has put into the fields under `root` (each by its id), and
 * a function that puts it back into a tree drawn anew: the fields in page
 * order, each one's "change" sent, so a field that makes others (the seat
 * count makes the seats' choices) has made them before they are filled.
 */
export function keptFields(root) {
  const kept = [...root.querySelectorAll("input[id], select[id], textarea[id]")]
    .map((field) => [field.id, field.type === "checkbox" ? field.checked : field.value]);
  return () => {
    for (const [id, value] of kept) {
      const field = document.getElementById(id);
      if (!field || !root.contains(field)) continue;
      if (field.type === "checkbox") field.checked = value;
      else field.value = value;
      field.dispatchEvent(new Event("change"));
    }
  };
}

/**
 * Re-render `root` with `build()` and keep the keyboard user's place: the
 * element that had focus is found again by its data-focus key in the new
 * tree (a re-render replaces every node, which would otherwise drop focus
 * to the page body after each move).  Returns true when focus was restored.
 */
export function rerender(root, build) {
  const active = document.activeElement;
  const key = active && root.contains(active) ? active.dataset.focus : undefined;
  // A text box being typed in keeps its caret too (a state can arrive mid-word).
  const caret = active && active.tagName === "INPUT" && typeof active.selectionStart === "number"
    ? [active.selectionStart, active.selectionEnd] : null;
  replace(root, build());
  if (key) {
    const again = root.querySelector(`[data-focus="${CSS.escape(key)}"]`);
    if (again && !again.disabled) {
      again.focus();
      if (caret && again.tagName === "INPUT") {
        try {
          again.setSelectionRange(caret[0], caret[1]);
        } catch {
          // an input type without a caret (number): nothing to restore
        }
      }
      return true;
    }
  }
  return false;
}
