// The replay viewer (play/templates/play/replay.html): the keyboard and the slider step
// through the game. The server draws every step; each step is a plain link (?move=n), so
// this module only follows the links a key or the slider names.
const replay = document.querySelector("[data-replay]");

function go(move) {
  const url = new URL(window.location.href);
  url.searchParams.set("move", String(move));
  url.hash = "";
  window.location.assign(url.toString());
}

function follow(name) {
  const link = replay.querySelector(`a[data-step="${name}"]`);
  if (link) window.location.assign(link.href);
}

const KEYS = { ArrowLeft: "previous", ArrowRight: "next", Home: "first", End: "last" };

function typing(target) {
  // Keys typed into a field (or the slider itself, which moves with the arrows) stay there.
  return target instanceof HTMLElement && target.closest("input, textarea, select, [contenteditable]");
}

if (replay) {
  document.addEventListener("keydown", (event) => {
    const name = KEYS[event.key];
    if (!name || event.altKey || event.ctrlKey || event.metaKey || typing(event.target)) return;
    event.preventDefault();
    follow(name);
  });

  const slider = replay.querySelector(".replay-slider input[type=range]");
  const shown = replay.querySelector(".replay-slider-value");
  const button = replay.querySelector(".replay-slider button");
  if (slider) {
    if (button) button.hidden = true; // the slider goes there itself
    slider.addEventListener("input", () => { if (shown) shown.textContent = slider.value; });
    slider.addEventListener("change", () => {
      if (Number(slider.value) !== Number(replay.dataset.replayMove)) go(slider.value);
    });
  }
  // Keys work from here on: a test (or a club's own) waits for this before pressing one.
  replay.dataset.keys = "on";
}
