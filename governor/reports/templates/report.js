// citegov report pages: open a citation's detail in the side panel; filter the index table.
// Reads only this page's DOM; no network, no eval, no HTML built from strings.
(function () {
  "use strict";
  function show(id) {
    var target = document.getElementById(id);
    if (!target) { return; }
    document.querySelectorAll(".detail.active").forEach(function (d) {
      d.classList.remove("active");
      d.hidden = true;
    });
    document.querySelectorAll(".cite.selected").forEach(function (c) { c.classList.remove("selected"); });
    target.hidden = false;
    target.classList.add("active");
    document.querySelectorAll('.cite[data-detail="' + id + '"]').forEach(function (c) { c.classList.add("selected"); });
    var placeholder = document.getElementById("placeholder");
    if (placeholder) { placeholder.hidden = true; }
    var panel = document.getElementById("panel");
    if (panel) { panel.scrollTop = 0; }
  }
  document.addEventListener("click", function (ev) {
    var el = ev.target instanceof Element ? ev.target.closest("[data-detail]") : null;
    if (!el) { return; }
    ev.preventDefault();
    show(el.getAttribute("data-detail"));
  });
  if (location.hash && location.hash.indexOf("#d-") === 0) { show(location.hash.slice(1)); }

  var filter = document.getElementById("filter");
  var onlyOpen = document.getElementById("only-open");
  function applyFilter() {
    var q = filter ? filter.value.trim().toLowerCase() : "";
    var open = onlyOpen ? onlyOpen.checked : false;
    document.querySelectorAll("#index tbody tr").forEach(function (tr) {
      var key = (tr.getAttribute("data-key") || "").toLowerCase();
      var visible = key.indexOf(q) !== -1 && (!open || tr.classList.contains("open") || tr.classList.contains("failed"));
      tr.classList.toggle("hidden", !visible);
    });
  }
  if (filter) { filter.addEventListener("input", applyFilter); }
  if (onlyOpen) { onlyOpen.addEventListener("change", applyFilter); }
})();
