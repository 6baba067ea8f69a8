// Play mode offline (armybuilder/games/): the game lives in this browser first.
//
// Online, every tap posts with htmx and the server's board comes back; after each swap the
// board is kept in localStorage ("game:<id>:board", with the number of actions it shows).
// Offline (or while taps still wait to be sent), a tap is not posted: it is added to the
// taps waiting in localStorage ("game:<id>:pending") and drawn on the kept board here, so
// the game goes on without a connection and after a reload (the service worker keeps the
// page). Back online, the waiting taps go to the sync endpoint (/api/v1/games/<id>/sync) in
// one request, and the page is loaded again from the server.
(function () {
  "use strict";

  function board() { return document.getElementById("board"); }
  function key(id, what) { return "game:" + id + ":" + what; }
  function read(name, fallback) {
    try { var value = localStorage.getItem(name); return value ? JSON.parse(value) : fallback; }
    catch (error) { return fallback; }
  }
  function write(name, value) {
    try { localStorage.setItem(name, JSON.stringify(value)); } catch (error) { /* storage full: stay online */ }
  }

  // The board the server last drew (kept after each swap), and the taps made since.
  function keepBoard() {
    var b = board();
    if (!b) { return; }
    var id = b.getAttribute("data-game");
    var kept = read(key(id, "board"), null);
    var version = parseInt(b.getAttribute("data-version"), 10);
    if (!kept || kept.version <= version) {
      write(key(id, "board"), {version: version, html: b.outerHTML});
    }
  }

  function pending(id) { return read(key(id, "pending"), []); }

  // A tap's form as an action of the API (numbers as numbers, the state's switch as a boolean).
  function actionOf(form) {
    var action = {};
    new FormData(form).forEach(function (value, name) {
      if (name === "csrfmiddlewaretoken") { return; }
      if (name === "side" || name === "unit" || name === "model" || name === "delta") {
        action[name] = parseInt(value, 10);
      } else if (name === "on") {
        action.on = value === "1";
      } else {
        action[name] = value;
      }
    });
    return action;
  }

  function setNumber(element, attribute, value, text) {
    element.setAttribute(attribute, String(value));
    element.textContent = text === undefined ? String(value) : text;
  }

  // Draw one tap on the board, as the server would have drawn it.
  function draw(b, action) {
    var unit = action.unit === undefined ? null
      : b.querySelector('.game-unit[data-side="' + action.side + '"][data-unit="' + action.unit + '"]');
    if (action.op === "lose" || action.op === "wound") {
      var row = unit.querySelector('[data-model="' + action.model + '"]');
      var count = row.querySelector(".model-count");
      var wounds = row.querySelector(".model-wounds");
      var left = parseInt(count.getAttribute("data-count"), 10);
      var lost = action.op === "lose";
      if (action.op === "wound" && wounds) {
        var taken = parseInt(wounds.getAttribute("data-wounds"), 10) + 1;
        if (taken >= parseInt(row.getAttribute("data-wounds-max"), 10)) { taken = 0; lost = true; }
        wounds.setAttribute("data-wounds", String(taken));
        wounds.textContent = wounds.textContent.replace(/\d+(?=\/)/, String(taken));
      }
      if (lost) {
        left -= 1;
        setNumber(count, "data-count", left, left + "/" + row.getAttribute("data-count-max"));
        var total = unit.querySelector(".left");
        var models = parseInt(total.getAttribute("data-left"), 10) - 1;
        total.setAttribute("data-left", String(models));
        total.textContent = total.textContent.replace(/\d+/, String(models));
        if (left <= 0) {
          row.querySelectorAll("button").forEach(function (button) { button.disabled = true; });
        }
      }
    } else if (action.op === "state") {
      var button = unit.querySelector('[data-tap="state-' + action.state + '"]');
      button.setAttribute("aria-pressed", action.on ? "true" : "false");
      button.classList.toggle("on", action.on);
      button.classList.toggle("secondary", !action.on);
      button.form.querySelector('input[name="on"]').value = action.on ? "0" : "1";
    } else if (action.op === "phase") {
      b.querySelectorAll('[data-tap^="phase-"]').forEach(function (phase) {
        phase.setAttribute("aria-pressed", phase.getAttribute("data-tap") === "phase-" + action.value ? "true" : "false");
      });
    } else if (action.op === "battle_round") {
      var round = parseInt(action.value, 10);
      var number = b.querySelector(".round-number");
      setNumber(number, "data-battle-round", round);
      var up = b.querySelector('[data-tap="round-up"]');
      if (up) { up.form.querySelector('input[name="value"]').value = String(round + 1); }
      var down = b.querySelector('[data-tap="round-down"]');
      if (down) { down.form.querySelector('input[name="value"]').value = String(round - 1); }
    } else if (action.op === "vp") {
      var vp = b.querySelector('.vp-side[data-side="' + action.side + '"] .vp');
      setNumber(vp, "data-vp", parseInt(vp.getAttribute("data-vp"), 10) + action.delta);
    }
  }

  function status(b, message) {
    var line = b.querySelector(".game-offline");
    if (!line) { return; }
    line.textContent = message;
    line.hidden = !message;
  }

  // The kept board with the waiting taps drawn on it.
  function redraw(id) {
    var kept = read(key(id, "board"), null);
    var b = board();
    if (kept && kept.version >= parseInt(b.getAttribute("data-version"), 10)) {
      b.outerHTML = kept.html;
      b = board();
      if (window.htmx) { window.htmx.process(b); }
    }
    var waiting = pending(id);
    waiting.forEach(function (action) { draw(b, action); });
    var line = b.querySelector(".game-offline");
    if (waiting.length && line) {
      status(b, (navigator.onLine ? "" : line.getAttribute("data-offline-text") + " ")
        + line.getAttribute("data-pending-text").replace("{count}", String(waiting.length)));
    } else if (!navigator.onLine && line) {
      status(b, line.getAttribute("data-offline-text"));
    }
    oddsOffline(b);
  }

  function csrf() {
    try { return JSON.parse(document.body.getAttribute("hx-headers"))["X-CSRFToken"]; } catch (error) { return ""; }
  }

  var syncing = false;
  function post(url, body) {
    return fetch(url, {method: "POST", credentials: "same-origin",
                       headers: {"Content-Type": "application/json", "X-CSRFToken": csrf(), "Accept": "application/json"},
                       body: JSON.stringify(body)})
      .then(function (response) {
        return response.json().then(function (answer) { return {status: response.status, body: answer}; });
      });
  }

  // Send the waiting taps, then a result chosen offline; a 409 (the game moved on elsewhere)
  // sends the taps again on top of it. The taps are sent against the number of actions they
  // were made on ("game:<id>:base"), not the board shown now: when a sync reached the server
  // but its answer was lost (a flaky network, a reload), the game's actions after that number
  // are these very taps, and they are not sent a second time.
  function sameTap(done, tap) {
    return Object.keys(tap).every(function (name) { return String(done[name]) === String(tap[name]); });
  }
  function sync(id, seen) {
    var waiting = pending(id);
    var finish = read(key(id, "finish"), null);
    var b = board();
    if (syncing || (!waiting.length && !finish) || !navigator.onLine || !b) { return; }
    syncing = true;
    var base = read(key(id, "base"), null);
    if (waiting.length && base !== null) { seen = base; }
    var url = b.getAttribute("data-sync-url");
    var taps = waiting.length ? post(url, {seen: seen, actions: waiting}) : Promise.resolve({status: 200});
    function settled(answer) {
      localStorage.removeItem(key(id, "pending"));
      localStorage.removeItem(key(id, "base"));
      localStorage.removeItem(key(id, "board"));
      if (answer.status !== 200) {
        window.alert(answer.body && answer.body.message ? answer.body.message : String(answer.status));
      }
      var done = finish ? post(url.replace(/\/sync$/, "/finish"), {result: finish}) : Promise.resolve(null);
      return done.then(function () {
        localStorage.removeItem(key(id, "finish"));
        window.location.reload();
      });
    }
    taps.then(function (answer) {
      if (answer.status === 409) {
        return fetch(url.replace(/\/sync$/, ""), {credentials: "same-origin", headers: {"Accept": "application/json"}})
          .then(function (response) { return response.json(); })
          .then(function (game) {
            var landed = (game.actions || []).slice(seen);
            if (landed.length === waiting.length && landed.every(function (done, i) { return sameTap(done, waiting[i]); })) {
              return settled({status: 200});
            }
            write(key(id, "base"), game.version);
            syncing = false;
            sync(id, game.version);
          });
      }
      return settled(answer);
    }).catch(function () { syncing = false; });
  }

  // The odds are worked out on the server. Offline, the odds section says so; odds asked
  // offline are kept ("game:<id>:odds") and asked once the phone is online again and its
  // waiting taps are sent (so they are the odds of the survivors as tapped).
  function oddsOffline(b) {
    var line = b && b.querySelector(".odds-offline");
    if (line) { line.hidden = navigator.onLine; }
  }

  function oddsWaiting(id) {
    var queued = read(key(id, "odds"), null);
    var form = board() && board().querySelector("form.odds-form");
    var answer = document.getElementById("odds-result");
    if (!queued || !form || !answer) { return; }
    var note = document.createElement("p");
    note.className = "odds-queued";
    note.setAttribute("role", "status");
    note.textContent = form.getAttribute("data-offline-text");
    answer.replaceChildren(note);
  }

  // `loading`: the page has just loaded; a copy the service worker kept (the network failed
  // for it) waits for the "online" event rather than trust navigator.onLine.
  function askQueuedOdds(id, loading) {
    var queued = read(key(id, "odds"), null);
    var b = board();
    var form = b && b.querySelector("form.odds-form");
    if (loading && document.body.hasAttribute("data-offline-copy")) { return; }
    if (!queued || !form || !navigator.onLine || pending(id).length) { return; }
    localStorage.removeItem(key(id, "odds"));
    fetch(form.getAttribute("action"), {
      method: "POST", credentials: "same-origin",
      headers: {"Content-Type": "application/x-www-form-urlencoded", "X-CSRFToken": csrf(), "HX-Request": "true"},
      body: new URLSearchParams(queued).toString()
    }).then(function (response) {
      if (response.status >= 500) { throw new Error(String(response.status)); }
      return response.text();
    }).then(function (html) {
      var answer = document.getElementById("odds-result");
      answer.innerHTML = html;
      if (window.htmx) { window.htmx.process(answer); }
    }).catch(function () { write(key(id, "odds"), queued); oddsWaiting(id); });
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    var b = board();
    if (!b || !form.classList || !form.classList.contains("odds-form") || navigator.onLine) { return; }
    event.preventDefault();
    event.stopImmediatePropagation();
    var asked = {};
    new FormData(form).forEach(function (value, name) {
      if (name !== "csrfmiddlewaretoken") { asked[name] = value; }
    });
    write(key(b.getAttribute("data-game"), "odds"), asked);
    oddsWaiting(b.getAttribute("data-game"));
  }, true);

  // The result of a game finished offline: kept, said on the page, sent with the taps.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    var b = board();
    if (!b || !form.classList || !form.classList.contains("game-finish")) { return; }
    var id = b.getAttribute("data-game");
    if (navigator.onLine && !pending(id).length) { return; }
    event.preventDefault();
    var result = new FormData(form).get("result");
    write(key(id, "finish"), result);
    finishedOffline(form, result);
    sync(id, parseInt(b.getAttribute("data-version"), 10));
  }, true);

  function finishedOffline(form, result) {
    var option = form.querySelector('option[value="' + result + '"]');
    var note = document.createElement("p");
    note.className = "game-result";
    note.setAttribute("data-finished-offline", result);
    note.textContent = form.getAttribute("data-offline-text").replace("{result}", option ? option.textContent : result);
    form.replaceWith(note);
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    var b = board();
    if (!b || !form.classList || !form.classList.contains("tap") || !b.contains(form)) { return; }
    var id = b.getAttribute("data-game");
    var waiting = pending(id);
    if (navigator.onLine && !waiting.length) { return; } // online: htmx posts it
    event.preventDefault();
    event.stopImmediatePropagation();
    var action = actionOf(form);
    if (action.op === "undo") {
      if (!waiting.length) {
        status(b, b.querySelector(".game-offline").getAttribute("data-undo-text"));
        return;
      }
      waiting.pop();
    } else {
      if (!waiting.length) { write(key(id, "base"), parseInt(b.getAttribute("data-version"), 10)); }
      waiting.push(action);
    }
    write(key(id, "pending"), waiting);
    redraw(id);
    sync(id, parseInt(board().getAttribute("data-version"), 10));
  }, true);

  document.addEventListener("htmx:afterSettle", function () {
    var b = board();
    if (b && !pending(b.getAttribute("data-game")).length) { keepBoard(); }
  });

  window.addEventListener("online", function () {
    var b = board();
    if (!b) { return; }
    oddsOffline(b);
    sync(b.getAttribute("data-game"), parseInt(b.getAttribute("data-version"), 10));
    askQueuedOdds(b.getAttribute("data-game"));  // with taps waiting: on the reload after their sync
  });
  window.addEventListener("offline", function () {
    var b = board();
    if (b) { redraw(b.getAttribute("data-game")); oddsOffline(board()); }
  });

  document.addEventListener("DOMContentLoaded", function () {
    var b = board();
    if (!b) { return; }
    var id = b.getAttribute("data-game");
    if (!pending(id).length) { keepBoard(); } // with taps waiting, the kept board is their base
    redraw(id);
    var finish = read(key(id, "finish"), null);
    var form = document.querySelector("form.game-finish");
    if (finish && form) { finishedOffline(form, finish); }
    oddsOffline(board());
    oddsWaiting(id);
    sync(id, parseInt(board().getAttribute("data-version"), 10));
    askQueuedOdds(id, true);
  });
})();
