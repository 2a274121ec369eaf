import Foundation

/// A file opened for a response. libmicrohttpd sends it from the descriptor (sendfile on Linux) and closes it when the
/// response is done, so a photo or an archive is never read into memory; an answer that is dropped closes it here.
public final class OpenFile: @unchecked Sendable {
    public let size: Int
    private let lock = NSLock()
    private var descriptor: Int32

    /// Opens the regular file at `path` for reading, or answers nil when there is none.
    public init?(path: String) {
        let opened = open(path, O_RDONLY | O_CLOEXEC)
        guard opened >= 0 else { return nil }
        var status = stat()
        guard fstat(opened, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
            close(opened)
            return nil
        }
        descriptor = opened
        size = Int(status.st_size)
    }

    deinit { if descriptor >= 0 { close(descriptor) } }

    /// Hands the descriptor to whoever will close it (the server); nil when it was already handed over.
    func take() -> Int32? {
        lock.withLock {
            guard descriptor >= 0 else { return nil }
            defer { descriptor = -1 }
            return descriptor
        }
    }
}
