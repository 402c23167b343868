"use strict";
(function () {
  function rowsOf(table) { return Array.prototype.slice.call(table.tBodies[0].rows); }
  function sortKey(row, index, numeric) {
    var cell = row.cells[index];
    var key = cell ? cell.getAttribute("data-sort") : "";
    if (key === null) { key = cell.textContent.trim(); }
    if (numeric) { return key === "" ? NaN : Number(key); }
    return key.toLowerCase();
  }
  function sortBy(table, header) {
    var index = header.cellIndex;
    var numeric = header.getAttribute("data-type") === "num";
    var ascending = header.getAttribute("aria-sort") !== "ascending";
    Array.prototype.forEach.call(header.parentNode.cells, function (cell) {
      if (cell.classList.contains("sortable")) { cell.setAttribute("aria-sort", "none"); }
    });
    header.setAttribute("aria-sort", ascending ? "ascending" : "descending");
    var rows = rowsOf(table);
    var keyed = rows.map(function (row, position) {
      return { row: row, key: sortKey(row, index, numeric), position: position };
    });
    keyed.sort(function (a, b) {
      var missingA = numeric && isNaN(a.key), missingB = numeric && isNaN(b.key);
      if (missingA || missingB) {
        return missingA === missingB ? a.position - b.position : (missingA ? 1 : -1);
      }
      var order = a.key < b.key ? -1 : (a.key > b.key ? 1 : 0);
      return (ascending ? order : -order) || a.position - b.position;
    });
    var body = table.tBodies[0];
    keyed.forEach(function (entry) { body.appendChild(entry.row); });
  }
  function filter(controls) {
    var table = document.getElementById(controls.getAttribute("data-table"));
    if (!table) { return; }
    var search = controls.querySelector("input[type=search]");
    var words = search ? search.value.toLowerCase().split(/\s+/).filter(Boolean) : [];
    var selects = Array.prototype.slice.call(controls.querySelectorAll("select"));
    var rows = rowsOf(table), shown = 0;
    rows.forEach(function (row) {
      var text = (row.getAttribute("data-text") || row.textContent).toLowerCase();
      var keep = words.every(function (word) { return text.indexOf(word) !== -1; });
      selects.forEach(function (select) {
        if (keep && select.value) {
          var values = (row.getAttribute("data-" + select.name) || "").split(" ");
          keep = values.indexOf(select.value) !== -1;
        }
      });
      row.hidden = !keep;
      if (keep) { shown += 1; }
    });
    var count = controls.querySelector(".count");
    if (count) { count.textContent = shown + " of " + rows.length + (rows.length === 1 ? " row" : " rows") + " shown"; }
  }
  function clearFilters(controls) {
    Array.prototype.forEach.call(controls.querySelectorAll("input[type=search], select"), function (field) {
      field.value = "";
    });
    filter(controls);
  }
  function reveal() {
    var id = decodeURIComponent(window.location.hash.slice(1));
    var target = id ? document.getElementById(id) : null;
    Array.prototype.forEach.call(document.querySelectorAll(".target"), function (element) {
      element.classList.remove("target");
    });
    if (!target) { return; }
    if (target.hidden) {
      var table = target.closest("table");
      var controls = table ? document.querySelector('.controls[data-table="' + table.id + '"]') : null;
      if (controls) { clearFilters(controls); }
    }
    var details = target.tagName === "TR" ? target.querySelector("details") : null;
    if (details) { details.open = true; }
    target.classList.add("target");
    target.scrollIntoView({ block: "start" });
  }
  function init() {
    Array.prototype.forEach.call(document.querySelectorAll("th.sortable"), function (header) {
      var table = header.closest("table");
      header.tabIndex = 0;
      header.addEventListener("click", function () { sortBy(table, header); });
      header.addEventListener("keydown", function (event) {
        if (event.key === "Enter" || event.key === " ") { event.preventDefault(); sortBy(table, header); }
      });
    });
    Array.prototype.forEach.call(document.querySelectorAll(".controls[data-table]"), function (controls) {
      Array.prototype.forEach.call(controls.querySelectorAll("input[type=search], select"), function (field) {
        field.addEventListener("input", function () { filter(controls); });
        field.addEventListener("change", function () { filter(controls); });
      });
      filter(controls);
    });
    window.addEventListener("hashchange", reveal);
    reveal();
  }
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", init); } else { init(); }
}());
