// The create form (/tournaments/new/): changing the game or the format refills the settings
// in place from that game's defaults, by fetching the same page (the no-JS path is the
// "Use this game's defaults" button, which this hides).
"use strict";

(() => {
  const form = document.querySelector("form[data-refill]");
  if (!form) return;
  document.documentElement.classList.add("js");
  const region = form.querySelector("[data-refill-region]");

  async function refill() {
    const params = new URLSearchParams();
    for (const name of ["game", "club", "format", "name"]) {
      const field = form.elements.namedItem(name);
      if (field && "value" in field) params.set(name, field.value);
    }
    const answer = await fetch(`${form.action}?${params}`, { headers: { Accept: "text/html" } });
    if (!answer.ok) return;
    const page = new DOMParser().parseFromString(await answer.text(), "text/html");
    const fresh = page.querySelector("[data-refill-region]");
    if (fresh && region) region.replaceChildren(...fresh.childNodes);
    const lead = page.querySelector(".page-header .lead");
    const mine = document.querySelector(".page-header .lead");
    if (lead && mine) mine.textContent = lead.textContent;
  }

  form.addEventListener("change", (event) => {
    if (event.target instanceof Element && event.target.matches("[data-refill-on]")) refill();
  });
})();
