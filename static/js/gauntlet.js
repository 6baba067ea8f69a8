// The editor's gauntlet panel (armybuilder/lists/gauntlet_views.py) follows the list: every
// change the editor saves swaps the totals in out of band, and then the panel is asked again
// (debounced, so a burst of clicks asks once). The panel polls by itself while it computes.
(function () {
  "use strict";
  var timer = null;
  document.addEventListener("htmx:oobAfterSwap", function (event) {
    if (!event.detail || !event.detail.target || event.detail.target.id !== "list-totals") { return; }
    var section = document.getElementById("gauntlet");
    if (!section || !window.htmx) { return; }
    clearTimeout(timer);
    timer = setTimeout(function () {
      window.htmx.ajax("GET", section.getAttribute("data-url"), {target: "#gauntlet-panel", swap: "outerHTML"});
    }, 300);
  });
})();
