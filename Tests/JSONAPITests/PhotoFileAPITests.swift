import Foundation
import HTTPServer
import Hub
import Imaging
import Storage
import TestSupport
import Testing

/// The hub's photo file endpoints (issue 14): which files it lacks, a file kept only under its own hash and only as
/// Fieldbook keeps photos, a file served from its descriptor; administrators only, as the rest of the sync protocol.
@Suite struct PhotoFileAPITests {
    /// A photo as a node keeps it: the display size an upload made (a JPEG without metadata).
    let bytes: [UInt8] = try! PhotoProcessor.prepare(path: PhotoFixtures.url(PhotoFixtures.withGPS).path).display.bytes
    var sha: String { PhotoFileRules.sha256(bytes) }

    @Test func aFileIsKeptUnderItsHashAndListedAsHeld() throws {
        let given = try APIHarness()
        let admin = try given.token(.administrator)
        let other = String(repeating: "a", count: 64)
        #expect(given.send(.post, "/api/v1/sync/photo-files/missing", ["sha256": [sha, other]], token: admin)["missing"] as? [String] == [sha, other])
        #expect(given.send(.put, "/api/v1/sync/photo-files/\(sha)", token: admin, bytes: bytes).status == 204)
        #expect(given.send(.post, "/api/v1/sync/photo-files/missing", ["sha256": [sha, other]], token: admin)["missing"] as? [String] == [other])
        let file = given.send(.get, "/api/v1/sync/photo-files/\(sha)", token: admin).response
        #expect(file.status == .ok && file.file?.size == bytes.count && file.header("Content-Type") == "image/jpeg")
        #expect(given.send(.get, "/api/v1/sync/photo-files/\(other)", token: admin).status == 404)
    }

    @Test func bytesThatAreNotTheNamedFileAreRefusedAndNotKept() throws {
        let given = try APIHarness()
        let admin = try given.token(.administrator)
        let cut = given.send(.put, "/api/v1/sync/photo-files/\(sha)", token: admin, bytes: Array(bytes.dropLast(3)))
        #expect(cut.status == 409 && cut.errorMessage.contains("cut short or changed on the way"))
        #expect(!given.database.photoFiles.exists(sha))
        #expect(given.send(.put, "/api/v1/sync/photo-files/not-a-hash", token: admin, bytes: bytes).status == 404)
        // The camera's own file, GPS and all, is refused even under its own hash: only re-encoded photos are kept.
        let original = try PhotoFixtures.bytes(PhotoFixtures.withGPS)
        let raw = given.send(.put, "/api/v1/sync/photo-files/\(PhotoFileRules.sha256(original))", token: admin, bytes: original)
        #expect(raw.status == 409 && raw.errorMessage.contains("not a photo as Fieldbook keeps them"))
        let tooMany = Array(repeating: sha, count: 501)
        #expect(given.send(.post, "/api/v1/sync/photo-files/missing", ["sha256": tooMany], token: admin).status == 422)
        #expect(given.send(.post, "/api/v1/sync/photo-files/missing", ["sha256": ["ABC"]], token: admin).status == 422)
    }

    @Test func onlyAdministratorsMoveFiles() throws {
        let given = try APIHarness()
        let editor = try given.token(.editor)
        #expect(given.send(.put, "/api/v1/sync/photo-files/\(sha)", token: editor, bytes: bytes).status == 403)
        #expect(given.send(.get, "/api/v1/sync/photo-files/\(sha)", token: editor).status == 403)
        #expect(given.send(.post, "/api/v1/sync/photo-files/missing", ["sha256": [sha]]).status == 401)
    }
}
