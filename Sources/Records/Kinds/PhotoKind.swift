import Domain
import Foundation
import Translations

/// Photos are written only by the photo writer (`PhotoStore.swift`).
extension Photo {
    public static let declaration = RecordDeclaration<Photo>(subjectFields + detailFields + imageFields
                                                             + RecordField<Photo>.timestamps(created: \.createdAt, updated: \.updatedAt)) { id, version in
        let none = PhotoImage(sha256: "", width: 0, height: 0, bytes: 0)
        return Photo(id: id, subject: .participant(.zero), caption: "", takenOn: nil, display: none, thumbnail: none, addedBy: nil,
                     version: version)
    }

    /// The subject as the four columns that may name it; exactly one holds its id.
    private static let subjectFields: [RecordField<Photo>] = zip(PhotoSubject.columns, [
        (Message("Participant"), "participant", Message("The chosen participant no longer exists; choose another")),
        (Message("Venue"), "venue", Message("The chosen venue no longer exists; choose another")),
        (Message("Activity"), "activity", Message("The chosen activity no longer exists; choose another")),
        (Message("Logged visit"), "contact_log", Message("The chosen logged visit no longer exists; choose another")),
    ]).map { column, named in
        RecordField(\.[subjectIn: column], column, .optionalID, label: named.0, references: (named.1, .cascade), ifMissing: named.2)
    }

    private static let detailFields: [RecordField<Photo>] = [
        RecordField(\.caption, "caption", .text, label: Message("Caption"), rule: .text(PhotoInput.Rules.caption)),
        RecordField(\.takenOn, "taken_on", .optionalDay, label: Message("Taken on"), rule: .date(PhotoInput.Rules.takenOn)),
    ]

    private static let imageFields: [RecordField<Photo>] = [
        RecordField(\.display.sha256, "file_sha256", .text, label: Message("Image")),
        RecordField(\.display.width, "width", .integer, label: Message("Width")),
        RecordField(\.display.height, "height", .integer, label: Message("Height")),
        RecordField(\.display.bytes, "file_bytes", .integer, label: Message("Size")),
        RecordField(\.thumbnail.sha256, "thumb_sha256", .text, label: Message("Thumbnail")),
        RecordField(\.thumbnail.width, "thumb_width", .integer, label: Message("Thumbnail width")),
        RecordField(\.thumbnail.height, "thumb_height", .integer, label: Message("Thumbnail height")),
        RecordField(\.thumbnail.bytes, "thumb_bytes", .integer, label: Message("Thumbnail size")),
        RecordField(\.addedBy, "added_by", .optionalID, label: Message("Added by")),
    ]

    public static let kind = RecordKind(entity: "photo", table: "photos", declaration, label: ("photo", "photos")) { _, _, fields, errors in
        guard errors.fieldErrors.isEmpty else { return }
        let subjects = PhotoSubject.columns.filter { !fields.text($0).isEmpty }
        if subjects.count != 1 { errors.add("participant_id", Message("A photo belongs to exactly one participant, venue, activity or logged visit")) }
        for column in ["file_sha256", "thumb_sha256"] where !PhotoImage.isContentAddress(fields.text(column)) {
            errors.add(column, "\(column) must be a SHA-256 written as 64 lowercase hexadecimal digits")
        }
    }

    /// The subject's id when `column` names its kind, else nil; setting an id makes the record of that column's kind
    /// the subject.
    subscript(subjectIn column: String) -> UUID? {
        get { subject.column == column ? subject.id : nil }
        set { if let subject = newValue.flatMap({ PhotoSubject(column: column, id: $0) }) { self.subject = subject } }
    }
}
