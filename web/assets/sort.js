// Sortable tables: a click (or Enter) on a column header of a table.sortable sorts its body rows
// by that column, a second click reverses. Cells with a data-value attribute sort as numbers
// (empty: no value, always last); the others as text, digits in names compared as numbers.
"use strict";
(function () {
  function cellKey(row, column) {
    var cell = row.cells[column];
    if (!cell) return { number: null, text: "" };
    var value = cell.getAttribute("data-value");
    if (value !== null) return { number: value === "" ? null : parseFloat(value), text: "" };
    return { number: null, text: cell.textContent.trim() };
  }

  function compare(a, b, numeric) {
    if (numeric) {
      if (a.number === null || b.number === null)
        return (a.number === null) - (b.number === null);
      return a.number - b.number;
    }
    return a.text.localeCompare(b.text, undefined, { numeric: true, sensitivity: "base" });
  }

  function sortBy(table, header, column) {
    var body = table.tBodies[0];
    if (!body) return;
    var descending = header.getAttribute("aria-sort") === "ascending";
    var rows = Array.prototype.slice.call(body.rows);
    var numeric = rows.some(function (row) {
      return row.cells[column] && row.cells[column].hasAttribute("data-value");
    });
    var keyed = rows.map(function (row, index) {
      return { row: row, key: cellKey(row, column), index: index };
    });
    keyed.sort(function (x, y) {
      var order = compare(x.key, y.key, numeric);
      // Rows without a value stay last whichever the direction.
      if (numeric && (x.key.number === null || y.key.number === null)) return order || x.index - y.index;
      return (descending ? -order : order) || x.index - y.index;
    });
    keyed.forEach(function (k) { body.appendChild(k.row); });
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th) {
      th.removeAttribute("aria-sort");
    });
    header.setAttribute("aria-sort", descending ? "descending" : "ascending");
  }

  function makeSortable(table) {
    if (!table.tHead || !table.tHead.rows.length) return;
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, column) {
      th.tabIndex = 0;
      th.title = "Sort by this column";
      th.addEventListener("click", function () { sortBy(table, th, column); });
      th.addEventListener("keydown", function (event) {
        if (event.key === "Enter") sortBy(table, th, column);
      });
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    Array.prototype.forEach.call(document.querySelectorAll("table.sortable"), makeSortable);
  });
})();
