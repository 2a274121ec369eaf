// Progressive enhancement only: every page works without this file.
(function () {
  "use strict";
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
  });
})();
