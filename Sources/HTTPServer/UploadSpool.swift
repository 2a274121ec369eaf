import Foundation

/// The files of one multipart request, written to temporary files as their parts arrive (memory stays flat whatever
/// the upload's size) and removed when the request is over.
final class UploadSpool {
    private struct Part {
        let fieldName: String
        let filename: String
        let contentType: String?
        let path: String
        var size = 0
    }

    private let directory: String
    private var parts: [Part] = []
    private var descriptor: Int32 = -1

    init(directory: String) { self.directory = directory }

    deinit {
        closeCurrent()
        for part in parts { unlink(part.path) }
    }

    /// Starts the next file part.
    func begin(fieldName: String, filename: String, contentType: String?) throws {
        closeCurrent()
        var template = Array((directory as NSString).appendingPathComponent("upload-XXXXXX").utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard made >= 0 else { throw UploadSpoolError.cannotStore }
        descriptor = made
        let path = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        parts.append(Part(fieldName: fieldName, filename: filename, contentType: contentType, path: path))
    }

    /// Appends bytes to the part begun last.
    func append(_ bytes: UnsafeRawBufferPointer) throws {
        guard descriptor >= 0, !parts.isEmpty else { return }
        var written = 0
        while written < bytes.count {
            let result = write(descriptor, bytes.baseAddress! + written, bytes.count - written)
            if result < 0, errno == EINTR { continue }
            guard result > 0 else { throw UploadSpoolError.cannotStore }
            written += result
        }
        parts[parts.count - 1].size += written
    }

    /// The files received, complete; call once the body has ended.
    func files() -> [UploadedFile] {
        closeCurrent()
        return parts.map {
            UploadedFile(fieldName: $0.fieldName, filename: $0.filename, declaredContentType: $0.contentType, path: $0.path, size: $0.size)
        }
    }

    private func closeCurrent() {
        if descriptor >= 0 { close(descriptor) }
        descriptor = -1
    }
}

enum UploadSpoolError: Error {
    /// The temporary file could not be made or written (the disk is full, or the folder is gone).
    case cannotStore

    var httpError: HTTPError {
        HTTPError(.insufficientStorage, "The server could not store the uploaded file: its disk may be full. Tell the person who runs Fieldbook, then try again.")
    }
}
