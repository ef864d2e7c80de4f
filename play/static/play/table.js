// The live table (play/templates/play/sept_blasons/table.html): moves sent to the game API;
// after each commit the table socket (play/consumers.py) sends this user's own drawing, which
// replaces the shown one. The server draws everything; this module only sends clicks, swaps
// drawings in and marks who is connected.
import { handleChoiceClick, initGroups } from "./choices.js";

const ROOT = "[data-stream]";
// The drawing a move is being sent from. A click on that same drawing waits (a double click
// stores one move); a click on a newer drawing swapped in meanwhile (the socket's frame came
// before the POST's answer) is a new move and goes, with the newer version.
let sendingFrom = null;

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

// The seats connected, from the socket's last presence frame (null before the first): put
// back on every drawing swapped in, since a shared drawing may have been drawn before it.
let presence = null;

function showPresence(table) {
  if (!presence) return;
  for (const mark of table.querySelectorAll("[data-presence-seat]")) {
    const seat = Number(mark.dataset.presenceSeat);
    if (seat < presence.length) mark.dataset.online = presence[seat] ? "true" : "false";
  }
}

// Put a drawn table (HTML of its root element) in place of the shown one, unless it shows an
// older version than the page does (a late answer after a newer one); `newer` demands a
// strictly newer one (socket frames: the page may already show it).
function swapIn(html, { newer = false } = {}) {
  const holder = document.createElement("div");
  holder.innerHTML = html;
  const fresh = holder.querySelector(ROOT);
  if (!fresh) return false;
  const live = root();
  const [was, is] = [Number(live.dataset.version), Number(fresh.dataset.version)];
  if (is < was || (newer && is === was)) return false;
  live.replaceWith(fresh);
  initGroups(fresh);
  showPresence(fresh);
  document.title = fresh.dataset.title || document.title;
  return true;
}

// Fetch the table as the server draws it for this user now and put it in place.
async function refresh() {
  const answer = await fetch(root().dataset.fragment, {
    credentials: "same-origin",
    headers: { Accept: "text/html" },
    cache: "no-store",
  });
  if (!answer.ok) return;
  swapIn(await answer.text());
}

async function send(button) {
  const table = root();
  if (sendingFrom === table) return;
  sendingFrom = table;
  // Held while the move is on its way; only these come back if it never arrives.
  const held = [...table.querySelectorAll("[data-move]:not([disabled])")];
  for (const control of held) control.disabled = true;
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
      // The socket brings the new drawing; if its frame is lost, fetch it.
      const { version } = await answer.json().catch(() => ({}));
      setTimeout(() => {
        if (!(shownVersion() >= version)) refresh().catch(() => {});
      }, 3000);
      return;
    }
    const body = await answer.json().catch(() => ({}));
    // 409: the page was stale (another tab moved); draw the table as it is now and say so.
    await refresh();
    say(answer.status === 409 ? root().dataset.staleMessage : body.detail || answer.statusText);
  } catch (error) {
    say(String(error));
    if (root() === table) for (const control of held) control.disabled = false;
  } finally {
    if (sendingFrom === table) sendingFrom = null;
  }
}

document.addEventListener("click", (event) => {
  if (handleChoiceClick(event)) return;
  const button = event.target.closest("[data-move]");
  if (button && !button.disabled && root().contains(button)) send(button);
});

// The table socket: "table" frames carry this user's drawing of a new version; "presence"
// frames the seats connected; "joined" (on every connect) and "advanced" (a drawing the server
// could not make) carry only a version, and one other than the shown one means: fetch the
// table. A "table" frame is a whole drawing, so a version skipped in between costs nothing;
// a lost frame is made good by the next one, a reconnect's "joined", or a refused move.
let delay = 500;
function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const path = `/ws/games/${root().dataset.stream}/table/`;
  const socket = new WebSocket(`${scheme}://${location.host}${path}`);
  socket.addEventListener("open", () => { delay = 500; });
  socket.addEventListener("message", (event) => {
    const frame = JSON.parse(event.data);
    if (frame.type === "presence" && Array.isArray(frame.seats)) {
      presence = frame.seats;
      showPresence(root());
    } else if (frame.type === "table" && typeof frame.html === "string") {
      if (frame.version > shownVersion()) swapIn(frame.html, { newer: true });
    } else if (typeof frame.version === "number" && frame.version !== shownVersion()) {
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
