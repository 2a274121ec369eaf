// Progressive enhancement only: every page works without this file.
(function () {
  "use strict";

  // Live sync status: the header's status line follows /events without a reload. Only the hub state is a live
  // region (role="status"), and its text is only replaced when it changes, so screen readers announce
  // "Hub online"/"Hub offline" politely but not every change of the pending count.
  function followSyncStatus() {
    var line = document.getElementById("sync-status");
    if (!line || !line.getAttribute("data-events-url") || !window.EventSource) { return; }
    var source = null;
    function show(status) {
      line.querySelectorAll("[data-sync-field]").forEach(function (field) {
        var value = status[field.getAttribute("data-sync-field")];
        var text = value === null || value === undefined ? "" : String(value);
        if (field.textContent !== text) { field.textContent = text; }
        field.hidden = text === "";
      });
    }
    function connect() {
      if (source) { return; }
      // EventSource reconnects by itself after a dropped connection; the first event is always the current status.
      source = new EventSource(line.getAttribute("data-events-url"));
      source.addEventListener("status", function (event) {
        try { show(JSON.parse(event.data)); } catch (ignored) { /* a malformed event changes nothing */ }
      });
    }
    function disconnect() {
      if (source) { source.close(); source = null; }
    }
    // A hidden tab gives its connection back: browsers allow only a few open connections per server.
    document.addEventListener("visibilitychange", function () {
      if (document.hidden) { disconnect(); } else { connect(); }
    });
    if (!document.hidden) { connect(); }
  }

  document.addEventListener("DOMContentLoaded", function () {
    // Move focus to the error summary so screen readers announce the problems first.
    var summary = document.querySelector(".error-summary");
    if (summary) { summary.focus(); }
    // Requirement 16.2: a submitted form's buttons are disabled and the form marked busy, so nothing is sent twice.
    document.querySelectorAll("form").forEach(function (form) {
      form.addEventListener("submit", function () {
        form.setAttribute("aria-busy", "true");
        window.setTimeout(function () {
          form.querySelectorAll("button[type=submit]").forEach(function (button) { button.disabled = true; });
        }, 0);
      });
    });
    followSyncStatus();
  });
})();
