// The colour theme: the system's (prefers-color-scheme) unless the player picked light or
// dark with the header's switch, remembered in this browser. Loaded in <head>, not deferred,
// so the page is drawn in the right colours from the start.
(function () {
  "use strict";
  var KEY = "armybuilder-theme";

  function stored() {
    try {
      return window.localStorage.getItem(KEY) || "system";
    } catch (error) {
      return "system";
    }
  }

  function apply(theme) {
    if (theme === "light" || theme === "dark") {
      document.documentElement.setAttribute("data-theme", theme);
    } else {
      document.documentElement.removeAttribute("data-theme");
    }
  }

  apply(stored());

  document.addEventListener("DOMContentLoaded", function () {
    var select = document.getElementById("theme-select");
    if (!select) {
      return;
    }
    select.value = stored();
    select.hidden = false;  // without JavaScript the switch could do nothing: it stays hidden
    select.addEventListener("change", function () {
      try {
        window.localStorage.setItem(KEY, select.value);
      } catch (error) { /* private mode: the choice lasts for this page only */ }
      apply(select.value);
    });
  });
})();
