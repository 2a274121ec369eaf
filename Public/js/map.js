// The map page and the venue form's pin map. Progressive enhancement: without this file (or without Leaflet) the map page
// shows its filters and the list of venues, and the venue form takes typed coordinates.
(function () {
  "use strict";

  var LIST_LIMIT = 100;
  // The map page's texts in its language (app.js reads the map's data-texts); the pin map shows none of them.
  var say = function (name) { return name; };

  function ready(action) {
    if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", action); } else { action(); }
  }

  function element(tag, className, text) {
    var node = document.createElement(tag);
    if (className) { node.className = className; }
    if (text !== undefined) { node.textContent = text; }
    return node;
  }

  function link(href, text) {
    var anchor = element("a", "", text);
    anchor.href = href;
    return anchor;
  }

  // How far past a file's deepest zoom its tiles are enlarged; further on they would only be blurred blocks.
  var OVERZOOM_LEVELS = 2;
  // The map zooms this deep whatever the tiles hold, so venues that stand close together can be told apart.
  var MAP_MAX_ZOOM = 19;

  // The installed tile files, first-answering first, with the zooms and the bounds where each has detail.
  function tileCoverage(container) {
    try { return JSON.parse(container.getAttribute("data-tile-coverage") || "[]"); } catch (error) { return []; }
  }

  // The deepest zoom at which some file shows detail at a point (0 when none covers it).
  function detailZoom(container, at) {
    return tileCoverage(container).reduce(function (deepest, file) {
      return coverageBounds(file).contains(at) ? Math.max(deepest, file.maxZoom + OVERZOOM_LEVELS) : deepest;
    }, 0);
  }

  function coverageBounds(file) { return L.latLngBounds([file.bounds[0], file.bounds[1]], [file.bounds[2], file.bounds[3]]); }

  // The offline layer (Fieldbook's own tiles, one layer per file so that each overzooms only from its own deepest zoom
  // and only over its own bounds; the first file goes on top) and, when an administrator allows it, the online one.
  function baseLayers(container) {
    var url = container.getAttribute("data-tiles-url");
    var attribution = escapeText(container.getAttribute("data-attribution") || "");
    var files = tileCoverage(container).slice().reverse().map(function (file, index) {
      return L.tileLayer(url, {
        minZoom: file.minZoom, maxNativeZoom: file.maxZoom, maxZoom: file.maxZoom + OVERZOOM_LEVELS,
        bounds: coverageBounds(file), attribution: index === 0 ? attribution : ""
      });
    });
    var layers = {};
    layers.offline = L.layerGroup(files);
    var online = container.getAttribute("data-online-url");
    if (online) {
      layers.online = L.tileLayer(online, {
        maxZoom: MAP_MAX_ZOOM, attribution: escapeText(container.getAttribute("data-online-attribution") || "")
      });
    }
    return layers;
  }

  // Says on the map when no installed file has detail for what it shows (every offline layer is then blank), with a
  // link to the tiles for administrators. The live region changes only when that changes, so it is announced once.
  function noDetailNotice(map, container, offline) {
    var coverage = tileCoverage(container);
    var box = element("div", "map-notice");
    box.setAttribute("role", "status");
    var notice = L.control({ position: "topright" });
    notice.onAdd = function () { L.DomEvent.disableClickPropagation(box); return box; };
    notice.addTo(map);
    var shown = false;
    function hasDetail() {
      var zoom = map.getZoom(), view = map.wrapLatLngBounds(map.getBounds());
      return coverage.some(function (file) {
        return zoom >= file.minZoom && zoom <= file.maxZoom + OVERZOOM_LEVELS && coverageBounds(file).overlaps(view);
      });
    }
    function update() {
      var blank = map.hasLayer(offline) && !hasDetail();
      if (blank === shown) { return; }
      shown = blank;
      box.textContent = "";
      if (!blank) { return; }
      box.appendChild(element("p", "", container.getAttribute("data-no-detail")));
      var tilesPage = container.getAttribute("data-no-detail-link");
      if (tilesPage) { box.appendChild(element("p")).appendChild(link(tilesPage, container.getAttribute("data-no-detail-link-text"))); }
    }
    map.on("zoomend moveend baselayerchange", update);
    update();
  }

  function escapeText(text) {
    var holder = document.createElement("span");
    holder.textContent = text;
    return holder.innerHTML;
  }

  // ---- The map page ----

  function symbolMarkup(key) {
    var entry = document.querySelector('[data-symbol-key="' + key + '"] svg') || document.querySelector('[data-symbol-key="none"] svg');
    return entry ? entry.outerHTML : "";
  }

  function symbolLabel(key) {
    var entry = document.querySelector('[data-symbol-key="' + key + '"] span');
    return entry ? entry.textContent : "";
  }

  // Pages' addresses come once with the data, as templates with {id}.
  var links = {};
  function pageOf(kind, id) { return (links[kind] || "").replace("{id}", encodeURIComponent(id)); }

  // The popup and the list show the same things: the venue, its address, its activities with type, status and dates.
  function venueDetails(feature, headingTag) {
    var properties = feature.properties;
    var box = element("div", "map-venue");
    var heading = element(headingTag, "map-venue__name");
    heading.appendChild(link(pageOf("venue", feature.id), properties.name));
    box.appendChild(heading);
    box.appendChild(element("p", "map-venue__address", properties.address + " · " + properties.area));
    if (properties.activities.length === 0) {
      box.appendChild(element("p", "muted", say("no_activities")));
    } else {
      var list = element("ul", "map-list__activities");
      properties.activities.forEach(function (activity) {
        var item = element("li");
        item.appendChild(link(pageOf("activity", activity.id), activity.name));
        var dates = activity.end_date ? activity.start_date + " – " + activity.end_date : say("ongoing", { start: activity.start_date });
        item.appendChild(document.createTextNode(": " + activity.activity_type + ", " + statusLabel(activity.status) + ", " + dates));
        list.appendChild(item);
      });
      box.appendChild(list);
    }
    return box;
  }

  function statusLabel(status) { return say("status_" + status); }

  function makeMarker(feature, symbolKey) {
    var coordinates = feature.geometry.coordinates;
    var label = feature.properties.name + " (" + symbolLabel(symbolKey) + ")";
    var marker = L.marker([coordinates[1], coordinates[0]], {
      icon: L.divIcon({ className: "map-marker", html: symbolMarkup(symbolKey), iconSize: [28, 28], iconAnchor: [14, 14], popupAnchor: [0, -12] }),
      title: label, alt: label, keyboard: true
    });
    marker.bindPopup(function () { return venueDetails(feature, "p"); });
    marker.on("add", function () { describeMarker(marker, label); });
    marker.feature = feature;
    return marker;
  }

  // Leaflet's marker is a focusable div: give it a role and a name, and let Space open it as Enter does.
  function describeMarker(marker, label) {
    var node = marker.getElement();
    if (!node || node.getAttribute("role")) { return; }
    node.setAttribute("role", "button");
    node.setAttribute("aria-label", say("open_details", { label: label }));
    node.addEventListener("keydown", function (event) {
      if (event.key === " " || event.key === "Spacebar") { event.preventDefault(); marker.openPopup(); }
    });
  }

  function focusPopup(map) {
    var content = map.getContainer().querySelector(".leaflet-popup-content a");
    if (content) { content.focus(); }
  }

  function setUpMapPage(container) {
    container.querySelector(".map__fallback").remove();
    container.classList.add("map--live");
    var map = L.map(container, { keyboard: true, worldCopyJump: true, zoomSnap: 1, maxZoom: MAP_MAX_ZOOM });
    map.getContainer().setAttribute("tabindex", "0");
    say = window.fieldbookTexts ? window.fieldbookTexts(container) : say;
    var layers = baseLayers(container);
    layers.offline.addTo(map);
    var bases = {};
    bases[say("offline_layer")] = layers.offline;
    if (layers.online) { bases[say("online_layer")] = layers.online; }
    var symbols = container.getAttribute("data-symbols") === "status" ? "status_symbol" : "type_symbol";
    var clusters = L.markerClusterGroup({ chunkedLoading: true, showCoverageOnHover: false });
    clusters.addTo(map);
    var overlays = {};
    var markers = [];
    var homesUrl = container.getAttribute("data-homes-url");
    if (homesUrl) {
      var homes = L.layerGroup().addTo(map);
      overlays[say("homes_layer")] = homes;
      loadHomes(homesUrl, homes);
    }
    if (Object.keys(bases).length > 1 || homesUrl) { L.control.layers(bases, overlays).addTo(map); }
    map.setView([20, 0], 2);
    noDetailNotice(map, container, layers.offline);

    var listRegion = document.getElementById("map-list-region");
    // The count follows the map as it moves; a polite live region tells screen-reader users how many are listed.
    var count = document.getElementById("list-count");
    count.setAttribute("role", "status");
    var list = element("ul", "map-list");
    list.id = "map-list";

    // A cluster is a focusable div too: name it, and let Enter or Space zoom into it (a click does), keeping focus on the map.
    function describeClusters() {
      container.querySelectorAll(".marker-cluster:not([role])").forEach(function (node) {
        node.setAttribute("role", "button");
        node.setAttribute("aria-label", say("cluster", { count: Number(node.textContent) }));
        node.addEventListener("keydown", function (event) {
          if (event.key !== "Enter" && event.key !== " ") { return; }
          event.preventDefault();
          node.click();
          container.focus();
        });
      });
    }

    function showList() {
      describeClusters();
      var bounds = map.getBounds();
      var inView = markers.filter(function (marker) { return bounds.contains(marker.getLatLng()); });
      // Someone working through the list keeps their place: the same venue's button has focus again after the rebuild.
      var focused = list.contains(document.activeElement) && document.activeElement.closest("[data-venue-id]");
      var focusedId = focused && focused.getAttribute("data-venue-id");
      list.textContent = "";
      inView.slice(0, LIST_LIMIT).forEach(function (marker) { list.appendChild(listItem(marker)); });
      var again = focusedId && list.querySelector('[data-venue-id="' + focusedId + '"] button');
      if (again) { again.focus(); }
      var text = say(inView.length > LIST_LIMIT ? "in_view_limited" : "in_view", { count: inView.length, total: markers.length, limit: LIST_LIMIT });
      if (count.textContent !== text) { count.textContent = text; }
    }

    function listItem(marker) {
      var item = element("li", "map-list__item");
      item.setAttribute("data-venue-id", marker.feature.id);
      var details = venueDetails(marker.feature, "h3");
      var key = marker.feature.properties[symbols];
      details.firstChild.insertAdjacentHTML("afterbegin", symbolMarkup(key) + " ");
      details.firstChild.appendChild(element("span", "visually-hidden", " (" + symbolLabel(key) + ")"));
      item.appendChild(details);
      var show = element("button", "button button--secondary button--small", say("show_on_map"));
      show.type = "button";
      show.setAttribute("aria-label", say("show_venue", { name: marker.feature.properties.name }));
      show.addEventListener("click", function () { openMarker(marker); });
      item.appendChild(show);
      return item;
    }

    function openMarker(marker) {
      clusters.zoomToShowLayer(marker, function () {
        marker.openPopup();
        focusPopup(map);
      });
    }

    fetch(container.getAttribute("data-geojson-url"), { credentials: "same-origin", headers: { Accept: "application/geo+json" } })
      .then(function (response) {
        if (!response.ok) { throw new Error(say("load_failed", { status: String(response.status) })); }
        return response.json();
      })
      .then(function (collection) {
        links = collection.links || {};
        markers = collection.features.map(function (feature) { return makeMarker(feature, feature.properties[symbols]); });
        clusters.addLayers(markers);
        placeView(map, container, markers);
        // With no venue to show, the page's own message (what to change) stays.
        if (markers.length > 0) {
          listRegion.textContent = "";
          listRegion.appendChild(count);
          listRegion.appendChild(list);
          map.on("moveend", showList);
          clusters.on("animationend", describeClusters);
          showList();
        }
        var focus = container.getAttribute("data-focus-venue");
        var chosen = focus && markers.filter(function (marker) { return marker.feature.id === focus; })[0];
        if (chosen) { clusters.zoomToShowLayer(chosen, function () { chosen.openPopup(); }); }
        container.setAttribute("data-loaded", String(markers.length));
      })
      .catch(function (error) {
        count.textContent = say("load_failed_list", { reason: error.message });
        container.setAttribute("data-loaded", "error");
      });
    map.on("popupopen", function () { container.setAttribute("data-popup-open", "true"); });
    setUpLocation(map);
    window.fieldbookMap = { map: map, clusters: clusters, markers: function () { return markers; } };
  }

  function placeView(map, container, markers) {
    var point = container.getAttribute("data-focus-point");
    var box = container.getAttribute("data-focus-bounds");
    if (point) {
      var at = point.split(",").map(Number);
      map.setView(at, 16);
    } else if (box) {
      var edges = box.split(",").map(Number);
      map.fitBounds([[edges[0], edges[1]], [edges[2], edges[3]]], { padding: [24, 24], maxZoom: 16 });
    } else if (markers.length > 0) {
      map.fitBounds(L.featureGroup(markers).getBounds(), { padding: [24, 24], maxZoom: 16 });
    }
  }

  function loadHomes(url, layer) {
    fetch(url, { credentials: "same-origin" }).then(function (response) { return response.ok ? response.json() : { features: [] }; })
      .then(function (collection) {
        collection.features.forEach(function (feature) {
          var properties = feature.properties;
          var label = say("residents", { count: properties.residents, name: properties.name });
          var marker = L.marker([feature.geometry.coordinates[1], feature.geometry.coordinates[0]], {
            icon: L.divIcon({ className: "map-home", html: "<span>" + properties.residents + "</span>", iconSize: [26, 26] }),
            title: label, alt: label, keyboard: true
          });
          marker.bindPopup(function () {
            var box = element("div", "map-venue");
            box.appendChild(element("p", "", label));
            if (properties.resident_names.length) { box.appendChild(element("p", "", properties.resident_names.join(", "))); }
            return box;
          });
          marker.on("add", function () { describeMarker(marker, label); });
          layer.addLayer(marker);
        });
      });
  }

  // My location (6C.9): browsers allow geolocation only in a secure context, so the button says why when it cannot work.
  function setUpLocation(map) {
    var button = document.getElementById("my-location");
    var note = document.getElementById("location-note");
    if (!button) { return; }
    button.hidden = false;
    var here = null;
    var why = say("location_insecure");
    if (!window.isSecureContext || !navigator.geolocation) { note.textContent = why; }
    button.addEventListener("click", function () {
      if (!window.isSecureContext || !navigator.geolocation) {
        note.textContent = "";
        note.textContent = why;
        return;
      }
      note.textContent = say("finding");
      navigator.geolocation.getCurrentPosition(function (position) {
        var at = [position.coords.latitude, position.coords.longitude];
        if (here) { map.removeLayer(here); }
        here = L.circleMarker(at, { radius: 9, className: "map-location" }).addTo(map).bindPopup(say("you_are_here", { metres: Math.round(position.coords.accuracy) }));
        map.setView(at, Math.max(map.getZoom(), 14));
        note.textContent = say("centred");
      }, function (error) {
        note.textContent = error.code === 1 ? say("location_denied") : say("location_failed", { reason: error.message });
      }, { enableHighAccuracy: true, timeout: 15000 });
    });
  }

  // ---- The venue form's pin map ----

  function setUpPinMap(container) {
    var latitude = document.getElementById("latitude");
    var longitude = document.getElementById("longitude");
    if (!latitude || !longitude) { return; }
    container.hidden = false;
    var holder = container.querySelector(".pin-map__map");
    var map = L.map(holder, { keyboard: true, maxZoom: MAP_MAX_ZOOM });
    var offline = baseLayers(holder).offline.addTo(map);
    var pin = null;

    function typed() {
      var lat = parseFloat(latitude.value), lng = parseFloat(longitude.value);
      return isFinite(lat) && isFinite(lng) && Math.abs(lat) <= 90 && Math.abs(lng) <= 180 ? L.latLng(lat, lng) : null;
    }
    function place(at, fromMap) {
      if (!pin) {
        pin = L.marker(at, { draggable: true, keyboard: false, title: "The venue's pin" }).addTo(map);
        pin.on("dragend", function () { place(pin.getLatLng(), true); });
      }
      pin.setLatLng(at);
      if (fromMap) {
        latitude.value = at.lat.toFixed(6);
        longitude.value = L.Util.wrapNum(at.lng, [-180, 180], true).toFixed(6);
        container.querySelector(".pin-map__status").textContent = "Pin placed at " + latitude.value + ", " + longitude.value + ".";
      }
    }
    // Close in on the pin, but not past the tiles' detail there: a pin is placed against the streets it can see.
    function closeZoom(at, wanted) { return Math.min(wanted, detailZoom(holder, at) || wanted); }
    var start = typed();
    if (start) { map.setView(start, closeZoom(start, 15)); place(start, false); } else { map.setView([20, 0], 2); }
    noDetailNotice(map, holder, offline);
    map.on("click", function (event) { place(event.latlng, true); });
    container.querySelector(".pin-map__centre").addEventListener("click", function () { place(map.getCenter(), true); });
    [latitude, longitude].forEach(function (input) {
      input.addEventListener("change", function () {
        var at = typed();
        if (at) { place(at, false); map.setView(at, closeZoom(at, Math.max(map.getZoom(), 13))); }
      });
    });
  }

  ready(function () {
    if (!window.L) { return; }
    var page = document.getElementById("map");
    if (page && L.markerClusterGroup) { setUpMapPage(page); }
    var pinMap = document.querySelector("[data-pin-map]");
    if (pinMap) { setUpPinMap(pinMap); }
  });
})();
