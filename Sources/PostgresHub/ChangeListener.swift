import Foundation
import Logging

/// Hears the NOTIFY a commit on any hub process sends when the change log grows, on a connection of its own, and
/// tells the observers (the held long polls). A broken connection is opened again after a second; meanwhile long
/// polls still end at their time limit, and nodes fall back to their interval.
final class ChangeListener: @unchecked Sendable {
    private let url: String
    private let channel: String
    private let logger: Logger
    private let lock = NSLock()
    private var observers: [@Sendable () -> Void] = []
    private var thread: Thread?
    private var stopped = false

    init(url: String, channel: String, logger: Logger) {
        self.url = url
        self.channel = channel
        self.logger = logger
    }

    /// Adds an observer; the first one starts the listening thread.
    func observe(_ observer: @escaping @Sendable () -> Void) {
        lock.withLock {
            observers.append(observer)
            guard thread == nil, !stopped else { return }
            let thread = Thread { [weak self] in self?.listen() }
            thread.name = "fieldbook.postgres-listener"
            self.thread = thread
            thread.start()
        }
    }

    func stop() { lock.withLock { stopped = true } }

    private var isStopped: Bool { lock.withLock { stopped } }

    private func listen() {
        while !isStopped {
            do {
                let connection = try PostgresConnection(url: url)
                try connection.execute("LISTEN \(channel)")
                // Anything committed while no connection listened is announced once, so no waiter sleeps through it.
                notify()
                while !isStopped {
                    if try !connection.notifications(timeout: 1).isEmpty { notify() }
                }
            } catch {
                // The message is libpq's or the server's; it never holds the connection URL.
                if !isStopped { logger.warning("not hearing other hub processes' changes; trying again in 1 s", metadata: ["error": "\(error)"]) }
                Thread.sleep(forTimeInterval: 1)
            }
        }
    }

    private func notify() {
        for observer in lock.withLock({ observers }) { observer() }
    }
}
