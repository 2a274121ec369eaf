import Domain
import Foundation
import HTTPServer
import Hub
import Storage
import Surface

/// The hub's side of moving photo contents by hash: a node asks which of its files the hub lacks, sends
/// those, and fetches the files its photos show but it lacks. For administrators, as the rest of the sync protocol.
enum PhotoFileEndpoints {
    static let maxQuery = 500

    static func register(in table: inout APIRouteTable) {
        table.add(.post, APIPaths.syncPhotoFilesMissing, .administrator, missingDoc, missing)
        table.add(.put, APIPaths.syncPhotoFile, .administrator, putDoc, put)
        table.add(.get, APIPaths.syncPhotoFile, .administrator, getDoc, get)
    }

    static let missingDoc = APIOperation(id: "findMissingPhotoFiles", summary: "Hub: which of these photo files (by SHA-256) the hub lacks",
                                         body: "PhotoFileQuery", success: .json("PhotoFileList"))
    static let putDoc = APIOperation(id: "putPhotoFile", summary: "Hub: keep a photo file, verified against the SHA-256 in the path",
                                     fileBody: "image/jpeg", success: .noContent)
    static let getDoc = APIOperation(id: "getPhotoFile", summary: "Hub: one photo file by the SHA-256 of its bytes",
                                     success: .file(contentType: "image/jpeg", description: "The file's bytes (a JPEG)"))

    static var components: [String: [Field]] {
        [
            "PhotoFileQuery": [.of("sha256", .contentAddressList(maxItems: maxQuery), required: true)],
            "PhotoFileList": [.of("missing", .contentAddressList(maxItems: maxQuery), required: true)],
        ]
    }

    static func missing(_ context: APIContext) throws -> Response {
        let body = try APIBody(context.request, fields: components["PhotoFileQuery"]!, mode: .full, example: #"{"sha256": []}"#)
        let asked = body.strings("sha256") ?? []
        let held = try context.hub.photoFilesHeld(among: asked)
        return SyncJSON.response(["missing": asked.filter { !held.contains($0) }])
    }

    static func put(_ context: APIContext) throws -> Response {
        let sha = try hash(context)
        do {
            try context.hub.keepPhotoFileFromNode(context.request.body, sha256: sha)
        } catch let error as PhotoFileError {
            // The address names the file by its hash, so other bytes conflict with what the address stands for.
            switch error {
            case .hashMismatch, .notAKeptPhoto: throw HTTPError(.conflict, error.description)
            // Not judged here: the node keeps the file and sends it again in a later session.
            case .cannotCheck: throw HTTPError(.serviceUnavailable, error.description)
            case .cannotWrite: throw error
            }
        }
        return Response(status: .noContent)
    }

    static func get(_ context: APIContext) throws -> Response {
        let sha = try hash(context)
        // Named by the hash of its bytes, so a file never changes under its address.
        let caching = ("Cache-Control", "private, max-age=31536000, immutable")
        switch try context.hub.heldPhotoFile(sha) {
        case .path(let path): if let file = OpenFile(path: path) { return Response.file(file, contentType: "image/jpeg", headers: [caching]) }
        case .bytes(let bytes): return Response(headers: [("Content-Type", "image/jpeg"), caching], body: bytes)
        case nil: break
        }
        throw HTTPError(.notFound, "This hub does not hold the photo file \(sha) (yet): the node that took the photo has not sent it.")
    }

    private static func hash(_ context: APIContext) throws -> String {
        guard let sha = context.request.pathParameter("sha256"), PhotoImage.isContentAddress(sha) else {
            throw HTTPError(.notFound, "There is no photo file at \(context.request.path): files are named by a SHA-256 of 64 lowercase hexadecimal digits.")
        }
        return sha
    }
}
