// The live table (play/templates/play/sept_blasons/table.html): moves sent to the game API,
// the seat's own drawing fetched again after each commit the stream's socket announces.
// The server draws everything; this module only sends clicks and swaps the drawn fragment.
import { handleChoiceClick, initGroups } from "./choices.js";

const ROOT = "[data-stream]";
let sending = false;

function root() {
  return document.querySelector(ROOT);
}

function shownVersion() {
  return Number(root().dataset.version);
}

function csrfToken() {
  // The page's own forms (the language switcher) carry Django's token.
  const field = document.querySelector("input[name=csrfmiddlewaretoken]");
  return field ? field.value : "";
}

function newKey() {
  // crypto.randomUUID needs a secure context; a club's LAN server may be plain http.
  if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
  return `${Date.now()}-${Math.random().toString(36).slice(2)}`;
}

function say(text) {
  const box = root().querySelector(".table-message");
  if (!box) return;
  box.textContent = text;
  box.hidden = !text;
}

// Fetch the table as the server draws it for this user now and put it in place, unless it
// is older than what the page shows (a late answer after a newer one).
async function refresh() {
  const current = root();
  const answer = await fetch(current.dataset.fragment, {
    credentials: "same-origin",
    headers: { Accept: "text/html" },
    cache: "no-store",
  });
  if (!answer.ok) return;
  const holder = document.createElement("div");
  holder.innerHTML = await answer.text();
  const fresh = holder.querySelector(ROOT);
  if (!fresh) return;
  const live = root();
  if (Number(fresh.dataset.version) < Number(live.dataset.version)) return;
  live.replaceWith(fresh);
  initGroups(fresh);
  document.title = fresh.dataset.title || document.title;
}

async function send(button) {
  if (sending) return;
  sending = true;
  const table = root();
  for (const control of table.querySelectorAll("[data-move]")) control.disabled = true;
  try {
    const answer = await fetch(table.dataset.moves, {
      method: "POST",
      credentials: "same-origin",
      headers: {
        "Content-Type": "application/json",
        "X-CSRFToken": csrfToken(),
        "Idempotency-Key": newKey(),
      },
      body: JSON.stringify({
        move: JSON.parse(button.dataset.move),
        expected_version: Number(table.dataset.version),
      }),
    });
    if (answer.ok) {
      await refresh();
      return;
    }
    const body = await answer.json().catch(() => ({}));
    // 409: the page was stale (another tab moved); draw the table as it is now and say so.
    await refresh();
    say(answer.status === 409 ? root().dataset.staleMessage : body.detail || answer.statusText);
  } catch (error) {
    say(String(error));
    for (const control of root().querySelectorAll("[data-move]")) control.disabled = false;
  } finally {
    sending = false;
  }
}

document.addEventListener("click", (event) => {
  if (handleChoiceClick(event)) return;
  const button = event.target.closest("[data-move]");
  if (button && !button.disabled && root().contains(button)) send(button);
});

// The stream's socket: "joined" and "advanced" frames carry the stream's version; any version
// other than the one shown (a move, a gap, a reconnect) means: fetch the table again.
let delay = 500;
function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/ws/games/${root().dataset.stream}/`);
  socket.addEventListener("open", () => { delay = 500; });
  socket.addEventListener("message", (event) => {
    const frame = JSON.parse(event.data);
    if (typeof frame.version === "number" && frame.version !== shownVersion()) {
      // A failed fetch is not retried here: the next frame, or the reconnect's "joined", asks again.
      refresh().catch(() => {});
    }
  });
  socket.addEventListener("close", (event) => {
    if (event.code === 4403) return; // not allowed to watch: do not knock again
    if (root().querySelector("[data-result]")) return; // the game is over
    setTimeout(connect, delay);
    delay = Math.min(delay * 2, 15000);
  });
}

if (root()) {
  initGroups(root());
  document.title = root().dataset.title || document.title;
  // A finished game does not change any more: no socket for it.
  if (!root().querySelector("[data-result]")) connect();
}
