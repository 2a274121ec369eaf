import Domain
import GRDB
import Records

/// How many records of one kind exist, for the home page.
public struct RecordCount: Sendable {
    /// The kind's entity name ("venue").
    public let entity: String
    public let label: String
    public let count: Int
}

extension AppDatabase {
    /// The kinds the home page counts, in the order it shows them.
    static let countedKinds: [RecordKind] = [
        Activity.kind, Participant.kind, Venue.kind, GeographicArea.kind, Category.kind(.activityType), Category.kind(.participantRole),
        VisitList.kind, Note.kind,
    ]

    public func recordCounts() throws -> [RecordCount] {
        try read { db in
            try Self.countedKinds.map { kind in
                RecordCount(entity: kind.entity, label: kind.label.many.capitalizedFirst, count: try RowCounts.count(db, table: kind.table))
            }
        }
    }
}
