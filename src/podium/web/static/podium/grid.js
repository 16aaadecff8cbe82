// The ChGK keyboard grid. A tour sheet is a plain form with one mask field per team (it works
// without this script); here each field becomes a row of question cells. Keys: 1 / 0 taken or
// not, X withdrawn, ? disputed (each moves on), arrows move, Backspace clears, Enter saves; a
// tap cycles a cell through the same marks. The grid is one Tab stop (a roving tabindex: the
// cell last visited holds it), and each cell's name says its team, question and mark. The team's field always holds its row's marks ("." for a cell left empty), so what
// is sent is what the plain form would send; totals per team and per question follow as you type.
(function () {
  "use strict";
  var MARKS = { "1": "1", "0": "0", "x": "X", "X": "X", "?": "?" };
  // Each mark's word, as the table's data attributes give it in the page's language.
  var WORDS = { "1": "taken", "0": "notTaken", "X": "withdrawn", "?": "disputed", "": "empty" };

  function cell(tag, className, text) {
    var el = document.createElement(tag);
    el.className = className;
    if (text !== undefined) { el.textContent = text; }
    return el;
  }

  function columnClass(q) { return "q" + (q > 0 && q % 5 === 0 ? " five" : ""); }

  function init(table) {
    var n = Number(table.dataset.questions);
    var form = table.closest("form");
    var reason = form.querySelector("[data-reason]");
    var rows = [];

    var head = table.querySelector("[data-mask-head]");
    var foot = table.querySelector("[data-mask-foot]");
    var perQuestion = [];
    for (var q = 0; q < n; q++) {
      var th = cell("th", columnClass(q), String(q + 1));
      th.scope = "col";
      head.parentNode.insertBefore(th, head);
      perQuestion.push(foot.parentNode.insertBefore(cell("td", columnClass(q), "0"), foot));
    }
    head.remove();
    foot.remove();
    table.querySelectorAll("[data-section]").forEach(function (th) { th.colSpan = n + 2; });
    table.querySelectorAll("[data-rest]").forEach(function (td) { td.colSpan = n + 1; });

    table.querySelectorAll("tr[data-row]").forEach(function (tr, r) {
      var holder = tr.querySelector("[data-mask-cell]");
      var input = holder.querySelector("input");
      var team = tr.querySelector("th.team");
      var name = team.textContent.trim();
      var text = input.value.replace(/\s+/g, "").toUpperCase();
      input.hidden = true;
      team.appendChild(input);  // the field stays in the form, out of sight
      var cells = [];
      for (var q = 0; q < n; q++) {
        var td = cell("td", columnClass(q));
        td.tabIndex = -1;
        td.dataset.r = String(r);
        td.dataset.q = String(q);
        td.setAttribute("role", "gridcell");
        td.dataset.team = name;
        mark(td, MARKS[text.charAt(q)] || "");
        tr.insertBefore(td, holder);
        cells.push(td);
      }
      holder.remove();
      rows.push({ tr: tr, input: input, cells: cells, total: tr.querySelector("[data-total]") });
    });
    if (!rows.length) { return; }
    table.setAttribute("role", "grid");
    rows[0].cells[0].tabIndex = 0;
    document.querySelectorAll("[data-help-plain]").forEach(function (el) { el.hidden = true; });
    document.querySelectorAll("[data-help-grid]").forEach(function (el) { el.hidden = false; });

    // A screen reader hears "#1 Sovy, question 2: taken", the mark included (the label
    // replaces the cell's text, so it must carry the mark itself).
    function mark(td, value) {
      td.dataset.mark = value;
      td.textContent = value;
      td.setAttribute("aria-label", table.dataset.cellLabel
        .replace("%(team)s", td.dataset.team)
        .replace("%(n)s", String(Number(td.dataset.q) + 1))
        .replace("%(mark)s", table.dataset[WORDS[value]]));
    }

    function totals() {
      var grand = 0;
      var changed = false;
      var columns = perQuestion.map(function () { return 0; });
      rows.forEach(function (row) {
        var taken = 0, filled = 0;
        row.cells.forEach(function (td, q) {
          if (td.dataset.mark) { filled++; }
          if (td.dataset.mark === "1") { taken++; columns[q]++; }
        });
        grand += taken;
        row.total.textContent = String(taken);
        row.tr.classList.toggle("incomplete", filled > 0 && filled < n);
        var recorded = row.tr.dataset.recorded;
        var differs = Boolean(recorded) && row.input.value !== recorded;
        row.tr.classList.toggle("changed", differs);
        changed = changed || differs;
      });
      columns.forEach(function (count, q) { perQuestion[q].textContent = String(count); });
      table.querySelector("[data-grand]").textContent = String(grand);
      if (reason) { reason.classList.toggle("needed", changed); }
    }

    function set(r, q, value) {
      var row = rows[r];
      mark(row.cells[q], value);
      var marks = row.cells.map(function (td) { return td.dataset.mark || "."; });
      row.input.value = marks.join("").replace(/\.+$/, "");
      totals();
    }

    function go(r, q) {
      var td = rows[Math.max(0, Math.min(rows.length - 1, r))].cells[Math.max(0, Math.min(n - 1, q))];
      table.querySelectorAll("td[tabindex='0']").forEach(function (el) { el.tabIndex = -1; });
      td.tabIndex = 0;
      td.focus();
    }

    // The next cell in reading order (null past the last one), or the one before.
    function next(r, q) { return q + 1 < n ? [r, q + 1] : r + 1 < rows.length ? [r + 1, 0] : null; }
    function previous(r, q) { return q > 0 ? [r, q - 1] : r > 0 ? [r - 1, n - 1] : null; }

    table.addEventListener("keydown", function (event) {
      var td = event.target;
      if (td.dataset.r === undefined || event.ctrlKey || event.metaKey || event.altKey) { return; }
      var r = Number(td.dataset.r), q = Number(td.dataset.q), key = event.key, to;
      if (Object.prototype.hasOwnProperty.call(MARKS, key)) {
        set(r, q, MARKS[key]);
        to = next(r, q);
        if (to) { go(to[0], to[1]); }
      } else if (key === "ArrowRight") { go(r, q + 1);
      } else if (key === "ArrowLeft") { go(r, q - 1);
      } else if (key === "ArrowDown") { go(r + 1, q);
      } else if (key === "ArrowUp") { go(r - 1, q);
      } else if (key === "Home") { go(r, 0);
      } else if (key === "End") { go(r, n - 1);
      } else if (key === "Backspace") {
        // Clears the cell; on an empty one, steps back and clears that (as in a text field).
        if (!td.dataset.mark && (to = previous(r, q))) { r = to[0]; q = to[1]; go(r, q); }
        set(r, q, "");
      } else if (key === "Delete") { set(r, q, "");
      } else if (key === "Enter") {
        if (form.requestSubmit) { form.requestSubmit(); } else { form.submit(); }
      } else { return; }
      event.preventDefault();
    });

    // A tap (or click) cycles the cell through every mark the sheet accepts, the usual ones
    // first: empty → 1 → 0 → X (withdrawn) → ? (disputed) → empty; a phone has no keys.
    var CYCLE = { "": "1", "1": "0", "0": "X", "X": "?" };
    table.addEventListener("click", function (event) {
      var td = event.target.closest("td[data-r]");
      if (!td) { return; }
      var r = Number(td.dataset.r), q = Number(td.dataset.q);
      set(r, q, CYCLE[td.dataset.mark || ""] || "");
      go(r, q);
    });

    totals();
  }

  document.querySelectorAll("table[data-grid]").forEach(init);
})();
