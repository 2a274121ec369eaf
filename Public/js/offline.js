// A phone away from the Wi-Fi, on every page: installs the service worker, says how many visits are kept on this phone
// and not yet sent, sends them when the server answers, lists them on My visits ("Visits on this phone", with Retry and
// Discard), and offers "Take this list with me" there. Needs a secure context (HTTPS, or this machine's own address);
// without it, or without JavaScript, every page works online as before.
(function () {
  "use strict";
  var status = document.querySelector("[data-offline-status]");
  if (!status || !window.isSecureContext || !("serviceWorker" in navigator) || !window.indexedDB || !window.caches ||
      !window.FieldbookStore) { return; }
  var Store = window.FieldbookStore;
  // The person this page was made for (none on the sign-in page): a phone may be shared, and a kept visit belongs to
  // whoever logged it.
  var me = { id: status.getAttribute("data-user-id") || "", name: status.getAttribute("data-user-name") || "" };
  var sending = false;
  // A send asked for while one runs (Retry, coming back online) runs once that one ends.
  var sendAgain = false;
  // The ids of the visits being sent now: Discard waits for the server's answer to them.
  var inFlight = {};
  // What just happened (a visit kept, visits sent), said until something else happens.
  var lastNotice = "";
  // Whether this page is the copy kept on this phone (the service worker marks it), or the last try to reach the
  // server failed: then it may be older than it looks.
  var away = status.hasAttribute("data-kept-copy");
  // How long a send waits for the server before trying again later: the visit stays kept, and one that arrived after
  // all is one log when sent again.
  var SEND_PATIENCE_MS = 8000;

  navigator.serviceWorker.register(status.getAttribute("data-worker")).catch(function () { return null; });
  // First: a kept page's form must never log a second visit under the id it was taken with.
  freshLogIds();

  // The status line (a polite live region): what is waiting, and what just happened to it; refused visits are named
  // with a link to the list of visits on this phone, where each says why.
  function show(notice) {
    if (notice !== undefined) { lastNotice = notice; }
    return Promise.all([Store.all("visits"), Store.get("notes", "sign-in")]).then(function (found) {
      var visits = found[0], signIn = found[1];
      var parts = [];
      if (away) { parts.push("The server cannot be reached: this page is the copy kept on this phone."); }
      if (lastNotice) { parts.push(lastNotice); }
      var mine = visits.filter(isMine);
      var waiting = mine.filter(function (visit) { return !visit.problem; });
      var refused = mine.filter(function (visit) { return visit.problem; });
      if (waiting.length && signIn) {
        parts.push("Sign in to send " + Store.plural(waiting.length, "visit", "visits") + " kept on this phone.");
      } else if (waiting.length) {
        parts.push(Store.plural(waiting.length, "visit", "visits") + " not yet sent.");
      }
      parts = parts.concat(othersWaiting(visits));
      if (refused.length) {
        parts.push(Store.plural(refused.length, "visit was", "visits were") + " not accepted by the server and " +
                   (refused.length === 1 ? "is" : "are") + " kept here.");
      }
      say(parts.join(" "), refused.length > 0);
      markKeptStops(visits);
      KeptVisits.render(mine);
      return visits;
    });
  }

  function isMine(visit) { return !!me.id && visit.by === me.id; }

  // What happened since the last page (a visit kept, lists no longer on this phone), taken from the notes to be said
  // once, before `also`; undefined when there is nothing new.
  function news(also) {
    return Promise.all([Store.get("notes", "notice"), Store.get("notes", "gone")]).then(function (notes) {
      return Promise.all([Store.remove("notes", "notice"), Store.remove("notes", "gone")]).then(function () {
        var said = [notes[1] ? goneNotice(notes[1].lists) : "", notes[0] ? notes[0].text : "", also || ""].filter(Boolean);
        return said.length ? said.join(" ") : undefined;
      });
    });
  }

  function goneNotice(names) {
    var quoted = names.map(function (name) { return "“" + name + "”"; }).join(", ");
    return (names.length === 1 ? "The list " + quoted + " is" : "The lists " + quoted + " are") +
      " no longer on this phone: take " + (names.length === 1 ? "it" : "them") + " again from My visits while in range.";
  }

  // Rewrites the live region only when what it says changes, so a screen reader hears each change once.
  function say(text, linkToVisits) {
    var key = text + (linkToVisits ? "|link" : "");
    if (status.getAttribute("data-said") === key) { return; }
    status.setAttribute("data-said", key);
    status.classList.toggle("offline-status--away", away);
    status.textContent = text;
    if (linkToVisits) {
      var link = document.createElement("a");
      link.href = status.getAttribute("data-token-page") + "#kept-visits";
      link.textContent = "See the visits on this phone";
      status.appendChild(document.createTextNode(" "));
      status.appendChild(link);
    }
  }

  // "2 visits logged by Ann wait for them to sign in.": someone else's visits are never sent under this session.
  function othersWaiting(visits) {
    var byPerson = {};
    visits.forEach(function (visit) {
      if (me.id && visit.by === me.id) { return; }
      var key = visit.by || "";
      byPerson[key] = byPerson[key] || { name: visit.byName || "someone", count: 0 };
      byPerson[key].count += 1;
    });
    return Object.keys(byPerson).map(function (key) {
      var person = byPerson[key];
      return Store.plural(person.count, "visit", "visits") + " logged by " + person.name + " " +
        (person.count === 1 ? "waits" : "wait") + " for them to sign in.";
    });
  }

  // On the walk page, the stops logged on this phone say so (the kept page still shows them as not visited).
  function markKeptStops(visits) {
    visits.forEach(function (visit) {
      var cards = [document.getElementById("stop-" + visit.stop)].concat(
        Array.prototype.slice.call(document.querySelectorAll(".next-stop[data-stop=\"" + visit.stop + "\"]")));
      cards.forEach(function (card) {
        if (!card || card.querySelector("[data-kept]")) { return; }
        var line = document.createElement("p");
        line.setAttribute("data-kept", "");
        line.className = "stop-card__kept";
        line.textContent = "Logged on this phone, not yet sent";
        card.insertBefore(line, card.querySelector("form") || null);
      });
    });
  }

  // The session's form token and whose session it is, from a page fetched now (this page may be a kept copy made for
  // someone else); null when there is none to send with. Only the server saying nobody is signed in (its sign-in page,
  // which it marks, or 401) forgets the lists taken and asks for a sign-in; an error page or a server in trouble is
  // tried again later.
  function currentSession() {
    return Store.fetchWithin(SEND_PATIENCE_MS, status.getAttribute("data-token-page"), { credentials: "same-origin" }).then(function (response) {
      away = false;
      return response.text().then(function (page) {
        if (response.status === 401 || /data-offline-status[^>]* data-signed-out/.test(page)) {
          return forgetListsTaken().then(function () { return Store.put("notes", { name: "sign-in", at: Date.now() }); }).then(function () {
            return null;
          });
        }
        var token = /name="csrf_token" value="([^"]+)"/.exec(page);
        var user = /data-user-id="([^"]+)"/.exec(page);
        return response.ok && token && user ? { token: token[1], user: user[1] } : null;
      });
    });
  }

  // Sends the visits this person kept, one at a time, each with the id the phone made for it: one sent twice (its
  // answer was lost) is still one log. Nothing is dropped: a refusal is kept with its reason, an ended session waits
  // for the sign-in, and another person's visits wait for theirs.
  function send() {
    if (sending) {
      sendAgain = true;
      return Promise.resolve();
    }
    sending = true;
    var sent = 0;
    var receivedTimes = 0;
    return Store.all("visits").then(function (visits) {
      // In the order they were logged, so the server files each stop's visits in the order they happened.
      var waiting = visits.filter(function (visit) { return !visit.problem && isMine(visit); }).sort(function (one, other) {
        return one.keptAt < other.keptAt ? -1 : one.keptAt > other.keptAt ? 1 : 0;
      });
      if (!waiting.length) { return null; }
      return currentSession().then(function (session) {
        if (!session || session.user !== me.id) { return null; }
        return Store.remove("notes", "sign-in").then(function () {
          return waiting.reduce(function (chain, visit) {
            return chain.then(function (go) { return go === false ? false : sendOne(visit, session.token).then(function (done) {
              if (done) { sent += 1; }
              if (done === "received") { receivedTimes += 1; }
              return done !== null;
            }); });
          }, Promise.resolve(true));
        });
      });
    }).catch(function (error) {
      if (error instanceof TypeError || (error && error.name === "AbortError")) { away = true; }
      return null;
    }).then(function () {
      sending = false;
      return news(sent ? Store.plural(sent, "visit", "visits") + " kept on this phone sent." + timesSetAside(receivedTimes) : "").then(show);
    }).then(function (left) {
      if (sent) { retakeLists(); }
      if (sendAgain) {
        sendAgain = false;
        send();
      }
      return left;
    });
  }

  function timesSetAside(count) {
    if (!count) { return ""; }
    return (count === 1 ? " One was logged at the time the server received it" : " " + count + " were logged at the time the server received them") +
      ": this phone's clock and the server's disagree.";
  }

  // true: logged (or found logged); "received": logged at the time the server received it, the phone's time set aside;
  // false: refused and kept with why, or discarded before its turn; null: stop sending for now.
  // The visit is forgotten only when the server answers that the log with its id is stored (201 naming the id); any
  // other answer, such as a page shown in place of the log, keeps it. To a scripted send, 401 is an ended session (the
  // person signs in, then every visit goes); 403 is this visit not allowed (the list went to someone else), which, like
  // a visit the server finds wrong, is kept with why and does not hold up the others. A 401 may also be a token from a
  // session replaced in another tab: the session is asked for again, and only its answer forgets the lists.
  function sendOne(visit, token) {
    var body = new URLSearchParams(visit.fields);
    body.set("csrf_token", token);
    return Store.get("visits", visit.id).then(function (stillKept) {
      if (!stillKept) { return false; }
      inFlight[visit.id] = true;
      return Store.fetchWithin(SEND_PATIENCE_MS, visit.path, { method: "POST", body: body, credentials: "same-origin",
                                                             headers: { "Fieldbook-Sent-By-Script": "1" } }).then(function (response) {
        if (response.status === 401) { return currentSession().then(function () { return null; }); }
        if (response.status === 201 && (response.headers.get("Fieldbook-Log-Id") || "").toLowerCase() === visit.id.toLowerCase()) {
          return Store.remove("visits", visit.id).then(function () { return loggedAtReceipt(visit, response) ? "received" : true; });
        }
        if ([403, 404, 409, 422].indexOf(response.status) >= 0) {
          return response.text().then(function (page) { return keepRefused(visit, refusal(page) || "the server answered " + response.status); });
        }
        return null;
      }, function () { return null; }).finally(function () { delete inFlight[visit.id]; });
    });
  }

  // The server logs a visit at the time it received it when it cannot believe the phone's (either clock may be wrong).
  function loggedAtReceipt(visit, response) {
    var loggedAt = Date.parse(response.headers.get("Fieldbook-Logged-At") || "");
    return !isNaN(loggedAt) && Math.abs(loggedAt - Date.parse(visit.keptAt)) > 60000;
  }

  // The refusal is written only onto the visit still kept: one discarded meanwhile stays gone.
  function keepRefused(visit, problem) {
    return Store.run("visits", "readwrite", function (store) {
      var found = store.get(visit.id);
      found.onsuccess = function () {
        if (!found.result) { return; }
        found.result.problem = problem;
        store.put(found.result);
      };
    }).then(function () { return false; });
  }

  // Why the server refused a visit, as its answer (a page) says: the form's first error, else the error page's message.
  function refusal(page) {
    var answer = new DOMParser().parseFromString(page, "text/html");
    var said = answer.querySelector(".error-summary__list li") || answer.querySelector(".error-page .lead");
    return said ? said.textContent.trim() : "";
  }

  // The server says nobody is signed in: the households' pages taken along must not stay for whoever holds the phone.
  function forgetListsTaken() {
    return Store.forgetLists().then(Store.noteGone).catch(function () { return null; });
  }

  function retakeLists() {
    Store.all("lists").then(function (lists) {
      lists.forEach(function (list) {
        Store.take(list.address).catch(function (error) { return Store.afterFailedTake(list, error); }).catch(function () { return null; });
      });
    });
  }

  // "Take this list with me": asks for storage the browser will not clear on its own, then keeps the list.
  function offerTaking() {
    document.querySelectorAll("[data-take-list]").forEach(function (box) {
      var button = box.querySelector("button");
      var said = box.querySelector("[data-take-status]");
      box.hidden = false;
      button.addEventListener("click", function () {
        button.disabled = true;
        said.textContent = "Keeping this list on this phone…";
        var persisted = navigator.storage && navigator.storage.persist ? navigator.storage.persist() : Promise.resolve(false);
        persisted.catch(function () { return false; }).then(function (lasting) {
          return Store.take(box.getAttribute("data-take-list")).then(function (list) {
            said.textContent = "On this phone: " + Store.plural(list.stops.length, "stop", "stops") + ", the pages to log them and " +
              Store.plural(list.keptTiles, "map tile", "map tiles") + ". " + (lasting
                ? "The browser keeps them until you remove them."
                : "The browser did not promise to keep them: it may clear them if the phone runs short of space.");
          });
        }).catch(function (error) {
          if (error && error.message === "signed-out") { forgetListsTaken(); }
          said.textContent = error && error.message === "signed-out"
            ? "The list could not be taken: sign in again, then press the button again."
            : "The list could not be taken (the server did not answer). Try again while in range.";
        }).then(function () { button.disabled = false; });
      });
    });
  }

  // Each stop page's form gets an id of its own for its visit when it is shown, so two visits logged from the same kept
  // page are two logs, and one sent twice is one; and who logs it, for the service worker to keep with the visit.
  function freshLogIds() {
    document.querySelectorAll("[data-log-id]").forEach(function (field) {
      if (window.crypto && crypto.randomUUID) { field.value = crypto.randomUUID(); }
    });
    document.querySelectorAll("[data-log-kept-by]").forEach(function (field) { field.value = me.id; });
    document.querySelectorAll("[data-log-kept-by-name]").forEach(function (field) { field.value = me.name; });
  }

  // Signing out forgets the lists taken on this phone (never the visits not yet sent), then signs out as usual.
  function forgetOnSignOut() {
    document.querySelectorAll("form[data-sign-out]").forEach(function (form) {
      form.addEventListener("submit", function (event) {
        event.preventDefault();
        Store.forgetLists().catch(function () { return null; }).then(function () { form.submit(); });
      });
    });
  }

  // "Visits on this phone" on My visits: Retry sends a refused visit again, Discard drops one for good.
  var KeptVisits = !window.FieldbookKeptVisits ? { render: function () { return null; } } : window.FieldbookKeptVisits({
    retry: function (visit) {
      delete visit.problem;
      return Store.put("visits", visit).then(function () {
        return show("Sending the visit to " + (visit.stopName || "the stop") + " again.");
      }).then(send);
    },
    discard: function (visit) {
      if (inFlight[visit.id]) {
        return show("The visit to " + (visit.stopName || "the stop") + " is being sent now, so it cannot be discarded. " +
                    "If the server does not accept it, it is listed here again.");
      }
      return Store.remove("visits", visit.id).then(function () {
        return show("The visit to " + (visit.stopName || "the stop") + " was discarded; it will not be sent.");
      });
    }
  });

  forgetOnSignOut();
  // The server's page saying nobody is signed in (the sign-in page; never a kept copy): the lists taken go.
  var forgetting = status.hasAttribute("data-signed-out") && !away ? forgetListsTaken() : Promise.resolve();
  window.addEventListener("pageshow", freshLogIds);
  window.addEventListener("online", send);
  offerTaking();
  forgetting.then(function () { return news(); }).then(function (notice) {
    return show(notice || "");
  }).then(function (visits) {
    if (visits.length) { send(); }
  }).catch(function () { return null; });
  window.setInterval(function () {
    Store.all("visits").then(function (visits) { if (visits.length) { send(); } }).catch(function () { return null; });
  }, 15000);
})();
