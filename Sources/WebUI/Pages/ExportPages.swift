import Domain
import Foundation
import Records
import HTTPServer
import Logging
import Storage
import Surface
import Translations

/// A record list downloaded whole, as CSV or JSON: the rows the list page shows, with its filters and order, every page
/// of it, written while it downloads (`Download`).
enum ExportPages {
    /// The download links a list page shows under its filters, keeping them.
    /// `count`: the rows in the list, nil when only an estimate is known.
    static func links(_ routes: RecordRoutes, request: Request, count: Int?, noun: (singular: String, plural: String)) -> TemplateView {
        let filters = Parameters(request.query.pairs.filter { $0.name != ListParameter.page.name })
        let query = filters.isEmpty ? "" : "?" + QueryString.encode(filters)
        return [
            "text": count == 1 ? "Download this \(noun.singular)" : "Download all \(count.map { "\($0) " } ?? "")\(noun.plural) in this list",
            "formats": ExportFormat.allCases.map { format -> TemplateView in
                ["href": Paths.export(routes, format)() + query, "label": format.label,
                 "description": format == .csv ? "for spreadsheets" : "for programs"]
            },
        ]
    }

    /// GET /export: what can be downloaded, and the link to everything at once.
    static func show(_ context: inout PageContext) throws -> Response {
        let kinds = RecordKind.all.filter(\.inFullExport).map(\.label.many)
        let lists: [(Message, RecordRoutes)] = [(Message("Participants"), Paths.participants), (Message("Venues"), Paths.venues),
                                                (Message("Activities"), Paths.activities)]
        return context.page("export", title: Message("Export"), section: nil, view: [
            "kinds_text": Message("{kinds} and {last}", context: "the last two items of a list",
                                  ["kinds": .text(kinds.dropLast().joined(separator: ", ")), "last": .text(kinds.last ?? "")]),
            "everything": archiveLinks(Paths.exportEverything()),
            "job_action": Paths.exportJobs(),
            "lists": lists.map { label, routes -> TemplateView in
                ["label": label, "csv": Paths.export(routes, .csv)(), "json": Paths.export(routes, .json)()]
            },
        ])
    }

    /// An archive of a scope's records (`?format=csv` for CSV files instead of JSON): everything, an area, an activity.
    static func archive(_ scope: @escaping @Sendable (Request) throws -> ExportScope) -> PageHandler {
        { context in
            let format = context.request.query["format"].flatMap(ExportFormat.init(rawValue:)) ?? .json
            let logger = context.web.logger
            return try Download.archive(context.database, try scope(context.request), format) { error in
                logger.error("export of an archive failed", metadata: ["error": "\(String(reflecting: error))"])
            }
        }
    }

    /// The links to a scope's archive, for its page.
    static func archiveLinks(_ path: String) -> TemplateView {
        ["json": path, "csv": path + "?format=csv"]
    }

    static func participants(_ format: ExportFormat) -> PageHandler {
        { context in
            let seen = try context.participantVisibility
            let query = try ParticipantPages.listQuery(context.request, seen: seen)
            return try download(context, "participants", format) { try $0.exportParticipants(query, seen: seen, as: format, into: $1) }
        }
    }

    static func venues(_ format: ExportFormat) -> PageHandler {
        { context in
            let query = try VenueQuery(reading: LenientListReader(context.request))
            return try download(context, "venues", format) { try $0.exportVenues(query, as: format, into: $1) }
        }
    }

    static func activities(_ format: ExportFormat) -> PageHandler {
        { context in
            let query = try ActivityQuery(reading: LenientListReader(context.request))
            return try download(context, "activities", format) { try $0.exportActivities(query, as: format, into: $1) }
        }
    }

    private static func download(_ context: PageContext, _ name: String, _ format: ExportFormat,
                                 _ export: @escaping @Sendable (AppDatabase, ([UInt8]) -> Bool) throws -> Int) throws -> Response {
        let (database, logger) = (context.database, context.web.logger)
        return try Download.list(name, format, failed: { error in
            logger.error("export of \(name) failed", metadata: ["error": "\(String(reflecting: error))"])
        }) { write in try export(database, write) }
    }
}
