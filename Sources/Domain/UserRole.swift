/// What a signed-in user may do (Requirement 9).
public enum UserRole: String, Sendable, CaseIterable, Codable {
    case administrator
    case editor
    case readOnly = "read-only"

    public var label: String {
        switch self {
        case .administrator: "Administrator"
        case .editor: "Editor"
        case .readOnly: "Read-only"
        }
    }

    public var summary: String {
        switch self {
        case .administrator: "Everything, including managing users"
        case .editor: "Create, change and delete community records"
        case .readOnly: "View records only"
        }
    }

    /// May create, update and delete community records.
    public var canEditRecords: Bool { self != .readOnly }
    /// May manage users and settings.
    public var canAdminister: Bool { self == .administrator }
}
