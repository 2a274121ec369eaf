@testable import Domain
import Foundation
import Records
import Testing

/// A kind's Input is made from texts by column, however they came: a form's fields, an API body, or a stored record
/// written out as its edit form first shows it.
@Suite struct FieldTextsTests {
    static let venueId = UUID()

    static let participant = Participant(id: UUID(), name: "Ann Wairimu", email: "ann@example.org", phone: "+254 700 000000", notes: nil,
                                         homeVenueId: venueId, version: 3, createdAt: .unreadable, updatedAt: .unreadable)

    @Test func aStoredRecordIsTheInputItsEditFormStartsFrom() {
        let input = ParticipantInput(FieldTexts(Participant.declaration, record: Self.participant))
        #expect(input == ParticipantInput(name: "Ann Wairimu", email: "ann@example.org", phone: "+254 700 000000", notes: "",
                                          homeVenueId: Self.venueId.lowercaseText))
    }

    @Test func typedTextsAreFoundByTheirFieldsColumns() {
        let typed = ["name": " Ann ", "email": "ANN@example.org", "phone": "", "notes": "Met at the fair", "home_venue_id": "not an id"]
        let input = ParticipantInput(FieldTexts(Participant.declaration) { typed[$0] ?? "" }, movedOn: "2025-03-12")
        #expect(input == ParticipantInput(name: " Ann ", email: "ANN@example.org", notes: "Met at the fair", homeVenueId: "not an id",
                                          movedOn: "2025-03-12"))
    }

    /// Each kind's Input names fields the declaration has (an undeclared one stops the program).
    @Test func everyKindsInputIsMadeFromItsDeclaredFields() {
        let area = GeographicArea(id: UUID(), name: "Kibera", areaType: .community, parentId: nil, version: 1, createdAt: .unreadable,
                                  updatedAt: .unreadable)
        #expect(AreaInput(FieldTexts(GeographicArea.declaration, record: area)) == AreaInput(name: "Kibera", areaType: "COMMUNITY", parentId: ""))
        let venue = Venue(id: UUID(), name: "Hall", address: "1 Road", areaId: area.id, latitude: 51.5072, longitude: nil, venueType: .publicBuilding,
                          version: 1, createdAt: .unreadable, updatedAt: .unreadable)
        #expect(VenueInput(FieldTexts(Venue.declaration, record: venue)) == VenueInput(
            name: "Hall", address: "1 Road", areaId: area.id.lowercaseText, latitude: "51.5072", longitude: "", venueType: VenueType.publicBuilding.rawValue))
        let activity = Activity(id: UUID(), name: "Circle", description: nil, typeId: area.id, startDate: CalendarDate("2025-01-02")!, endDate: nil,
                                status: .active, version: 1, createdAt: .unreadable, updatedAt: .unreadable)
        #expect(ActivityInput(FieldTexts(Activity.declaration, record: activity), duration: "ongoing", venueIds: []) == ActivityInput(
            name: "Circle", typeId: area.id.lowercaseText, startDate: "2025-01-02", duration: "ongoing", status: "ACTIVE"))
        let list = VisitList(id: UUID(), name: "Riverside", visitDate: CalendarDate("2025-03-12")!, purpose: "", script: "", assigneeId: area.id,
                             status: .planned, version: 1, createdAt: .unreadable, updatedAt: .unreadable)
        #expect(VisitListInput(FieldTexts(VisitList.declaration, record: list)) == VisitListInput(
            name: "Riverside", visitDate: "2025-03-12", assigneeId: area.id.lowercaseText, status: VisitStatus.planned.rawValue))
    }
}
