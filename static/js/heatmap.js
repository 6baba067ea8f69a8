// The estimate's heat maps (templates/estimates/_matrix.html): a cell's details (models killed,
// chance to destroy) were in its title, which only a mouse pointer shows. A tap, a click or
// the keyboard's focus on a cell now writes them under its table, where a phone shows them
// and a screen reader reads them (the line is a polite live region).
(function () {
  "use strict";
  function show(cell) {
    var matrix = cell.closest(".matrix");
    var line = matrix ? matrix.querySelector(".heat-detail") : null;
    if (!line) { return; }
    var pressed = matrix.querySelector('td.heat.is-shown');
    if (pressed && pressed !== cell) { pressed.classList.remove("is-shown"); }
    cell.classList.add("is-shown");
    line.textContent = cell.getAttribute("data-detail");
  }
  function cellOf(event) {
    return event.target && event.target.closest ? event.target.closest("td.heat[data-detail]") : null;
  }
  document.addEventListener("focusin", function (event) {
    var cell = cellOf(event);
    if (cell) { show(cell); }
  });
  document.addEventListener("click", function (event) {
    var cell = cellOf(event);
    if (cell) { show(cell); }
  });
})();
