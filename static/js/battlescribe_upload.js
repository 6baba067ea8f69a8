// Upload progress for the BattleScribe import form: send it with XHR, show the share of bytes
// sent, then swap in the page the server answered (the queued import's page, which htmx polls
// until the result shows, or the list of problems), at the address it came from.
// Without JavaScript the form posts normally.
(function () {
  "use strict";
  if (!window.XMLHttpRequest || !window.FormData || !window.DOMParser) return;

  function bind() {
    var form = document.getElementById("battlescribe-form");
    if (!form) return;
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      var row = document.getElementById("bs-progress-row");
      var bar = document.getElementById("bs-progress");
      var text = document.getElementById("bs-progress-text");
      var button = form.querySelector("button[type=submit]");
      row.hidden = false;
      button.disabled = true;
      var xhr = new XMLHttpRequest();
      xhr.open("POST", form.action);
      xhr.upload.addEventListener("progress", function (e) {
        if (e.lengthComputable) {
          var percent = Math.round((e.loaded / e.total) * 100);
          bar.value = percent;
          text.textContent = percent + " %";
        }
      });
      xhr.addEventListener("load", function () {
        var page = new DOMParser().parseFromString(xhr.responseText, "text/html");
        var fresh = page.getElementById("battlescribe-page");
        var current = document.getElementById("battlescribe-page");
        if (fresh && current) {
          current.replaceWith(fresh);
          if (xhr.responseURL && window.history && window.history.replaceState) {
            window.history.replaceState(null, "", xhr.responseURL);
          }
          if (window.htmx) window.htmx.process(fresh);
          bind();
        } else {
          document.open();
          document.write(xhr.responseText);
          document.close();
        }
      });
      xhr.addEventListener("error", function () {
        button.disabled = false;
        text.textContent = "✗";
      });
      xhr.send(new FormData(form));
    });
  }
  bind();
})();
