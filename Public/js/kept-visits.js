// "Visits on this phone", on My visits: each visit the signed-in person logged on this phone and the server does not
// have yet (stop, result, note, when, and why the server refused it, if it did), with Retry for a refused one and
// Discard for any. Cards with a heading each, so a screen reader moves visit by visit; the buttons name their visit.
window.FieldbookKeptVisits = function (actions) {
  "use strict";
  var section = document.querySelector("[data-kept-visits]");
  var shown = "";

  function render(visits) {
    if (!section) { return; }
    var key = visits.map(function (visit) { return visit.id + ":" + (visit.problem || ""); }).join(",");
    if (key === shown) { return; }
    shown = key;
    var hadFocus = section.contains(document.activeElement) && document.activeElement !== heading();
    var list = section.querySelector("[data-kept-visits-list]");
    var empty = section.querySelector("[data-kept-visits-empty]");
    list.textContent = "";
    visits.slice().sort(function (one, other) { return one.keptAt < other.keptAt ? -1 : 1; }).forEach(function (visit) {
      list.appendChild(card(visit));
    });
    list.hidden = visits.length === 0;
    empty.hidden = visits.length > 0;
    if (visits.length) { section.hidden = false; }
    // A card that held the focus is gone: the focus goes to the section's heading rather than to the page's top.
    if (hadFocus) { heading().focus(); }
  }

  function heading() { return section.querySelector("h2"); }

  function card(visit) {
    var item = element("li", "kept-visit" + (visit.problem ? " kept-visit--refused" : ""));
    var name = visit.stopName || "A stop";
    var title = element("h3", "kept-visit__title");
    var link = element("a", "", name);
    link.href = visit.path.replace(/\/logs(\?.*)?$/, "");
    title.appendChild(link);
    item.appendChild(title);
    var when = element("time", "", new Date(visit.keptAt).toLocaleString());
    when.setAttribute("datetime", visit.keptAt);
    var line = element("p", "", (visit.resultLabel || visit.result) + ", logged ");
    line.appendChild(when);
    item.appendChild(line);
    var note = field(visit, "note");
    if (note) { item.appendChild(element("p", "", "Note: " + note)); }
    item.appendChild(element("p", "kept-visit__state", visit.problem
      ? "Not accepted by the server: " + visit.problem
      : "Waiting to be sent."));
    var buttons = element("p", "kept-visit__actions");
    if (visit.problem) { buttons.appendChild(button("Retry", name, "button", function () { return actions.retry(visit); })); }
    buttons.appendChild(button("Discard", name, "button button--secondary", function () {
      if (!window.confirm("Discard the visit to " + name + " (" + (visit.resultLabel || visit.result) + ")? It will not be sent.")) {
        return Promise.resolve();
      }
      return actions.discard(visit);
    }));
    item.appendChild(buttons);
    return item;
  }

  function button(label, name, className, act) {
    var made = element("button", className, label);
    made.type = "button";
    made.appendChild(element("span", "visually-hidden", " the visit to " + name));
    // Not disabled while it works: a disabled button loses the keyboard's focus.
    var busy = false;
    made.addEventListener("click", function () {
      if (busy) { return; }
      busy = true;
      act().catch(function () { return null; }).then(function () { busy = false; });
    });
    return made;
  }

  function field(visit, name) {
    var found = visit.fields.filter(function (pair) { return pair[0] === name; })[0];
    return found ? found[1] : "";
  }

  function element(tag, className, text) {
    var made = document.createElement(tag);
    if (className) { made.className = className; }
    if (text) { made.textContent = text; }
    return made;
  }

  return { render: render };
};
