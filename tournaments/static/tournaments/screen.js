// The projector's list (tournaments/screen.html): when it is taller than its box, it scrolls
// slowly down and back up, pausing at each end; started again after each live redraw.
const SPEED = 40; // pixels a second: readable from across the room
const PAUSE_MS = 4000;
let running = null;

function scroll() {
  if (running) running.cancel();
  running = null;
  const box = document.querySelector("[data-screen-scroll]");
  const list = box && box.querySelector("[data-screen-list]");
  if (!list) return;
  const distance = list.scrollHeight - box.clientHeight;
  box.dataset.scrolling = distance > 0 ? "true" : "false";
  if (distance <= 0) return;
  const travel = (distance / SPEED) * 1000;
  const total = travel + 2 * PAUSE_MS;
  const paused = PAUSE_MS / total;
  running = list.animate(
    [
      { transform: "translateY(0)", offset: 0 },
      { transform: "translateY(0)", offset: paused },
      { transform: `translateY(-${distance}px)`, offset: 1 - paused },
      { transform: `translateY(-${distance}px)`, offset: 1 },
    ],
    { duration: total, direction: "alternate", iterations: Infinity, easing: "linear" },
  );
}

document.addEventListener("live:updated", scroll);
window.addEventListener("resize", scroll);
scroll();
