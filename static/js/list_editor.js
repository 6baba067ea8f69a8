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

  // A refused answer must never replace the page: if htmx would swap an error into the
  // body (or anything outside the editor), show it in #editor-alert instead.
  document.addEventListener("htmx:beforeSwap", function (event) {
    var detail = event.detail;
    var editor = document.getElementById("list-editor");
    if (detail.isError && editor && detail.target && !editor.contains(detail.target)) {
      detail.target = document.getElementById("editor-alert") || detail.target;
      detail.swapOverride = "innerHTML";
    }
  });

  // With DEBUG on, django-htmx's error handler (a listener on the document) replaces the whole
  // page with any 400 or 409 answer. The editor's refusals are fragments meant for their unit
  // or the alert: stop them on <html>, before they reach the document, so htmx swaps them as
  // it does with DEBUG off. Other errors (a 500's debug page) still reach the handler.
  document.documentElement.addEventListener("htmx:beforeOnLoad", function (event) {
    var xhr = event.detail.xhr;
    var editor = document.getElementById("list-editor");
    if (xhr && (xhr.status === 400 || xhr.status === 409) && editor && editor.contains(event.target)) {
      event.stopPropagation();
    }
  });

  // A count typed out of its range is said at once, beside the field, as the player types;
  // the form still posts on change (it has `novalidate`), and the server's refusal puts the
  // same message beside the field, so nothing is silently left unsaved.
  function checkRange(input) {
    var message = input.parentNode.querySelector(".live-range-error");
    var value = input.value.trim();
    var number = Number(value);
    var outside = value !== "" && (!/^-?\d+$/.test(value) ||
      number < Number(input.min) || number > Number(input.max));
    if (outside) {
      if (!message) {
        message = document.createElement("p");
        message.className = "field-error live-range-error";
        message.setAttribute("role", "alert");
        message.id = input.id + "-live-error";
        input.parentNode.appendChild(message);
      }
      message.textContent = input.getAttribute("data-range-message");
      input.setAttribute("aria-invalid", "true");
      input.setAttribute("aria-errormessage", message.id);
    } else if (message) {
      message.remove();
      input.removeAttribute("aria-invalid");
      input.removeAttribute("aria-errormessage");
    }
  }

  document.addEventListener("input", function (event) {
    var input = event.target;
    if (input.matches && input.matches("#unit-rows .option input[type=number][data-range-message]")) {
      checkRange(input);
    }
  });

  // A unit just added, duplicated or restored may land far from the button that made it
  // (on a phone, screens above): scroll it into sight and highlight it for a moment.
  // A change that removed the focused element (Remove) hands the focus to Undo. "load" fires
  // for new content, out-of-band swaps included, even when the request's own target is gone.
  document.addEventListener("htmx:load", function () {
    window.setTimeout(function () {
      var autofocus = document.querySelector("#list-editor [data-autofocus]");
      if (autofocus) {
        autofocus.removeAttribute("data-autofocus");
        autofocus.focus();
      }
    }, 0);
  });

  document.addEventListener("htmx:afterSettle", function () {
    var rows = document.querySelectorAll("#unit-rows .unit-row.is-new:not([data-seen])");
    Array.prototype.forEach.call(rows, function (row) {
      row.setAttribute("data-seen", "");
      row.classList.add("is-highlighted");
      var box = row.getBoundingClientRect();
      var bar = document.getElementById("list-totals");
      var top = bar ? bar.getBoundingClientRect().bottom : 0;
      if (box.top < top || box.bottom > window.innerHeight) {
        row.scrollIntoView({block: "center", behavior: "auto"});
      }
      window.setTimeout(function () { row.classList.remove("is-highlighted"); }, 4000);
    });
  });

  // Drag and drop to reorder units, by the handle (⠿) of a row; the Up and Down buttons stay
  // for the keyboard. A drop posts the new position to the row's move URL, as the buttons do.
  var dragged = null;

  document.addEventListener("pointerdown", function (event) {
    var handle = event.target.closest && event.target.closest("#unit-rows .drag-handle");
    if (handle) {
      handle.closest(".unit-row").setAttribute("draggable", "true");
    }
  });

  document.addEventListener("dragstart", function (event) {
    var row = event.target.closest && event.target.closest("#unit-rows .unit-row");
    if (!row || row.getAttribute("draggable") !== "true") {
      return;
    }
    dragged = row;
    row.classList.add("is-dragged");
    event.dataTransfer.effectAllowed = "move";
    event.dataTransfer.setData("text/plain", row.id);
  });

  function rowAt(event) {
    return event.target.closest && event.target.closest("#unit-rows .unit-row");
  }

  document.addEventListener("dragover", function (event) {
    var row = rowAt(event);
    if (dragged && row && row !== dragged) {
      event.preventDefault();
      event.dataTransfer.dropEffect = "move";
      Array.prototype.forEach.call(document.querySelectorAll(".unit-row.drop-target"), function (other) {
        if (other !== row) { other.classList.remove("drop-target"); }
      });
      row.classList.add("drop-target");
    }
  });

  document.addEventListener("drop", function (event) {
    var row = rowAt(event);
    if (!dragged || !row || row === dragged) {
      return;
    }
    event.preventDefault();
    var rows = Array.prototype.slice.call(document.querySelectorAll("#unit-rows .unit-row"));
    var position = rows.indexOf(row);
    htmx.ajax("POST", dragged.getAttribute("data-move-url"), {
      source: dragged, target: "#unit-rows", swap: "innerHTML", values: {position: String(position)}
    });
  });

  document.addEventListener("dragend", function () {
    Array.prototype.forEach.call(document.querySelectorAll(".unit-row.drop-target, .unit-row.is-dragged"), function (row) {
      row.classList.remove("drop-target", "is-dragged");
      row.removeAttribute("draggable");
    });
    if (dragged) { dragged.removeAttribute("draggable"); }
    dragged = null;
  });

  // A field the player is typing in when an answer replaces its row (a quick player ticks one
  // option and types a count in the next before the first answer is back) would lose what was
  // typed: the field posts on change, which has not happened yet. The typed value is carried
  // into the new field (htmx has moved the focus there already, by id), unless the answer
  // changed that field itself, and it is sent when the player moves on, as it would have been.
  var typed = null;
  function isTyping(field) {
    return field.tagName === "TEXTAREA" ||
      (field.tagName === "INPUT" && /^(text|number|search)$/.test(field.type));
  }
  document.addEventListener("htmx:beforeSwap", function (event) {
    var field = document.activeElement;
    var target = event.detail.target;
    typed = null;
    if (field && field.id && target && target.contains(field) && isTyping(field) &&
        field.value !== field.defaultValue) {
      typed = {id: field.id, value: field.value, was: field.defaultValue};
    }
  });
  document.addEventListener("htmx:afterSwap", function () {
    var carried = typed;
    typed = null;
    var field = carried && document.getElementById(carried.id);
    if (!field || !isTyping(field) || field.value !== carried.was) {
      return;
    }
    field.value = carried.value;
    field.setAttribute("data-carried", "");
    field.dispatchEvent(new Event("input", {bubbles: true}));  // the live range message
  });
  document.addEventListener("change", function (event) {
    if (event.target.removeAttribute) {
      event.target.removeAttribute("data-carried");
    }
  }, true);
  document.addEventListener("focusout", function (event) {
    var field = event.target;
    if (!field.hasAttribute || !field.hasAttribute("data-carried")) {
      return;
    }
    // After the browser's own change event, if it sends one: then there is nothing to do.
    window.setTimeout(function () {
      if (field.isConnected && field.hasAttribute("data-carried")) {
        field.removeAttribute("data-carried");
        if (field.value !== field.defaultValue) {
          field.dispatchEvent(new Event("change", {bubbles: true}));
        }
      }
    }, 0);
  });

  // A refused change puts its message in #editor-alert: move focus there so it is noticed.
  document.addEventListener("htmx:afterSwap", function (event) {
    var target = event.detail.target;
    if (target && target.id === "editor-alert" && target.textContent.trim()) {
      target.focus();
    }
  });
})();
