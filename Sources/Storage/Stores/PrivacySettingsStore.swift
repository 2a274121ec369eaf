import Domain
import Foundation
import GRDB
import Records

/// What read-only users see of participants: their contact details, their notes, and where they live
/// (home venue, address history, who lives at a venue, the map's homes layer, people on visit lists). Editors and
/// administrators see everything: they keep the records. Off by default, because these are personal details.
/// Node-local: each Fieldbook decides for the people who use it.
public struct PrivacySettings: Sendable, Equatable {
    public var readOnlySeesContacts = false
    public var readOnlySeesNotes = false
    public var readOnlySeesHomes = false

    public init() {}

    /// What a user with `role` may see.
    public func visibility(for role: UserRole) -> ParticipantVisibility {
        guard role == .readOnly else { return .everything }
        return ParticipantVisibility(contacts: readOnlySeesContacts, notes: readOnlySeesNotes, homes: readOnlySeesHomes)
    }
}

/// The parts of a participant one viewer may see.
public struct ParticipantVisibility: Sendable, Equatable {
    public let contacts: Bool
    public let notes: Bool
    public let homes: Bool

    public static let everything = ParticipantVisibility(contacts: true, notes: true, homes: true)

    public init(contacts: Bool, notes: Bool, homes: Bool) {
        (self.contacts, self.notes, self.homes) = (contacts, notes, homes)
    }

    /// The personal details this viewer sees.
    public var seen: Set<PrivacyClass> {
        Set([contacts ? PrivacyClass.contacts : nil, notes ? .notes : nil, homes ? .homes : nil].compactMap { $0 })
    }

    /// The columns of `kind` this viewer may not see (`RecordKind.hiddenColumns`).
    public func hiddenColumns(of kind: RecordKind) -> Set<String> { kind.hiddenColumns(seeing: seen) }
}

extension AppDatabase {
    public func privacySettings() throws -> PrivacySettings {
        let stored = try settings(prefix: "privacy.")
        // Before this setting, the map settings page kept whether read-only users see the homes layer.
        let legacyHomes = try setting("map.homes_for_read_only")
        var privacy = PrivacySettings()
        privacy.readOnlySeesContacts = stored["privacy.read_only_contacts"] == "1"
        privacy.readOnlySeesNotes = stored["privacy.read_only_notes"] == "1"
        privacy.readOnlySeesHomes = (stored["privacy.read_only_homes"] ?? legacyHomes) == "1"
        return privacy
    }

    public func savePrivacySettings(_ settings: PrivacySettings) throws {
        try writeLocal { db in
            try Self.putSettings(db, [
                "privacy.read_only_contacts": settings.readOnlySeesContacts ? "1" : "0",
                "privacy.read_only_notes": settings.readOnlySeesNotes ? "1" : "0",
                "privacy.read_only_homes": settings.readOnlySeesHomes ? "1" : "0",
            ])
        }
    }
}
