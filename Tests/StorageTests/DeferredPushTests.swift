import Domain
import Foundation
import Testing
@testable import Storage

/// A SQLite hub writes a push of creates and edits together (`DeferredHubRows`). Each answer must be the one the same
/// push gets written one record at a time, which a push with a deletion in it still is.
@Suite struct DeferredPushTests {
    /// A number sent for a text field is stored as text: the second edit of the record in the same push must see it
    /// as the table holds it, as it would one write at a time.
    @Test func aRecordEditedTwiceInOnePushIsAnsweredAsOneWriteAtATimeWouldAnswer() throws {
        let person = UUID()
        func operation(_ kind: ChangeOperation, _ id: UUID, _ fields: [String: JSONValue], before: [String: JSONValue] = [:],
                       base: Int = 0) -> SyncOperation {
            SyncOperation(operationId: UUID(), operation: kind, entity: "participant", entityId: id, fields: fields, before: before,
                          baseVersion: base, author: "system:test", createdAt: Date(timeIntervalSince1970: 1_750_000_000))
        }
        let edits = [
            operation(.create, person, ["name": .string("Numbers Person"), "email": .string("numbers@example.org"), "phone": .null, "notes": .int(12345),
                                        "home_venue_id": .null]),
            operation(.update, person, ["notes": .string("12345")], before: ["notes": .int(12345)], base: 1),
            operation(.update, person, ["phone": .string("555-0100")], before: ["phone": .null], base: 1),
        ]
        // A deletion (of a record that was never here, which changes nothing) makes the push go one write at a time.
        let oneAtATime = edits + [operation(.delete, UUID(), [:], base: 1)]
        let together = try TestDatabase(linked: false), separately = try TestDatabase(linked: false)
        let answered: [SyncResult] = try together.database.applyPush(PushRequest(nodeId: UUID(), operations: edits)).results
        let expected: [SyncResult] = try separately.database.applyPush(PushRequest(nodeId: UUID(), operations: oneAtATime)).results
        // Each hub stamps `updated_at` with its own clock.
        func compared(_ result: SyncResult) -> String {
            "\(result.outcome) v\(result.current.version) \(result.current.fields.filter { $0.key != "updated_at" }.sorted { $0.key < $1.key })"
        }
        #expect(answered.map(compared) == expected.prefix(3).map(compared))
        #expect(answered.map { (result: SyncResult) in result.current.version } == [1, 1, 2])
    }
}
