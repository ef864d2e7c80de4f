// The tournament sheets' "Print" link: a static script, since CSP (script-src 'self') refuses
// javascript: URLs and inline handlers.
document.addEventListener("click", (event) => {
  const link = event.target.closest("[data-print]");
  if (link) {
    event.preventDefault();
    window.print();
  }
});
