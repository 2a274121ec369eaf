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

    /// A streamed response whose body `write` produces; `failed` hears of an error part way (the response then ends
    /// as failed, so a browser shows a failed download rather than a complete-looking short file).
    public static func response(filename: String, format: ExportFormat, failed: @escaping @Sendable (any Error) -> Void,
                                _ write: @escaping @Sendable (([UInt8]) -> Bool) throws -> Int) throws -> Response {
        guard slots.take() else {
            throw HTTPError(.serviceUnavailable, "Two downloads are being written already. Try again when one of them has finished.")
        }
        let stream = EventStream(maxQueuedBytes: queueBytes)
        Thread.detachNewThread {
            defer {
                stream.close()
                slots.release()
            }
            do {
                _ = try write(stream.sendWaiting)
            } catch {
                failed(error)
                stream.abort()
            }
        }
        var response = Response.stream(contentType: format.contentType, stream)
        response.setHeader("Content-Disposition", "attachment; filename=\"\(filename)-\(CalendarDate.today()).\(format.rawValue)\"")
        response.setHeader("X-Content-Type-Options", "nosniff")
        return response
    }
}

/// A count of running downloads with a limit.
public final class DownloadSlots: Sendable {
    private let running = Mutex(0)
    let limit: Int

    init(limit: Int) { self.limit = limit }

    public func take() -> Bool {
        running.withLock { count in
            guard count < limit else { return false }
            count += 1
            return true
        }
    }

    public func release() { running.withLock { $0 -= 1 } }
}
