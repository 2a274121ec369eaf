import Foundation

/// A new file written front to back and flushed to disk before the caller renames it into place, so a power cut after
/// the rename finds it whole. It is made with exactly `permissions` (owner-only by default) from its first byte, and
/// never over a file already there (O_EXCL, which also follows no link planted in its place).
public final class NewFileOutput {
    private let descriptor: Int32
    private var closed = false
    /// The error each failure is thrown as, given the system's words for it.
    private let failure: @Sendable (String) -> any Error

    public init(creating path: String, permissions: mode_t = 0o600, failure: @escaping @Sendable (String) -> any Error) throws {
        self.failure = failure
        descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, permissions)
        guard descriptor >= 0 else { throw failure(String(cString: strerror(errno))) }
        // The umask may have taken bits away from a file meant to be readable by others (a certificate).
        guard fchmod(descriptor, permissions) == 0 else {
            let reason = String(cString: strerror(errno))
            close(descriptor)
            closed = true
            throw failure(reason)
        }
    }

    deinit { if !closed { close(descriptor) } }

    public func write(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { buffer in
            var written = 0
            while written < buffer.count {
                let result = Foundation.write(descriptor, buffer.baseAddress! + written, buffer.count - written)
                if result < 0, errno == EINTR { continue }
                guard result > 0 else { throw failure(String(cString: strerror(errno))) }
                written += result
            }
        }
    }

    public func finish() throws {
        closed = true
        let synced = fsync(descriptor) == 0 ? 0 : errno
        close(descriptor)
        if synced != 0 { throw failure(String(cString: strerror(synced))) }
    }
}
