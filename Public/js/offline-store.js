// What a phone keeps to walk a visit list away from the network, shared by the pages and the service
// worker: the lists taken (IndexedDB "lists"), the visits logged but not yet sent ("visits", by the id the phone made
// for each, so sending one again logs it once, and who logged it) and short notes between pages ("notes"). IndexedDB, not memory: what was
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

  // Fetches a list's description from `address` (its offline.json) and keeps its pages and tiles in the cache it names.
  // A tile that will not come is left out; a page that will not come fails the whole, so a list is never half taken.
  function take(address) {
    return fetch(address, { credentials: "same-origin" }).then(function (response) {
      var type = response.headers.get("Content-Type") || "";
      if (!response.ok || type.indexOf("application/json") !== 0) { throw new Error("signed-out"); }
      return response.json();
    }).then(function (list) {
      return caches.open(list.cache).then(function (cache) {
        return cache.addAll(list.pages).then(function () {
          return Promise.all(list.tiles.map(function (tile) {
            return cache.add(tile).then(function () { return 1; }, function () { return 0; });
          }));
        });
      }).then(function (tiles) {
        list.address = address;
        list.keptTiles = tiles.reduce(function (sum, one) { return sum + one; }, 0);
        list.takenAt = new Date().toISOString();
        return put("lists", list).then(function () { return list; });
      });
    });
  }

  // Nobody is signed in (signed out, or the server says the session ended): the lists taken (households' names and
  // addresses) go, their pages and tiles and the notes between pages with them. The visits not yet sent stay: each
  // waits for the person who logged it to sign in again. Answers the names of the lists forgotten.
  function forgetLists() {
    return all("lists").then(function (lists) {
      return Promise.all(lists.map(forgetList)).then(function () {
        return Promise.all([remove("notes", "notice"), remove("notes", "sign-in")]);
      }).then(function () { return lists.map(function (list) { return list.name; }); });
    });
  }

  function forgetList(list) {
    return caches.open(list.cache).then(function (cache) {
      return Promise.all(list.pages.concat(list.tiles).map(function (address) { return cache.delete(address); }));
    }).then(function () { return remove("lists", list.id); });
  }

  function plural(count, one, many) { return count + " " + (count === 1 ? one : many); }

  return { put: put, get: get, all: all, remove: remove, take: take, fetchWithin: fetchWithin, forgetLists: forgetLists,
           forgetList: forgetList, plural: plural };
})();
