// The desks offline (results console, check-in desk): every tap is written to the phone first
// (IndexedDB, with its idempotency key, who, when on the phone's clock and the phone's offset
// from the server's), then sent in order, exactly once, whenever the network is there — on
// load, on reconnect, every few seconds while taps wait, after the next login of the same
// person. Each tap's answer updates the page in place: saved, already saved, refused in words,
// or a conflict with another device's value and the choice. The desk's list is kept on the
// phone (once per version, ETag) and searched here, so people are found offline too.
(function () {
  "use strict";
  var root = document.querySelector("[data-offline]");
  if (!root || !window.indexedDB) { return; }
  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(function () {});
  }
  var texts = JSON.parse(document.getElementById("phone-texts").textContent);
  var user = root.dataset.user;
  var lang = document.documentElement.lang || "en";
  var badgeEl = root.querySelector(".outbox");
  var answersEl = root.querySelector(".answers");
  var signedOut = false;
  var flushing = false;
  var list = [];

  // ---- texts ----
  function fill(text, values) {
    return text.replace(/%\((\w+)\)[sd]/g, function (_, k) { return values[k] == null ? "" : String(values[k]); });
  }
  function plural(pairs, n) {
    var rules = new Intl.PluralRules(lang), wanted = rules.select(n);
    var found = pairs.filter(function (p) { return rules.select(p[0]) === wanted; })[0] || pairs[pairs.length - 1];
    return fill(found[1], { n: n });
  }
  function shown(cells) {
    return Object.keys(cells || {}).filter(function (k) { return cells[k]; })
      .map(function (k) { return k + " " + cells[k]; }).join(", ") || "—";
  }
  function clockTime(iso) {
    return iso ? new Date(iso).toLocaleTimeString(lang) : "";
  }

  // ---- the server's clock ----
  var stored = localStorage.getItem("podium:offset");
  var offset = stored === null ? 0 : Number(stored);
  function learn(serverMs) {
    if (!serverMs) { return; }
    offset = Number(serverMs) - Date.now();
    localStorage.setItem("podium:offset", String(offset));
    if (window.podiumClock) { window.podiumClock.learn(Number(serverMs)); }
  }
  var pageNow = Number(root.dataset.serverNow || 0);
  if (stored === null || Date.now() + offset - pageNow < 60000) {
    learn(pageNow);  // a page fresh from the server
  } else if (window.podiumClock) {
    window.podiumClock.learn(Date.now() + offset);  // a kept copy: its time is old
  }

  // ---- IndexedDB: the outbox, and the answers still to be read (conflicts, refusals) ----
  var opened = null;
  function db() {
    opened = opened || new Promise(function (ok, fail) {
      var asked = indexedDB.open("podium-desks", 1);
      asked.onupgradeneeded = function () {
        asked.result.createObjectStore("outbox", { keyPath: "key" });
        asked.result.createObjectStore("answers", { keyPath: "key" });
      };
      asked.onsuccess = function () { ok(asked.result); };
      asked.onerror = function () { fail(asked.error); };
    });
    return opened;
  }
  function change(name, act) {
    return db().then(function (d) {
      return new Promise(function (ok, fail) {
        var tx = d.transaction(name, act ? "readwrite" : "readonly");
        var asked = (act || function (s) { return s.getAll(); })(tx.objectStore(name));
        tx.oncomplete = function () { ok(asked && asked.result); };
        tx.onerror = function () { fail(tx.error); };
      });
    });
  }
  function mine(items) {
    return (items || []).filter(function (i) { return i.user === user; })
      .sort(function (a, b) { return a.seq - b.seq; });
  }

  // ---- showing what became of a tap ----
  function card(number) { return root.querySelector('.card[data-number="' + number + '"]'); }
  function say(item, answer) {
    var what = item.label;
    var line = document.createElement("div");
    line.className = answer.status;
    line.dataset.key = item.key;
    if (answer.status === "conflict") {
      var theirs = answer.theirs || {};
      line.append(fill(texts.conflict, { what: what, theirs: shown(theirs.cells), who: theirs.by, when: clockTime(theirs.at) }));
      [["mine", shown(answer.cells)], ["theirs", shown(theirs.cells)]].forEach(function (choice) {
        var button = document.createElement("button");
        button.type = "button";
        button.textContent = fill(texts[choice[0]], { value: choice[1] });
        button.addEventListener("click", function () { resolve(item, answer, choice[0]); });
        line.append(" ", button);
      });
    } else if (answer.status === "refused") {
      line.append(fill(texts.refused, { what: what, why: answer.message }) + " ");
      var dismiss = document.createElement("button");
      dismiss.type = "button";
      dismiss.textContent = texts.dismiss;
      dismiss.addEventListener("click", function () { forget(item.key); });
      line.append(dismiss);
    } else if (answer.status === "stored") {
      var values = { number: item.tap.number, name: what.replace(/^#\d+\s*/, ""), cells: shown(answer.cells) };
      values.time = (answer.cells || {}).time;
      values.seat = answer.seat || "—";
      var kind = { finish: "finished", record: "recorded", "check-in": "checked_in" }[item.kind];
      line.textContent = fill(texts[kind] || texts.stored, values);
    } else {
      var value = answer.cells ? shown(answer.cells) : (answer.by ? texts.here : "");
      line.textContent = fill(texts[answer.status] || texts.queued, { what: what + (value ? " — " + value : "") });
    }
    var old = answersEl.querySelector('[data-key="' + item.key + '"]');
    if (old) { old.replaceWith(line); } else { answersEl.prepend(line); }
    while (answersEl.children.length > 8) { answersEl.lastElementChild.remove(); }
    var target = card(item.tap.number);
    if (target) {
      var state = target.querySelector(".tap-state") || document.createElement("p");
      state.className = "tap-state " + answer.status;
      state.textContent = line.firstChild ? line.firstChild.textContent : line.textContent;
      target.querySelector("h3").after(state);
      if (answer.status !== "refused") {
        target.querySelectorAll("form.finish, form.checkin").forEach(function (f) { f.hidden = true; });
        target.classList.add(item.kind === "check-in" ? "present" : "recorded");
      }
    }
  }
  function forget(key) {
    change("answers", function (s) { return s.delete(key); });
    var line = answersEl.querySelector('[data-key="' + key + '"]');
    if (line) { line.remove(); }
  }

  // ---- the badge ----
  function badge() {
    return change("outbox").then(function (items) {
      var waiting = mine(items).length;
      badgeEl.hidden = waiting === 0;
      badgeEl.textContent = signedOut ? plural(texts.signed_out, waiting)
        : plural(texts.waiting, waiting) + (navigator.onLine ? "" : " — " + texts.offline);
    });
  }

  // ---- sending ----
  function csrf() {
    var field = document.querySelector("input[name=csrfmiddlewaretoken]");
    return field ? field.value : "";
  }
  function post(url, body) {
    return fetch(url, {
      method: "POST", credentials: "same-origin", redirect: "manual",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf(), Accept: "application/json" },
      body: JSON.stringify(body),
    });
  }
  function settle(batch, answers) {
    return change("outbox", function (s) { batch.forEach(function (i) { s.delete(i.key); }); })
      .then(function () {
        return change("answers", function (s) {
          batch.forEach(function (item, n) {
            var answer = answers[n];
            if (answer.status === "conflict" || answer.status === "refused") {
              s.put({ key: item.key, user: user, item: item, answer: answer });
            }
          });
        });
      })
      .then(function () {
        return Promise.all(batch.map(function (item, n) {
          var done = answers[n].status === "stored" || answers[n].status === "already";
          return (done ? fresh(item.tap.number) : Promise.resolve()).then(function () { say(item, answers[n]); });
        }));
      });
  }
  // The card (and the desk's counts) as the server now shows them: the page searched for this
  // number, one small page whatever the stage's size; swapped in, never a reload.
  function fresh(number) {
    var url = location.pathname + "?q=" + number;
    return fetch(url, { credentials: "same-origin" }).then(function (answer) {
      if (!answer.ok || answer.redirected) { return; }
      return answer.text().then(function (html) {
        var page = new DOMParser().parseFromString(html, "text/html");
        ["#entry-" + number, ".counts"].forEach(function (selector) {
          var now = root.querySelector(selector), then = page.querySelector(selector);
          if (!now || !then) { return; }
          var made = document.importNode(then, true);
          var query = new URLSearchParams(location.search).get("q") || "";
          // Its forms lead back to this page as it was searched, not to the one-card search.
          made.querySelectorAll('input[name="q"]').forEach(function (f) { f.value = query; });
          now.replaceWith(made);
          if (window.htmx) { window.htmx.process(made); }  // the counts keep polling
        });
      });
    }).catch(function () {});
  }
  function sendAll(items) {
    if (!items.length) { return Promise.resolve(); }
    var batch = items.filter(function (i) { return i.url === items[0].url; }).slice(0, 50);
    return post(batch[0].url, { taps: batch.map(function (i) { return i.tap; }) }).then(function (answer) {
      if (answer.status === 401 || answer.status === 403 || answer.type === "opaqueredirect") {
        signedOut = true;  // kept for the next login of this person on this phone
        throw new Error("signed out");
      }
      if (answer.status === 400) {  // refused whole: each tap says why, none blocks the rest
        return answer.json().then(function (body) {
          return settle(batch, batch.map(function () { return { status: "refused", message: body.error }; }));
        });
      }
      if (!answer.ok) { throw new Error("server " + answer.status); }
      return answer.json().then(function (body) { learn(body.now); return settle(batch, body.answers); });
    }).then(function () {
      var sent = batch.map(function (i) { return i.key; });
      return sendAll(items.filter(function (i) { return sent.indexOf(i.key) < 0; }));
    });
  }
  function flush() {
    if (flushing) { return Promise.resolve(); }
    flushing = true;
    return change("outbox").then(function (items) { return sendAll(mine(items)); })
      .then(function () { signedOut = false; }, function () {})
      .then(function () { flushing = false; return badge(); });
  }

  // ---- making a tap ----
  function newKey() {
    return Date.now().toString(36) + Math.random().toString(36).slice(2) + Math.random().toString(36).slice(2);
  }
  var made = 0;
  function tap(kind, fields, label) {
    var item = {
      key: fields.key || newKey(), url: root.dataset.taps, user: user, kind: kind, label: label,
      seq: Date.now() * 1000 + (made++ % 1000),
      tap: Object.assign({ at_ms: Date.now(), offset_ms: Math.round(offset) }, fields),
    };
    item.tap.key = item.key;
    return change("outbox", function (s) { return s.put(item); }).then(function () {
      say(item, { status: "queued" });
      return badge();
    }).then(flush);
  }
  function resolve(item, answer, keep) {
    var choice = { key: newKey(), number: item.tap.number, cells: answer.cells, keep: keep, result: answer.result };
    post(root.dataset.resolve, { taps: [choice] }).then(function (reply) {
      if (!reply.ok) { throw new Error("not sent"); }
      return reply.json();
    }).then(function (body) {
      forget(item.key);
      say(item, body.answers[0]);
    }).catch(function () { badgeEl.hidden = false; badgeEl.textContent = texts.offline; });
  }
  function labelOf(number, box) {
    var heading = box && box.querySelector("h3");
    var first = heading && heading.firstElementChild;
    if (heading) { return (first && first.tagName === "SPAN" ? first : heading).textContent.trim(); }
    var found = list.filter(function (e) { return e.n === number; })[0];
    return "#" + number + (found ? " " + found.name : "");
  }

  // ---- the list kept on the phone, and searching it ----
  function plain(text) { return String(text).normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase(); }
  function refreshList() {
    var url = root.dataset.list, key = "podium:list:" + url;
    var kept = JSON.parse(localStorage.getItem(key) || "null");
    if (kept) { list = kept.rows; }
    return fetch(url, { credentials: "same-origin", headers: kept ? { "If-None-Match": kept.etag } : {} })
      .then(function (answer) {
        if (answer.status !== 200) { return; }
        return answer.json().then(function (body) {
          learn(body.now);
          list = body.cards || body.entries || [];
          localStorage.setItem(key, JSON.stringify({ etag: answer.headers.get("ETag"), rows: list }));
        });
      }).catch(function () {});
  }
  var search = root.querySelector("form.search input[type=search]");
  var matches = document.createElement("ul");
  matches.className = "matches";
  matches.setAttribute("aria-live", "polite");
  if (search) { search.form.after(matches); }
  function showMatches() {
    var asked = plain(search.value.trim().replace(/^#/, ""));
    matches.replaceChildren();
    if (!asked) { return; }
    var found = list.filter(function (e) {
      return String(e.n) === asked || plain(e.name).indexOf(asked) >= 0 || (e.code && e.code === asked);
    }).slice(0, 12);
    if (!found.length) { matches.append(Object.assign(document.createElement("li"), { textContent: texts.no_match })); }
    found.forEach(function (e) {
      var li = document.createElement("li");
      li.textContent = "#" + e.n + " " + e.name + (e.g ? " · " + e.g : "") + (e.t ? " · " + e.t : "") +
        (e.cells ? " — " + shown(e.cells) + " (" + e.by + ")" : "") + (e.here ? " — " + texts.here : "");
      if (root.dataset.offline === "desk" && !e.here && e.status === "confirmed") {
        var button = document.createElement("button");
        button.type = "button";
        button.textContent = fill(texts.check_in, { n: e.n, name: e.name });
        button.addEventListener("click", function () {
          e.here = true;
          tap("check-in", { number: e.n }, "#" + e.n + " " + e.name);
          showMatches();
        });
        li.append(" ", button);
      }
      matches.append(li);
    });
  }
  if (search) { search.addEventListener("input", showMatches); }

  // ---- the page's own forms, sent as taps ----
  function empty(form, names) {
    return names.every(function (n) { var f = form.querySelector('[name$="-' + n + '"]'); return !f || !f.value; });
  }
  root.addEventListener("submit", function (event) {
    var form = event.target, box = form.closest(".card");
    var key = form.querySelector('[name$="idempotency_key"]');
    if (box && form.matches("form.finish") && empty(form, ["missing", "compensation"])) {
      event.preventDefault();
      var number = Number(box.dataset.number);
      tap("finish", { key: key && key.value, number: number, finish: true }, labelOf(number, box));
    } else if (box && form.matches("form.result") && !form.querySelector('[name$="-result"]').value) {
      event.preventDefault();
      var cells = {};
      form.querySelectorAll("input[name]").forEach(function (f) {
        var column = f.name.slice(f.name.indexOf("-") + 1);
        if (f.type !== "hidden" && f.name.indexOf("-") > 0 && column !== "reason" && f.value) { cells[column] = f.value; }
      });
      tap("record", { key: key && key.value, number: Number(box.dataset.number), cells: cells }, labelOf(Number(box.dataset.number), box));
    } else if (form.id === "keyed-entry") {
      event.preventDefault();
      var typed = Number(form.elements.number.value);
      tap("record", { number: typed, cells: { time: form.elements.time.value.trim() } }, labelOf(typed));
      form.reset();
      form.elements.number.focus();
    } else if (box && form.matches("form.checkin") && form.elements.seat.value === form.elements.seat.defaultValue) {
      event.preventDefault();
      var here = Number(box.dataset.number);
      tap("check-in", { number: here }, labelOf(here, box));
    }
  });

  // ---- on load, and whenever the network returns ----
  var keyed = root.querySelector("#keyed-entry");
  if (keyed) { keyed.hidden = false; }  // typed entry needs this script
  change("outbox").then(function (items) {  // what still waits shows on its card
    mine(items).forEach(function (item) {
      if (item.url === root.dataset.taps) { say(item, { status: "queued" }); }
    });
  });
  change("answers").then(function (items) {
    mine(items.map(function (a) { a.seq = a.item.seq; return a; })).forEach(function (a) {
      if (a.item.url === root.dataset.taps) { say(a.item, a.answer); }
    });
  });
  refreshList().then(flush);
  window.addEventListener("online", function () { refreshList().then(flush); });
  window.addEventListener("offline", badge);
  setInterval(function () { if (!badgeEl.hidden) { flush(); } }, 5000);
  setInterval(refreshList, 30000);
})();
