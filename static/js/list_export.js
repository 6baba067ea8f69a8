// The text export of a list: pick a format, see the text, copy it to the clipboard.
// Without JavaScript the page offers a plain link per format instead (<noscript>).
(function () {
  "use strict";

  function setUp(box) {
    var url = box.getAttribute("data-text-url");
    var select = box.querySelector("#text-format");
    var text = box.querySelector("#export-text");
    var copy = box.querySelector("#copy-text");
    var status = box.querySelector("#copy-status");
    var download = box.querySelector("#text-download");

    var asked = 0;  // the latest request: an older answer arriving late is dropped

    function load() {
      var style = select.value;
      var mine = ++asked;
      download.href = url + "?format=" + encodeURIComponent(style) + "&download=1";
      status.textContent = "";
      return fetch(url + "?format=" + encodeURIComponent(style), {credentials: "same-origin", cache: "no-store"})
        .then(function (response) { return response.text(); })
        .then(function (body) { if (mine === asked) { text.value = body; } });
    }

    // The editor's htmx changes re-render the totals out of band with the list's new version:
    // the text follows the list, not the page as it was loaded. It is fetched again at once
    // while the box is on the screen, else when it comes into view (a player who never looks
    // at it costs no text export per click).
    function version() {
      var marker = document.querySelector("#list-totals [data-list-version]");
      return marker ? marker.getAttribute("data-list-version") : null;
    }
    var shown = version();
    var stale = false;
    var inView = !("IntersectionObserver" in window);
    if (!inView) {
      new IntersectionObserver(function (entries) {
        inView = entries.some(function (entry) { return entry.isIntersecting; });
        if (inView && stale) {
          stale = false;
          load();
        }
      }).observe(box);
    }
    document.addEventListener("htmx:afterSettle", function () {
      var now = version();
      if (now === shown) {
        return;
      }
      shown = now;
      if (inView) {
        load();
      } else {
        stale = true;
      }
    });

    function copied(ok) {
      status.textContent = status.getAttribute(ok ? "data-copied" : "data-failed");
    }

    select.addEventListener("change", load);
    copy.addEventListener("click", function () {
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(text.value).then(function () { copied(true); }, function () {
          text.select();
          copied(document.execCommand("copy"));
        });
      } else {
        text.select();  // plain http: the older way, which needs the text selected
        copied(document.execCommand("copy"));
      }
    });
    load();
  }

  // A "Copy the link" button (`data-copy` names the field it copies; the status beside it says
  // whether it worked): the locked version's link after "Lock and share".
  document.addEventListener("click", function (event) {
    var button = event.target.closest ? event.target.closest("button[data-copy]") : null;
    if (!button) { return; }
    var field = document.getElementById(button.getAttribute("data-copy"));
    var status = button.parentNode.querySelector(".copy-status");
    if (!field) { return; }
    function done(ok) {
      if (status) { status.textContent = button.getAttribute(ok ? "data-copied" : "data-failed"); }
    }
    function fallback() {
      field.select();
      done(document.execCommand("copy"));
    }
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(field.value).then(function () { done(true); }, fallback);
    } else {
      fallback();
    }
  });

  document.addEventListener("DOMContentLoaded", function () {
    var box = document.querySelector(".text-export");
    if (box) {
      setUp(box);
    }
  });
})();
