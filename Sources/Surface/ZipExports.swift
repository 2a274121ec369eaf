import HTTPServer
import Logging
import Storage

/// Exports are ZIP archives written by the HTTP server's writer, as downloads are.
extension ZipArchiveWriter: ArchiveEncoder {}

extension ExportRunner {
    /// An export runner writing ZIP archives.
    public convenience init(database: AppDatabase, logger: Logger) {
        self.init(database: database, logger: logger, newArchive: { ZipArchiveWriter() })
    }
}
