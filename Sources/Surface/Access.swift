import Domain

/// Who may use a route, on the pages and in the JSON API alike; each route table names one per route and the check
/// runs before the handler.
public enum Access: Sendable, Equatable {
    /// No sign-in needed (sign-in itself, setup, health, the API document).
    case anyone
    /// Any signed-in user, read-only included.
    case signedIn
    /// Editors and administrators: changes to community records.
    case editor
    /// Administrators only: users, sync settings, the sync endpoints.
    case administrator

    public func allows(_ user: User?) -> Bool {
        switch self {
        case .anyone: true
        case .signedIn: user != nil
        case .editor: user?.role.canEditRecords ?? false
        case .administrator: user?.role.canAdminister ?? false
        }
    }

    /// Who the route is for, as messages and the API document word it ("For editors and administrators.").
    public var label: String {
        switch self {
        case .anyone: "anyone"
        case .signedIn: "any signed-in user"
        case .editor: "editors and administrators"
        case .administrator: "administrators"
        }
    }

    /// Why `user` is refused a route of this level.
    public func refusal(for user: User?) -> String {
        "Your role (\(user?.role.label ?? "none")) does not allow this; it is for \(label). Ask an administrator if you need it."
    }
}
