import Credentials
import Domain
import Foundation

/// The hub side of sync as the JSON API serves it: what nodes push and pull, and the sign-in they link with. An
/// ordinary Fieldbook (`AppDatabase`, one SQLite file) is one; a PostgreSQL hub, for organizations that outgrow one
/// machine, is another. Nodes cannot tell them apart.
public protocol SyncHub: Sendable {
    /// Applies a batch in order; an operation id seen before gets the answer it got the first time. `pusher`: the
    /// node's sign-in, whose rights its copies sent on linking have (`HubDecider`), or the hub itself.
    func applyPush(_ request: PushRequest, from pusher: Pusher) throws -> PushResponse
    /// The change log after `cursor`: each changed record once, with its state now, in the order of its latest change.
    func changes(after cursor: Int64, limit: Int) throws -> ChangePage
    /// The newest change log sequence number (0 when the log is empty).
    func latestChangeSequence() throws -> Int64
    /// The enabled user with this email and password, or nil.
    func verifyCredentials(email: String, password: String) throws -> User?
    func issueAPITokens(for user: User, policy: APITokenPolicy, now: Date) throws -> APITokenPair
    func refreshAPITokens(refreshToken: String, policy: APITokenPolicy, now: Date) throws -> APITokenPair?
    /// Starts a node's own sign-in (`NodeCredential`) for a user whose password was just checked.
    func issueNodeCredential(for user: User, nodeName: String, policy: APITokenPolicy, now: Date) throws -> APITokenPair
    /// Every node's sign-in, newest first, revoked ones included.
    func nodeCredentials() throws -> [NodeCredential]
    /// Ends a node's sign-in; `DomainError.notFound` when there is none with this id.
    func revokeNodeCredential(_ id: UUID, now: Date) throws
    func apiBearer(accessToken: String, now: Date) throws -> APIBearer?
    /// Which of these photo files (by SHA-256) the hub holds.
    func photoFilesHeld(among hashes: [String]) throws -> Set<String>
    /// Keeps a photo file a node sent: refused (`PhotoFileError`) unless it has the hash it was sent as and is a photo
    /// as Fieldbook keeps them.
    func keepPhotoFileFromNode(_ bytes: [UInt8], sha256: String) throws
    /// A photo file the hub holds, or nil.
    func heldPhotoFile(_ sha256: String) throws -> HeldPhotoFile?
    /// Notes that a sign-in began pulling the change log from its start: a node linked here. The hub's administrators
    /// are told once per sign-in, however often it starts over.
    func noteNodeLinked(family: UUID, userId: UUID, address: String) throws
    func isHealthy() -> Bool
    /// Calls `onChange` whenever the change log may have grown (on any thread; it must return quickly).
    func observeChanges(_ onChange: @escaping @Sendable () -> Void)
}

/// Where a hub's photo file is: a file on this machine (served from its descriptor), or bytes read from the database.
public enum HeldPhotoFile: Sendable {
    case path(String)
    case bytes([UInt8])
}
