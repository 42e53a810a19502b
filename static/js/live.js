// The live companion at the field: a form posted while the connection is down is kept in the
// browser's storage with its idempotency key and posted again until the server answers,
// whatever the page does meanwhile (a refresh that replaces the form, a reload): the server
// applies it once. The page then fetches what changed.
(function () {
  "use strict";
  var RETRY_MS = 3000;
  var STORE = "bbweb-live-unsent";
  var timer = null;

  function banner(show) {
    var el = document.querySelector("[data-testid=offline]");
    if (el) { el.hidden = !show; }
  }
  function unsent() {
    try { return JSON.parse(window.localStorage.getItem(STORE) || "[]"); } catch (e) { return []; }
  }
  function keep(list) { window.localStorage.setItem(STORE, JSON.stringify(list)); }
  function later() { if (!timer) { timer = window.setTimeout(function () { timer = null; send(); }, RETRY_MS); } }

  function send() {
    var list = unsent();
    banner(list.length > 0);
    if (!list.length) { return; }
    var entry = list[0];
    fetch(entry.url, {
      method: "POST", body: entry.body, credentials: "same-origin",
      headers: { "Content-Type": "application/x-www-form-urlencoded", "HX-Request": "true" }
    }).then(function () {
      // answered (applied, or refused for good): it is no longer ours to send
      keep(unsent().filter(function (e) { return e.key !== entry.key; }));
      if (unsent().length) { send(); return; }
      banner(false);
      // the page shows what the server now holds: its poll fetches it, or it is read anew
      if (document.querySelector("[data-push]")) { htmx.trigger(document.body, "bbweb:push", {}); }
      else { window.location.reload(); }
    }, later);
  }

  document.addEventListener("htmx:sendError", function (event) {
    var form = event.detail.elt && event.detail.elt.closest ? event.detail.elt.closest("form") : null;
    if (!form || (form.getAttribute("method") || "").toLowerCase() !== "post") { return; }
    // what htmx sent (the pressed button's value with the form's fields)
    var cfg = event.detail.requestConfig || {};
    var data = cfg.formData || new FormData(form);
    var entry = { url: cfg.path || form.getAttribute("hx-post") || form.action,
                  key: String(data.get("key") || ""), body: new URLSearchParams(data).toString() };
    keep(unsent().filter(function (e) { return !entry.key || e.key !== entry.key; }).concat([entry]));
    banner(true);
    later();
  });
  window.addEventListener("online", send);
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", send); }
  else { send(); }

  // ---- Focus and announcements (issue 36) ------------------------------------------------
  // The referee's and the phones' panels are swapped whole, by their own posts and by polls:
  // focus goes back to the same control (by its test id), else to the panel; each part
  // marked data-announce is read out by the polite announcer when its text changes (a
  // throw arriving, the throws revealed, the score, the phase), once, never on arrival.
  var livePanels = "#live-panel, #phone-panel";
  var focusedBeforeSwap = null;
  var heard = null;

  function announceableTexts() {
    var texts = {};
    document.querySelectorAll("[data-announce]").forEach(function (el) {
      texts[el.dataset.announce] = el.textContent.replace(/\s+/g, " ").trim();
    });
    return texts;
  }

  function announceChanges() {
    var now = announceableTexts();
    var announcer = document.getElementById("live-announcer");
    if (heard !== null && announcer) {
      var said = Object.keys(now).filter(function (k) { return now[k] && now[k] !== heard[k]; })
        .map(function (k) { return now[k]; });
      if (said.length) { announcer.textContent = said.join(". "); }
    }
    heard = now;
  }

  document.addEventListener("htmx:beforeSwap", function (event) {
    var active = document.activeElement;
    var panel = event.detail.target;
    if (!panel || !panel.matches || !panel.matches(livePanels)) { return; }
    focusedBeforeSwap = active && panel.contains(active) ?
      (active.dataset.testid || active.name || "") : null;
  });

  document.addEventListener("htmx:afterSettle", function () {
    announceChanges();
    var was = focusedBeforeSwap;
    focusedBeforeSwap = null;
    var active = document.activeElement;
    if (was === null || (active && active !== document.body && document.contains(active))) { return; }
    var again = was ? document.querySelector('[data-testid="' + was + '"]') : null;
    if (!again || again.disabled) { again = document.querySelector(livePanels); }
    if (again) { again.focus({ preventScroll: again.matches(livePanels) }); }
  });

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", announceChanges);
  } else { announceChanges(); }
})();
