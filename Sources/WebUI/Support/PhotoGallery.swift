import Domain
import Foundation
import Storage
import Surface
import Translations

/// What the photo pages need to know of the record a photo belongs to: its name, its page, its list and its kind in
/// words.
struct PhotoOwner {
    let subject: PhotoSubject
    /// The record's name, or what the visit was for a logged visit.
    let name: Message
    let path: String
    let listPath: String
    let listLabel: Message
    let kind: Message
    let section: Section
    /// Who may add, edit and delete the photos besides administrators, when not every editor may: a visit list's
    /// organizer, as for logging visits.
    let organizer: UUID?

    /// The record named by a form's or query's `participant_id`, `venue_id`, `activity_id` or `contact_log_id`; 404
    /// when none is.
    static func named(by value: (String) -> String, in database: AppDatabase) throws -> PhotoOwner {
        for column in PhotoSubject.columns {
            guard let id = UUID(uuidString: value(column)), let subject = PhotoSubject(column: column, id: id) else { continue }
            return try PhotoOwner(subject, in: database)
        }
        throw DomainError.notFound(entity: "record")
    }

    init(_ subject: PhotoSubject, in database: AppDatabase) throws {
        self.subject = subject
        var organizer: UUID?
        switch subject {
        case .participant(let id):
            (name, kind, section) = (.verbatim(try database.participant(id: id).name), Message("participant"), .participants)
            (path, listPath, listLabel) = (Paths.participants.record(id), Paths.participants.list(), Message("Participants"))
        case .venue(let id):
            (name, kind, section) = (.verbatim(try database.venue(id: id).name), Message("venue"), .venues)
            (path, listPath, listLabel) = (Paths.venues.record(id), Paths.venues.list(), Message("Venues"))
        case .activity(let id):
            (name, kind, section) = (.verbatim(try database.activity(id: id).name), Message("activity"), .activities)
            (path, listPath, listLabel) = (Paths.activities.record(id), Paths.activities.list(), Message("Activities"))
        case .contactLog(let id):
            let place = try database.contactLogPlace(id)
            organizer = place.organizer
            let visit = Message("the visit to {venue}, {when}", ["venue": .text(place.venueName), "when": .text(DateText.format(place.loggedAt))])
            (name, kind, section) = (visit, Message("logged visit"), .visitLists)
            (path, listPath, listLabel) = (Paths.visitStop(place.listId, place.stopId), Paths.visitLists.list(), Message("Visit lists"))
        }
        self.organizer = organizer
    }

    /// Refuses a person who may not change this record's photos (an editor who is not the organizer of a visit's list).
    func ensureMayChangePhotos(_ user: User) throws {
        if !PhotoAccess.mayChange(organizer: organizer, user: user) { throw AccessDenied(message: PhotoAccess.refusal) }
    }

    /// The record as the photo pages' breadcrumbs and hidden fields name it.
    var view: TemplateView {
        ["name": name, "path": path, "list_path": listPath, "list_label": listLabel, "kind": kind,
         "field": subject.column, "id": subject.id.lowercasedString]
    }
}

/// The photos section of a participant's, venue's or activity's page (`_photos` partial).
enum PhotoGallery {
    static func view(_ database: AppDatabase, _ subject: PhotoSubject) throws -> TemplateView {
        ["photos": section(try database.photos(of: subject), subject)]
    }

    /// The photos of one record with the link to add another.
    static func section(_ entries: [PhotoEntry], _ subject: PhotoSubject) -> TemplateView {
        [
            "items": entries.map(item), "has_items": !entries.isEmpty, "count": entries.count,
            "add_path": Paths.newPhoto() + "?\(subject.column)=\(subject.id.lowercasedString)",
            "is_full": entries.count >= PhotoLimits.perRecord, "most": PhotoLimits.perRecord,
        ]
    }

    static func item(_ entry: PhotoEntry) -> TemplateView {
        var item = photoView(entry.photo)
        item["is_here"] = entry.isHere
        if let taken = entry.photo.takenOn { item["taken"] = taken.display }
        return item
    }

    /// A photo as a thumbnail that links to its page.
    static func photoView(_ photo: Photo) -> TemplateView {
        ["caption": photo.caption, "path": Paths.photo(photo.id), "thumb_url": Paths.photoFile(photo.thumbnail.sha256),
         "thumb_width": photo.thumbnail.width, "thumb_height": photo.thumbnail.height]
    }
}

extension Paths {
    /// A photo file by the SHA-256 of its bytes.
    static func photoFile(_ sha256: String) -> String { photoFiles() + "/" + sha256 }
}
