import Domain
import Foundation
import HTTPServer
import Storage
import Surface
import Translations

/// The map (Requirement 6C): filters in the query string, a Leaflet map fed by the GeoJSON API, a legend, and the same
/// venues as a list that works without JavaScript. Tiles come from Fieldbook's own MBTiles files.
enum MapPages {
    /// Venues the list shows per page without JavaScript (with it, the list follows what the map shows).
    static let listPageSize = 50

    static func show(_ context: inout PageContext) throws -> Response {
        let request = context.request
        context.rememberListView(.map)
        let query = try MapQuery(reading: LenientListReader(request)).seen(homes: context.participantVisibility.homes)
        let data = try MapData.load(context.database, query)
        let settings = try context.database.mapSettings()
        let user = try context.signedInUser
        let mode = request.query["symbols"].flatMap(MapData.SymbolMode.init) ?? .type
        let homesAllowed = settings.showsHomes(to: user.role)
        let homesShown = homesAllowed && request.query["homes"] == "on"
        let areas = try context.database.areaTree()
        let symbols = mode == .type ? data.legend.byType : data.legend.byStatus
        let listRequest = PageRequest(page: max(1, request.query(.page).flatMap(Int.init) ?? 1), perPage: listPageSize)
        let page = ListPage(items: Array(data.venues.dropFirst(listRequest.offset).prefix(listPageSize)), total: data.venues.count,
                            request: listRequest)
        var view = filterForm(query: query, mode: mode, areas: areas, types: try context.database.categories(.activityType),
                              focusedArea: request.query[focusArea] ?? "").view
        view["symbols"] = symbols.map(MapSymbolView.legendEntry)
        view["venues"] = page.items.map { venueView($0, mode: mode, symbols: symbols) }
        view["pagination"] = Pagination.view(page, request: request, noun: .venues, formats: context.translator.formats)
        view["has_venues"] = !data.venues.isEmpty
        view["filtered"] = query.filtersActivities || query.areaId != nil || query.visitListId != nil
        if let listId = query.visitListId, let list = try? context.database.visitList(id: listId) {
            view["visit_list"] = ["name": list.name, "path": Paths.visitLists.record(listId), "id": listId.lowercasedString]
        }
        let anyCoordinates = try data.venues.isEmpty ? context.database.anyVenueHasCoordinates() : true
        view["no_coordinates_anywhere"] = !anyCoordinates
        view["homes_allowed"] = homesAllowed
        view["homes_checked"] = homesShown
        if homesShown {
            let homes = try context.database.mapHomes(areaId: query.areaId, withNames: settings.homesLayer == .names)
            view["homes"] = homes.map { home -> TemplateView in
                ["name": home.venueName, "path": MapData.venuePath(home.venueId), "count": home.residentCount,
                 "names": home.residentNames.joined(separator: ", ")]
            }
            view["has_homes"] = !homes.isEmpty
            view["homes_with_names"] = settings.homesLayer == .names
        }
        view["map"] = try mapAttributes(&context, query: query, mode: mode, settings: settings, homesShown: homesShown)
        view["attribution"] = attribution(context.web.tiles)
        var response = context.page("map/show", title: Message("Map"), section: .map, view: view, assets: MapAssets.page)
        response.setHeader("Content-Security-Policy", contentSecurityPolicy(settings))
        return response
    }

    /// A PNG tile from the MBTiles files, or a short 404 the map ignores (no error page for every missing tile).
    static func tile(_ context: inout PageContext) throws -> Response {
        let request = context.request
        guard let z = request.pathParameter("z").flatMap(Int.init), let x = request.pathParameter("x").flatMap(Int.init),
              let name = request.pathParameter("y"), name.hasSuffix(".png"), let y = Int(name.dropLast(4)),
              let data = context.web.tiles?.tile(z: z, x: x, y: y) else {
            return Response(status: .notFound, headers: [("Content-Type", "text/plain; charset=utf-8"), ("Cache-Control", "no-cache")],
                            body: Array("No tile here.".utf8))
        }
        return Response(status: .ok, headers: [("Content-Type", "image/png"), ("Cache-Control", "private, max-age=86400")],
                        body: Array(data))
    }

    /// The Content-Security-Policy of the map: the online tile server's origin is allowed only while that layer is on.
    static func contentSecurityPolicy(_ settings: MapSettings) -> String {
        guard let origin = settings.onlineTileOrigin else { return SecurityHeaders.contentSecurityPolicy }
        return SecurityHeaders.contentSecurityPolicy.replacingOccurrences(of: "img-src 'self' data:", with: "img-src 'self' data: \(origin)")
    }

    private static func filterForm(query: MapQuery, mode: MapData.SymbolMode, areas: [AreaTreeEntry], types: [Domain.Category],
                                   focusedArea: String) -> FormView {
        var form = FormView()
        let areaOptions = areas.map { ($0.area.id.lowercasedString, Message.verbatim(AreaPages.indented($0))) }
        form.select(ListParameter.activityTypeId.name, label: Message("Activity type"), value: query.typeId?.lowercasedString ?? "",
                    options: [("", Message("Any type"))] + types.map { ($0.id.lowercasedString, .verbatim($0.name)) })
        form.select(ListParameter.status.name, label: Message("Status"), value: query.status?.rawValue ?? "",
                    options: [("", Message("Any status"))] + ActivityStatus.allCases.map { ($0.rawValue, Message(domainText: $0.label)) })
        form.input(ListParameter.from.name, label: Message("Activities running from"), value: query.from?.description ?? "", type: "date")
        form.input(ListParameter.to.name, label: Message("until", context: "the end of a range of dates"), value: query.to?.description ?? "",
                   type: "date")
        form.select(ListParameter.areaId.name, label: Message("Area (and the areas inside it)"), value: query.areaId?.lowercasedString ?? "",
                    options: [("", Message("Any area"))] + areaOptions)
        form.select("symbols", label: Message("Marker symbols show"), value: mode.rawValue,
                    options: [("type", Message("Activity type")), ("status", Message("Activity status"))])
        form.select(focusArea, label: Message("Centre the map on"), value: focusedArea,
                    options: [("", Message("All venues shown"))] + areaOptions)
        return form
    }

    /// What map.js needs, as data attributes of the map's element.
    private static func mapAttributes(_ context: inout PageContext, query: MapQuery, mode: MapData.SymbolMode, settings: MapSettings,
                                      homesShown: Bool) throws -> TemplateView {
        let request = context.request
        let filters = Parameters(request.query.pairs.filter { [ListParameter.activityTypeId.name, ListParameter.status.name,
                                                                ListParameter.from.name, ListParameter.to.name,
                                                                ListParameter.areaId.name, ListParameter.visitListId.name].contains($0.name) && !$0.value.isEmpty })
        let suffix = filters.isEmpty ? "" : "?" + QueryString.encode(filters)
        var view: TemplateView = [
            "geojson_url": MapDataPaths.venues() + suffix, "tiles_url": Paths.tileTemplate, "symbols": mode.rawValue,
            "tile_coverage": tileCoverage(context.web.tiles), "texts": (homesShown ? scriptTexts.adding(homesTexts) : scriptTexts).json(context.translator),
        ]
        if homesShown {
            view["homes_url"] = MapDataPaths.homes() + (query.areaId.map { "?area_id=\($0.lowercasedString)" } ?? "")
        }
        if settings.onlineLayer {
            view["online_url"] = settings.onlineTileURL
            view["online_attribution"] = settings.onlineAttribution
        }
        if let id = request.query[focusVenue].flatMap(UUID.init(uuidString:)), let venue = try? context.database.venue(id: id),
           let latitude = venue.latitude, let longitude = venue.longitude {
            view["focus_point"] = "\(latitude),\(longitude)"
            view["focus_venue"] = id.lowercasedString
        } else if let areaId = request.query[focusArea].flatMap(UUID.init(uuidString:)) ?? query.areaId,
                  let bounds = try context.database.mapBounds(ofArea: areaId) {
            view["focus_bounds"] = "\(bounds.south),\(bounds.west),\(bounds.north),\(bounds.east)"
        }
        return view
    }

    /// What map.js says on the map page: layers, popups, the list that follows the map, and finding the person's location.
    static let scriptTexts = ScriptTexts([
        "offline_layer": Message("Offline map"), "online_layer": Message("Online map (needs internet)"),
        "no_activities": Message("No activities are held here at the moment."),
        "ongoing": Message("since {start}, ongoing"), "open_details": Message("{label}: open details"),
        "show_on_map": Message("Show on map"), "show_venue": Message("Show {name} on the map"),
        "load_failed": Message("The map's data could not be loaded ({status})."),
        "load_failed_list": Message("{reason} The list below shows the venues; reload the page to try again."),
        "cluster": Message("A group of {count} venue: zoom in to see them", plural: "A group of {count} venues: zoom in to see them", count: 0),
        "in_view": Message("{count} venue in view of {total} on the map.", plural: "{count} venues in view of {total} on the map.", count: 0),
        "in_view_limited": Message("{count} venue in view of {total} on the map; the first {limit} are listed, zoom in to list the others.",
                                   plural: "{count} venues in view of {total} on the map; the first {limit} are listed, zoom in to list the others.",
                                   count: 0),
        "location_insecure": Message("Your location can only be shown when Fieldbook is opened at its https:// address or at http://localhost on this machine; browsers do not share it with other pages."),
        "finding": Message("Finding your location…"), "you_are_here": Message("You are here (within {metres} m)"),
        "centred": Message("The map is centred on your location."),
        "location_denied": Message("Your browser did not allow Fieldbook to use your location. Allow it in the browser's site settings and try again."),
        "location_failed": Message("Your location could not be found ({reason}). Try again outdoors or with Wi-Fi on."),
    ].merging(ActivityStatus.allCases.map { ("status_" + $0.rawValue, Message(domainText: $0.label)) }) { first, _ in first })

    /// The homes layer's texts, given only to a page that shows it.
    static let homesTexts = ScriptTexts([
        "homes_layer": Message("Where participants live"),
        "residents": Message("{count} participant lives at {name}", plural: "{count} participants live at {name}", count: 0),
    ])

    /// The map centred on a venue, its popup open.
    static func centred(on venue: UUID) -> String {
        Paths.map() + "?" + QueryString.encode(Parameters([(name: focusVenue, value: venue.lowercasedString)]))
    }

    static let focusVenue = "focus_venue"
    static let focusArea = "focus_area"

    /// What the venue form's pin map needs: the tiles and their attribution.
    static func pinMapView(_ tiles: TileLibrary?) -> TemplateView {
        ["map_tiles_url": Paths.tileTemplate, "map_tile_coverage": tileCoverage(tiles), "map_attribution": attribution(tiles)]
    }

    /// Where and to which zoom each installed file has detail, in the order the server asks them for a tile (first
    /// answers first): map.js draws one layer per file, overzooming each at most two levels past its deepest zoom, so
    /// the map is blank (and says so) where no file has detail rather than showing blurred tiles.
    static func tileCoverage(_ tiles: TileLibrary?) -> String {
        let sets = (tiles?.tileSets ?? []).map { set in
            TileCoverage(minZoom: set.minZoom, maxZoom: set.maxZoom,
                         bounds: [set.bounds.south, set.bounds.west, set.bounds.north, set.bounds.east])
        }
        return String(decoding: (try? JSONEncoder.sortingKeys.encode(sets)) ?? Data("[]".utf8), as: UTF8.self)
    }

    /// One file's zooms and its bounds as Leaflet takes them: south, west, north, east.
    private struct TileCoverage: Encodable {
        let minZoom: Int
        let maxZoom: Int
        let bounds: [Double]
    }

    private static func attribution(_ tiles: TileLibrary?) -> String {
        let texts = tiles?.attributions ?? []
        return texts.isEmpty ? MapSettings.openStreetMapAttribution : texts.joined(separator: "; ")
    }

    /// "12 Mar 2025 – 30 Jun 2025" or "since 12 Mar 2025, ongoing", as activity pages say it.
    private static func dates(_ activity: MapActivity) -> Message {
        let start = CalendarDate(activity.startDate)?.display ?? activity.startDate
        guard let end = activity.endDate else { return Message("since {start}, ongoing", ["start": .text(start)]) }
        return .verbatim("\(start) – \(CalendarDate(end)?.display ?? end)")
    }

    static func venueView(_ venue: MapVenue, mode: MapData.SymbolMode, symbols: [MapSymbol]) -> TemplateView {
        let key = mode == .type ? MapLegend.typeKey(venue) : MapLegend.statusKey(venue)
        let symbol = symbols.first { $0.key == key } ?? MapLegend.noActivities
        return [
            "id": venue.id, "name": venue.name, "address": venue.address, "area": venue.areaName,
            "path": MapData.venuePath(venue.id), "symbol_label": MapSymbolView.label(symbol), "symbol_svg": MapSymbolView.svg(symbol),
            "latitude": venue.latitude, "longitude": venue.longitude,
            "has_activities": !venue.activities.isEmpty,
            "activities": venue.activities.map { activity -> TemplateView in
                ["name": activity.name, "path": MapData.activityPath(activity.id), "type": activity.typeName,
                 "status": Message(domainText: activity.status.label),
                 "dates": dates(activity)]
            },
        ]
    }
}

/// The stylesheets and scripts of pages with a map: Leaflet and its clustering plug-in from Debian, then Fieldbook's own.
enum MapAssets {
    static let page = ["leaflet/leaflet.css", "leaflet/MarkerCluster.css", "leaflet/MarkerCluster.Default.css", "css/map.css",
                       "leaflet/leaflet.min.js", "leaflet/leaflet.markercluster.min.js", "js/map.js"]
    static let pinPicker = ["leaflet/leaflet.css", "css/map.css", "leaflet/leaflet.min.js", "js/map.js"]
}

/// Draws a map symbol as inline SVG: the legend, the list and (copied by map.js) the markers use the same drawing.
enum MapSymbolView {
    static func legendEntry(_ symbol: MapSymbol) -> TemplateView {
        ["key": symbol.key, "label": label(symbol), "svg": svg(symbol), "shape": symbol.shape, "text": symbol.text]
    }

    /// The symbol's name: an activity type's own name as it is; a status and the two shared symbols translated.
    static func label(_ symbol: MapSymbol) -> Message {
        switch symbol.key {
        case MapLegend.several.key: Message("Several", context: "a map symbol: activities of more than one kind")
        case MapLegend.noActivities.key: Message("No activities")
        default: ActivityStatus(rawValue: symbol.key).map { Message(domainText: $0.label) } ?? .verbatim(symbol.label)
        }
    }

    static func svg(_ symbol: MapSymbol) -> String {
        let text = symbol.text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
        return "<svg class=\"map-symbol map-symbol--c\(symbol.colour)\" viewBox=\"0 0 24 24\" width=\"28\" height=\"28\" aria-hidden=\"true\" focusable=\"false\">"
            + shape(symbol.shape) + "<text x=\"12\" y=\"16\" text-anchor=\"middle\">\(text)</text></svg>"
    }

    private static func shape(_ name: String) -> String {
        switch name {
        case "square": "<rect class=\"map-symbol__shape\" x=\"2\" y=\"2\" width=\"20\" height=\"20\"/>"
        case "triangle": "<polygon class=\"map-symbol__shape\" points=\"12,1 23,22 1,22\"/>"
        case "diamond": "<polygon class=\"map-symbol__shape\" points=\"12,0 24,12 12,24 0,12\"/>"
        case "pentagon": "<polygon class=\"map-symbol__shape\" points=\"12,1 23,9 19,23 5,23 1,9\"/>"
        case "star": "<polygon class=\"map-symbol__shape\" points=\"12,0 15,8 24,8 17,14 20,23 12,18 4,23 7,14 0,8 9,8\"/>"
        case "hexagon": "<polygon class=\"map-symbol__shape\" points=\"6,1 18,1 24,12 18,23 6,23 0,12\"/>"
        case "ring": "<circle class=\"map-symbol__shape map-symbol__shape--ring\" cx=\"12\" cy=\"12\" r=\"10\"/>"
        default: "<circle class=\"map-symbol__shape\" cx=\"12\" cy=\"12\" r=\"11\"/>"
        }
    }
}
