// The re-rating after a ruling, followed until it is done: the dispute's page asks the
// progress endpoint once a second and shows its sentence and bar; it stops once the job is over.
const box = document.querySelector("[data-progress-url]");
const POLL_MS = 1000;

async function poll() {
  let state;
  try {
    const answer = await fetch(box.dataset.progressUrl, { headers: { Accept: "application/json" } });
    if (!answer.ok) throw new Error(`progress answered ${answer.status}`);
    state = await answer.json();
  } catch {
    setTimeout(poll, POLL_MS * 3); // a dropped request: try again a little later
    return;
  }
  const bar = box.querySelector("progress");
  bar.max = Math.max(state.total, 1);
  bar.value = state.finished ? bar.max : state.done;
  box.querySelector(".progress-text").textContent = state.text;
  box.dataset.progressStatus = state.status;
  if (!state.finished) setTimeout(poll, POLL_MS);
}

if (box) setTimeout(poll, POLL_MS);
