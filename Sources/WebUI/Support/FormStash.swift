import Foundation
import HTTPServer
import Synchronization

/// Forms that arrived after their session had ended, kept until the person signs in again so what they typed comes
/// back (an organizer's tablet idles between doors). Kept in memory, never in a cookie or an address, since the
/// values can be personal data; bounded in size, number and age, and each one is handed back once, to the user whose
/// session sent it.
final class FormStash: Sendable {
    /// One kept form: where it was sent and its fields, without the CSRF token; a password's value is never kept.
    struct Entry: Sendable {
        /// The user whose ended session sent the form: only they get it back.
        let owner: UUID
        let path: String
        /// The fields as the form sent them; a password's value, empty.
        let parameters: Parameters
        /// The form carried files, which are not kept: the person chooses them again.
        let hadFiles: Bool
        /// Whether the form's own page can show the fields again (`WebRouteTable.form`); otherwise `/send-again` does.
        let restorable: Bool
        fileprivate(set) var keptAt: Date
        /// The CSRF token of the owner's new session, which takes it back; nil until they sign in.
        fileprivate(set) var claimant: String?
    }

    /// Most bytes of names and values one form may keep: every form but an upload's is well below it.
    static let maxBytes = 64 * 1024
    static let maxEntries = 200
    /// How long a form waits for its sign-in, and then for its page to be opened.
    static let lifetime: TimeInterval = 30 * 60

    private let entries = Mutex<[String: Entry]>([:])
    private let now: @Sendable () -> Date

    init(now: @escaping @Sendable () -> Date = Date.init) { self.now = now }

    /// Keeps the form of `request` for `owner`; returns the id the sign-in form carries, or nil when it is too large to keep.
    func keep(_ request: Request, for owner: UUID, restorable: Bool) -> String? {
        let fields = request.form.pairs.filter { $0.name != "csrf_token" }.map { pair in
            (name: pair.name, value: TypedValues.isSecret(pair.name) ? "" : pair.value)
        }
        guard fields.reduce(0, { $0 + $1.name.utf8.count + $1.value.utf8.count }) <= Self.maxBytes else { return nil }
        let id = randomToken()
        let entry = Entry(owner: owner, path: request.path, parameters: Parameters(fields), hadFiles: !request.files.isEmpty, restorable: restorable,
                          keptAt: now(), claimant: nil)
        entries.withLock { entries in
            dropExpired(&entries)
            while entries.count >= Self.maxEntries, let oldest = entries.min(by: { $0.value.keptAt < $1.value.keptAt }) {
                entries[oldest.key] = nil
            }
            entries[id] = entry
        }
        return id
    }

    /// The form `id` names, when `user` owns it: now held for their new session, whose CSRF token is `claimant`. Anyone
    /// else signing in with the id gets nothing, and the form stays for its owner.
    func claim(_ id: String, by user: UUID, for claimant: String) -> Entry? {
        entries.withLock { entries in
            dropExpired(&entries)
            guard var entry = entries[id], entry.owner == user, entry.claimant == nil else { return nil }
            entry.claimant = claimant
            entry.keptAt = now()
            entries[id] = entry
            return entry
        }
    }

    /// Takes (removes) the form the session claimed, sent to `path` when given.
    func take(claimedBy claimant: String, path: String? = nil) -> Entry? {
        entries.withLock { entries in
            dropExpired(&entries)
            guard let found = entries.first(where: { $0.value.claimant == claimant && (path == nil || $0.value.path == path) })
            else { return nil }
            entries[found.key] = nil
            return found.value
        }
    }

    var count: Int { entries.withLock { $0.count } }

    private func dropExpired(_ entries: inout [String: Entry]) {
        let oldest = now().addingTimeInterval(-Self.lifetime)
        entries = entries.filter { $0.value.keptAt >= oldest }
    }
}
