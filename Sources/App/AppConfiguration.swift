import CBuildStamp
import Credentials
import Foundation
import HTTPServer
import Logging
import Storage

/// Everything Fieldbook is configured with, built once from flags and environment and passed down.
public struct AppConfiguration: Sendable {
    public var server: ServerConfiguration
    /// Folder holding fieldbook.sqlite.
    public var dataDirectory: String
    /// Folder holding templates/, Public/ and tiles/ (found by `ResourceFolder` unless given).
    public var resourcesDirectory: String
    /// Overrides the linked hub's URL (a hub that moved, or a proxy in tests); linking itself is `fieldbook link`.
    public var upstream: URL?
    /// The PostgreSQL database of a hub (`fieldbook hub`); nil for a Fieldbook on its SQLite file.
    public var databaseURL: String?
    /// Overrides the sync interval stored in the settings, in seconds.
    public var syncInterval: TimeInterval?
    /// Folder backups are kept in; nil: `backups` in the data folder.
    public var backupDirectory: String?
    /// Seconds between automatic backups.
    public var backupInterval: TimeInterval = 86_400
    public var passwordCost: PasswordHasher.Cost
    /// The least severe level `fieldbook serve` logs.
    public var logLevel: Logger.Level = .info
    public var sessionPolicy: SessionPolicy
    public var version: String
    /// HTTPS on the LAN with Fieldbook's own certificate authority.
    public var ownTLS = OwnTLSSettings()
    /// Offers the pseudo-locale `en-XA` (Translations/PseudoLocale.swift), for tests.
    public var pseudoLocale = false

    public init(server: ServerConfiguration = ServerConfiguration(), dataDirectory: String = "./data",
                resourcesDirectory: String = ResourceFolder.located, upstream: URL? = nil, passwordCost: PasswordHasher.Cost = .standard,
                sessionPolicy: SessionPolicy = SessionPolicy(), version: String = FieldbookVersion.current) {
        self.server = server
        self.dataDirectory = dataDirectory
        self.resourcesDirectory = resourcesDirectory
        self.upstream = upstream
        self.passwordCost = passwordCost
        self.sessionPolicy = sessionPolicy
        self.version = version
    }

    /// Serving beyond loopback with no certificate given and TLS not turned off: Fieldbook makes its own.
    public var servesOwnTLS: Bool { !ownTLS.turnedOff && !server.isTLS && !ServerConfiguration.isLoopback(server.host) }

    public var databasePath: String { Self.databasePath(in: dataDirectory) }
    static let databaseFileName = "fieldbook.sqlite"
    static func databasePath(in folder: String) -> String { (folder as NSString).appendingPathComponent(databaseFileName) }
    /// Where serve keeps its backups: the chosen folder, which it never creates, or one in the data folder.
    public var backupFolder: BackupFolder {
        backupDirectory.map { BackupFolder(path: $0, createsItself: false) } ?? .inDataFolder(dataDirectory)
    }
    public var templatesDirectory: String { (resourcesDirectory as NSString).appendingPathComponent("templates") }
    public var publicDirectory: String { (resourcesDirectory as NSString).appendingPathComponent("Public") }
    /// The languages' catalogs, `<language>.po`, read at start-up.
    public var translationsDirectory: String { (resourcesDirectory as NSString).appendingPathComponent("translations") }
    /// The bundled world basemap (scripts/install-basemap.sh puts it there).
    public var bundledTilesDirectory: String { (resourcesDirectory as NSString).appendingPathComponent("tiles") }
    /// Regional MBTiles files imported by `fieldbook tiles import` or the map settings page.
    public var importedTilesDirectory: String { (dataDirectory as NSString).appendingPathComponent("tiles") }
    /// Uploads while their request is handled.
    public var uploadsDirectory: String { (dataDirectory as NSString).appendingPathComponent("uploads") }
    /// Leaflet and its clustering plug-in, from Debian's libjs-leaflet and libjs-leaflet.markercluster.
    public var leafletDirectory = "/usr/share/javascript/leaflet"

    public func tileLibrary() -> TileLibrary {
        TileLibrary(bundledDirectory: bundledTilesDirectory, importDirectory: importedTilesDirectory)
    }
}

/// The version Fieldbook reports in /api/v1/health.
public enum FieldbookVersion {
    public static let current = "0.1.0"
    /// The commit this program was built from, or "unknown" when the build did not stamp it.
    public static let commit = String(cString: fieldbook_build_commit())
    /// What `fieldbook --version` prints.
    public static let described = "\(current) (commit \(commit))"
}

/// Opens the database in the data directory, creating the folder if needed; folder and database are for their owner
/// alone (`OwnerOnlyAccess`), and tightened again once SQLite has made its -wal and -shm files.
public func openDatabase(_ configuration: AppConfiguration) throws -> AppDatabase {
    try createDataFolder(configuration.dataDirectory)
    try OwnerOnlyAccess.tighten(folder: configuration.dataDirectory, database: configuration.databasePath)
    let database = try AppDatabase(path: configuration.databasePath, passwordCost: configuration.passwordCost)
    try OwnerOnlyAccess.tighten(folder: configuration.dataDirectory, database: configuration.databasePath)
    return database
}

/// Makes a data folder that is not there yet, for its owner alone.
func createDataFolder(_ folder: String) throws {
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
}
