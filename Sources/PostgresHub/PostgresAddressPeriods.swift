import Domain
import Foundation
import Records
import Hub

/// After a push, as the SQLite hub does (`AppDatabase.applyPush`): the participants the push touched get their open
/// address periods made to agree with their home again (`AddressPeriodReconciliation`), in the same transaction.
extension PostgresHubRecords {
    static let participantKind = RecordKind.named("participant")!
    static let addressKind = RecordKind.named("participant_address")!

    /// Answers whether it changed anything.
    func reconcileAddressPeriods(touchedBy operations: [SyncOperation]) throws -> Bool {
        var participants = Set<UUID>()
        for operation in operations {
            if operation.entity == Self.participantKind.entity { participants.insert(operation.entityId) }
            if let survivor = operation.mergeSurvivor { participants.insert(survivor) }
            if operation.entity == Self.addressKind.entity,
               let owner = try liveFields(of: Self.addressKind, id: operation.entityId).flatMap({ UUID(uuidString: $0.text("participant_id")) }) {
                participants.insert(owner)
            }
        }
        var changed = false
        try flush()  // the open periods are read from the database, this push's included
        let openByParticipant = try openAddressPeriods(of: participants)
        for participant in participants.sorted(by: { $0.uuidString < $1.uuidString }) {
            guard let person = try liveFields(of: Self.participantKind, id: participant) else { continue }
            let open = openByParticipant[participant] ?? []
            let byId = Dictionary(uniqueKeysWithValues: open.map { ($0.entityId, $0) })
            let periods = open.compactMap(Self.openPeriod)
            for step in AddressPeriodReconciliation.steps(open: periods, home: UUID(uuidString: person.text("home_venue_id"))) {
                switch step {
                case .close(let id, let date):
                    try write(byId[id]!.edited(["effective_to": .string(date.description)], Self.addressKind), Self.addressKind)
                case .remove(let id):
                    try remove(Self.addressKind, id)
                }
                changed = true
            }
        }
        return changed
    }

    private static func openPeriod(_ state: RecordState) -> AddressPeriodReconciliation.OpenPeriod? {
        guard let venue = UUID(uuidString: state.fields.text("venue_id")), let from = CalendarDate(state.fields.text("effective_from"))
        else { return nil }
        return AddressPeriodReconciliation.OpenPeriod(id: state.entityId, venueId: venue, from: from)
    }

    /// Each participant's open address periods, oldest change first: one query for the whole push.
    private func openAddressPeriods(of participants: Set<UUID>) throws -> [UUID: [RecordState]] {
        guard !participants.isEmpty else { return [:] }
        let rows = try run("""
            SELECT entity, id::text AS id, version, deleted, fields::text AS fields FROM records
            WHERE entity = $1 AND NOT deleted AND fields->>'participant_id' = ANY($2::text[]) AND fields->>'effective_to' IS NULL
            ORDER BY seq
            """, [Self.addressKind.entity, PostgresArray.literal(participants.map(\.lowercaseText))])
        let periods = try (0..<rows.count).compactMap { try rows.recordState($0) }
        return Dictionary(grouping: periods) { UUID(uuidString: $0.fields.text("participant_id")) ?? UUID() }
    }
}
