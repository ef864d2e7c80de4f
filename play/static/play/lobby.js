// The lobby (play/templates/play/lobby.html) follows its games: every few seconds it fetches
// its lists again, drawn on the server, and puts them in place. When a game the viewer was
// waiting in has started, the viewer is taken to its table. Nothing else runs here: joining,
// leaving and starting are plain forms.
const LOBBY = "[data-lobby]";
const EVERY_MS = 3000;

function waitingIn(lobby) {
  return [...lobby.querySelectorAll("[data-open-game][data-seated]")].map((game) => game.dataset.openGame);
}

function startedTable(fresh, waiting) {
  for (const id of waiting) {
    const started = fresh.querySelector(`[data-started-game="${id}"]`);
    if (started) return started.dataset.table;
  }
  return "";
}

async function follow() {
  const lobby = document.querySelector(LOBBY);
  if (!lobby || document.hidden) return;
  const answer = await fetch(lobby.dataset.fragment, {
    credentials: "same-origin",
    headers: { Accept: "text/html" },
    cache: "no-store",
  });
  if (!answer.ok) return;
  const holder = document.createElement("div");
  holder.innerHTML = await answer.text();
  const fresh = holder.querySelector(LOBBY);
  if (!fresh) return;
  const table = startedTable(fresh, waitingIn(lobby));
  if (table) {
    window.location.assign(table);
    return;
  }
  lobby.replaceWith(fresh);
}

async function tick() {
  try {
    await follow();
  } catch {
    // Offline for a moment, or the server restarting: the next tick tries again.
  }
  setTimeout(tick, EVERY_MS);
}

setTimeout(tick, EVERY_MS);
