import Domain
import Foundation
import Translations

/// One stored period at a venue: where a participant lived (Property 37) or where an activity was held (Property 38).
/// Both tables have the same shape, so one row type serves both kinds.
package struct PeriodRow: Sendable {
    /// Whose periods these are.
    package enum Owner: Sendable {
        case participant, activity

        package var column: String { self == .participant ? "participant_id" : "activity_id" }
        package var kind: RecordKind { self == .participant ? PeriodRow.addressKind : PeriodRow.activityVenueKind }
        package var declaration: RecordDeclaration<PeriodRow> { self == .participant ? PeriodRow.addresses : PeriodRow.activityVenues }
    }

    package let owner: Owner
    package var id: UUID
    package var ownerId: UUID
    package var venueId: UUID
    package var effectiveFrom: CalendarDate
    package var effectiveTo: CalendarDate?
    package var version: Int

    /// A new open period.
    package init(owner: Owner, id: UUID = UUID(), ownerId: UUID, venueId: UUID, from: CalendarDate, to: CalendarDate? = nil, version: Int = 1) {
        (self.owner, self.id, self.ownerId, self.venueId, effectiveFrom, effectiveTo, self.version) = (owner, id, ownerId, venueId, from, to, version)
    }

    /// A participant's address period is all about where they live: every field of it is a home.
    private static func declaration(_ owner: Owner, ownerLabel: Message, ownerMissing: Message) -> RecordDeclaration<PeriodRow> {
        let privacy: PrivacyClass? = owner == .participant ? .homes : nil
        return RecordDeclaration([
            RecordField(\.ownerId, owner.column, .id, label: ownerLabel, references: (owner == .participant ? "participant" : "activity", .cascade),
                        ifMissing: ownerMissing, privacy: privacy),
            RecordField(\.venueId, "venue_id", .id, label: Message("Venue"), references: ("venue", .restrict),
                        ifMissing: Message("The chosen venue no longer exists; choose another"), privacy: privacy),
            RecordField(\.effectiveFrom, "effective_from", .day, label: Message("From"), privacy: privacy),
            RecordField(\.effectiveTo, "effective_to", .optionalDay, label: Message("Until"), privacy: privacy),
        ]) { id, version in
            PeriodRow(owner: owner, id: id, ownerId: .zero, venueId: .zero, from: .unreadable, version: version)
        }
    }

    private static let addresses = declaration(.participant, ownerLabel: Message("Participant"),
                                               ownerMissing: Message("The chosen participant no longer exists; choose another"))
    private static let activityVenues = declaration(.activity, ownerLabel: Message("Activity"),
                                                    ownerMissing: Message("The chosen activity no longer exists; choose another"))

    package static let addressKind = RecordKind(entity: "participant_address", table: "participant_address_history", addresses,
                                                label: ("address period", "address periods"), check: checkDates)

    package static let activityVenueKind = RecordKind(entity: "activity_venue", table: "activity_venue_history", activityVenues,
                                                      label: ("venue period", "venue periods"), check: checkDates)

    /// A period's dates are real days; it may still be open.
    private static func checkDates(_: any RecordLookup, _: UUID, _ fields: [String: JSONValue], _ errors: inout ValidationError) {
        let from = CalendarDate(fields.text("effective_from"))
        let toText = fields.text("effective_to")
        if from == nil { errors.add("effective_from", Message("Enter the date as a real day, like 2025-03-12")) }
        if !toText.isEmpty, CalendarDate(toText) == nil { errors.add("effective_to", Message("Enter the date as a real day, like 2025-03-12")) }
    }
}
