/// What a notification tells (organizer Requirement 12). Each kind is one rule that turns an event into
/// notifications; a person may turn any kind off in their preferences.
public enum NotificationKind: String, Sendable, CaseIterable, Codable {
    case visitListAssigned = "visit_list_assigned"
    case assignedToActivity = "assigned_to_activity"
    case removedFromActivity = "removed_from_activity"
    case activityChanged = "activity_changed"
    case activityCancelled = "activity_cancelled"
    case conflictLost = "conflict_lost"
    case operationsSetAside = "operations_set_aside"
    case hubUnreachable = "hub_unreachable"
    case nodeLinked = "node_linked"
    case userDisabled = "user_disabled"

    /// The kind in words, for the preferences form and the filter ("A visit list assigned to you").
    public var label: String {
        switch self {
        case .visitListAssigned: "A visit list assigned to you"
        case .assignedToActivity: "You were assigned to an activity"
        case .removedFromActivity: "You were removed from an activity"
        case .activityChanged: "An activity you take part in changed its status, dates or venue"
        case .activityCancelled: "An activity you take part in was cancelled"
        case .conflictLost: "An edit of yours lost a conflict with another change"
        case .operationsSetAside: "Changes of yours the hub refused, set aside"
        case .hubUnreachable: "The hub unreachable for over an hour with changes waiting"
        case .nodeLinked: "A new Fieldbook linked to this hub"
        case .userDisabled: "A user disabled"
        }
    }

    /// Kinds only administrators receive (they are about the network and its accounts).
    public var isForAdministrators: Bool {
        switch self {
        case .hubUnreachable, .nodeLinked, .userDisabled: true
        default: false
        }
    }

    /// The kinds a person with `role` can receive.
    public static func receivable(by role: UserRole) -> [NotificationKind] {
        allCases.filter { !$0.isForAdministrators || role.canAdminister }
    }

    /// Whether `user` is told of a notification of this kind: not disabled, an administrator for administrators'
    /// kinds, and not a kind they turned off.
    public func isReceived(by user: User, preferences: NotificationPreferences?) -> Bool {
        !user.isDisabled && (!isForAdministrators || user.role.canAdminister) && (preferences?.receives(self) ?? true)
    }
}
