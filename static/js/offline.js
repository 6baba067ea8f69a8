// Installable and readable offline (armybuilder/offline.py): registers the service worker when
// the page asks for it, shows the "offline copy" banner on a page served from its cache, and
// asks it to forget the copies once the visitor is signed out.
(function () {
  "use strict";
  var meta = document.querySelector('meta[name="service-worker"]');
  if (!("serviceWorker" in navigator)) { return; }
  if (meta) {
    navigator.serviceWorker.register(meta.content, {scope: "/"}).catch(function () {});
  }
  document.addEventListener("DOMContentLoaded", function () {
    var body = document.body;
    var savedAt = body.getAttribute("data-offline-copy");
    var banner = document.getElementById("offline-banner");
    if (savedAt && banner) {
      var when = new Date(savedAt);
      var text = banner.getAttribute("data-template").replace("{time}",
        isNaN(when) ? savedAt : when.toLocaleString(document.documentElement.lang || undefined));
      banner.querySelector(".offline-banner-text").textContent = text;
      banner.hidden = false;
    }
    if (body.hasAttribute("data-signed-out") && navigator.serviceWorker.controller) {
      navigator.serviceWorker.controller.postMessage({type: "forget-offline-copies"});
    }
  });
})();
