import Foundation
import HTTPServer
import JSONAPI
import LANCertificates
import Logging
import Storage
import Surface
import Sync
import Translations
import WebUI

/// A whole Fieldbook node, composed from its configuration: database, pages, API and server.
public final class FieldbookApp: Sendable {
    public let configuration: AppConfiguration
    public let database: AppDatabase
    public let server: HTTPServer
    public let setupCode: SetupCode
    public let syncEngine: SyncEngine
    /// Where the sync engine announces status changes; pages show them live.
    public let syncStatus: StatusBroadcaster
    /// Turns what happens into notifications, in the background.
    public let notifier: NotificationService
    public let imports: ImportRunner
    /// Removes photo files nobody shows any more, in the background.
    public let photoSweeper: DatabaseChore
    /// Checks participants brought in by sync for possible duplicates, in the background.
    public let duplicateScout: DatabaseChore
    public let exports: ExportRunner
    /// Backs the database and its photos up every `--backup-interval`, in the background.
    public let backups: BackupService
    /// Keeps Fieldbook's own server certificate current, when it serves the LAN with one.
    let certificates: ServerCertificateKeeper?
    /// Plain HTTP beside Fieldbook's own HTTPS: a page giving the secure address (`SecureAddressGuide`).
    let plainServer: HTTPServer?
    /// What the "Add a device" page shows, told the port once the server listens.
    let devices: DeviceJoining
    /// Announces the server on the LAN (mDNS) while it serves beyond loopback.
    private let lanAnnouncer: LANAnnouncer
    /// Sends each request to static files, the API or the pages; tests call it without a socket.
    let responder: AppResponder
    let logger: Logger
    /// Says the data folder is served, for as long as this node lives (hub-migrate refuses it meanwhile).
    private let servingLock: ServingLock

    /// Loads and checks templates and static files, takes the data folder (refused while another Fieldbook serves it)
    /// and opens its database; fails before listening if any is wrong.
    public static func make(_ configuration: AppConfiguration, logger: Logger) async throws -> FieldbookApp {
        try ResourceFolder.check(configuration.resourcesDirectory)
        let renderer = try await PageRenderer.load(directory: configuration.templatesDirectory,
                                                   languages: loadLanguages(configuration, logger: logger))
        let servingLock = try ServingLock.serving(configuration.dataDirectory)
        let database = try openDatabase(configuration)
        return try FieldbookApp(configuration: configuration, database: database, servingLock: servingLock, renderer: renderer, logger: logger)
    }

    /// The catalogs in the resources' translations/ folder. One that cannot be read, an entry whose placeholders do
    /// not match, or all of them without libgettextpo, is left out with a warning rather than keeping the server from
    /// starting: those pages show English.
    private static func loadLanguages(_ configuration: AppConfiguration, logger: Logger) -> Languages {
        let folder = URL(fileURLWithPath: configuration.translationsDirectory, isDirectory: true)
        do {
            let (languages, problems) = try Languages.load(folder: folder, pseudoLocale: configuration.pseudoLocale)
            for problem in problems { logger.warning("translation left out: \(problem)") }
            return languages
        } catch {
            logger.warning("translations left out, pages are in English: \(error)")
            return Languages(catalogs: [], pseudoLocale: configuration.pseudoLocale)
        }
    }

    private init(configuration: AppConfiguration, database: AppDatabase, servingLock: ServingLock, renderer: PageRenderer,
                 logger: Logger) throws {
        self.configuration = configuration
        self.servingLock = servingLock
        self.database = database
        self.logger = logger
        self.setupCode = SetupCode()
        let staticFiles = try StaticFiles(mounts: [("", configuration.publicDirectory), ("leaflet/", configuration.leafletDirectory)])
        var syncSettings = SyncEngineSettings()
        syncSettings.intervalOverride = configuration.syncInterval
        syncSettings.upstreamOverride = configuration.upstream
        let relay = StatusRelay()
        syncEngine = SyncEngine(database: database, settings: syncSettings, logger: logger) { relay.fire() }
        let engine = syncEngine
        let reporter = SyncStatusReporter(database: database, engine: syncEngine)
        syncStatus = StatusBroadcaster(reporter: reporter)
        notifier = NotificationService(database: database, status: reporter, logger: logger)
        let broadcaster = syncStatus
        relay.set { broadcaster.publish(reporter.current()) }
        // A write from any surface (pages or API) queued for the hub wakes the sync thread and updates open pages'
        // pending count; standalone, the status does not change with a write.
        // The status is read on its own queue: subscribers run on the writer's thread, which may be a page's, whose
        // reads share a transaction begun before this write (`readingTogether`) and would not see it.
        let statusReads = DispatchQueue(label: "fieldbook.status-after-write")
        database.changeFeed.subscribe { committed in
            guard committed.queuedForHub else { return }
            engine.wake(reason: "local write")
            statusReads.async { relay.fire() }
        }
        // One count of failed sign-ins: five failures are five whether sent to /login or to the API.
        imports = ImportRunner(database: database, logger: logger, openArchive: WebUI.openArchive)
        photoSweeper = PhotoFileSweeper.chore(database: database, logger: logger)
        duplicateScout = DuplicateScout.chore(database: database, logger: logger)
        exports = ExportRunner(database: database, logger: logger)
        backups = BackupService(database: database, folder: configuration.backupFolder, interval: configuration.backupInterval, logger: logger)
        let signInThrottle = SignInThrottle()
        let devices = DeviceJoining(ownAuthority: configuration.servesOwnTLS ? TLSFolder.inDataFolder(configuration.dataDirectory) : nil)
        self.devices = devices
        lanAnnouncer = LANAnnouncer(devices: devices, logger: logger)
        let web = WebUI(database: database, renderer: renderer, staticFiles: staticFiles, syncStatus: syncStatus,
                        setupCode: setupCode, syncEngine: syncEngine, signInThrottle: signInThrottle, tiles: configuration.tileLibrary(),
                        configuration: WebUIConfiguration(sessionPolicy: configuration.sessionPolicy, version: configuration.version, devices: devices),
                        imports: imports, exports: exports, backups: backups, logger: logger)
        let api = JSONAPI(database: database, version: configuration.version, logger: logger, signInThrottle: signInThrottle,
                          sessionPolicy: configuration.sessionPolicy, syncEngine: syncEngine, syncStatus: reporter)
        responder = AppResponder(staticFiles: staticFiles, web: web, api: api)
        var serverConfiguration = try Self.serverConfiguration(configuration)
        let keeper = try ServerCertificateKeeper.ifServing(configuration, into: &serverConfiguration, logger: logger)
        let secure = HTTPServer(configuration: serverConfiguration, responder: responder, logger: logger)
        server = secure
        certificates = keeper
        plainServer = keeper.map { $0.plainServer(beside: secure, devices: devices, renderer: renderer, staticFiles: staticFiles, logger: logger) }
    }

    /// The server's settings, uploads spooled inside the data folder (not /tmp, which may be memory), in a folder emptied
    /// at start: what a killed process left there belongs to no request.
    private static func serverConfiguration(_ configuration: AppConfiguration) throws -> ServerConfiguration {
        var server = configuration.server
        if server.uploadDirectory == nil {
            let uploads = configuration.uploadsDirectory
            try? FileManager.default.removeItem(atPath: uploads)
            try FileManager.default.createDirectory(atPath: uploads, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            server.uploadDirectory = uploads
        }
        server.uploadPaths.formUnion(WebUI.uploadPaths.union(JSONAPI.uploadPaths))
        return server
    }

    /// Starts listening; returns the bound port. Prints the setup code (before the first account exists), then the address.
    @discardableResult
    public func start(announce: (String) -> Void = { _ in }) throws -> UInt16 {
        try database.purgeExpiredSessions(policy: configuration.sessionPolicy)
        // What opening the database read (the schema, the migrations' checks, the purge) is let go of: the pages, and the
        // heap glibc would keep for reuse. Before anything starts that could hold the writer (an import resumed, a
        // first sync), which this would wait for.
        database.releaseMemory()
        let port = try server.start()
        let plainGuide = startPlainServer()
        let serving = ServingAddress.listening(on: configuration.server.host, port: port, isTLS: server.configuration.isTLS)
        devices.served(at: serving)
        lanAnnouncer.start(serving: serving, hostName: MachineNames.current().hostName)
        syncEngine.start()
        notifier.start()
        imports.start()
        photoSweeper.start()
        duplicateScout.start()
        exports.start()
        backups.start()
        try database.prepareAnalytics(logger: logger)
        let address = server.configuration.baseURL(port: port)
        if try database.offersSetup() {
            announce("One-time setup code: \(setupCode.generate())")
            announce("Open \(address)/setup to create the first administrator with this code.")
        } else if try database.awaitsHubAccounts(), try database.userCount() == 0 {
            announce("This Fieldbook is bringing its accounts from its hub: sign in with an account of the hub once they have arrived.")
        }
        if let certificates, let plainGuide {
            let secure = certificates.secureAddress(port: port, devices: devices)
            let guide = switch plainGuide {
            case .success(let plainPort): "plain HTTP on port \(plainPort) tells them how."
            case .failure(let error): "plain HTTP could not start (\(error)), so no page tells them how."
            }
            announce("Devices on the LAN open \(secure.hosts.map { SecureAddress.url(host: $0, port: port) }.joined(separator: " or ")) once they trust \(certificates.folder.authorityCertificatePath) (SHA-256 \(secure.authority.fingerprint)); \(guide)")
        }
        // Printed last, so a script that waits for this line has everything above it too.
        announce("Fieldbook is serving at \(address)/")
        return port
    }

    /// Starts the certificate's renewal and the plain-HTTP guide, when Fieldbook serves its own HTTPS. A plain port
    /// another program holds costs only the guide, with a warning: HTTPS is what devices use, and failing the start
    /// would leave a service restarting for ever after an upgrade.
    private func startPlainServer() -> Result<UInt16, any Error>? {
        guard let certificates, let plainServer else { return nil }
        certificates.start(presentingOn: server)
        let started = Result { try plainServer.start() }
        if case .failure(let error) = started {
            logger.warning("plain HTTP (the page giving the HTTPS address) not served: \(error)")
        }
        return started
    }

    /// Finishes requests in flight, stops the server and closes the database.
    public func stop() {
        certificates?.stop()
        plainServer?.stop()
        lanAnnouncer.stop()
        syncEngine.stop()
        notifier.stop()
        imports.stop()
        photoSweeper.stop()
        duplicateScout.stop()
        exports.stop()
        backups.stop()
        server.stop()
        do { try database.close() } catch { logger.error("closing the database failed", metadata: ["error": "\(error)"]) }
    }
}

/// Sends each request to the surface it belongs to: static files, the JSON API, or the pages.
struct AppResponder: RequestResponder {
    let staticFiles: StaticFiles
    let web: WebUI
    let api: JSONAPI

    func respond(to request: Request) -> Response {
        if request.method == .get || request.method == .head, let file = staticFiles.response(for: request) { return file }
        return isAPI(request) ? api.respond(to: request) : web.respond(to: request)
    }

    func respond(to request: Request, failure: HTTPError) -> Response {
        isAPI(request) ? api.respond(to: request, failure: failure) : web.respond(to: request, failure: failure)
    }

    /// GETs and HEADs whose routes only read: SQLite's readers never wait for its writer.
    func isQuickRead(_ request: Request) -> Bool { isAPI(request) ? api.onlyReads(request) : web.onlyReads(request) }

    private func isAPI(_ request: Request) -> Bool { request.path.hasPrefix("/api/") }
}

/// Lets the sync engine, built before the broadcaster it reports to, reach it once both exist.
final class StatusRelay: @unchecked Sendable {
    private let lock = NSLock()
    private var action: (@Sendable () -> Void)?

    func set(_ action: @escaping @Sendable () -> Void) { lock.withLock { self.action = action } }

    func fire() { lock.withLock { action }?() }
}
