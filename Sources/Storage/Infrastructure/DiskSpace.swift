import Foundation
import GRDB

/// The disk under the database: whether a failure means it is full, and how much room is left on it.
public enum DiskSpace {
    /// Below this much free space Home and the sync page warn, before writes start to fail.
    public static let lowThreshold: Int64 = 100 * 1024 * 1024

    /// True for SQLite's SQLITE_FULL and for ENOSPC from the file system, however it is wrapped.
    public static func isFull(_ error: Error) -> Bool {
        if let error = error as? DatabaseError { return error.resultCode == .SQLITE_FULL }
        if let error = error as? POSIXError { return error.code == .ENOSPC }
        if let error = error as? CocoaError, error.code == .fileWriteOutOfSpace { return true }
        let described = error as NSError
        return described.domain == NSPOSIXErrorDomain && described.code == Int(ENOSPC)
    }

    /// Bytes an unprivileged writer may still use on the file system holding `path`; nil when it cannot be read.
    public static func available(at path: String) -> Int64? {
        var status = statvfs()
        guard statvfs(path, &status) == 0 else { return nil }
        return Int64(status.f_bavail) * Int64(status.f_frsize)
    }
}

extension AppDatabase {
    /// Free bytes on the disk holding the database file's folder.
    public var freeDiskSpace: Int64? {
        let folder = (path as NSString).deletingLastPathComponent
        return DiskSpace.available(at: folder.isEmpty ? "." : folder)
    }

    /// True while the disk holding the database has less than `DiskSpace.lowThreshold` free.
    public var diskSpaceIsLow: Bool {
        freeDiskSpace.map { $0 < DiskSpace.lowThreshold } ?? false
    }
}
