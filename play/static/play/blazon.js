// Blazon's table (play/templates/play/blazon/table.html): choosing a card of the hand lights
// the spaces of the player's shield where it can be placed, and lists its placements.
//
// The hand is a choice group (choices.js): each card that can be placed is a [data-choice].
// Only one card is chosen at a time (but when paying, see below); the shield's targets and the placement buttons of a card
// carry data-for-card and are shown (and enabled) only while that card is chosen. Every move is
// the server's: the targets' data-move are legal moves drawn on the server; nothing is sent here.

const HAND = ".bz-hand";

// Before choices.js toggles the clicked card (table.js listens in the bubbling phase): the
// other cards let go, so that a click chooses one card.
document.addEventListener(
  "click",
  (event) => {
    const choice = event.target.closest(`${HAND} [data-choice]`);
    if (!choice || choice.disabled || choice.closest("[data-pay-due]")) return;
    for (const other of choice.closest(HAND).querySelectorAll("[data-choice][aria-pressed=true]")) {
      if (other !== choice) other.setAttribute("aria-pressed", "false");
    }
  },
  true,
);

function show(part, on) {
  part.hidden = !on;
  const controls = part.matches("[data-move]") ? [part] : part.querySelectorAll("[data-move]");
  for (const control of controls) control.disabled = !on;
}

// Paying (a group with data-pay-due): several cards are chosen; choices.js shows their total
// and enables the confirm button when they make a legal payment; here, the "no change" notice
// when the chosen cards are worth more than is due.
document.addEventListener("herald:selection", (event) => {
  const group = event.target;
  if (!group.matches || !group.matches("[data-pay-due]")) return;
  let total = 0;
  for (const choice of group.querySelectorAll("[data-choice][aria-pressed=true]")) {
    total += Number(choice.dataset.choiceValue || 0);
  }
  const notice = group.querySelector("[data-overpay]");
  if (notice) notice.hidden = !(total > Number(group.dataset.payDue));
});

// choices.js announces each change of a group's selection (and the drawn one after a swap).
document.addEventListener("herald:selection", (event) => {
  const hand = event.target.closest(HAND);
  const table = hand && hand.closest("[data-stream]");
  if (!table) return;
  const chosen = new Set(event.detail.chosen);
  for (const part of table.querySelectorAll("[data-for-card]")) {
    show(part, chosen.has(part.dataset.forCard));
  }
});
