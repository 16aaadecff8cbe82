// Round clocks: every [data-clock] shows the time since its start and the time left, counted
// from the server's time, so a phone with a wrong clock still shows the round's clock. The
// server's time comes from the page (data-server-now, on pages made for one visitor) or from
// the X-Podium-Now header of the live table's answers (a page served from the cache may have
// been made long ago, so it carries none and asks the live table once at once). Clocks swapped
// in later by htmx are picked up on the next tick.
(function () {
  "use strict";
  var offset = null;  // the server's time minus this device's, in ms

  function learn(serverNow) {
    if (serverNow && !isNaN(Number(serverNow))) { offset = Number(serverNow) - Date.now(); }
  }

  function text(ms) {
    var s = Math.max(0, Math.floor(ms / 1000));
    var h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = s % 60;
    return h + ":" + String(m).padStart(2, "0") + ":" + String(sec).padStart(2, "0");
  }

  function tick() {
    document.querySelectorAll("[data-clock]").forEach(function (el) {
      if (offset === null && el.dataset.serverNow) { learn(el.dataset.serverNow); }
      var started = el.dataset.started ? Number(el.dataset.started) : null;
      if (started === null) { return; }
      var now = Date.now() + (offset || 0);
      var ends = el.dataset.ends ? Number(el.dataset.ends) : null;
      var shown = ends !== null ? Math.min(now, ends) : now;
      el.querySelector("[data-elapsed]").textContent = now < started ? text(0) : text(shown - started);
      var left = el.querySelector("[data-remaining]");
      // The time left in words ("1:29:56 left"), never "−1:29:56", which reads as negative.
      if (ends !== null && left) {
        left.textContent = (left.dataset.format || "%(time)s").replace("%(time)s", text(ends - shown));
      }
      var over = ends !== null && now >= ends;
      el.querySelector("[data-ended]").hidden = !over;
      el.classList.toggle("clock-ended", over);
      el.classList.toggle("clock-running", !over && now >= started);
    });
  }

  document.addEventListener("htmx:afterRequest", function (event) {
    var xhr = event.detail && event.detail.xhr;
    if (xhr) { learn(xhr.getResponseHeader("X-Podium-Now")); }
  });

  var live = document.querySelector("[data-etag][hx-get]");
  if (live && document.querySelector("[data-clock]:not([data-server-now])")) {
    fetch(live.getAttribute("hx-get"), { headers: { "If-None-Match": live.dataset.etag } })
      .then(function (answer) { learn(answer.headers.get("X-Podium-Now")); tick(); })
      .catch(function () {});
  }
  // The desks' offline script knows the server's time better on a page kept from earlier.
  window.podiumClock = { learn: function (serverNow) { learn(serverNow); tick(); } };
  tick();
  setInterval(tick, 250);
})();
