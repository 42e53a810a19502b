// The live companion at the field: a form posted while the connection is down is kept and
// posted again (same idempotency key, so the server applies it once) until it goes through.
(function () {
  "use strict";
  var RETRY_MS = 3000;
  function banner(show) {
    var el = document.querySelector("[data-testid=offline]");
    if (el) { el.hidden = !show; }
  }
  document.addEventListener("htmx:sendError", function (event) {
    var form = event.detail.elt && event.detail.elt.closest ? event.detail.elt.closest("form") : null;
    if (!form || (form.getAttribute("method") || "").toLowerCase() !== "post") { return; }
    var submitter = event.detail.requestConfig && event.detail.requestConfig.submitter;
    banner(true);
    window.setTimeout(function () {
      if (!document.body.contains(form)) { return; }
      if (submitter && form.contains(submitter)) { form.requestSubmit(submitter); }
      else { form.requestSubmit(); }
    }, RETRY_MS);
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    if (event.detail.successful) { banner(false); }
  });
})();
