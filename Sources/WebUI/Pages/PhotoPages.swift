import Domain
import Foundation
import HTTPServer
import Storage
import Translations

/// Photos of participants, venues and activities (issue 14): the upload, each photo's page, its caption and date, its
/// deletion, and the image files themselves.
enum PhotoPages {
    /// GET /photos/new?participant_id=…: the upload form for one record.
    static func newForm(_ context: inout PageContext) throws -> Response {
        let owner = try PhotoOwner.named(by: { context.request.query[$0] ?? "" }, in: context.database)
        try owner.ensureMayChangePhotos(try context.signedInUser)
        return try uploadForm(&context, owner: owner, values: PhotoInput(caption: ""), kept: nil, errors: ValidationError())
    }

    /// POST /photos: the file is judged by its content and re-encoded before anything is saved. A form sent back for
    /// its caption keeps the upload (its hashes ride in the form), so the photo is not chosen and sent twice.
    static func upload(_ context: inout PageContext) throws -> Response {
        let owner = try PhotoOwner.named(by: context.request.field, in: context.database)
        try owner.ensureMayChangePhotos(try context.signedInUser)
        var values = PhotoInput(caption: context.request.field("caption"), takenOn: context.request.field("taken_on"))
        var kept = try keptUpload(context)
        var errors = ValidationError()
        if let file = context.request.files.first(where: { $0.fieldName == "photo" }), !file.isEmpty {
            do {
                let upload = try context.database.keepUploadedPhoto(at: file.path, size: file.size)
                kept = (upload.display, upload.thumbnail)
                if values.takenOn.trimmingCharacters(in: .whitespaces).isEmpty, let day = upload.takenOn { values.takenOn = day }
            } catch let invalid as ValidationError {
                invalid.fieldErrors.forEach { errors.add($0.field, $0.message) }
            }
        } else if kept == nil {
            errors.add("photo", PhotoLimits.missingFile)
        }
        do { _ = try values.validated() } catch let invalid as ValidationError { invalid.fieldErrors.forEach { errors.add($0.field, $0.message) } }
        guard errors.isEmpty, let kept else {
            return try uploadForm(&context, owner: owner, values: values, kept: kept, errors: errors, status: .unprocessableContent)
        }
        do {
            try context.database.addPhoto(to: owner.subject, values, display: kept.display, thumbnail: kept.thumbnail, by: context.actor)
        } catch let refused as ValidationError {
            return try uploadForm(&context, owner: owner, values: values, kept: kept, errors: refused, status: .unprocessableContent)
        }
        return context.redirect(to: owner.path + "#photos", flash: Message("Photo “{caption}” added.", ["caption": .text(values.caption.trimmingCharacters(in: .whitespacesAndNewlines))]))
    }

    /// The display size and thumbnail of an earlier upload of this form, when it carries them and they are still here.
    private static func keptUpload(_ context: PageContext) throws -> (display: PhotoImage, thumbnail: PhotoImage)? {
        guard let display = try context.database.keptUpload(context.request.field("kept_display")),
              let thumbnail = try context.database.keptUpload(context.request.field("kept_thumbnail")) else { return nil }
        return (display, thumbnail)
    }

    private static func uploadForm(_ context: inout PageContext, owner: PhotoOwner, values: PhotoInput,
                                   kept: (display: PhotoImage, thumbnail: PhotoImage)?, errors: ValidationError,
                                   status: HTTPStatus = .ok) throws -> Response {
        var form = FormView(errors: errors)
        form.input("caption", label: Message("Caption"), value: values.caption, hint: captionHint)
        form.input("taken_on", label: Message("Day taken (optional)"), value: values.takenOn, type: "date",
                   hint: Message("Left empty, the day the camera recorded is used, if it recorded one."))
        var view = form.view
        view["owner"] = owner.view
        view["action"] = Paths.photos()
        view["photo_error"] = errors.message(for: "photo").map(Message.init(domainText:))
        view["max_megabytes"] = PhotoLimits.uploadBytes >> 20
        if let kept {
            view["kept"] = ["display": kept.display.sha256, "thumbnail": kept.thumbnail.sha256, "url": Paths.photoFile(kept.thumbnail.sha256),
                            "width": kept.thumbnail.width, "height": kept.thumbnail.height] as TemplateView
        }
        return context.page("photos/new", title: Message("Add a photo of “{name}”", ["name": .message(owner.name)]), section: owner.section, view: view, status: status,
                            hasErrors: !errors.isEmpty)
    }

    /// GET /photos/{id}: the photo at display size, with what is known of it.
    static func show(_ context: inout PageContext) throws -> Response {
        let entry = try context.database.photo(id: context.request.uuidParameter())
        let photo = entry.photo
        let owner = try PhotoOwner(photo.subject, in: context.database)
        let addedBy = try photo.addedBy.flatMap { try? context.database.user(id: $0) }?.name
        let mayChange = context.user.map { (try? owner.ensureMayChangePhotos($0)) != nil && $0.role.canEditRecords } ?? false
        let view: TemplateView = [
            "may_change": mayChange,
            "owner": owner.view, "caption": photo.caption, "is_here": entry.isHere,
            "url": Paths.photoFile(photo.display.sha256), "width": photo.display.width, "height": photo.display.height,
            "taken": photo.takenOn.map { Message.verbatim($0.display) } ?? Message("Not recorded"), "added": DateText.format(photo.createdAt), "added_by": addedBy ?? "",
            "size": Message("{width} × {height} pixels, {kilobytes} KB", ["width": .text(String(photo.display.width)), "height": .text(String(photo.display.height)),
                                                                          "kilobytes": .number((photo.display.bytes + 1023) / 1024)]),
            "edit_path": Paths.editPhoto(photo.id), "delete_path": Paths.deletePhoto(photo.id),
        ]
        return context.page("photos/show", title: photo.caption, section: owner.section, view: view)
    }

    /// The photo named by the address, once the person is known to be allowed to change it.
    private static func changeablePhoto(_ context: PageContext) throws -> PhotoEntry {
        let entry = try context.database.photo(id: context.request.uuidParameter())
        try PhotoOwner(entry.photo.subject, in: context.database).ensureMayChangePhotos(try context.signedInUser)
        return entry
    }

    static func editForm(_ context: inout PageContext) throws -> Response {
        let entry = try changeablePhoto(context)
        let photo = entry.photo
        return try editPage(&context, entry, values: PhotoInput(caption: photo.caption, takenOn: photo.takenOn?.description ?? ""),
                            version: photo.version, errors: ValidationError())
    }

    static func update(_ context: inout PageContext) throws -> Response {
        let entry = try changeablePhoto(context)
        let photo = entry.photo
        let values = PhotoInput(caption: context.request.field("caption"), takenOn: context.request.field("taken_on"))
        let version = Int(context.request.field("version"))
        do {
            try context.database.updatePhoto(id: photo.id, values, expectedVersion: version, by: context.actor)
            return context.redirect(to: Paths.photo(photo.id), flash: Message("Photo saved."))
        } catch let errors as ValidationError {
            return try editPage(&context, entry, values: values, version: version ?? photo.version, errors: errors, status: .unprocessableContent)
        } catch DomainError.staleVersion {
            let errors = ValidationError.clash("caption", Message("Someone changed this photo while you were editing it. Your values are below; the saved ones are on the photo's page. Save again to keep yours.").english)
            return try editPage(&context, entry, values: values, version: photo.version, errors: errors, status: .conflict)
        }
    }

    private static func editPage(_ context: inout PageContext, _ entry: PhotoEntry, values: PhotoInput, version: Int, errors: ValidationError,
                                 status: HTTPStatus = .ok) throws -> Response {
        let photo = entry.photo
        let owner = try PhotoOwner(photo.subject, in: context.database)
        var form = FormView(errors: errors)
        form.input("caption", label: Message("Caption"), value: values.caption, hint: captionHint)
        form.input("taken_on", label: Message("Day taken (optional)"), value: values.takenOn, type: "date")
        var view = form.view
        view["owner"] = owner.view
        view["photo"] = PhotoGallery.item(entry)
        view["action"] = Paths.editPhoto(photo.id)
        view["version"] = version
        return context.page("photos/edit", title: Message("Edit photo “{caption}”", ["caption": .text(photo.caption)]), section: owner.section, view: view, status: status,
                            hasErrors: !errors.isEmpty)
    }

    static func deleteConfirmation(_ context: inout PageContext) throws -> Response {
        let entry = try changeablePhoto(context)
        let photo = entry.photo
        let owner = try PhotoOwner(photo.subject, in: context.database)
        let view: TemplateView = ["owner": owner.view, "photo": PhotoGallery.item(entry), "action": Paths.deletePhoto(photo.id)]
        return context.page("photos/delete", title: Message("Delete photo “{caption}”", ["caption": .text(photo.caption)]), section: owner.section, view: view)
    }

    static func delete(_ context: inout PageContext) throws -> Response {
        let photo = try context.database.deletePhoto(id: try changeablePhoto(context).photo.id, by: context.actor)
        let owner = try PhotoOwner(photo.subject, in: context.database)
        return context.redirect(to: owner.path + "#photos", flash: Message("Photo “{caption}” deleted.", ["caption": .text(photo.caption)]))
    }

    /// GET /photo-files/{sha256}: an image file, sent from its descriptor. Its name is its hash, so it never changes:
    /// browsers may keep it a year, and a conditional request is answered 304 without opening anything.
    static func file(_ context: inout PageContext) throws -> Response {
        guard let sha = context.request.pathParameter("sha256"), PhotoImage.isContentAddress(sha) else {
            throw HTTPError.notFound(context.request.path)
        }
        let tag = "\"\(sha)\""
        let caching = [("ETag", tag), ("Cache-Control", "private, max-age=31536000, immutable")]
        if context.request.header("if-none-match")?.split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces) == tag }) == true {
            return Response(status: .notModified, headers: caching)
        }
        guard let file = OpenFile(path: context.database.photoFiles.path(sha)) else { throw HTTPError.notFound(context.request.path) }
        return Response.file(file, contentType: "image/jpeg", headers: caching)
    }

    private static let captionHint = Message("What the photo shows, in a sentence. It is read out to people who cannot see the photo.")
}
