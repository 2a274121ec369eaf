import Archives
import Logging
import Storage

/// Exports are ZIP archives written by the Archives target's writer.
extension ZipArchiveWriter: ArchiveEncoder {}

extension ExportRunner {
    /// An export runner writing ZIP archives.
    public convenience init(database: AppDatabase, logger: Logger) {
        self.init(database: database, logger: logger, newArchive: { ZipArchiveWriter() })
    }
}
