@testable import Domain
import Foundation
@testable import JSONAPI
import Records
import Storage
import Testing

/// Record bodies, schemas and write fields derived from a kind's declared fields (`APIRecordShape`).
@Suite struct APIRecordShapeTests {
    /// A moment just short of a whole second: stored text rounds it up to the next second, the API writes it rounded down.
    static let lateInSecond = Date(timeIntervalSince1970: 1_764_322_199.9996)

    static let participant = Participant(id: UUID(uuidString: "0D2F3A10-0000-4000-8000-000000000001")!, name: "Ana", email: "ana@example.org",
                                         phone: nil, notes: "Met at the fair", homeVenueId: UUID(uuidString: "0D2F3A10-0000-4000-8000-000000000002"),
                                         version: 3, createdAt: lateInSecond, updatedAt: lateInSecond)

    func written(_ body: RecordBody) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: JSONResponse.encoder.encode(body)) as? [String: Any])
    }

    @Test func aBodyHoldsTheIdEachDeclaredFieldTheVersionAndTheEditTimesInTheAPIsShape() throws {
        let body = try written(ParticipantResource.body(Self.participant, seen: .everything))
        #expect(Set(body.keys) == Set(ParticipantResource.shape.schema.map(\.name)))
        #expect(body["id"] as? String == "0d2f3a10-0000-4000-8000-000000000001")
        #expect(body["home_venue_id"] as? String == "0d2f3a10-0000-4000-8000-000000000002")
        #expect(body["phone"] is NSNull)
        #expect(body["version"] as? Int == 3)
        #expect(body["created_at"] as? String == "2025-11-28T09:29:59Z")
    }

    @Test func whatThePrivacySettingHidesIsNull() throws {
        let seen = ParticipantVisibility(contacts: false, notes: true, homes: false)
        let body = try written(ParticipantResource.body(Self.participant, seen: seen))
        #expect(body["name"] as? String == "Ana")
        #expect(body["email"] is NSNull && body["phone"] is NSNull && body["home_venue_id"] is NSNull)
        #expect(body["notes"] as? String == "Met at the fair")
    }

    @Test func theSchemaStatesEachFieldInOrderWithExtrasWhereTheResourcePlacesThem() {
        let schema = VenueResource.shape.schema
        #expect(schema.map(\.name) == ["id", "name", "address", "geographic_area_id", "coordinates", "venue_type", "version", "created_at", "updated_at"])
        #expect(schema.filter { !$0.required }.isEmpty)
        #expect(schema.filter(\.nullable).map(\.name) == ["coordinates", "venue_type"])
    }

    @Test func writeFieldsAreTheTypedFieldsWithTheirRulesThenTheInputOnlyOnesAndTheVersion() {
        let fields = ActivityResource.shape.writeFields
        #expect(fields.map(\.name) == ["name", "description", "activity_type_id", "start_date", "end_date", "status", "venue_ids", "venues_from", "version"])
        #expect(fields.first { $0.name == "name" }?.required == true)
        #expect(fields.first { $0.name == "end_date" }?.nullable == true)
    }

    @Test func aKindShownWithoutItsVersionHasNoneAndAReferenceWithoutARuleIsAnId() {
        let schema = AssignmentResource.shape.schema
        #expect(schema.map(\.name) == ["id", "activity_id", "participant_id", "participant_name", "role_id", "role_name", "assigned_at"])
        #expect(schema.first { $0.name == "activity_id" }.map { "\($0.kind)" } == "uuid")
        #expect(AssignmentResource.writeFields.map(\.name) == ["participant_id", "role_id"])
    }
}
