// What a phone keeps to walk a visit list away from the network, shared by the pages and the service
// worker: the lists taken (IndexedDB "lists"), the visits logged but not yet sent ("visits", by the id the phone made
// for each, so sending one again logs it once, and who logged it) and short notes between pages ("notes", also the count
// of forgets and the caches takes are filling). IndexedDB, not memory: what was
// typed away survives a closed browser and a restarted phone. Cache Storage keeps the pages and map tiles.
var FieldbookStore = (function () {
  "use strict";

  function open() {
    return new Promise(function (resolve, reject) {
      var request = indexedDB.open("fieldbook-offline", 1);
      request.onupgradeneeded = function () {
        var db = request.result;
        db.createObjectStore("lists", { keyPath: "id" });
        db.createObjectStore("visits", { keyPath: "id" });
        db.createObjectStore("notes", { keyPath: "name" });
      };
      request.onsuccess = function () { resolve(request.result); };
      request.onerror = function () { reject(request.error); };
    });
  }

  // One transaction; it resolves once committed ("strict": on disk, not only in the browser's memory).
  function run(name, mode, work) {
    return open().then(function (db) {
      return new Promise(function (resolve, reject) {
        var transaction = db.transaction(name, mode, { durability: "strict" });
        var request = work(transaction.objectStore(name));
        var result;
        if (request) { request.onsuccess = function () { result = request.result; }; }
        transaction.oncomplete = function () { db.close(); resolve(result); };
        transaction.onerror = transaction.onabort = function () { db.close(); reject(transaction.error); };
      });
    });
  }

  // A fetch that gives up after `ms` (rejecting with an AbortError): at the edge of the Wi-Fi a request may otherwise
  // hang until TCP gives up, minutes later.
  function fetchWithin(ms, address, init) {
    var controller = new AbortController();
    var timer = setTimeout(function () { controller.abort(); }, ms);
    return fetch(address, Object.assign({ signal: controller.signal }, init)).finally(function () { clearTimeout(timer); });
  }

  function put(name, value) { return run(name, "readwrite", function (store) { return store.put(value); }); }
  function get(name, key) { return run(name, "readonly", function (store) { return store.get(key); }); }
  function all(name) { return run(name, "readonly", function (store) { return store.getAll(); }); }
  function remove(name, key) { return run(name, "readwrite", function (store) { return store.delete(key); }); }

  // Why a take failed, as the server said it: "signed-out" only when it says explicitly that nobody is signed in (401,
  // or its sign-in page, which it marks); "withdrawn" when this list is no longer given to this person (gone, or given
  // to someone else); "unavailable" for anything else (a restart, an overload, no network), which is tried again later.
  function refusal(response) {
    if (response.status === 401) { return Promise.resolve("signed-out"); }
    if ([403, 404, 410].indexOf(response.status) >= 0) { return Promise.resolve("withdrawn"); }
    var type = response.headers.get("Content-Type") || "";
    if (!response.ok || type.indexOf("text/html") !== 0) { return Promise.resolve("unavailable"); }
    return response.text().then(function (page) {
      return /data-offline-status[^>]* data-signed-out/.test(page) ? "signed-out" : "unavailable";
    });
  }

  // A forget is counted in the notes: a take that started before it must not write its list back after it.
  function generation() {
    return get("notes", "forgotten").then(function (note) { return note ? note.count : 0; });
  }

  // Caches a take is filling, so that dropping unused caches leaves them alone until the take is done.
  function filling(cache, busy) {
    return busy ? put("notes", { name: "filling " + cache, cache: cache, at: Date.now() }) : remove("notes", "filling " + cache);
  }

  // Fetches a list's description from `address` (its offline.json) and keeps its pages and tiles in the cache it names.
  // A tile that will not come is left out; a page that will not come fails the whole, so a list is never half taken.
  // Fails with an Error whose message is what `refusal` says.
  function take(address) {
    var since;
    return generation().then(function (count) {
      since = count;
      return fetch(address, { credentials: "same-origin" });
    }).then(function (response) {
      var type = response.headers.get("Content-Type") || "";
      if (response.ok && type.indexOf("application/json") === 0) { return response.json(); }
      return refusal(response).then(function (why) { throw new Error(why); });
    }).then(function (list) {
      return filling(list.cache, true).then(function () { return caches.open(list.cache); }).then(function (cache) {
        return cache.addAll(list.pages).then(function () {
          return Promise.all(list.tiles.map(function (tile) {
            return cache.add(tile).then(function () { return 1; }, function () { return 0; });
          }));
        });
      }).then(function (tiles) {
        list.address = address;
        list.keptTiles = tiles.reduce(function (sum, one) { return sum + one; }, 0);
        list.takenAt = new Date().toISOString();
        return putUnlessForgotten(list, since);
      }).finally(function () { return filling(list.cache, false); });
    });
  }

  // Keeps the list unless the lists were forgotten since the take began (the check and the write in one transaction);
  // then what it kept goes too, and the take fails as "forgotten".
  function putUnlessForgotten(list, since) {
    return open().then(function (db) {
      return new Promise(function (resolve, reject) {
        var transaction = db.transaction(["lists", "notes"], "readwrite", { durability: "strict" });
        var forgotten = false;
        var note = transaction.objectStore("notes").get("forgotten");
        note.onsuccess = function () {
          forgotten = (note.result ? note.result.count : 0) !== since;
          if (!forgotten) { transaction.objectStore("lists").put(list); }
        };
        transaction.oncomplete = function () { db.close(); resolve(forgotten); };
        transaction.onerror = transaction.onabort = function () { db.close(); reject(transaction.error); };
      });
    }).then(function (forgotten) {
      if (!forgotten) { return list; }
      return dropEntries(list).then(function () { throw new Error("forgotten"); });
    });
  }

  // Nobody is signed in (signed out, or the server says the session ended): the lists taken (households' names and
  // addresses) go, their pages and tiles and the notes between pages with them, and a take still running does not
  // bring its list back. The visits not yet sent stay: each waits for the person who logged it to sign in again.
  // Answers the names of the lists forgotten.
  function forgetLists() {
    return generation().then(function (count) {
      return put("notes", { name: "forgotten", count: count + 1 });
    }).then(function () { return all("lists"); }).then(function (lists) {
      return lists.reduce(function (chain, list) { return chain.then(function () { return forgetList(list); }); }, Promise.resolve())
        .then(function () { return Promise.all([remove("notes", "notice"), remove("notes", "sign-in")]); })
        .then(function () { return lists.map(function (list) { return list.name; }); });
    });
  }

  // One list goes; what another list still names (the shared pages and scripts, My visits, tiles that overlap) stays.
  function forgetList(list) {
    return remove("lists", list.id).then(function () { return dropEntries(list); });
  }

  // From every cache: a page refreshed online since an update is in that build's cache, not the list's own.
  function dropEntries(list) {
    return Promise.all([all("lists"), caches.keys()]).then(function (found) {
      var used = {};
      found[0].filter(function (other) { return other.id !== list.id; }).forEach(function (other) {
        other.pages.concat(other.tiles).forEach(function (address) { used[address] = true; });
      });
      var going = list.pages.concat(list.tiles).filter(function (address) { return !used[address]; });
      return Promise.all(found[1].filter(function (name) { return name.indexOf("fieldbook-") === 0; }).map(function (name) {
        return caches.open(name).then(function (cache) {
          return Promise.all(going.map(function (address) { return cache.delete(address); }));
        });
      }));
    });
  }

  // A take that ended as `error` says: nobody signed in forgets every list, a withdrawn list goes alone, anything else
  // leaves every list as it is. The lists forgotten are noted for the next page to say.
  function afterFailedTake(list, error) {
    var why = error && error.message;
    var going = why === "signed-out" ? forgetLists() : why === "withdrawn" ? forgetList(list).then(function () { return [list.name]; })
      : Promise.resolve([]);
    return going.then(noteGone);
  }

  function noteGone(names) {
    if (!names.length) { return null; }
    return get("notes", "gone").then(function (note) {
      var lists = (note ? note.lists : []).concat(names.filter(function (name) { return !note || note.lists.indexOf(name) < 0; }));
      return put("notes", { name: "gone", lists: lists });
    });
  }

  function plural(count, one, many) { return count + " " + (count === 1 ? one : many); }

  return { put: put, get: get, all: all, remove: remove, run: run, take: take, fetchWithin: fetchWithin, forgetLists: forgetLists,
           forgetList: forgetList, afterFailedTake: afterFailedTake, noteGone: noteGone, plural: plural };
})();
