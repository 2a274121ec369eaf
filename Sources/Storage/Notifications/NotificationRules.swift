import Domain
import Foundation
import Records
import GRDB

/// Something that happened which a notification rule may tell people about. Record changes come from the change
/// feed's durable side (`record_history`, changes made here only: a change pushed from a node was told about there);
/// the others come from what sync did (`sync_notices`) or from the sync engine's state.
public enum NotifiableEvent: Sendable, Equatable {
    /// A record change made here: `fields` are an edit's changed fields; `deleted` a deleted record's last values.
    case recordChanged(RecordChange, fields: [String], deleted: [String: JSONValue])
    case conflictLost(conflictId: UUID, entity: String, entityId: UUID, author: String)
    case operationsSetAside(count: Int, author: String)
    case nodeLinked(userId: UUID, address: String)
    case hubUnreachable(since: Date, pending: Int)
}

/// The hub has not been reached since `since` while `pending` changes wait (the sync engine's view).
public struct HubOutage: Sendable, Equatable {
    public let since: Date
    public let pending: Int

    public init(since: Date, pending: Int) {
        self.since = since
        self.pending = pending
    }

    /// How long the hub may be out of reach with changes waiting before administrators are told.
    public static let threshold: TimeInterval = 3600
}

/// The rules: each event gives at most one notification per person, to the people it concerns, never to the person
/// who caused it, never to a disabled account, and never of a kind the person turned off.
enum NotificationRules {
    static func notifications(for event: NotifiableEvent, _ db: Database, at moment: Date) throws -> [FieldbookNotification] {
        let drafts: [NotificationDraft]
        var author: String?
        switch event {
        case .recordChanged(let change, let fields, let deleted):
            author = change.author
            drafts = try recordRules(change, fields: fields, deleted: deleted, db)
        case .conflictLost(let conflictId, let entity, let entityId, let owner):
            let name = try recordName(db, entity: entity, id: entityId).map { " “\($0)”" } ?? ""
            let noun = RecordKind.named(entity)?.label.one ?? entity.replacingOccurrences(of: "_", with: " ")
            drafts = UUID(uuidString: owner).map { [NotificationDraft(
                recipients: [$0], kind: .conflictLost,
                text: "Your change to the \(noun)\(name) lost a conflict: it was changed elsewhere first. Review it to apply yours again or keep theirs.",
                subject: NotificationSubject(entity: "sync_conflict", id: conflictId))] } ?? []
        case .operationsSetAside(let count, let owner):
            let changes = count == 1 ? "1 change of yours" : "\(count) changes of yours"
            drafts = UUID(uuidString: owner).map { [NotificationDraft(
                recipients: [$0], kind: .operationsSetAside,
                text: "The hub refused \(changes); set aside on the Sync page, where you can retry or discard them.", subject: .syncPage)] } ?? []
        case .nodeLinked(let userId, let address):
            let account = try String.fetchOne(db, sql: "SELECT email FROM users WHERE id = ?", arguments: [userId.databaseText])
            drafts = [.nodeLinked(account: account, address: address, administrators: try administrators(db))]
        case .hubUnreachable(let since, let pending):
            let changes = pending == 1 ? "1 change is" : "\(pending) changes are"
            drafts = [NotificationDraft(recipients: try administrators(db), kind: .hubUnreachable,
                                        text: "The hub has not been reached since \(since.storedText.prefix(16).replacingOccurrences(of: "T", with: " ")) UTC; \(changes) waiting to be sent.",
                                        subject: .syncPage)]
        }
        return try deliverable(drafts, excluding: author, db, at: moment)
    }

    private static func recordRules(_ change: RecordChange, fields: [String], deleted: [String: JSONValue], _ db: Database) throws -> [NotificationDraft] {
        switch (change.kind, change.operation) {
        case ("visit_list", .create), ("visit_list", .update) where fields.contains("assigned_user_id"):
            guard let list = try VisitList.fetchOne(db, key: change.id.databaseText) else { return [] }
            return [NotificationDraft(recipients: [list.assigneeId], kind: .visitListAssigned,
                                      text: "The visit list “\(list.name)” for \(list.visitDate) was assigned to you.",
                                      subject: NotificationSubject(entity: "visit_list", id: list.id))]
        case ("assignment", .create):
            guard let row = try Row.fetchOne(db, sql: """
                SELECT s.participant_id, s.activity_id, a.name AS activity, r.name AS role FROM assignments s
                JOIN activities a ON a.id = s.activity_id JOIN participant_roles r ON r.id = s.role_id WHERE s.id = ?
                """, arguments: [change.id.databaseText]) else { return [] }
            return [NotificationDraft(recipients: try users(ofParticipant: row["participant_id"], db), kind: .assignedToActivity,
                                      text: "You were assigned to the activity “\(row["activity"] as String)” as \(row["role"] as String).",
                                      subject: NotificationSubject(entity: "activity", id: row.uuid("activity_id")))]
        case ("assignment", .delete):
            let participant = deleted.text("participant_id"), activity = deleted.text("activity_id")
            guard let name = try String.fetchOne(db, sql: "SELECT name FROM activities WHERE id = ?", arguments: [activity]) else { return [] }
            return [NotificationDraft(recipients: try users(ofParticipant: participant, db), kind: .removedFromActivity,
                                      text: "You were removed from the activity “\(name)”.", subject: NotificationSubject(entity: "activity", id: UUID(uuidString: activity)))]
        case ("activity", .update):
            return try activityChange(change.id, fields: Set(fields), db).map { [$0] } ?? []
        case ("activity_venue", .create):
            guard let row = try Row.fetchOne(db, sql: """
                SELECT h.activity_id, v.name AS venue FROM activity_venue_history h JOIN venues v ON v.id = h.venue_id
                WHERE h.id = ? AND h.effective_to IS NULL
                """, arguments: [change.id.databaseText]),
                let activity = try Activity.fetchOne(db, key: row["activity_id"] as String) else { return [] }
            return [NotificationDraft(recipients: try users(ofActivity: activity.id, db), kind: .activityChanged,
                                      text: "The activity “\(activity.name)” moved to \(row["venue"] as String).",
                                      subject: NotificationSubject(entity: "activity", id: activity.id))]
        case ("user", .update) where fields.contains("is_disabled"):
            guard let user = try UserRow.fetchOne(db, key: change.id.databaseText)?.user, user.isDisabled else { return [] }
            return [NotificationDraft(recipients: try administrators(db).filter { $0 != user.id }, kind: .userDisabled,
                                      text: "The account of \(user.name) (\(user.email)) was disabled.", subject: NotificationSubject(entity: "user", id: user.id))]
        default:
            return []
        }
    }

    /// A change of an activity's status or dates, told to the people assigned to it.
    private static func activityChange(_ id: UUID, fields: Set<String>, _ db: Database) throws -> NotificationDraft? {
        guard !fields.isDisjoint(with: ["status", "start_date", "end_date"]),
              let activity = try Activity.fetchOne(db, key: id.databaseText) else { return nil }
        let subject = NotificationSubject(entity: "activity", id: activity.id)
        let recipients = try users(ofActivity: activity.id, db)
        if fields.contains("status"), activity.status == .cancelled {
            return NotificationDraft(recipients: recipients, kind: .activityCancelled, text: "The activity “\(activity.name)” was cancelled.", subject: subject)
        }
        var parts: [String] = []
        if fields.contains("status") { parts.append("its status is now \(activity.status.label)") }
        if !fields.isDisjoint(with: ["start_date", "end_date"]) {
            parts.append("it now runs " + (activity.endDate.map { "from \(activity.startDate) to \($0)" } ?? "from \(activity.startDate), with no end date"))
        }
        return NotificationDraft(recipients: recipients, kind: .activityChanged,
                                 text: "The activity “\(activity.name)” changed: \(parts.joined(separator: "; ")).", subject: subject)
    }

    /// The accounts of a participant: a person is a participant whose email address is their account's.
    private static func users(ofParticipant participantId: String, _ db: Database) throws -> [UUID] {
        try String.fetchAll(db, sql: """
            SELECT u.id FROM participants p JOIN users u ON u.email = p.email COLLATE NOCASE WHERE p.id = ? AND p.email <> ''
            """, arguments: [participantId]).compactMap(UUID.init(uuidString:))
    }

    private static func users(ofActivity activityId: UUID, _ db: Database) throws -> [UUID] {
        try String.fetchAll(db, sql: """
            SELECT DISTINCT u.id FROM assignments s JOIN participants p ON p.id = s.participant_id
            JOIN users u ON u.email = p.email COLLATE NOCASE WHERE s.activity_id = ? AND p.email <> ''
            """, arguments: [activityId.databaseText]).compactMap(UUID.init(uuidString:))
    }

    private static func administrators(_ db: Database) throws -> [UUID] {
        try String.fetchAll(db, sql: "SELECT id FROM users WHERE role = ? ORDER BY id", arguments: [UserRole.administrator.rawValue])
            .compactMap(UUID.init(uuidString:))
    }

    private static func recordName(_ db: Database, entity: String, id: UUID) throws -> String? {
        guard let kind = RecordKind.named(entity) else { return nil }
        let state = try RecordStates.read(db, kind, id: id)
        let name = state.fields.text("name")
        return name.isEmpty ? nil : name
    }

    /// One notification per remaining person: not the author, not disabled, not of a kind they turned off, and of an
    /// administrators' kind only for administrators.
    private static func deliverable(_ drafts: [NotificationDraft], excluding author: String?, _ db: Database, at moment: Date) throws -> [FieldbookNotification] {
        var made: [FieldbookNotification] = []
        for draft in drafts {
            var seen = Set<UUID>()
            for recipient in draft.recipients where seen.insert(recipient).inserted && recipient.databaseText != author {
                guard let user = try UserRow.fetchOne(db, key: recipient.databaseText)?.user,
                      draft.kind.isReceived(by: user, preferences: try NotificationPreferences.fetchOne(db, key: recipient.databaseText))
                else { continue }
                made.append(draft.notification(for: recipient, at: moment))
            }
        }
        return made
    }
}
