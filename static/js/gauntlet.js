// The editor's gauntlet panel (armybuilder/lists/gauntlet_views.py) follows the list: every
// change the editor saves swaps the totals in out of band, and then the panel is asked again
// (debounced by 150 ms, so a burst of clicks asks once). The panel polls by itself while it
// computes, soon at first and less often as it goes on (`gauntlet_views.POLL_DELAYS_MS`),
// and each of its answers fills the unit rows' figures out of band (one request for all rows).
// A unit row the editor re-renders (a new unit, a move, a rename) comes back waiting for its
// figures, so any swap that leaves a waiting row asks the panel again too.
(function () {
  "use strict";
  var timer = null;
  function refresh() {
    var section = document.getElementById("gauntlet");
    if (!section || !window.htmx) { return; }
    clearTimeout(timer);
    timer = setTimeout(function () {
      window.htmx.ajax("GET", section.getAttribute("data-url"), {target: "#gauntlet-panel", swap: "outerHTML"});
    }, 150);
  }
  document.addEventListener("htmx:oobAfterSwap", function (event) {
    if (event.detail && event.detail.target && event.detail.target.id === "list-totals") { refresh(); }
  });
  // Only the rows whose figures changed are swapped: each answer of the panel carries every
  // row with a digest of what it shows, and a row that shows the same is left as it is (no
  // repaint, nothing the player reads moves). A row's "What these figures mean" stays open
  // when fresh figures replace it.
  document.addEventListener("htmx:oobBeforeSwap", function (event) {
    var target = event.detail && event.detail.target;
    var fragment = event.detail && event.detail.fragment;
    if (!target || !target.classList || !target.classList.contains("unit-gauntlet") || !fragment) { return; }
    var incoming = fragment.querySelector ? fragment.querySelector(".unit-gauntlet") : null;
    var digest = incoming && incoming.getAttribute("data-digest");
    if (digest && digest === target.getAttribute("data-digest")) {
      event.detail.shouldSwap = false;
      return;
    }
    var fresh = fragment.querySelector("details.gauntlet-explained");
    if (fresh && target.querySelector("details.gauntlet-explained[open]")) { fresh.setAttribute("open", ""); }
  });
  document.addEventListener("htmx:afterSettle", function (event) {
    var panel = document.getElementById("gauntlet-panel");
    if (panel && panel.getAttribute("data-state") === "computing") { return; }  // it polls by itself
    if (event.target && event.target.closest && event.target.closest("#gauntlet")) { return; }
    if (document.querySelector('.unit-gauntlet[data-state="waiting"]')) { refresh(); }
  });
})();
