import Domain
import Foundation
import Translations

/// A dated free-text note, about one participant, venue or activity or about none: a kind declared here alone, whose
/// storage, sync and pages derive from this declaration.
public struct Note: DeclaredKind, Equatable {
    public let id: UUID
    public var notedOn: CalendarDate
    public var text: String
    public var participantId: UUID?
    public var venueId: UUID?
    public var activityId: UUID?
    public var version: Int
    public var createdAt: Date
    public var updatedAt: Date

    public var name: String { "Note of \(notedOn.display)" }

    public static let maxTextLength = 4000

    public static let declaration = RecordDeclaration<Note>([
        RecordField(\.notedOn, "noted_on", .day, label: Message("Date"),
                    rule: .date(DateRule(missing: Message("Enter the day the note is about"), invalid: Message("Enter the date as a real day, like 2025-03-12"))), .listed),
        RecordField(\.text, "text", .text, label: Message("Note"),
                    rule: .text(TextRule(label: Message("Note"), maxLength: maxTextLength, missing: Message("Write the note"))), privacy: .notes, [.searched, .listed]),
        RecordField(\.participantId, "participant_id", .optionalID, label: Message("Participant"),
                    rule: .id(IDRule(required: false, message: Message("Choose the participant again from their page"))), references: ("participant", .setNull),
                    ifMissing: Message("The chosen participant no longer exists; choose another")),
        RecordField(\.venueId, "venue_id", .optionalID, label: Message("Venue"),
                    rule: .id(IDRule(required: false, message: Message("Choose the venue again from its page"))), references: ("venue", .setNull),
                    ifMissing: Message("The chosen venue no longer exists; choose another")),
        RecordField(\.activityId, "activity_id", .optionalID, label: Message("Activity"),
                    rule: .id(IDRule(required: false, message: Message("Choose the activity again from its page"))), references: ("activity", .setNull),
                    ifMissing: Message("The chosen activity no longer exists; choose another")),
    ] + RecordField<Note>.timestamps(created: \.createdAt, updated: \.updatedAt)) { id, version in
        Note(id: id, notedOn: .unreadable, text: "", participantId: nil, venueId: nil, activityId: nil, version: version,
             createdAt: .unreadable, updatedAt: .unreadable)
    }

    public static let kind = RecordKind(entity: "note", table: "notes", declaration, label: ("note", "notes"))
}
