/* Keyboard navigation between changes and the inline / side-by-side switch. No network, no storage. */
(function () {
  "use strict";
  var body = document.body;
  var lines = Array.prototype.slice.call(document.querySelectorAll("#document .line[data-change]"));
  var position = document.getElementById("position");
  var current = -1;

  function show(index) {
    if (!lines.length) { return; }
    if (current >= 0) { lines[current].classList.remove("current"); }
    current = Math.max(0, Math.min(lines.length - 1, index));
    var line = lines[current];
    line.classList.add("current");
    line.focus({ preventScroll: true });
    line.scrollIntoView({ block: "center" });
    position.textContent = "Change " + (current + 1) + " of " + lines.length + ".";
  }

  // An unchanged line ships its text once; the old column gets its copy when first shown.
  var twinsFilled = false;
  function fillTwins() {
    if (twinsFilled) { return; }
    twinsFilled = true;
    var twins = document.querySelectorAll("#document .cell.old.twin");
    for (var i = 0; i < twins.length; i++) {
      var twin = twins[i];
      var copy = twin.parentNode.querySelector(".cell.new");
      if (copy) { twin.innerHTML = copy.innerHTML; }
    }
  }

  function setView(view) {
    if (view === "side") { fillTwins(); }
    body.classList.toggle("view-inline", view === "inline");
    body.classList.toggle("view-side", view === "side");
    document.getElementById("view-inline").setAttribute("aria-pressed", String(view === "inline"));
    document.getElementById("view-side").setAttribute("aria-pressed", String(view === "side"));
    if (current >= 0) { lines[current].scrollIntoView({ block: "center" }); }
  }

  document.getElementById("view-inline").addEventListener("click", function () { setView("inline"); });
  document.getElementById("view-side").addEventListener("click", function () { setView("side"); });

  document.addEventListener("focusin", function (event) {
    var line = event.target.closest ? event.target.closest("#document .line[data-change]") : null;
    var index = line ? lines.indexOf(line) : -1;
    if (index >= 0 && index !== current) {
      if (current >= 0) { lines[current].classList.remove("current"); }
      current = index;
      line.classList.add("current");
    }
  });

  window.addEventListener("hashchange", function () {
    var target = document.getElementById(decodeURIComponent(location.hash.slice(1)));
    var index = target ? lines.indexOf(target) : -1;
    if (index >= 0) { show(index); }
  });

  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey) { return; }
    var tag = event.target && event.target.tagName;
    if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") { return; }
    if (event.key === "j" || event.key === "n") { show(current + 1); event.preventDefault(); }
    else if (event.key === "k" || event.key === "p") { show(current < 0 ? 0 : current - 1); event.preventDefault(); }
    else if (event.key === "v") { setView(body.classList.contains("view-side") ? "inline" : "side"); event.preventDefault(); }
  });
})();
