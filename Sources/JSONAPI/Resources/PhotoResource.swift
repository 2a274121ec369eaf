import Domain
import Foundation
import HTTPServer
import Storage
import Surface

/// The photos of participants, venues, activities and logged visits: the photo pages' twin, with their rules (the
/// same upload checks and store, who may change a logged visit's photos, at most `PhotoLimits.perRecord` a record).
enum PhotoResource {
    struct Body: Encodable, Sendable {
        let id: String
        @Null var participantId: String?
        @Null var venueId: String?
        @Null var activityId: String?
        @Null var contactLogId: String?
        let caption: String
        @Null var takenOn: String?
        let fileSha256: String
        let thumbnailSha256: String
        let width: Int
        let height: Int
        let bytes: Int
        let isHere: Bool
        @Null var addedBy: String?
        let version: Int
        let createdAt: Date
        let updatedAt: Date

        init(_ entry: PhotoEntry) {
            let photo = entry.photo
            let owner = photo.subject.id.text
            switch photo.subject {
            case .participant: participantId = owner
            case .venue: venueId = owner
            case .activity: activityId = owner
            case .contactLog: contactLogId = owner
            }
            (id, caption, takenOn, addedBy) = (photo.id.text, photo.caption, photo.takenOn?.description, photo.addedBy?.text)
            (fileSha256, thumbnailSha256, width, height, bytes) = (photo.display.sha256, photo.thumbnail.sha256, photo.display.width,
                                                                   photo.display.height, photo.display.bytes)
            (isHere, version, createdAt, updatedAt) = (entry.isHere, photo.version, photo.createdAt, photo.updatedAt)
        }
    }

    static func register(in table: inout APIRouteTable) {
        table.add(.get, APIPaths.photos, .signedIn, listDoc, list)
        table.add(.post, APIPaths.photos, .editor, createDoc, create)
        table.add(.get, APIPaths.photo, .signedIn, getDoc, get)
        table.add(.patch, APIPaths.photo, .editor, updateDoc, update)
        table.add(.delete, APIPaths.photo, .editor, deleteDoc, delete)
    }

    /// The record the photos belong to, named by one of these (query or form field).
    static let ownerFields: [Field] = PhotoSubject.columns.map { .of($0, .uuid, "The \($0.dropLast(3).replacingOccurrences(of: "_", with: " ")) the photos belong to; name exactly one") }

    static let listDoc = APIOperation(id: "listPhotos", summary: "The photos of one participant, venue, activity or logged visit",
                                      query: ownerFields, success: .json("PhotoList"), namesRecordInQuery: true)
    static let createDoc = APIOperation(
        id: "createPhoto",
        summary: "Add a photo to a record, as its page's upload does: the file (JPEG, PNG, WebP or HEIC, up to \(PhotoLimits.uploadBytes >> 20) MB) "
            + "is judged by its content, turned upright and re-encoded without its metadata; at most \(PhotoLimits.perRecord) photos a record. "
            + "A logged visit's photos are its visit list's organizer's (and administrators')",
        formBody: "PhotoUpload", success: .created("Photo"), protected: true, namesRecordInQuery: true)
    static let getDoc = APIOperation(id: "getPhoto", summary: "Read one photo's details", success: .json("Photo"))
    static let updateDoc = APIOperation(id: "updatePhoto", summary: "Change a photo's caption (its alternative text) or the day it was taken",
                                        body: "PhotoPatch", success: .json("Photo"), conflict: true, protected: true)
    static let deleteDoc = APIOperation(id: "deletePhoto", summary: "Delete a photo; its files go once no photo shows them",
                                        success: .noContent, protected: true)

    static let changeFields: [Field] = [
        .input("caption", .text(PhotoInput.Rules.caption), "What the photo shows, in a sentence: read out to people who cannot see it"),
        .input("taken_on", .date(PhotoInput.Rules.takenOn), "The day it was taken; empty or absent: the day the camera recorded, if any"),
    ]

    static var components: [String: [Field]] {
        let patch = changeFields.map { field -> Field in
            var optional = field
            optional.required = false
            return optional
        } + [.version()]
        return [
            "Photo": [
                .of("id", .uuid, required: true),
            ] + PhotoSubject.columns.map { .of($0, .uuid, required: true, nullable: true) } + [
                .of("caption", .text, required: true), .of("taken_on", .date, required: true, nullable: true),
                .of("file_sha256", .text, required: true, "The display size's file (GET /api/v1/sync/photo-files/{sha256} for administrators)"),
                .of("thumbnail_sha256", .text, required: true), .of("width", .integer, required: true),
                .of("height", .integer, required: true), .of("bytes", .integer, required: true),
                .of("is_here", .boolean, required: true, "False while its files have not arrived by sync"),
                .of("added_by", .uuid, required: true, nullable: true), .of("version", .integer, required: true),
                .of("created_at", .dateTime, required: true), .of("updated_at", .dateTime, required: true),
            ],
            "PhotoList": [.of("items", .list("Photo"), required: true)],
            "PhotoUpload": ownerFields + changeFields + [.of("photo", .file, required: true, "The image file")],
            "PhotoPatch": patch,
        ]
    }

    static func list(_ context: APIContext) throws -> Response {
        let subject = try subject(named: { context.request.query[$0] })
        _ = try PhotoAccess.organizer(of: subject, in: try context.database)
        return APIResponse.ok(["items": try context.database.photos(of: subject).map(Body.init)])
    }

    static func get(_ context: APIContext) throws -> Response {
        APIResponse.ok(Body(try context.database.photo(id: try context.id())))
    }

    static func create(_ context: APIContext) throws -> Response {
        let request = context.request
        let database = try context.database
        let subject = try subject(named: { request.form[$0] })
        try ensureMayChange(subject, context)
        var values = PhotoInput(caption: request.form["caption"] ?? "", takenOn: request.form["taken_on"] ?? "")
        guard let file = request.files.first(where: { $0.fieldName == "photo" }), !file.isEmpty else {
            throw ValidationError([FieldError(field: "photo", message: PhotoLimits.missingFile)])
        }
        _ = try values.validated()
        let upload = try database.keepUploadedPhoto(at: file.path, size: file.size)
        if values.takenOn.trimmingCharacters(in: CharacterSet.whitespaces).isEmpty, let day = upload.takenOn { values.takenOn = day }
        let photo = try database.addPhoto(to: subject, values, display: upload.display, thumbnail: upload.thumbnail, by: context.actor)
        return APIResponse.created(Body(try database.photo(id: photo.id)), at: APIPaths.photo(photo.id))
    }

    static func update(_ context: APIContext) throws -> Response {
        let database = try context.database
        let current = try database.photo(id: try context.id()).photo
        try ensureMayChange(current.subject, context)
        let body = try context.body(components["PhotoPatch"]!, mode: .partial)
        let values = PhotoInput(caption: body.has("caption") ? body.text("caption") : current.caption,
                                takenOn: body.has("taken_on") ? body.text("taken_on") : current.takenOn?.description ?? "")
        let photo = try database.updatePhoto(id: current.id, values, expectedVersion: body.integer("version"), by: context.actor)
        return APIResponse.ok(Body(try database.photo(id: photo.id)))
    }

    static func delete(_ context: APIContext) throws -> Response {
        let database = try context.database
        let photo = try database.photo(id: try context.id()).photo
        try ensureMayChange(photo.subject, context)
        try database.deletePhoto(id: photo.id, by: context.actor)
        return APIResponse.noContent
    }

    /// The record named by exactly one of `ownerFields`: 400 for none or a value that is not an id.
    private static func subject(named value: (String) -> String?) throws -> PhotoSubject {
        let named = try PhotoSubject.columns.compactMap { column -> PhotoSubject? in
            guard let text = value(column), !text.isEmpty else { return nil }
            guard let id = UUID.strict(text) else { throw APIBadParameter(name: column, expected: "an id like 0d2f3a10-0000-4000-8000-000000000001") }
            return PhotoSubject(column: column, id: id)
        }
        guard named.count == 1 else {
            throw APIBadParameter(name: PhotoSubject.columns.joined(separator: ", "), expected: "given once: exactly one of them names the record")
        }
        return named[0]
    }

    private static func ensureMayChange(_ subject: PhotoSubject, _ context: APIContext) throws {
        let organizer = try PhotoAccess.organizer(of: subject, in: try context.database)
        guard PhotoAccess.mayChange(organizer: organizer, user: try context.signedInUser) else {
            throw HTTPError(.forbidden, PhotoAccess.refusal)
        }
    }
}
