// The live standings page. A tap on a name shows that row's reasons under it, fetched when
// opened (without JavaScript the link opens them as a page of their own); rows left open stay
// open when the poll swaps in a newer table, their reasons fetched again (they may have
// changed). A 304 from the poll means "nothing changed": the table stays as it is.
(function () {
  "use strict";
  var open = {};  // the ids of the rows whose reasons are shown

  function reasonsRow(row) {
    var next = row.nextElementSibling;
    return next && next.classList.contains("why-row") ? next : null;
  }

  function show(link) {
    var row = link.closest("tr");
    link.setAttribute("aria-expanded", "true");
    return fetch(link.href, { headers: { "HX-Request": "true" }, credentials: "same-origin" })
      .then(function (answer) { return answer.ok ? answer.text() : Promise.reject(answer.status); })
      .then(function (html) {
        var shown = reasonsRow(row);
        if (shown) { shown.remove(); }
        var extra = document.createElement("tr");
        var cell = document.createElement("td");
        extra.className = "why-row";
        cell.colSpan = row.children.length;
        cell.innerHTML = html;
        extra.appendChild(cell);
        row.after(extra);
      });
  }

  document.addEventListener("click", function (event) {
    var link = event.target.closest("#standings table.linked a[href^='?']");
    if (!link || event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) { return; }
    event.preventDefault();
    var row = link.closest("tr");
    var shown = reasonsRow(row);
    if (shown) {
      shown.remove();
      delete open[row.id];
      link.setAttribute("aria-expanded", "false");
      return;
    }
    open[row.id] = true;
    show(link).catch(function () { delete open[row.id]; window.location.href = link.href; });
  });

  document.addEventListener("htmx:beforeSwap", function (event) {
    if (event.detail.xhr && event.detail.xhr.status === 304) { event.detail.shouldSwap = false; }
  });

  document.addEventListener("htmx:afterSwap", function () {
    Object.keys(open).forEach(function (id) {
      var row = document.getElementById(id);
      var link = row && row.querySelector("a[href^='?']");
      if (link) { show(link).catch(function () { delete open[id]; }); } else { delete open[id]; }
    });
  });
})();
