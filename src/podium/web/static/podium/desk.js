// The check-in desk's counts, polled by htmx: a 304 means "nothing changed", so the counts stay
// (htmx would swap in the empty body).
document.addEventListener("htmx:beforeSwap", function (event) {
  "use strict";
  if (event.detail.xhr && event.detail.xhr.status === 304) { event.detail.shouldSwap = false; }
});
