import Foundation
import GRDB

/// A read transaction that every read of one database on one thread joins while it is open (`AppDatabase.readingTogether`).
/// A page makes several reads (who is signed in, what the header shows, the list and its total); each alone paid for
/// taking a connection from the pool, BEGIN, a schema check and COMMIT, which was most of a list page's database time.
/// Shared, they also all see one state of the records.
///
/// Kept per thread, not in a task-local value: a task started inside would inherit a task-local and could use the
/// connection after the transaction had ended, on another thread.
final class SharedRead {
    let pool: ObjectIdentifier
    let db: Database
    /// A write made while this read was open, which the reads after it cannot see (their snapshot is older).
    private(set) var writeSeen: String?

    private init(pool: ObjectIdentifier, db: Database) {
        self.pool = pool
        self.db = db
    }

    /// The read open on this thread for `pool`, if any.
    static func current(for pool: DatabasePool) -> SharedRead? {
        guard let raw = pthread_getspecific(key) else { return nil }
        let shared = Unmanaged<SharedRead>.fromOpaque(raw).takeUnretainedValue()
        return shared.pool == ObjectIdentifier(pool) ? shared : nil
    }

    /// Runs `body` with `db` (a read transaction of `pool`) shared by this thread's reads of `pool`.
    static func sharing<T>(_ db: Database, of pool: DatabasePool, _ body: () throws -> T) rethrows -> T {
        let shared = SharedRead(pool: ObjectIdentifier(pool), db: db)
        let outer = pthread_getspecific(key)
        pthread_setspecific(key, Unmanaged.passUnretained(shared).toOpaque())
        defer { pthread_setspecific(key, outer) }
        return try withExtendedLifetime(shared) { try body() }
    }

    /// Notes a write made while this read is open. A read after it would miss the write; tests (debug builds) stop
    /// there, so a page that writes is found and kept out of the shared read (`AppDatabase.readingTogether`).
    func noteWrite(_ what: String) { writeSeen = writeSeen ?? what }

    func checkNoWriteBeforeRead() {
        if let writeSeen {
            assertionFailure("A read after \(writeSeen) inside one shared read would not see that write: keep this request out of readingTogether")
        }
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        precondition(pthread_key_create(&key, nil) == 0, "no thread-specific key left for the shared read")
        return key
    }()
}
