import Foundation
import Translations

/// The record a photo belongs to.
public enum PhotoSubject: Sendable, Hashable {
    case participant(UUID)
    case venue(UUID)
    case activity(UUID)
    /// A visit logged at a stop of a visit list (a photo of the door, of a flyer left).
    case contactLog(UUID)

    public var id: UUID {
        switch self { case .participant(let id), .venue(let id), .activity(let id), .contactLog(let id): id }
    }

    /// The photos table's column naming this kind of record.
    public var column: String {
        switch self {
        case .participant: "participant_id"
        case .venue: "venue_id"
        case .activity: "activity_id"
        case .contactLog: "contact_log_id"
        }
    }

    public static let columns = ["participant_id", "venue_id", "activity_id", "contact_log_id"]

    /// The subject named by one of `columns` and an id.
    public init?(column: String, id: UUID) {
        switch column {
        case "participant_id": self = .participant(id)
        case "venue_id": self = .venue(id)
        case "activity_id": self = .activity(id)
        case "contact_log_id": self = .contactLog(id)
        default: return nil
        }
    }
}

/// One stored image: a JPEG kept under the data folder by the SHA-256 of its bytes.
public struct PhotoImage: Sendable, Equatable {
    public var sha256: String
    public var width: Int
    public var height: Int
    public var bytes: Int

    public init(sha256: String, width: Int, height: Int, bytes: Int) {
        (self.sha256, self.width, self.height, self.bytes) = (sha256, width, height, bytes)
    }

    /// True for a SHA-256 written as 64 lowercase hexadecimal digits, the only form a content address takes.
    public static func isContentAddress(_ text: String) -> Bool {
        text.utf8.count == 64 && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }
}

/// A photo of a participant, a venue or an activity. Its caption is the image's alternative text.
public struct Photo: Sendable, Equatable, Identifiable {
    public var id: UUID
    public var subject: PhotoSubject
    public var caption: String
    public var takenOn: CalendarDate?
    /// The size people look at (at most `displaySize` pixels on its longer side) and the thumbnail of galleries.
    public var display: PhotoImage
    public var thumbnail: PhotoImage
    public var addedBy: UUID?
    public var version: Int
    public var createdAt: Date
    public var updatedAt: Date

    public init(id: UUID = UUID(), subject: PhotoSubject, caption: String, takenOn: CalendarDate?, display: PhotoImage,
                thumbnail: PhotoImage, addedBy: UUID?, version: Int = 1, createdAt: Date = Date(), updatedAt: Date = Date()) {
        (self.id, self.subject, self.caption, self.takenOn, self.display) = (id, subject, caption, takenOn, display)
        (self.thumbnail, self.addedBy, self.version, self.createdAt, self.updatedAt) = (thumbnail, addedBy, version, createdAt, updatedAt)
    }
}

/// What the photo form submits, as typed.
public struct PhotoInput: Sendable, Equatable {
    public var caption: String
    public var takenOn: String

    public init(caption: String, takenOn: String = "") { (self.caption, self.takenOn) = (caption, takenOn) }

    public enum Rules {
        public static let caption = TextRule(label: Message("Caption"), maxLength: 300,
                                             missing: Message("Describe the photo in a few words: the caption is read out to people who cannot see it"))
        public static let takenOn = DateRule(invalid: Message("Enter the day the photo was taken as a real day, like 2025-03-12, or leave it empty"))
    }

    public struct Valid: Sendable, Equatable {
        public let caption: String
        public let takenOn: CalendarDate?
    }

    public func validated() throws -> Valid {
        var errors = ValidationError()
        let caption = Rules.caption.check(self.caption, field: "caption", into: &errors)
        let takenOn = Rules.takenOn.check(self.takenOn.trimmingCharacters(in: .whitespaces), field: "taken_on", into: &errors)
        try errors.throwIfAny()
        return Valid(caption: caption, takenOn: takenOn)
    }
}

/// How much one upload and one record may hold, with the messages that say so.
public enum PhotoLimits {
    /// The largest file taken (a 50-megapixel camera's JPEG is about 25 MB).
    public static let uploadBytes = 40 << 20
    public static let perRecord = 50

    public static func tooLarge(_ bytes: Int) -> String {
        "This file is \(megabytes(bytes)) MB; photos may be up to \(uploadBytes >> 20) MB. Export a smaller copy from the camera or phone, then upload that."
    }

    public static let tooMany = "This record already has \(perRecord) photos, the most one record keeps. Delete one you no longer need, then add this one."
    public static let missingFile = "Choose a photo to upload"
    public static let uploadGone = "The photo uploaded with this form was removed after waiting two days. Choose it again."

    private static func megabytes(_ bytes: Int) -> String { String(format: "%.1f", Double(bytes) / 1_048_576) }
}
