// The service worker (issue 38). The server writes CACHE_NAME, which changes with each build, above this file.
// Pages: from the network, and a kept page (a taken list's) is refreshed on the way; with no network, the kept copy.
// Static files and tiles: the kept copy first. A visit logged with no network is kept in IndexedDB and the next stop of
// the list opens from the cache; the pages send kept visits when the server answers again.
"use strict";

var LOG_PATH = /^\/visit-lists\/([0-9a-f-]{36})\/stops\/([0-9a-f-]{36})\/logs$/;
// Fields of a log form that are for this phone, not the server: the session's token (sending takes a fresh one) and
// who logged the visit.
var PAGE_ONLY = ["csrf_token", "kept_by", "kept_by_name"];

self.addEventListener("install", function () { self.skipWaiting(); });

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (name) { return name.indexOf("fieldbook-") === 0 && name !== CACHE_NAME; })
      .map(function (name) { return caches.delete(name); }));
  }).then(function () { return self.clients.claim(); }).then(takeAgain));
});

// A new build dropped the old cache: the lists taken before are kept again, from the server, when it answers.
function takeAgain() {
  return FieldbookStore.all("lists").then(function (lists) {
    return Promise.all(lists.map(function (list) {
      return FieldbookStore.take(list.address).catch(function () { return null; });
    }));
  }).catch(function () { return null; });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) { return; }
  if (request.method === "POST" && request.mode === "navigate" && LOG_PATH.test(url.pathname)) {
    event.respondWith(sendOrKeep(request, url));
  } else if (request.method === "GET" && request.mode === "navigate") {
    event.respondWith(networkThenKept(request));
  } else if (request.method === "GET" && (url.pathname.indexOf("/static/") === 0 || url.pathname.indexOf("/tiles/") === 0)) {
    event.respondWith(caches.match(request, { ignoreVary: true }).then(function (kept) { return kept || fetch(request); }));
  }
});

// At the edge of the Wi-Fi a request may hang until TCP gives up, minutes later. After this long a kept page is shown,
// or a visit is kept, while the request goes on: a visit that arrives after all is one log when the phone sends it again.
var PATIENCE_MS = 5000;

// The network's answer; or, if it has not come within PATIENCE_MS, the fallback's when it has one (null: the network's,
// however late). A network failure before either is passed on.
function networkOr(fetching, fallback) {
  return new Promise(function (resolve, reject) {
    var settled = false;
    function settle(answer, failed) {
      if (settled) { return; }
      settled = true;
      clearTimeout(timer);
      (failed ? reject : resolve)(answer);
    }
    var timer = setTimeout(function () {
      fallback().then(function (answer) { if (answer) { settle(answer); } }, function () { return null; });
    }, PATIENCE_MS);
    fetching.then(function (response) { settle(response); }, function (error) { settle(error, true); });
  });
}

function networkThenKept(request) {
  var fetching = fetch(request).then(function (response) {
    if (response.ok && response.type === "basic" && !response.redirected) {
      var copy = response.clone();
      caches.match(request, { ignoreVary: true }).then(function (kept) {
        if (kept) { return caches.open(CACHE_NAME).then(function (cache) { return cache.put(request, copy); }); }
        return null;
      }).catch(function () { return null; });
    }
    return response;
  });
  return networkOr(fetching, function () { return keptPage(request); }).catch(function () {
    return keptPage(request).then(function (kept) { return kept || notKept(); });
  });
}

function keptPage(request) {
  return caches.match(request, { ignoreVary: true }).then(function (kept) {
    return kept || caches.match(request, { ignoreSearch: true, ignoreVary: true });
  });
}

function notKept() {
  var page = "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">" +
    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>Not on this phone – Fieldbook</title></head>" +
    "<body><main><h1>This page is not on this phone</h1><p>The server cannot be reached, and this page was not taken " +
    "along. Lists you took with you open from <a href=\"/my-visits\">My visits</a>.</p></main></body></html>";
  return new Response(page, { status: 503, headers: { "Content-Type": "text/html; charset=utf-8" } });
}

// Sent as usual when the server answers; otherwise kept, and the next stop not yet visited (nor kept) opens.
function sendOrKeep(request, url) {
  var copy = request.clone();
  var keeping = null;
  function keepOnce() {
    keeping = keeping || copy.formData().then(function (form) { return keep(form, url); });
    return keeping;
  }
  return networkOr(fetch(request), keepOnce).catch(keepOnce);
}

function keep(form, url) {
  var parts = LOG_PATH.exec(url.pathname);
  var fields = [];
  form.forEach(function (value, name) { if (PAGE_ONLY.indexOf(name) < 0) { fields.push([name, String(value)]); } });
  // Who logged it, as the page said: on a shared phone it is sent only under that person's session.
  var visit = { id: form.get("log_id") || self.crypto.randomUUID(), list: parts[1], stop: parts[2],
                path: url.pathname + url.search, fields: fields, result: form.get("result") || "", keptAt: new Date().toISOString(),
                by: form.get("kept_by") || "", byName: form.get("kept_by_name") || "" };
  fields.forEach(function (field) { if (field[0] === "log_id") { field[1] = visit.id; } });
  return FieldbookStore.put("visits", visit).then(function () {
    return Promise.all([FieldbookStore.get("lists", visit.list), FieldbookStore.all("visits")]);
  }).then(function (found) {
    var list = found[0], visits = found[1];
    var next = list ? nextStop(list, visit.stop, visits) : null;
    var here = list && list.stops.filter(function (stop) { return stop.id === visit.stop; })[0];
    var label = list && list.results.filter(function (result) { return result.value === visit.result; })[0];
    var text = "Kept on this phone: “" + (label ? label.label : visit.result) + "”" + (here ? " at " + here.name : "") + ". " +
      (next ? "Next: " + next.name + "." : "Every stop on this list has been visited.");
    return FieldbookStore.put("notes", { name: "notice", text: text }).then(function () {
      var to = next ? next.path : list ? list.walk : url.pathname.replace(/\/logs$/, "");
      return Response.redirect(new URL(to, self.location.origin).href, 303);
    });
  });
}

// The first stop after this one in the list's order (then from the start) neither visited when taken nor kept since.
function nextStop(list, current, visits) {
  var done = {};
  visits.forEach(function (visit) { done[visit.stop] = true; });
  var at = list.stops.findIndex(function (stop) { return stop.id === current; });
  for (var step = 1; step < list.stops.length; step += 1) {
    var stop = list.stops[(at + step) % list.stops.length];
    if (!stop.visited && !done[stop.id]) { return stop; }
  }
  return null;
}
