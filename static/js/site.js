// Behaviour the pages used to declare in inline handlers, which the Content-Security-Policy
// forbids (script-src 'self'): `data-autosubmit` submits its form on change, `data-print`
// prints the page.
document.addEventListener("change", function (event) {
  var field = event.target.closest && event.target.closest("[data-autosubmit]");
  if (field && field.form) { field.form.submit(); }
});
document.addEventListener("click", function (event) {
  var button = event.target.closest && event.target.closest("[data-print]");
  if (button) { window.print(); }
});
