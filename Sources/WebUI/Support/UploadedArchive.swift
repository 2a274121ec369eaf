import Archives
import HTTPServer
import Storage

extension WebUI {
    /// Opens an uploaded archive for the import runner; a file that is no ZIP archive, or a damaged member, is refused
    /// with what to do.
    public static let openArchive: @Sendable (String) throws -> ArchiveFiles = { path in
        try UploadedArchive.refusing { UploadedArchive(reader: try ZipArchiveReader(path: path)) }
    }
}

/// A ZIP file read by the HTTP server's reader, as the restore reads an archive's files; the reader's failures become
/// refusals a person can act on.
struct UploadedArchive: ArchiveFiles {
    let reader: ZipArchiveReader

    var fileNames: [String] { reader.members.map(\.name) }

    func read(_ name: String, _ emit: ([UInt8]) throws -> Void) throws {
        try Self.refusing { try reader.read(name, emit) }
    }

    static func refusing<Result>(_ body: () throws -> Result) throws -> Result {
        do {
            return try body()
        } catch let failure as ZipArchiveReader.Failure {
            throw ImportRefusal(message: message(failure))
        }
    }

    static func message(_ failure: ZipArchiveReader.Failure) -> String {
        switch failure {
        case .notAnArchive: "This file is not a ZIP archive, or it was cut short. Choose a file downloaded from the Export page, whole."
        case .corrupt(let name): "\(name) in the ZIP file is damaged. Download the export again."
        case .unsupported(let what): "This ZIP file uses \(what), which Fieldbook does not read. Choose a file downloaded from the Export page."
        case .noSuchMember(let name): "The ZIP file has no \(name). Download the export again."
        }
    }
}
