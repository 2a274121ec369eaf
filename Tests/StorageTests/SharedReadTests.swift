import Dispatch
import Domain
import Foundation
@testable import Storage
import Testing

/// `readingTogether`: a page's reads share one transaction, so they see one state of the records.
@Suite struct SharedReadTests {
    func newUser(_ email: String, _ role: UserRole) -> NewUserInput { .forTests(email, role) }

    /// A write made meanwhile on another thread (another request) is seen only once the shared read has ended.
    @Test func readsTogetherSeeOneStateOfTheRecordsWhateverIsWrittenMeanwhile() throws {
        let given = try TestDatabase()
        let admin = try given.database.createUser(newUser("admin@example.org", .administrator), by: .system("test"))
        let database = given.database
        let counts = try database.readingTogether {
            let before = try database.userCount()
            let written = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                _ = try? database.createUser(newUser("editor@example.org", .editor), by: .user(admin.id))
                written.signal()
            }
            written.wait()
            return (before, try database.userCount(), try database.users().count)
        }
        #expect(counts == (1, 1, 1))
        #expect(try database.userCount() == 2)
    }

    /// Reads on another thread, or of another database, do not join this thread's transaction.
    @Test func onlyThisThreadsReadsOfThisDatabaseJoin() throws {
        let given = try TestDatabase(), other = try TestDatabase()
        let admin = try given.database.createUser(newUser("admin@example.org", .administrator), by: .system("test"))
        _ = try other.database.createUser(newUser("admin@example.org", .administrator), by: .system("test"))
        let database = given.database
        let seen = try database.readingTogether {
            _ = try database.userCount()
            _ = try database.createUser(newUser("editor@example.org", .editor), by: .user(admin.id))
            // No read of `database` follows the write on this thread: a debug build would stop at one.
            // `async`, not `sync`: Dispatch runs a `sync` block on the calling thread.
            let elsewhere = Counted()
            let done = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                elsewhere.value = (try? database.userCount()) ?? -1
                done.signal()
            }
            done.wait()
            return (elsewhere.value, try other.database.createUser(newUser("editor@example.org", .editor), by: .system("test")).email)
        }
        #expect(seen.0 == 2)
        #expect(seen.1 == "editor@example.org")
        #expect(try other.database.userCount() == 2)
    }

    @Test func aNestedReadingTogetherJoinsTheOuterOne() throws {
        let given = try TestDatabase()
        let admin = try given.database.createUser(newUser("admin@example.org", .administrator), by: .system("test"))
        let database = given.database
        let inner = try database.readingTogether {
            try database.readingTogether {
                let written = DispatchSemaphore(value: 0)
                DispatchQueue.global().async {
                    _ = try? database.createUser(newUser("editor@example.org", .editor), by: .user(admin.id))
                    written.signal()
                }
                written.wait()
                return try database.userCount()
            }
        }
        #expect(inner == 1)
    }

    /// A page looks its session up inside its shared read and writes the session's upkeep after it.
    @Test func aSessionLookupLeavesItsUpkeepToTheCaller() throws {
        let given = try TestDatabase()
        let user = try given.database.createUser(newUser("admin@example.org", .administrator), by: .system("test"))
        let policy = SessionPolicy(idleTimeout: 600, absoluteTimeout: 3600)
        let start = Date()
        let session = try given.database.startSession(for: user.id)
        let fresh = try given.database.lookUpSession(token: session.token, policy: policy, now: start.addingTimeInterval(30))
        #expect(fresh.session?.user.id == user.id && fresh.upkeep == nil)
        let later = try given.database.lookUpSession(token: session.token, policy: policy, now: start.addingTimeInterval(500))
        guard case .touch? = later.upkeep else { Issue.record("a session seen after a minute is touched"); return }
        // Untouched until the upkeep is written: 500 + 200 s after the start is past the idle timeout.
        #expect(try given.database.lookUpSession(token: session.token, policy: policy, now: start.addingTimeInterval(700)).session == nil)
        try given.database.keepUp(later.upkeep)
        #expect(try given.database.lookUpSession(token: session.token, policy: policy, now: start.addingTimeInterval(700)).session != nil)
        let expired = try given.database.lookUpSession(token: session.token, policy: policy, now: start.addingTimeInterval(5000))
        guard case .end? = expired.upkeep else { Issue.record("an expired session is ended"); return }
        try given.database.keepUp(expired.upkeep)
        #expect(try given.database.lookUpSession(token: session.token, policy: policy, now: start.addingTimeInterval(30)).session == nil)
    }
}

/// A count read on another thread (the semaphore orders the write before the read).
private final class Counted: @unchecked Sendable {
    var value = -1
}
