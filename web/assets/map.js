// The overview's map: a button switches between the whole map fitted to the page and the map at
// its actual size (scrolled within its box), for fabrics too wide to read when fitted.
"use strict";
document.addEventListener("DOMContentLoaded", function () {
  var map = document.getElementById("map");
  var button = document.getElementById("map-zoom");
  if (!map || !button) return;
  function label() {
    button.textContent = map.classList.contains("natural") ? "Fit to the page" : "Actual size";
  }
  button.addEventListener("click", function () {
    map.classList.toggle("natural");
    label();
  });
  label();
});
