// Live push: the page's stream (its element's data-stream) tells it when what it shows has
// changed, and the page's own poll (an element with data-push, triggered by "bbweb:push")
// fetches the change at once. While the stream is open the timed poll stands down but for one
// every SAFETY_MS (a change that never reached the stream is seen all the same); when the
// stream cannot open, or breaks, the page polls as it always did. The browser reconnects by
// itself and names the last message it had, so the server sends only what is newer.
(function () {
  "use strict";
  var SAFETY_MS = 30000;
  var open = false;
  // The page was fetched whole as it loaded: its first safety poll is due SAFETY_MS later.
  var lastFetch = Date.now();
  // The version the stream last told of, and the page's own (its [data-version]). A change
  // is fetched once no request of the page is in flight (htmx would drop the trigger, or the
  // late answer of a replaced part would take the pitch with it), and fetched again while
  // the page shows an older version than told.
  var wanted = 0;
  var tries = 0;
  var timer = null;

  function behind() {
    var el = document.querySelector("[data-version]");
    return el !== null && Number(el.dataset.version) < wanted;
  }

  function later() { clearTimeout(timer); timer = setTimeout(check, 150); }

  function check() {
    if (!behind() || tries >= 10) { return; }
    if (document.querySelector(".htmx-request")) { later(); return; }
    tries += 1;
    htmx.trigger(document.body, "bbweb:push", {});
    later();
  }

  function start() {
    var el = document.querySelector("[data-stream]");
    if (!el || !window.EventSource) { return; }
    var source = new EventSource(el.dataset.stream);
    source.addEventListener("open", function () { open = true; document.body.dataset.streaming = "open"; });
    source.addEventListener("error", function () { open = false; document.body.dataset.streaming = "closed"; });
    source.addEventListener("change", function (e) {
      var heads = JSON.parse(e.data);
      if (!heads.v || heads.match || !document.querySelector("[data-version]")) {
        htmx.trigger(document.body, "bbweb:push", heads);  // no version of its own to compare
        return;
      }
      wanted = Math.max(wanted, heads.v);
      tries = 0;
      check();
    });
    // someone opened or closed the match page: the list of who is watching is asked again
    source.addEventListener("watching", function () {
      htmx.trigger(document.body, "bbweb:watching");
    });
  }

  document.addEventListener("htmx:beforeRequest", function (e) {
    var elt = e.detail.elt;
    if (!elt || !elt.hasAttribute || !elt.hasAttribute("data-push")) { return; }
    var cause = e.detail.requestConfig && e.detail.requestConfig.triggeringEvent;
    var pushed = cause && cause.type === "bbweb:push";
    if (open && !pushed && Date.now() - lastFetch < SAFETY_MS) { e.preventDefault(); return; }
    lastFetch = Date.now();
  });

  document.addEventListener("htmx:afterSettle", function () { if (behind()) { check(); } });

  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", start); }
  else { start(); }
})();
