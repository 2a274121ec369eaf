import Domain
import Foundation
import Logging
import Storage

/// Moves photo contents between this node and its hub by hash, within a sync session: before the push, the files the
/// hub lacks go up (so a node that pulls the photos finds their contents there); after the pull, the files the photos
/// here show but this node lacks come down. Each file moves whole and is verified by its hash on arrival; a file cut
/// off by a broken connection is simply sent or fetched again by the next session.
struct PhotoContentSync {
    let database: AppDatabase
    let client: HubClient
    let tokens: BoundTokens
    let logger: Logger
    /// Throws to stop between files when the session is cancelled.
    let checkCancelled: () throws -> Void

    /// Sends the files the hub lacks; answers how many were sent.
    func push() throws -> Int {
        var sent = 0
        while true {
            let waiting = try database.photoFilesNotOnHub(limit: PhotoFileBatch.size)
            guard !waiting.isEmpty else { return sent }
            let missing = Set(try tokens.withToken { try client.photoFilesMissing(waiting, token: $0) })
            try database.notePhotoFilesOnHub(waiting.filter { !missing.contains($0) })
            for sha in waiting where missing.contains(sha) {
                try checkCancelled()
                guard let bytes = FileManager.default.contents(atPath: database.photoFiles.path(sha)) else {
                    // Listed but gone from the disk: nothing can be sent, and asking again each session would not help.
                    logger.error("a photo file listed here is missing from the disk; it cannot be sent", metadata: ["sha256": "\(sha)"])
                    try database.notePhotoFilesOnHub([sha])
                    continue
                }
                do {
                    try tokens.withToken { try client.putPhotoFile(sha, bytes, token: $0) }
                    sent += 1
                } catch HubError.server(let status, let message) where status == 409 {
                    logger.error("the hub refused a photo file as damaged", metadata: ["sha256": "\(sha)", "answer": "\(message)"])
                } catch HubError.server(let status, let message) where status == 503 {
                    // The hub cannot check photo files now (no libvips there, or it is stopping): they stay here to be
                    // sent in a later session, and the records go on syncing meanwhile.
                    logger.warning("the hub cannot take photo files now; they are sent later", metadata: ["answer": "\(message)"])
                    return sent
                }
                try database.notePhotoFilesOnHub([sha])
            }
        }
    }

    /// Fetches the files photos here show but this node lacks, as far as the hub holds them; answers how many arrived.
    func pull() throws -> Int {
        var received = 0
        for sha in try database.photoFilesMissingHere(limit: PhotoFileBatch.pullLimit) {
            try checkCancelled()
            guard let bytes = try tokens.withToken({ try client.photoFile(sha, token: $0) }) else { continue }
            do {
                try database.keepReceivedPhotoFile(Array(bytes), sha256: sha, onHub: true)
                received += 1
            } catch PhotoFileError.hashMismatch {
                // Cut short on the way: the next session fetches it again.
                logger.warning("a photo file arrived damaged; it is fetched again next time", metadata: ["sha256": "\(sha)"])
            } catch PhotoFileError.cannotCheck(let reason) {
                // libvips is missing or too old here: nothing fetched can be checked, so none is fetched this session.
                logger.warning("photo files cannot be checked here; they are fetched once they can", metadata: ["reason": "\(reason)"])
                return received
            } catch PhotoFileError.notAKeptPhoto {
                // Not something Fieldbook would keep (the hub holds a bad file): the photo keeps its placeholder.
                logger.error("the hub sent a photo file that is not a photo as Fieldbook keeps them; it is not kept", metadata: ["sha256": "\(sha)"])
            }
        }
        return received
    }
}

enum PhotoFileBatch {
    /// Hashes asked about per question to the hub (the hub's limit is 500).
    static let size = 200
    /// Files fetched per session at most, so one session stays bounded; the rest come with the next.
    static let pullLimit = 5000
}
