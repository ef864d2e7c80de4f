// The live regions of a tournament's pages (docs/tournaments.md, "Phones and the projector").
// A region carries data-live-kinds (what it depends on: tournaments.live.KINDS) and
// data-live-src (the URL of a fragment that draws just that region for this viewer). The
// tournament's socket (ws/tournaments/<id>/, tournaments/consumers.py) says only which kind
// changed; the regions that depend on it are refetched and replaced in place. A burst of
// changes (a round published: tables, games, timer) costs one fetch per region. After a
// reconnect every region is refetched: changes may have been missed while the socket was away.
// Round clocks ([data-timer]) count down here from the server's figures.

const REGION = "[data-live-kinds][data-live-src]";
const DEBOUNCE_MS = 250;
const TICK_MS = 250;

function tournamentId() {
  const tag = document.querySelector("[data-live-tournament]");
  if (tag) return tag.dataset.liveTournament;
  const match = location.pathname.match(/^\/tournaments\/(\d+)\//);
  return match ? match[1] : null;
}

function regions() {
  return [...document.querySelectorAll(REGION)];
}

function kindsOf(region) {
  return region.dataset.liveKinds.split(/\s+/).filter(Boolean);
}

// -- refetch and replace ------------------------------------------------------------------------
// One fetch at a time per region (keyed by its data-live-src); a change announced meanwhile
// fetches once more when that one is done, so the last drawing shown is never older than the
// last change.
const fetching = new Map(); // src -> true while fetching, "again" when asked again meanwhile

async function redraw(region) {
  const src = region.dataset.liveSrc;
  if (fetching.get(src)) {
    fetching.set(src, "again");
    return;
  }
  fetching.set(src, true);
  try {
    const answer = await fetch(src, {
      credentials: "same-origin",
      headers: { Accept: "text/html" },
      cache: "no-store",
    });
    if (answer.status === 200) replace(src, await answer.text());
  } catch (error) {
    // The network is away: the socket's reconnect refetches everything.
  } finally {
    const again = fetching.get(src) === "again";
    fetching.delete(src);
    if (again) {
      const current = document.querySelector(`${REGION}[data-live-src="${CSS.escape(src)}"]`);
      if (current) redraw(current);
    }
  }
}

function replace(src, html) {
  const current = document.querySelector(`${REGION}[data-live-src="${CSS.escape(src)}"]`);
  if (!current) return;
  const holder = document.createElement("template");
  holder.innerHTML = html.trim();
  const fresh = holder.content.querySelector(REGION);
  // A fragment is the region's own element; one that is only its inside goes inside it.
  if (fresh) {
    current.replaceWith(fresh);
    settle(fresh);
  } else {
    current.replaceChildren(holder.content);
    settle(current);
  }
}

function settle(region) {
  startTimers(region);
  region.dispatchEvent(new CustomEvent("live:updated", { bubbles: true }));
}

// -- what the socket announces, debounced -----------------------------------------------------
const announced = new Set();
let pending = null;

function changed(kind) {
  announced.add(kind);
  if (pending) return;
  pending = setTimeout(() => {
    const kinds = new Set(announced);
    announced.clear();
    pending = null;
    for (const region of regions()) {
      if (kindsOf(region).some((k) => kinds.has(k))) redraw(region);
    }
  }, DEBOUNCE_MS);
}

function redrawAll() {
  for (const region of regions()) redraw(region);
}

// -- the socket, reconnected with backoff --------------------------------------------------------
let delay = 500;
let connectedOnce = false;

function connect(id) {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/ws/tournaments/${id}/`);
  socket.addEventListener("message", (event) => {
    let frame;
    try {
      frame = JSON.parse(event.data);
    } catch (error) {
      return;
    }
    if (frame.type === "joined") {
      delay = 500;
      document.documentElement.dataset.liveConnected = "true";
      if (connectedOnce) redrawAll();
      connectedOnce = true;
    } else if (frame.type === "changed" && typeof frame.kind === "string") {
      changed(frame.kind);
    }
  });
  socket.addEventListener("close", (event) => {
    document.documentElement.dataset.liveConnected = "false";
    if (event.code === 4404) return; // no such tournament: do not knock again
    setTimeout(() => connect(id), delay);
    delay = Math.min(delay * 2, 15000);
  });
}

// -- round clocks ---------------------------------------------------------------------------
// The server sends the seconds left when it drew the clock; the page counts down from the
// moment it received them, so every page shows the server's time whatever its own clock says.
const clocks = new Map(); // element -> {left, since}

function startTimers(root) {
  const found = root.matches && root.matches("[data-timer]") ? [root] : [];
  for (const timer of [...found, ...root.querySelectorAll("[data-timer]")]) {
    clocks.set(timer, { left: Number(timer.dataset.timerRemaining), since: performance.now() });
  }
}

function text(seconds) {
  const whole = Math.max(Math.ceil(seconds), 0);
  const minutes = String(Math.floor(whole / 60)).padStart(2, "0");
  return `${minutes}:${String(whole % 60).padStart(2, "0")}`;
}

function tick() {
  for (const [timer, { left, since }] of clocks) {
    if (!timer.isConnected) {
      clocks.delete(timer);
      continue;
    }
    if (timer.dataset.timerState !== "running") continue;
    const now = left - (performance.now() - since) / 1000;
    const clock = timer.querySelector("[data-timer-clock]");
    const shown = text(now);
    if (clock && clock.textContent !== shown) clock.textContent = shown;
    if (now <= 0) {
      timer.dataset.timerState = "over";
      const note = timer.querySelector("[data-timer-note]");
      if (note) note.textContent = timer.dataset.overText || "";
    }
  }
}

// A phone that slept may hold a socket that died without a word: redraw on waking up.
document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible" && connectedOnce) redrawAll();
});

const id = tournamentId();
startTimers(document);
setInterval(tick, TICK_MS);
if (id && regions().length) connect(id);
