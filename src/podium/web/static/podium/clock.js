// Round clocks: every [data-clock] shows the time since its start and the time left, counted
// from the server's time carried by the page (so a phone with a wrong clock still shows the
// round's clock). Clocks swapped in later by htmx are picked up on the next tick.
(function () {
  "use strict";
  function text(ms) {
    var s = Math.max(0, Math.floor(ms / 1000));
    var h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = s % 60;
    return h + ":" + String(m).padStart(2, "0") + ":" + String(sec).padStart(2, "0");
  }
  function tick() {
    document.querySelectorAll("[data-clock]").forEach(function (el) {
      if (el.dataset.offset === undefined) {
        el.dataset.offset = String(Number(el.dataset.serverNow) - Date.now());
      }
      var started = el.dataset.started ? Number(el.dataset.started) : null;
      if (started === null) { return; }
      var now = Date.now() + Number(el.dataset.offset);
      var ends = el.dataset.ends ? Number(el.dataset.ends) : null;
      var shown = ends !== null ? Math.min(now, ends) : now;
      el.querySelector("[data-elapsed]").textContent = now < started ? text(0) : text(shown - started);
      var left = el.querySelector("[data-remaining]");
      if (ends !== null && left) { left.textContent = "−" + text(ends - shown); }
      var over = ends !== null && now >= ends;
      el.querySelector("[data-ended]").hidden = !over;
      el.classList.toggle("clock-ended", over);
      el.classList.toggle("clock-running", !over && now >= started);
    });
  }
  tick();
  setInterval(tick, 250);
})();
