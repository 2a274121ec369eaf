// Progressive enhancement only: every page works without this file.
(function () {
  "use strict";

  // Texts in the page's language (docs/TRANSLATING.md, "Texts in scripts"): the page writes the texts a script shows as
  // JSON in the data-texts attribute of the element it works on. say(name, values) fills {placeholders}, numbers in
  // the page language's digits; a plural text ({forms, plural}) takes the form its own table gives the number `count`.
  function fieldbookTexts(holder) {
    var texts = {};
    try { texts = JSON.parse((holder && holder.getAttribute("data-texts")) || "{}"); } catch (ignored) { /* no texts: names show */ }
    var language = document.documentElement.lang || undefined;
    return function say(name, values) {
      var text = texts[name] === undefined ? name : texts[name];
      values = values || {};
      if (text && Array.isArray(text.forms)) {
        var count = Math.abs(Math.floor(Number(values.count) || 0));
        var form = Number(String(text.plural || "").charAt(count < 200 ? count : 100 + count % 100)) || 0;
        text = text.forms[Math.min(form, text.forms.length - 1)];
      }
      return String(text).replace(/\{([A-Za-z_][A-Za-z0-9_.]*)\}/g, function (whole, key) {
        if (!Object.prototype.hasOwnProperty.call(values, key)) { return whole; }
        var value = values[key];
        return typeof value === "number" ? value.toLocaleString(language) : String(value);
      });
    };
  }
  window.fieldbookTexts = fieldbookTexts;

  // Live sync status: the header's status line follows /events without a reload. Only the hub state is a live
  // region (role="status"), and its text is only replaced when it changes, so screen readers announce
  // "Hub online"/"Hub offline" politely but not every change of the pending count.
  function followSyncStatus() {
    var line = document.getElementById("sync-status");
    if (!line || !line.getAttribute("data-events-url") || !window.EventSource) { return; }
    var source = null;
    // Every place on the page that shows the status follows the same event, so the header and /sync never disagree.
    function show(status) {
      document.querySelectorAll("[data-sync-field]").forEach(function (field) {
        var value = status[field.getAttribute("data-sync-field")];
        var text = value === null || value === undefined ? "" : String(value);
        if (field.textContent !== text) { field.textContent = text; }
        field.hidden = text === "";
      });
      document.querySelectorAll("[data-sync-when-hub]").forEach(function (element) {
        element.hidden = element.getAttribute("data-sync-when-hub") !== status.hub;
      });
      // Features that need the hub (Sync now) are offered only while it can be reached (Property 14).
      document.querySelectorAll("[data-sync-unless-hub]").forEach(function (element) {
        element.hidden = element.getAttribute("data-sync-unless-hub") === status.hub;
      });
      // Cancel is there whenever a sync runs, also one that began after the page was loaded.
      document.querySelectorAll("[data-sync-cancel]").forEach(function (element) {
        element.hidden = typeof status.progress_percent !== "number";
      });
    }
    // On /sync, the running session's progress follows the same events. Only the phase line is a live region, and it
    // changes when a sync starts, changes step or ends, not with every percent.
    function showProgress(status) {
      var region = document.getElementById("sync-progress-region");
      if (!region) { return; }
      var phase = region.querySelector("[data-progress-phase]");
      var bar = region.querySelector("progress");
      var label = region.querySelector("[data-progress-label]");
      if (typeof status.progress_percent === "number") {
        if (!bar) {
          label = document.createElement("label");
          label.setAttribute("for", "sync-progress");
          label.setAttribute("data-progress-label", "");
          bar = document.createElement("progress");
          bar.id = "sync-progress";
          bar.max = 100;
          region.appendChild(label);
          region.appendChild(bar);
        }
        bar.value = Math.max(Number(bar.value) || 0, status.progress_percent);
        bar.textContent = bar.value + "%";
        label.textContent = status.progress_label || "";
        setPhase(status.current_sync_label);
        region.setAttribute("data-progress-running", "true");
      } else if (region.getAttribute("data-progress-running") === "true") {
        if (bar) { bar.remove(); }
        if (label) { label.remove(); }
        setPhase(status.paused ? status.current_sync_label : "The sync finished. Reload the page to see it in the history.");
        region.setAttribute("data-progress-running", "");
      } else if (status.paused || region.getAttribute("data-progress-paused") === "true") {
        setPhase(status.current_sync_label);
      }
      region.setAttribute("data-progress-paused", status.paused ? "true" : "");
      function setPhase(text) {
        if (text && phase.textContent !== text) { phase.textContent = text; }
      }
    }
    function connect() {
      if (source) { return; }
      // EventSource reconnects by itself after a dropped connection; the first event is always the current status.
      source = new EventSource(line.getAttribute("data-events-url"));
      source.addEventListener("status", function (event) {
        try {
          var status = JSON.parse(event.data);
          show(status);
          showProgress(status);
        } catch (ignored) { /* a malformed event changes nothing */ }
      });
      source.addEventListener("notifications", function (event) {
        try { notificationsArrived(JSON.parse(event.data)); } catch (ignored) { /* a malformed event changes nothing */ }
      });
    }
    function disconnect() {
      if (source) { source.close(); source = null; }
    }
    // A hidden tab gives its connection back (browsers allow only a few open connections per server), unless the
    // person asked for system notifications: those matter most while they are looking elsewhere.
    document.addEventListener("visibilitychange", function () {
      if (!document.hidden) { connect(); } else if (!systemNotificationsAllowed()) { disconnect(); }
    });
    if (!document.hidden) { connect(); }
  }

  // Notifications (issue 13): the header's bell follows the person's own events. A new notification is announced
  // once through the polite live region and, when the person allowed it, shown as a system notification whose click
  // opens its record. The tag makes several open tabs show it once.
  var announced = {};
  function notificationsArrived(data) {
    var count = document.querySelector("[data-notification-count]");
    var bell = document.querySelector("[data-notification-bell]");
    var say = fieldbookTexts(bell);
    var text = data.unread > 0 ? " " + say("bell_count", { count: data.unread }) : "";
    if (count && count.textContent !== text) { count.textContent = text; }
    if (bell) { bell.classList.toggle("notification-bell--unread", data.unread > 0); }
    var summary = document.getElementById("notifications-unread");
    if (summary) { summary.textContent = (data.unread > 0 ? say("unread", { count: data.unread }) : say("none_unread")) + "."; }
    var latest = data.latest;
    if (!latest || announced[latest.id]) { return; }
    announced[latest.id] = true;
    var announcer = document.querySelector("[data-notification-announcer]");
    if (announcer) { announcer.textContent = say("arrived", { text: latest.text }); }
    if (data.system && systemNotificationsAllowed()) {
      try {
        var shown = new Notification("Fieldbook", { body: latest.text, tag: "fieldbook-" + latest.id });
        shown.onclick = function () { window.focus(); window.location.assign(latest.url); shown.close(); };
      } catch (ignored) { /* some browsers only show notifications from a service worker; the bell still counts */ }
    }
  }

  function systemNotificationsAllowed() {
    return window.isSecureContext && "Notification" in window && Notification.permission === "granted";
  }

  // The notifications page offers to ask for permission, only when the person presses the button (never on load),
  // and says why it cannot where the page is not a secure context (plain HTTP on the network).
  function offerSystemNotifications() {
    var section = document.querySelector("[data-system-notifications]");
    if (!section) { return; }
    var state = section.querySelector("[data-system-notifications-state]");
    var ask = section.querySelector("[data-system-notifications-ask]");
    var say = fieldbookTexts(section);
    section.hidden = false;
    function describe() {
      ask.hidden = true;
      if (!("Notification" in window)) {
        state.textContent = say("unsupported");
      } else if (!window.isSecureContext) {
        state.textContent = say("needs_https");
      } else if (Notification.permission === "granted") {
        state.textContent = say("granted");
      } else if (Notification.permission === "denied") {
        state.textContent = say("denied");
      } else {
        state.textContent = say("not_asked");
        ask.hidden = false;
      }
    }
    ask.addEventListener("click", function () {
      var answer = Notification.requestPermission(function () { describe(); });
      if (answer && answer.then) { answer.then(describe, describe); }
    });
    describe();
  }

  // Field visits: the browser's location, where the page is a secure context and the person allows it. The walk page
  // measures distances from it; a logged visit may carry it. Without it, the pages offer a starting venue instead.
  function offerLocation() {
    if (!window.isSecureContext || !navigator.geolocation) { return; }
    function locate(status, say, done) {
      status.textContent = say("finding");
      navigator.geolocation.getCurrentPosition(function (position) {
        status.textContent = say("found", { metres: Math.round(position.coords.accuracy) });
        done(position.coords);
      }, function (error) {
        status.textContent = say("unavailable", { reason: error.message });
        done(null);
      }, { enableHighAccuracy: true, timeout: 15000, maximumAge: 60000 });
    }
    var walkButton = document.querySelector("[data-use-location]");
    if (walkButton) {
      var form = walkButton.form;
      walkButton.hidden = false;
      walkButton.addEventListener("click", function () {
        locate(form.querySelector("[data-location-status]"), fieldbookTexts(walkButton), function (coords) {
          if (!coords) { return; }
          ["lat", "lon"].forEach(function (name, index) {
            var input = form.querySelector("input[name=" + name + "]");
            if (!input) {
              input = document.createElement("input");
              input.type = "hidden";
              input.name = name;
              form.appendChild(input);
            }
            input.value = (index === 0 ? coords.latitude : coords.longitude).toFixed(6);
          });
          form.querySelector("select[name=from]").value = "";
          form.querySelector("select[name=sort]").value = "distance";
          form.submit();
        });
      });
    }
    var choice = document.querySelector("[data-log-location]");
    if (choice) {
      var box = choice.querySelector("[data-log-location-box]");
      var logForm = box.form;
      var status = document.createElement("p");
      status.className = "hint";
      status.setAttribute("role", "status");
      choice.appendChild(status);
      choice.hidden = false;
      box.addEventListener("change", function () {
        function fill(coords) {
          logForm.querySelector("[data-log-latitude]").value = coords ? coords.latitude.toFixed(6) : "";
          logForm.querySelector("[data-log-longitude]").value = coords ? coords.longitude.toFixed(6) : "";
          logForm.querySelector("[data-log-accuracy]").value = coords ? Math.round(coords.accuracy) : "";
          if (!coords) { box.checked = false; }
        }
        if (box.checked) { locate(status, fieldbookTexts(choice), fill); } else { fill(null); status.textContent = ""; }
      });
    }
  }

  // Enter in a picker's search box searches: it presses that picker's Find button. Without this the browser presses
  // the form's first (default) button, Save, and the half-filled form comes back with errors. Elsewhere Enter still
  // saves. Without JavaScript Enter saves everywhere (HTML has no per-field default button); Find is a button beside.
  function searchOnEnterInPickers() {
    document.addEventListener("keydown", function (event) {
      if (event.key !== "Enter" || event.isComposing || !event.target.closest) { return; }
      var search = event.target.closest(".picker-search");
      var button = search && event.target.matches("input") && search.querySelector("button[type=submit]");
      if (!button || !event.target.form) { return; }
      event.preventDefault();
      if (event.target.form.requestSubmit) { event.target.form.requestSubmit(button); } else { button.click(); }
    });
  }

  // "/" goes to the header's search box, as on most sites with one, unless it is being typed into a field (or
  // with a modifier, which is another shortcut's).
  function focusSearchOnSlash() {
    var box = document.querySelector("[data-search-shortcut]");
    if (!box) { return; }
    document.addEventListener("keydown", function (event) {
      if (event.key !== "/" || event.ctrlKey || event.metaKey || event.altKey || event.isComposing) { return; }
      var target = event.target;
      if (target && (target.isContentEditable || (target.closest && target.closest("input, textarea, select")))) { return; }
      event.preventDefault();
      box.focus();
      box.select();
    });
  }

  // Requirement 14.1: a field is checked as you leave it, by the server's own rules (the form is posted with
  // check_only=1, which saves nothing), so the words are the ones saving would show. Only fields already visited are
  // marked, and Save is never disabled: a disabled button hides the reason from screen-reader users (README, 14.4).
  function checkAsYouGo() {
    document.querySelectorAll("form[data-check-as-you-go]").forEach(function (form) {
      var visited = {};
      var asked = 0;
      form.addEventListener("focusout", function (event) {
        var field = event.target;
        if (!field.name || field.type === "search" || !field.closest(".form-group") || field.closest(".picker-search")) { return; }
        visited[field.name] = true;
        var data = new URLSearchParams(new FormData(form));
        data.set("check_only", "1");
        var number = ++asked;
        fetch(form.action, { method: "POST", body: data, credentials: "same-origin", headers: { Accept: "application/json" } })
          .then(function (response) { return response.ok ? response.json() : null; })
          .then(function (answer) {
            // An older answer arriving after a newer one changes nothing.
            if (answer && number === asked) { markFields(form, answer.errors || {}, visited); }
          })
          .catch(function () { /* offline or refused: saving still checks everything */ });
      });
    });
  }

  function markFields(form, errors, visited) {
    Object.keys(visited).forEach(function (name) {
      var field = form.querySelector('[name="' + name + '"]');
      var group = field && field.closest(".form-group");
      if (!group) { return; }
      var id = name + "-error";
      var message = document.getElementById(id);
      var errorClass = field.tagName === "SELECT" ? "select--error" : field.tagName === "TEXTAREA" ? "textarea--error" : "input--error";
      var described = (field.getAttribute("aria-describedby") || "").split(" ").filter(function (part) { return part && part !== id; });
      if (errors[name]) {
        if (!message) {
          message = document.createElement("p");
          message.className = "error-message";
          message.id = id;
          group.insertBefore(message, field);
        }
        message.textContent = "";
        var prefix = document.createElement("span");
        prefix.className = "visually-hidden";
        prefix.textContent = "Error:";
        message.appendChild(prefix);
        message.appendChild(document.createTextNode(" " + errors[name]));
        group.classList.add("form-group--error");
        field.classList.add(errorClass);
        field.setAttribute("aria-invalid", "true");
        described.push(id);
      } else {
        if (message) { message.remove(); }
        group.classList.remove("form-group--error");
        field.classList.remove(errorClass);
        field.removeAttribute("aria-invalid");
      }
      if (described.length) { field.setAttribute("aria-describedby", described.join(" ")); } else { field.removeAttribute("aria-describedby"); }
    });
  }

  // An import's page (or a prepared export's) follows the work without reloads, then loads again once it has ended, to
  // show what it did (that page's heading and summary are what a screen reader meets).
  function followImportProgress() {
    var region = document.querySelector("[data-import-progress], [data-job-progress]");
    if (!region || !window.fetch) { return; }
    var bar = region.querySelector("progress");
    var text = region.querySelector("[data-import-progress-text], [data-job-progress-text]");
    var unit = region.getAttribute("data-progress-unit") || "rows written";
    function poll() {
      fetch(region.getAttribute("data-progress-url"), { credentials: "same-origin", headers: { Accept: "application/json" } })
        .then(function (response) { return response.ok ? response.json() : null; })
        .then(function (progress) {
          if (!progress) { window.setTimeout(poll, 5000); return; }
          if (progress.state !== "queued" && progress.state !== "running") { window.location.reload(); return; }
          bar.max = Math.max(progress.total, 1);
          bar.value = progress.done;
          text.textContent = progress.state === "queued" ? "Waiting to start."
            : progress.done.toLocaleString() + " of " + progress.total.toLocaleString() + " " + unit + ".";
          window.setTimeout(poll, 1000);
        })
        .catch(function () { window.setTimeout(poll, 5000); });
    }
    window.setTimeout(poll, 1000);
  }

  document.addEventListener("DOMContentLoaded", function () {
    // Move focus to the error summary (or a notice that stopped a save) so screen readers announce it first.
    var summary = document.querySelector(".error-summary, [data-focus-on-load]");
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
    offerSystemNotifications();
    offerLocation();
    searchOnEnterInPickers();
    focusSearchOnSlash();
    checkAsYouGo();
    followImportProgress();
  });
})();
