import Archives
import Domain
import Foundation
import HTTPServer
import Storage
import Synchronization

/// A file written while it downloads, for both surfaces' exports: a thread writes it part by part and waits for the
/// client to take each part, so memory stays flat whatever the size, and a client that cancels ends the export.
public enum Download {
    /// At most this many downloads are written at once: each holds one of the database's readers for as long as it
    /// lasts, and pages need the others.
    public static let slots = DownloadSlots(limit: 2)

    /// Bytes a download may run ahead of its client.
    static let queueBytes = 256 * 1024

    /// A list (its filters and order) as a CSV or JSON file named `name-YYYY-MM-DD.csv`.
    public static func list(_ name: String, _ format: ExportFormat, slots: DownloadSlots = slots,
                            failed: @escaping @Sendable (any Error) -> Void,
                            _ write: @escaping @Sendable (([UInt8]) -> Bool) throws -> Int) throws -> Response {
        try response(filename: "\(name)-\(CalendarDate.today()).\(format.rawValue)", contentType: format.contentType, slots: slots,
                     failed: failed) { _ = try write($0) }
    }

    /// The records of `scope` (`exportArchive`) as one ZIP archive of a file per kind in `format`. An area or activity
    /// that is not there is refused before anything is sent.
    public static func archive(_ database: AppDatabase, _ scope: ExportScope, _ format: ExportFormat,
                               failed: @escaping @Sendable (any Error) -> Void) throws -> Response {
        return try response(filename: try archiveFileName(database, scope, format), contentType: "application/zip", failed: failed) { write in
            try withoutActuallyEscaping(write) { write in
                var archive = ZipDownload(send: write)
                try database.exportArchive(scope, as: format, into: &archive)
            }
        }
    }

    /// The name an archive downloads under: "fieldbook-2026-11-25.zip", "fieldbook-riverside-2026-11-25-csv.zip".
    public static func archiveFileName(_ database: AppDatabase, _ scope: ExportScope, _ format: ExportFormat, on day: CalendarDate = .today()) throws -> String {
        let suffix = format == .json ? "" : "-" + format.rawValue
        return "\(try database.archiveName(scope))-\(day)\(suffix).zip"
    }

    /// A streamed response whose body `write` produces; `failed` hears of an error part way (the response then ends
    /// as failed, so a browser shows a failed download rather than a complete-looking short file).
    static func response(filename: String, contentType: String, slots: DownloadSlots = slots,
                         failed: @escaping @Sendable (any Error) -> Void,
                         _ write: @escaping @Sendable (([UInt8]) -> Bool) throws -> Void) throws -> Response {
        try slots.takeOrRefuse()
        let stream = EventStream(maxQueuedBytes: queueBytes, endsOnlyWhenFinished: true)
        Thread.detachNewThread {
            var failure: (any Error)?
            do { try write(stream.sendWaiting) } catch { failure = error }
            // The slot is free before the client sees the end, so a download asked for right after this one ends is served.
            slots.release()
            if let failure {
                failed(failure)
                stream.abort()
            } else {
                stream.finish()
            }
        }
        var response = Response.stream(contentType: contentType, stream)
        response.setHeader("Content-Disposition", "attachment; filename=\"\(filename)\"")
        response.setHeader("X-Content-Type-Options", "nosniff")
        return response
    }
}

/// An export's files as a ZIP archive sent as it is written.
private struct ZipDownload: ExportArchive {
    var zip = ZipArchiveWriter()
    let send: ([UInt8]) -> Bool

    mutating func begin(file name: String) throws -> Bool { try sent(zip.beginMember(name)) }
    mutating func write(_ bytes: [UInt8]) throws -> Bool { try sent(zip.write(bytes)) }
    mutating func finish() throws { _ = try sent(zip.finish()) }

    private func sent(_ bytes: [UInt8]) -> Bool { bytes.isEmpty || send(bytes) }
}

/// A count of running downloads with a limit.
public final class DownloadSlots: Sendable {
    private let running = Mutex(0)
    let limit: Int

    public init(limit: Int) { self.limit = limit }

    public func take() -> Bool {
        running.withLock { count in
            guard count < limit else { return false }
            count += 1
            return true
        }
    }

    public func release() { running.withLock { $0 -= 1 } }

    /// Takes a slot, or refuses the download with 503 while all are taken.
    public func takeOrRefuse() throws {
        guard take() else {
            throw HTTPError(.serviceUnavailable, "Two downloads are being written already. Try again when one of them has finished.")
        }
    }
}
