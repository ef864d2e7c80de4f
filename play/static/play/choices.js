// Moves made of several choices (FRONTEND.md, "Testable by anyone"): the cards that pay for a
// blazon, the cards to reveal for a law. The server draws a choice group:
//
//   <div data-choice-group data-candidates='[{"choices": ["d3", "t1"], "move": {...}}, ...]'>
//     <button data-choice="d3" aria-pressed="false">…</button> …
//     <button data-compose disabled>Pay</button>
//   </div>
//
// Each [data-choice] toggles when clicked; the [data-compose] control carries the move whose
// "choices" equal the selection (as a multiset, in any order) in data-move and is enabled, and is
// disabled without data-move while the selection equals no legal move. A group's
// [data-selection-total] element, when drawn, shows the sum of the selected choices'
// data-choice-value. Nothing is decided here: the candidates are the server's legal moves.

function selection(group) {
  return [...group.querySelectorAll("[data-choice][aria-pressed=true]")].map(
    (choice) => choice.dataset.choice,
  );
}

function sameChoices(a, b) {
  if (a.length !== b.length) return false;
  const left = [...a].sort();
  const right = [...b].sort();
  return left.every((value, index) => value === right[index]);
}

function candidates(group) {
  try {
    return JSON.parse(group.dataset.candidates || "[]");
  } catch {
    return [];
  }
}

export function updateGroup(group) {
  const chosen = selection(group);
  const found = candidates(group).find((candidate) => sameChoices(candidate.choices, chosen));
  for (const control of group.querySelectorAll("[data-compose]")) {
    if (found) {
      control.dataset.move = JSON.stringify(found.move);
      control.disabled = false;
    } else {
      delete control.dataset.move;
      control.disabled = true;
    }
  }
  const total = group.querySelector("[data-selection-total]");
  if (total) {
    let sum = 0;
    for (const choice of group.querySelectorAll("[data-choice][aria-pressed=true]")) {
      sum += Number(choice.dataset.choiceValue || 0);
    }
    total.textContent = String(sum);
  }
  group.dispatchEvent(new CustomEvent("herald:selection", { bubbles: true, detail: { chosen, found } }));
}

// A click on a [data-choice] toggles it and recomputes its group; returns whether it handled it.
export function handleChoiceClick(event) {
  const choice = event.target.closest("[data-choice]");
  if (!choice || choice.disabled) return false;
  const group = choice.closest("[data-choice-group]");
  if (!group) return false;
  choice.setAttribute("aria-pressed", choice.getAttribute("aria-pressed") === "true" ? "false" : "true");
  updateGroup(group);
  return true;
}

// After the table is drawn (or swapped): every group starts from its drawn selection.
export function initGroups(root) {
  for (const group of root.querySelectorAll("[data-choice-group]")) updateGroup(group);
}
