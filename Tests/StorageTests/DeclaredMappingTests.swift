import Domain
import Foundation
import Records
@testable import Storage
import Testing

/// What exports, imports and the privacy setting read from the kinds' declarations: which columns a viewer may not see,
/// which import field a declared column is read from, and the column a field is stored in.
@Suite struct DeclaredMappingTests {
    /// Each part of the privacy setting hides exactly its participant fields, and a participant's address periods are
    /// all about where they live.
    @Test func eachPrivacySettingHidesItsDeclaredColumns() {
        for contacts in [false, true] {
            for notes in [false, true] {
                for homes in [false, true] {
                    let seen = ParticipantVisibility(contacts: contacts, notes: notes, homes: homes)
                    let expected = Set((contacts ? [] : ["email", "phone"]) + (notes ? [] : ["notes"]) + (homes ? [] : ["home_venue_id"]))
                    #expect(seen.hiddenColumns(of: Participant.kind) == expected)
                    let addressColumns = Set(PeriodRow.addressKind.fields.map(\.column))
                    #expect(seen.hiddenColumns(of: PeriodRow.addressKind) == (homes ? [] : addressColumns))
                    #expect(seen.hiddenColumns(of: PeriodRow.activityVenueKind).isEmpty)
                    #expect(seen.hiddenColumns(of: Venue.kind).isEmpty)
                }
            }
        }
    }

    @Test func aFieldsColumnIsTheOneItsKindDeclares() {
        #expect(Participant.declaration.column(\.homeVenueId) == "home_venue_id")
        #expect(Venue.declaration.column(\.areaId) == "geographic_area_id")
        #expect(Activity.declaration.column(\.startDate) == "start_date")
    }

    /// A form's problem with a column is shown under the file's field: its own name, or for a reference, the field that
    /// names the record.
    @Test func eachDeclaredColumnIsReadFromItsImportField() {
        #expect(ImportTarget.participants.fieldsByColumn == [
            "name": .name, "email": .email, "phone": .phone, "notes": .notes, "home_venue_id": .homeVenue,
        ])
        #expect(ImportTarget.venues.fieldsByColumn == [
            "name": .name, "address": .address, "geographic_area_id": .area, "latitude": .latitude, "longitude": .longitude,
            "venue_type": .venueType,
        ])
        #expect(ImportTarget.activities.fieldsByColumn == [
            "name": .name, "description": .description, "activity_type_id": .activityType, "start_date": .startDate,
            "end_date": .endDate, "status": .status,
        ])
    }

    /// A Fieldbook export's header row is taken back by an import: each exported column to the field it is read from
    /// (the id as the Fieldbook id), the timestamps left out.
    @Test func anExportsHeadersAreReadBackAsTheirDeclaredFields() {
        for target in ImportTarget.allCases {
            let headers = target.kind.exportColumns
            let expected = headers.map { $0 == "id" ? ImportField.id : target.fieldsByColumn[$0] }
            #expect(ImportMapping.guessed(from: headers, for: target).fields == expected, "\(target)")
        }
    }
}
