// The list editor's one piece of JavaScript: keep every change on the list version the
// page last saw, so the server can refuse changes made from a stale tab (HTTP 409).
// The version lives in #list-version (inside the summary, which every change replaces).
(function () {
  "use strict";

  function currentVersion() {
    var element = document.getElementById("list-version");
    return element ? element.getAttribute("data-version") : null;
  }

  // htmx requests: send the version as a header (the server prefers it to the form field).
  document.addEventListener("htmx:configRequest", function (event) {
    var version = currentVersion();
    if (version) {
      event.detail.headers["X-List-Version"] = version;
    }
  });

  // Plain form posts (share, stop sharing): refresh their hidden field before they go.
  document.addEventListener("submit", function (event) {
    var field = event.target.elements && event.target.elements.namedItem("version");
    var version = currentVersion();
    if (field && version && field.value !== version) {
      field.value = version;
    }
  }, true);

  // A refused change puts its message in #editor-alert: move focus there so it is noticed.
  document.addEventListener("htmx:afterSwap", function (event) {
    var target = event.detail.target;
    if (target && target.id === "editor-alert" && target.textContent.trim()) {
      target.focus();
    }
  });
})();
