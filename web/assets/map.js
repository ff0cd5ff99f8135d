// The overview's map opens fitted to the page's width; a button shows it at its actual size
// (scrolled within its box, the part that was in the middle of the box kept there) and back.
"use strict";
document.addEventListener("DOMContentLoaded", function () {
  var map = document.getElementById("map");
  var button = document.getElementById("map-zoom");
  if (!map || !button) return;
  function label() {
    button.textContent = map.classList.contains("natural") ? "Fit to the page" : "Actual size";
  }
  button.addEventListener("click", function () {
    var x = (map.scrollLeft + map.clientWidth / 2) / Math.max(1, map.scrollWidth);
    var y = (map.scrollTop + map.clientHeight / 2) / Math.max(1, map.scrollHeight);
    map.classList.toggle("natural");
    map.scrollLeft = x * map.scrollWidth - map.clientWidth / 2;
    map.scrollTop = y * map.scrollHeight - map.clientHeight / 2;
    label();
  });
  label();
});
