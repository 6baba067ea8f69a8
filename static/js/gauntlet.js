// The editor's gauntlet panel (armybuilder/lists/gauntlet_views.py) follows the list: every
// change the editor saves swaps the totals in out of band, and then the panel is asked again
// at once (a burst of clicks asks once more, 150 ms after its first). While it computes, each
// request of the panel waits on the server until the worker's results are in (at most a
// second, `gauntlet_signal`), and the panel polls again, less often as it goes on
// (`gauntlet_views.POLL_DELAYS_MS`),
// and each of its answers fills the unit rows' figures out of band (one request for all rows).
// A unit row the editor re-renders (a new unit, a move, a rename) comes back waiting for its
// figures, so any swap that leaves a waiting row asks the panel again too.
(function () {
  "use strict";
  var timer = null;
  var last = 0;
  var asking = false;  // a request of refresh() is out, not answered yet
  // `changed`: the list changed (a new answer is needed); else a row waits for figures, which
  // an answer already on its way or about to be asked for brings.
  function refresh(changed) {
    var section = document.getElementById("gauntlet");
    if (!section || !window.htmx) { return; }
    if (!changed && (timer !== null || asking)) { return; }
    clearTimeout(timer);
    // The first change of a burst asks at once (the request waits on the server for the
    // worker's results, `gauntlet_signal`); the changes after it within 150 ms ask once, at its end.
    var wait = Date.now() - last < 150 ? 150 : 0;
    timer = setTimeout(function () {
      timer = null;
      last = Date.now();
      var panel = document.getElementById("gauntlet-panel");
      // A request of the panel still out (a poll waiting for an older content's results) is
      // dropped: its answer would be older than this one's.
      if (panel) { window.htmx.trigger(panel, "htmx:abort"); }
      asking = true;
      window.htmx.ajax("GET", section.getAttribute("data-url"),
        {source: "#gauntlet-panel", target: "#gauntlet-panel", swap: "outerHTML"});
    }, wait);
  }
  document.addEventListener("htmx:afterRequest", function (event) {
    var target = event.detail && event.detail.target;
    if (target && target.id === "gauntlet-panel") { asking = false; }
  });
  document.addEventListener("htmx:oobAfterSwap", function (event) {
    if (event.detail && event.detail.target && event.detail.target.id === "list-totals") { refresh(true); }
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
    if (document.querySelector('.unit-gauntlet[data-state="waiting"]')) { refresh(false); }
  });
})();
