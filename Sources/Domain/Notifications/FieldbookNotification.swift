import Foundation
import Translations

/// The record a notification points at: its kind on the wire ("activity", "visit_list", "sync_conflict") and id.
/// Pages and the API turn it into a link.
public struct NotificationSubject: Sendable, Equatable, Hashable {
    public var entity: String
    public var id: UUID?

    public init(entity: String, id: UUID?) {
        self.entity = entity
        self.id = id
    }

    /// The node's sync page (set-aside changes, the hub's reachability).
    public static let syncPage = NotificationSubject(entity: "sync", id: nil)
}

/// One notification addressed to one user. Notifications are synced records, so one made on the hub reaches the
/// person's own Fieldbook; read or unread is kept per notification, that is per user.
public struct FieldbookNotification: Sendable, Equatable, Identifiable {
    public var id = UUID()
    public var userId: UUID
    public var kind: NotificationKind
    /// What happened, in one sentence that names the record ("You were assigned to “Tuesday study circle”.").
    public var text: String
    public var subject: NotificationSubject
    public var createdAt = Date()
    public var isRead = false
    public var version = 1

    /// A record holding only its id and version, for its declaration's decoding to fill in.
    public static func blank(id: UUID, version: Int) -> FieldbookNotification {
        FieldbookNotification(id: id, userId: .zero, kind: .activityChanged, text: "", subject: NotificationSubject(entity: "", id: nil),
                              version: version)
    }
}

/// What one person wants to be told, and whether their browser shows system notifications.
public struct NotificationPreferences: Sendable, Equatable {
    public var userId: UUID
    /// Kinds the person turned off; none are made for them.
    public var mutedKinds: Set<NotificationKind>
    /// Show a system notification for a new notification while a Fieldbook tab is open (the browser asks first).
    public var showsSystemNotifications: Bool
    public var version: Int

    public init(userId: UUID, mutedKinds: Set<NotificationKind> = [], showsSystemNotifications: Bool = true, version: Int = 0) {
        self.userId = userId
        self.mutedKinds = mutedKinds
        self.showsSystemNotifications = showsSystemNotifications
        self.version = version
    }

    public func receives(_ kind: NotificationKind) -> Bool { !mutedKinds.contains(kind) }
}

/// What the preferences form or API body submits: the kinds to receive (names as in `NotificationKind`) and whether to
/// show system notifications ("on"/"true" or absent).
public struct NotificationPreferencesInput: Sendable, Equatable {
    public var receivedKinds: [String]
    public var systemNotifications: Bool

    public init(receivedKinds: [String], systemNotifications: Bool) {
        self.receivedKinds = receivedKinds
        self.systemNotifications = systemNotifications
    }

    public enum Rules {
        public static let receivedKinds = ChoiceRule(NotificationKind.self, required: true,
                                                     message: Message("Choose the kinds of notification to receive"))
    }

    public static let rules: [String: FieldRule] = ["received_kinds": .choiceList(Rules.receivedKinds)]

    /// The preferences these choices make for `userId`; an unknown kind is refused with the names that are known.
    public func validated(for userId: UUID, role: UserRole) throws -> NotificationPreferences {
        var errors = ValidationError()
        let known = Rules.receivedKinds.options
        if let unknown = receivedKinds.first(where: { !known.contains($0) }) {
            errors.add("received_kinds", Message("“{kind}” is not a kind of notification; choose from {kinds}",
                                                ["kind": .text(unknown), "kinds": .text(known.joined(separator: ", "))]))
        }
        try errors.throwIfAny()
        let received = Set(receivedKinds.compactMap(NotificationKind.init(rawValue:)))
        // Kinds a role cannot receive are not offered, so they stay as they were: muted only if chosen off here.
        let muted = Set(NotificationKind.receivable(by: role).filter { !received.contains($0) })
        return NotificationPreferences(userId: userId, mutedKinds: muted, showsSystemNotifications: systemNotifications)
    }
}
