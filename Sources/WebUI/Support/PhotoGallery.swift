import Domain
import Foundation
import Storage
import Surface

/// What the photo pages need to know of the record a photo belongs to: its name, its page and its kind in words.
struct PhotoOwner {
    let subject: PhotoSubject
    let name: String

    /// The record named by a form's or query's `participant_id`, `venue_id` or `activity_id`; 404 when none is.
    static func named(by value: (String) -> String, in database: AppDatabase) throws -> PhotoOwner {
        for column in PhotoSubject.columns {
            guard let id = UUID(uuidString: value(column)), let subject = PhotoSubject(column: column, id: id) else { continue }
            return try PhotoOwner(subject, in: database)
        }
        throw DomainError.notFound(entity: "record")
    }

    init(_ subject: PhotoSubject, in database: AppDatabase) throws {
        self.subject = subject
        name = switch subject {
        case .participant(let id): try database.participant(id: id).name
        case .venue(let id): try database.venue(id: id).name
        case .activity(let id): try database.activity(id: id).name
        }
    }

    var routes: RecordRoutes {
        switch subject {
        case .participant: Paths.participants
        case .venue: Paths.venues
        case .activity: Paths.activities
        }
    }

    var path: String { routes.record(subject.id) }
    var listPath: String { routes.list() }

    var kind: (one: String, many: String) {
        switch subject {
        case .participant: ("participant", "Participants")
        case .venue: ("venue", "Venues")
        case .activity: ("activity", "Activities")
        }
    }

    var section: Section {
        switch subject {
        case .participant: .participants
        case .venue: .venues
        case .activity: .activities
        }
    }

    /// The record as the photo pages' breadcrumbs and hidden fields name it.
    var view: [String: Any] {
        ["name": name, "path": path, "list_path": listPath, "list_label": kind.many, "kind": kind.one,
         "field": subject.column, "id": subject.id.lowercasedString]
    }
}

/// The photos section of a participant's, venue's or activity's page (`_photos` partial).
enum PhotoGallery {
    static func view(_ database: AppDatabase, _ subject: PhotoSubject) throws -> [String: Any] {
        let entries = try database.photos(of: subject)
        return ["photos": [
            "items": entries.map(item), "has_items": !entries.isEmpty, "count": entries.count,
            "add_path": Paths.newPhoto() + "?\(subject.column)=\(subject.id.lowercasedString)",
            "is_full": entries.count >= PhotoLimits.perRecord, "most": PhotoLimits.perRecord,
        ] as [String: Any]]
    }

    static func item(_ entry: PhotoEntry) -> [String: Any] {
        var item = photoView(entry.photo)
        item["is_here"] = entry.isHere
        if let taken = entry.photo.takenOn { item["taken"] = taken.display }
        return item
    }

    /// A photo as a thumbnail that links to its page.
    static func photoView(_ photo: Photo) -> [String: Any] {
        ["caption": photo.caption, "path": Paths.photo(photo.id), "thumb_url": Paths.photoFile(photo.thumbnail.sha256),
         "thumb_width": photo.thumbnail.width, "thumb_height": photo.thumbnail.height]
    }
}

extension Paths {
    /// A photo file by the SHA-256 of its bytes.
    static func photoFile(_ sha256: String) -> String { photoFiles() + "/" + sha256 }
}
