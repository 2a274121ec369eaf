import Domain
import Foundation
import HTTPServer
import Storage

/// A visit list kept on a phone: what the page's script stores to walk the list away from the network, and
/// the service worker that answers from that store when the network is gone.
enum OfflinePages {
    /// The scripts the worker is made of, and the files every kept page loads; the cache's name changes with any of them.
    static let workerParts = ["js/offline-store.js", "js/offline-worker.js"]
    /// The scripts every page loads for the phone (the store first, which the others use).
    static let pageScripts = ["js/offline-store.js", "js/kept-visits.js", "js/offline.js"]
    static let pageAssets = ["css/app.css", "js/app.js"] + pageScripts + ["favicon.svg"]
    /// Enough tiles to find the streets of a list's area, few enough for a phone to keep.
    static let tileLimit = 300
    static let deepestZoom = 18

    struct KeptList: Encodable {
        struct Stop: Encodable {
            let id, name, path: String
            /// Visited when the list was taken: the next stop away from the network skips it.
            let visited: Bool
        }

        let id, name: String
        /// The Cache Storage the pages and tiles go in: this build's, which its worker keeps.
        let cache: String
        /// Where a phone goes when every stop is logged.
        let walk: String
        /// In the walk page's order, which the next stop follows away from the network.
        let stops: [Stop]
        /// The results a visit may have, `value` (as the form sends it) and `label`.
        let results: [[String: String]]
        /// Addresses to keep: My visits, the walk page, each stop's page and the files they load.
        let pages: [String]
        let tiles: [String]
    }

    /// The list's stops in the walk page's order, the pages to log them and the map tiles around them. Taken by someone
    /// who may log on it, a planned list's walk starts here: the phone may keep visits from now on, so its stops stay.
    /// A phone takes its lists again with this same request (its service worker has no form token to send).
    static func visitList(_ context: inout PageContext) throws -> Response {
        let sheet = try context.database.visitSheet(id: try context.request.uuidParameter(), seen: try context.participantVisibility)
        if sheet.list.status == .planned, VisitWalkPages.mayLog(try context.signedInUser, on: sheet.list) {
            try context.database.startWalk(ofList: sheet.list.id, by: context.actor)
        }
        let plan = try WalkPlan(context.request, sheet: sheet, database: context.database)
        let stops = plan.ordered.map { line in
            KeptList.Stop(id: line.stop.id.lowercasedString, name: line.name, path: plan.stopPath(sheet.list.id, line.stop.id),
                          visited: line.isVisited)
        }
        let walk = plan.walkPath(sheet.list.id)
        let pages = [Paths.myVisits(), walk] + stops.map(\.path) + pageAssets.map(context.web.staticFiles.url(for:))
        let tiles = context.web.tiles.map { tilePaths(around: sheet.stops.compactMap(\.coordinate), in: $0) } ?? []
        let kept = KeptList(id: sheet.list.id.lowercasedString, name: sheet.list.name, cache: cacheName(context.web), walk: walk,
                            stops: stops, results: VisitWalkPages.resultChoices(context.translator),
                            pages: pages, tiles: tiles)
        var response = Response.json(try JSONEncoder.sortingKeys.encode(kept))
        response.setHeader("Cache-Control", "no-store")
        return response
    }

    /// The worker script with the name of this build's cache: a new build is a new script, which the browser installs
    /// in place of the old one, and the new worker drops the old cache.
    static func worker(_ context: inout PageContext) throws -> Response {
        let parts = workerParts.compactMap(context.web.staticFiles.contents(of:))
        guard parts.count == workerParts.count else { throw HTTPError.notFound(context.request.path) }
        let head = "const CACHE_NAME = \"\(cacheName(context.web))\";\n"
        return Response(status: .ok, headers: [("Content-Type", "text/javascript; charset=utf-8"), ("Cache-Control", "no-cache")],
                        body: Array(head.utf8) + parts.joined(separator: Array("\n".utf8)))
    }

    static func cacheName(_ web: WebUI) -> String {
        let fingerprints = Set(workerParts + pageAssets).sorted().compactMap(web.staticFiles.fingerprint(of:))
        return "fieldbook-\(web.configuration.version)-" + fingerprints.joined(separator: "-")
    }

    /// The tiles the library holds over the stops' box (a street or two around it), from the world down, until the next
    /// zoom would pass `tileLimit`.
    static func tilePaths(around points: [Coordinate], in library: TileLibrary) -> [String] {
        guard let first = points.first else { return [] }
        let margin = 0.003
        var (south, west, north, east) = (first.latitude, first.longitude, first.latitude, first.longitude)
        for point in points {
            (south, north) = (min(south, point.latitude), max(north, point.latitude))
            (west, east) = (min(west, point.longitude), max(east, point.longitude))
        }
        let (northWest, southEast) = (Coordinate(latitude: min(north + margin, 85), longitude: max(west - margin, -180)),
                                      Coordinate(latitude: max(south - margin, -85), longitude: min(east + margin, 180)))
        var paths: [String] = []
        for z in 0...deepestZoom {
            let (low, high) = (TileCoordinates.tile(containing: northWest, z: z), TileCoordinates.tile(containing: southEast, z: z))
            guard paths.count + (high.x - low.x + 1) * (high.y - low.y + 1) <= tileLimit else { break }
            for x in low.x...high.x {
                for y in low.y...high.y where library.covers(z: z, x: x, y: y) {
                    paths.append(Paths.tileTemplate.replacingOccurrences(of: "{z}", with: "\(z)")
                        .replacingOccurrences(of: "{x}", with: "\(x)").replacingOccurrences(of: "{y}", with: "\(y)"))
                }
            }
        }
        return paths
    }
}
