import Foundation

/// A file opened for a response. libmicrohttpd sends it from the descriptor (sendfile on Linux) and closes it when the
/// response is done, so a photo or an archive is never read into memory; an answer that is dropped closes it here.
public final class OpenFile: @unchecked Sendable {
    /// The file's size, modification time and inode when it was opened.
    public let version: FileVersion
    public var size: Int { Int(version.size) }
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
        version = FileVersion(status)
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

/// What tells one content of a file from the next without reading it: its size, its modification time, and its inode
/// (a package upgrade renames a new file over the old one).
public struct FileVersion: Equatable, Sendable {
    let size: Int64
    let seconds: Int
    let nanoseconds: Int
    let inode: UInt64

    init(_ status: stat) {
        size = Int64(status.st_size)
        inode = UInt64(status.st_ino)
        #if canImport(Darwin)
        (seconds, nanoseconds) = (Int(status.st_mtimespec.tv_sec), Int(status.st_mtimespec.tv_nsec))
        #else
        (seconds, nanoseconds) = (Int(status.st_mtim.tv_sec), Int(status.st_mtim.tv_nsec))
        #endif
    }

    /// The version of the file open at `descriptor`; nil when it cannot be read.
    init?(descriptor: Int32) {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return nil }
        self.init(status)
    }
}
