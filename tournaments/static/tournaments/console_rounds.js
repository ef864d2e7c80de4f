// The draft page of a round (console): click a player, then another, and they trade places.
// Without this script the page's swap form (two selects) does the same; the script only
// fills that form's selects and sends it, so the server's rules and refusals stay the same.
(function () {
  "use strict";
  const form = document.getElementById("swap-form");
  if (!form) return;
  const first = form.querySelector("[name=first]");
  const second = form.querySelector("[name=second]");
  const help = document.querySelector(".pick-help");
  if (help) help.hidden = false;
  let picked = null;

  function pick(name) {
    const reg = name.dataset.reg;
    if (picked === name) {  // a second click on the same player lets go of them
      name.classList.remove("picked");
      name.setAttribute("aria-pressed", "false");
      picked = null;
      return;
    }
    if (picked === null) {
      picked = name;
      name.classList.add("picked");
      name.setAttribute("aria-pressed", "true");
      first.value = reg;
      return;
    }
    second.value = reg;
    first.value = picked.dataset.reg;
    name.classList.add("picked");
    form.submit();
  }

  document.querySelectorAll(".seat-name[data-reg]").forEach(function (name) {
    name.setAttribute("role", "button");
    name.setAttribute("tabindex", "0");
    name.setAttribute("aria-pressed", "false");
    name.classList.add("pickable");
    name.addEventListener("click", function () { pick(name); });
    name.addEventListener("keydown", function (event) {
      if (event.key === "Enter" || event.key === " ") {
        event.preventDefault();
        pick(name);
      }
    });
  });
})();
