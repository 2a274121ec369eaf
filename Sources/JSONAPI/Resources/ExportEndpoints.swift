import Domain
import Foundation
import HTTPServer
import Logging
import Storage
import Surface

/// Lists downloaded whole (`GET /api/v1/participants/export?format=csv`): the API's twins of the list pages' downloads,
/// with the same filters as the API's lists (read strictly) and the same columns left out for the caller.
enum ExportEndpoints {
    private static let logger = Logger(label: "fieldbook.api.export")

    static let everythingDoc = archiveDoc("exportEverything", "Every record of the community")
    static let areaDoc = archiveDoc("exportArea", "An area's records: the areas inside it, their venues, who lives or lived there, "
        + "what was held there with its assignments, and the visits made there")
    static let activityDoc = archiveDoc("exportActivity", "An activity with its venues, its assignments and the participants assigned")

    /// A ZIP of a file per kind of record, JSON or CSV.
    private static func archiveDoc(_ id: String, _ what: String) -> APIOperation {
        APIOperation(id: id, summary: what + " as one ZIP archive: a file per kind of record, named after its table, and "
                        + "fieldbook-export.json saying what each holds. One moment's records, written while it downloads; user "
                        + "accounts and notifications are not included. 503 while two downloads are being written",
                     query: [Field.of("format", .choice(ExportFormat.allCases.map(\.rawValue)), "json (default) or csv files")],
                     success: .archive("A ZIP archive (Content-Disposition: attachment)"), mayBeBusy: true)
    }

    @Sendable static func everything(_ context: APIContext) throws -> Response { try archive(context, .everything) }

    @Sendable static func area(_ context: APIContext) throws -> Response {
        try archive(context, .area(try context.existingId(context.database.area(id:))))
    }

    @Sendable static func activity(_ context: APIContext) throws -> Response {
        try archive(context, .activity(try context.existingId(context.database.activity(id:))))
    }

    private static func archive(_ context: APIContext, _ scope: ExportScope) throws -> Response {
        let format = try context.choice("format", ExportFormat.self) ?? .json
        return try Download.archive(context.database, scope, format) { error in
            logger.error("export of an archive failed", metadata: ["error": "\(String(reflecting: error))"])
        }
    }

    @Sendable static func participants(_ context: APIContext) throws -> Response {
        let (query, seen) = try ParticipantResource.visibleQuery(context)
        return try download(context, "participants") { try $0.exportParticipants(query, seen: seen, as: $1, into: $2) }
    }

    @Sendable static func venues(_ context: APIContext) throws -> Response {
        let query = try VenueQuery(reading: context)
        return try download(context, "venues") { try $0.exportVenues(query, as: $1, into: $2) }
    }

    @Sendable static func activities(_ context: APIContext) throws -> Response {
        let query = try ActivityQuery(reading: context)
        return try download(context, "activities") { try $0.exportActivities(query, as: $1, into: $2) }
    }

    private static func download(_ context: APIContext, _ name: String,
                                 _ export: @escaping @Sendable (AppDatabase, ExportFormat, ([UInt8]) -> Bool) throws -> Int) throws -> Response {
        let format = try context.choice("format", ExportFormat.self) ?? .json
        let database = try context.database
        return try Download.list(name, format, failed: { error in
            logger.error("export of \(name) failed", metadata: ["error": "\(String(reflecting: error))"])
        }) { write in try export(database, format, write) }
    }
}
