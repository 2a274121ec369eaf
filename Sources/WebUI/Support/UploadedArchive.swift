import HTTPServer
import Storage

/// A ZIP file read by the HTTP server's reader, as the restore reads an archive's files.
extension ZipArchiveReader: ArchiveFiles {
    public var fileNames: [String] { members.map(\.name) }
}

extension WebUI {
    /// Opens an uploaded archive for the import runner; a file that is no ZIP archive is refused with what to do.
    public static let openArchive: @Sendable (String) throws -> ArchiveFiles = { path in
        do {
            return try ZipArchiveReader(path: path)
        } catch let failure as ZipArchiveReader.Failure {
            throw ImportRefusal(message: UploadedArchive.message(failure))
        }
    }
}

enum UploadedArchive {
    static func message(_ failure: ZipArchiveReader.Failure) -> String {
        switch failure {
        case .notAnArchive: "This file is not a ZIP archive, or it was cut short. Choose a file downloaded from the Export page, whole."
        case .corrupt(let name): "\(name) in the ZIP file is damaged. Download the export again."
        case .unsupported(let what): "This ZIP file uses \(what), which Fieldbook does not read. Choose a file downloaded from the Export page."
        case .noSuchMember(let name): "The ZIP file has no \(name). Download the export again."
        }
    }
}
