import Domain
import Foundation
import GRDB

/// Photos as GRDB reads and encodes them; written only by the photo writer (`PhotoStore.swift`).
extension Photo: StoredRecord {
    public static let databaseTableName = "photos"

    static let kind = RecordKind(
        entity: "photo", table: databaseTableName,
        columns: PhotoSubject.columns + ["caption", "taken_on", "file_sha256", "width", "height", "file_bytes",
                                         "thumb_sha256", "thumb_width", "thumb_height", "thumb_bytes", "added_by"],
        metaColumns: RecordKind.timestamps, label: ("photo", "photos"),
        references: [Reference("participant_id", "participant", .cascade), Reference("venue_id", "venue", .cascade),
                     Reference("activity_id", "activity", .cascade), Reference("contact_log_id", "contact_log", .cascade)],
        optional: PhotoSubject.columns + ["taken_on", "added_by"]
    ) { _, _, fields in
        _ = try PhotoInput(caption: fields.text("caption"), takenOn: fields.text("taken_on")).validated()
        var errors = ValidationError()
        let subjects = PhotoSubject.columns.filter { !fields.text($0).isEmpty }
        if subjects.count != 1 { errors.add("participant_id", "A photo belongs to exactly one participant, venue, activity or logged visit") }
        for column in ["file_sha256", "thumb_sha256"] where !PhotoImage.isContentAddress(fields.text(column)) {
            errors.add(column, "\(column) must be a SHA-256 written as 64 lowercase hexadecimal digits")
        }
        try errors.throwIfAny()
    }

    public init(row: Row) {
        let subject = PhotoSubject.columns.lazy.compactMap { column in
            (row[column] as String?).flatMap(UUID.init(uuidString:)).flatMap { PhotoSubject(column: column, id: $0) }
        }.first ?? .participant(UUID())
        let addedBy: String? = row["added_by"], takenOn: String? = row["taken_on"]
        self.init(id: row.uuid("id"), subject: subject, caption: row["caption"], takenOn: takenOn.flatMap(CalendarDate.init),
                  display: PhotoImage(sha256: row["file_sha256"], width: row["width"], height: row["height"], bytes: row["file_bytes"]),
                  thumbnail: PhotoImage(sha256: row["thumb_sha256"], width: row["thumb_width"], height: row["thumb_height"],
                                        bytes: row["thumb_bytes"]),
                  addedBy: addedBy.flatMap(UUID.init(uuidString:)), version: row["version"],
                  createdAt: row.storedDate("created_at"), updatedAt: row.storedDate("updated_at"))
    }

    public func encode(to container: inout PersistenceContainer) {
        container["id"] = id.databaseText
        for column in PhotoSubject.columns { container[column] = column == subject.column ? subject.id.databaseText : nil }
        container["caption"] = caption
        container["taken_on"] = takenOn?.description
        container["file_sha256"] = display.sha256
        container["width"] = display.width
        container["height"] = display.height
        container["file_bytes"] = display.bytes
        container["thumb_sha256"] = thumbnail.sha256
        container["thumb_width"] = thumbnail.width
        container["thumb_height"] = thumbnail.height
        container["thumb_bytes"] = thumbnail.bytes
        container["added_by"] = addedBy?.databaseText
        container.encodeVersionAndTimes(version, createdAt, updatedAt)
    }

    mutating func stamp(editedAt date: Date) { updatedAt = date }
}
