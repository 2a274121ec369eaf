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
        let database = context.database
        return try Download.response(filename: name, format: format, failed: { error in
            logger.error("export of \(name) failed", metadata: ["error": "\(String(reflecting: error))"])
        }) { write in try export(database, format, write) }
    }
}
