// The service worker. The server writes CACHE_NAME, which changes with each build, above this file.
// Pages: from the network, and a kept page (a taken list's) is refreshed on the way by the person it was kept for; with
// no network, the kept copy, marked as such for the page's script.
// Static files and tiles: the kept copy first. A visit logged with no network is kept in IndexedDB and the next stop of
// the list opens from the cache; the pages send kept visits when the server answers again.
"use strict";

var LOG_PATH = /^\/visit-lists\/([0-9a-f-]{36})\/stops\/([0-9a-f-]{36})\/logs$/;
// Fields of a log form that are for this phone, not the server: the session's token (sending takes a fresh one) and
// who logged the visit.
var PAGE_ONLY = ["csrf_token", "kept_by", "kept_by_name", "logged_at"];

self.addEventListener("install", function () { self.skipWaiting(); });

// A new build's worker takes over at once: pages are answered from the old cache until each list is taken again into
// this build's, in the background (hundreds of pages and tiles a list must not hold up the next page).
var retaking = null;

self.addEventListener("activate", function (event) {
  event.waitUntil(self.clients.claim());
  retaking = takeAgain();
});

// Each list taken under an older build is taken again into this build's cache; an older cache goes once no list is
// kept in it and no take is filling it, so a list whose new copy failed (no network) still opens from the old one, and
// is tried again when this worker next starts. Only the server saying nobody is signed in forgets the lists, and only
// its saying a list is withdrawn forgets that one; the pages say so.
function takeAgain() {
  return FieldbookStore.all("lists").then(function (lists) {
    return Promise.all(lists.filter(function (list) { return list.cache !== CACHE_NAME; }).map(function (list) {
      return FieldbookStore.take(list.address).catch(function (error) { return FieldbookStore.afterFailedTake(list, error); });
    }));
  }).then(dropUnusedCaches).catch(function () { return null; });
}

// A take that has not finished within this long has failed (its page was closed), and no longer holds its cache.
var FILLING_MS = 30 * 60 * 1000;

function dropUnusedCaches() {
  return Promise.all([caches.keys(), FieldbookStore.all("lists"), FieldbookStore.all("notes")]).then(function (found) {
    var filling = found[2].filter(function (note) { return note.cache && Date.now() - note.at < FILLING_MS; });
    var used = found[1].concat(filling).map(function (kept) { return kept.cache; }).concat([CACHE_NAME]);
    return Promise.all(found[0].filter(function (name) { return name.indexOf("fieldbook-") === 0 && used.indexOf(name) < 0; })
      .map(function (name) { return caches.delete(name); }));
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) { return; }
  // Once per start of this worker (an update, or waking after the browser stopped it); the answer does not wait for it.
  retaking = retaking || takeAgain();
  event.waitUntil(retaking);
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
    if (response.ok && response.type === "basic" && !response.redirected) { refreshKept(request, response.clone()); }
    return response;
  });
  return networkOr(fetching, function () { return keptPage(request); }).catch(function () {
    return keptPage(request).then(function (kept) { return kept || notKept(); });
  });
}

// A kept page is replaced by the network's only when both were made for the same person: on a shared phone, the page
// someone else is shown must not become the copy the list's organizer logs visits from.
function refreshKept(request, fresh) {
  caches.match(request, { ignoreVary: true }).then(function (kept) {
    if (!kept) { return null; }
    return Promise.all([kept.text(), fresh.clone().text()]).then(function (texts) {
      var keptFor = userOf(texts[0]);
      if (!keptFor || keptFor !== userOf(texts[1])) { return null; }
      return caches.open(CACHE_NAME).then(function (cache) { return cache.put(request, fresh); });
    });
  }).catch(function () { return null; });
}

function userOf(page) {
  var found = /data-offline-status[^>]* data-user-id="([^"]+)"/.exec(page);
  return found ? found[1] : "";
}

// The kept copy, marked so that its script says, at once, that the server could not be reached. This build's cache
// first: a page refreshed online since an update is there, while the list's older cache still holds the copy taken.
function keptPage(request) {
  return caches.open(CACHE_NAME).then(function (cache) { return cache.match(request, { ignoreVary: true }); }).then(function (kept) {
    return kept || caches.match(request, { ignoreVary: true });
  }).then(function (kept) {
    return kept || caches.match(request, { ignoreSearch: true, ignoreVary: true });
  }).then(function (kept) {
    if (!kept) { return null; }
    return kept.text().then(function (page) {
      return new Response(page.replace("data-offline-status", "data-offline-status data-kept-copy"),
                          { status: kept.status, headers: kept.headers });
    });
  });
}

// A page not taken along, away from the network: the site's look (its stylesheet, kept with every list), what happened
// and where the pages taken along are.
function notKept() {
  return FieldbookStore.all("lists").catch(function () { return []; }).then(function (lists) {
    var style = lists.length ? lists[0].pages.filter(function (path) { return /\/css\/app[^/]*\.css/.test(path); })[0] : null;
    var page = "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">" +
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>Not on this phone – Fieldbook</title>" +
      (style ? "<link rel=\"stylesheet\" href=\"" + style + "\">" : "") + "</head>" +
      "<body><header class=\"site-header\"><a class=\"site-name\" href=\"/my-visits\">Fieldbook</a></header>" +
      "<main id=\"main\" class=\"page\"><h1 class=\"page-title\">This page is not on this phone</h1>" +
      "<div class=\"flash flash--info\" role=\"status\"><p>The server cannot be reached, and this page was not taken along.</p></div>" +
      "<p>Lists you took with you open from <a href=\"/my-visits\">My visits</a>. Visits you log there are kept on this " +
      "phone and sent when the server can be reached.</p></main></body></html>";
    return new Response(page, { status: 503, headers: { "Content-Type": "text/html; charset=utf-8" } });
  });
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
  // Sent hours later, the visit carries the time it happened.
  fields.push(["logged_at", visit.keptAt]);
  return FieldbookStore.get("lists", visit.list).then(function (list) {
    var here = list && list.stops.filter(function (stop) { return stop.id === visit.stop; })[0];
    var label = list && list.results.filter(function (result) { return result.value === visit.result; })[0];
    // Named as the list named them, for "Visits on this phone" after the list itself is gone.
    visit.stopName = here ? here.name : "";
    visit.resultLabel = label ? label.label : visit.result;
    return storeVisit(visit).then(function () { return FieldbookStore.all("visits"); }).then(function (visits) {
      return [list, visits];
    });
  }).then(function (found) {
    var list = found[0], visits = found[1];
    var next = list ? nextStop(list, visit.stop, visits) : null;
    var text = "Kept on this phone: “" + visit.resultLabel + "”" + (visit.stopName ? " at " + visit.stopName : "") + ". " +
      (next ? "Next: " + next.name + "." : "Every stop on this list has been visited.");
    return FieldbookStore.put("notes", { name: "notice", text: text }).then(function () {
      var to = next ? next.path : list ? list.walk : url.pathname.replace(/\/logs$/, "");
      return Response.redirect(new URL(to, self.location.origin).href, 303);
    });
  });
}

// Keeps the visit under its id unless another visit is kept under it (a second visit from a kept page whose form was
// not given a fresh id): that one stays, and this one gets an id of its own. The same visit sent twice is kept once.
function storeVisit(visit) {
  return FieldbookStore.run("visits", "readwrite", function (store) {
    var found = store.get(visit.id);
    found.onsuccess = function () {
      var kept = found.result;
      if (kept && sameVisit(kept, visit)) { return; }
      if (kept) {
        visit.id = self.crypto.randomUUID();
        visit.fields.forEach(function (field) { if (field[0] === "log_id") { field[1] = visit.id; } });
      }
      store.put(visit);
    };
  });
}

function sameVisit(one, other) {
  function typed(visit) {
    return JSON.stringify(visit.fields.filter(function (field) { return field[0] !== "logged_at"; }));
  }
  return one.stop === other.stop && typed(one) === typed(other);
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
