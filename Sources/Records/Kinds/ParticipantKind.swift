import Domain
import Foundation
import Translations

extension Participant {
    public static let declaration = RecordDeclaration<Participant>([
        RecordField(\.name, "name", .text, label: Message("Name"), rule: .text(ParticipantInput.Rules.name), [.searched, .listed]),
        RecordField(\.email, "email", .text, label: Message("Email"), rule: .text(ParticipantInput.Rules.email), privacy: .contacts,
                    [.searched, .listed]),
        RecordField(\.phone, "phone", .optionalText, label: Message("Phone"), rule: .text(ParticipantInput.Rules.phone), privacy: .contacts),
        RecordField(\.notes, "notes", .optionalText, label: Message("Notes"), rule: .text(ParticipantInput.Rules.notes), privacy: .notes),
        RecordField(\.homeVenueId, "home_venue_id", .optionalID, label: Message("Home venue"), rule: .id(ParticipantInput.Rules.homeVenueId),
                    references: ("venue", .restrict), ifMissing: Venue.missing, privacy: .homes),
    ] + RecordField<Participant>.timestamps(created: \.createdAt, updated: \.updatedAt)) { id, version in
        Participant.blank(id: id, version: version)
    }

    public static let kind = RecordKind(entity: "participant", table: "participants", declaration,
                                        label: ("participant", "participants"))
}

extension ParticipantInput {
    /// The input typed for a participant's fields; `movedOn` is no field of the record, only of the form and body.
    public init(_ texts: FieldTexts<Participant>, movedOn: String = "") {
        self.init(name: texts[\.name], email: texts[\.email], phone: texts[\.phone], notes: texts[\.notes],
                  homeVenueId: texts[\.homeVenueId], movedOn: movedOn)
    }
}
