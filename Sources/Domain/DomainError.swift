/// Failures of domain operations that are not about a single form field.
public enum DomainError: Error, Sendable, Equatable {
    /// The record does not exist (or was deleted).
    case notFound(entity: String)
    /// Deletion refused because other records use this one; `references` names them for the user.
    case stillReferenced(message: String, references: [String])
    /// The record may not be changed (predefined entries, the last administrator, ...).
    case protected(message: String)
    /// The record changed since the form was loaded.
    case staleVersion(entity: String)

    public var userMessage: String {
        switch self {
        case .notFound(let entity): "This \(entity) does not exist. It may have been deleted."
        case .stillReferenced(let message, _): message
        case .protected(let message): message
        case .staleVersion(let entity): "Someone else changed this \(entity) while you were editing it. Review the current values and try again."
        }
    }
}

extension ValidationError {
    /// The problem an edit form shows when its record changed after the form was loaded (tied to the first field).
    public static func staleEdit(of entity: String, field: String = "name") -> ValidationError {
        ValidationError([FieldError(field: field, message: DomainError.staleVersion(entity: entity).userMessage)])
    }
}
