import Domain
import Foundation
import Storage

/// Who may add, change and delete a record's photos, for the pages and the API alike: editors and administrators,
/// but a logged visit's photos only its visit list's organizer and administrators, as for logging the visit.
public enum PhotoAccess {
    public static let refusal = "Only the organizer of this visit list, or an administrator, adds or changes the photos of its visits."

    public static func mayChange(organizer: UUID?, user: User) -> Bool {
        organizer == nil || user.id == organizer || user.role.canAdminister
    }

    /// The organizer who alone (with administrators) changes the subject's photos: a logged visit's list's; nil for
    /// the other records. Throws not found for a record that is not there.
    public static func organizer(of subject: PhotoSubject, in database: AppDatabase) throws -> UUID? {
        switch subject {
        case .participant(let id): _ = try database.participant(id: id)
        case .venue(let id): _ = try database.venue(id: id)
        case .activity(let id): _ = try database.activity(id: id)
        case .contactLog(let id): return try database.contactLogPlace(id).organizer
        }
        return nil
    }
}
