import Domain
import Foundation
import HTTPServer
import LANCertificates
import Logging
import Storage
import Surface
import Sync
import Translations
@testable import WebUI

/// A WebUI over a fresh temporary database and the real templates, driven by calling its handler directly.
final class WebHarness {
    let directory: URL
    let database: AppDatabase
    let web: WebUI
    /// The sync engine the pages control, when a test asks for one (never started: no thread, no connection).
    let syncEngine: SyncEngine?
    let setupCode = SetupCode()
    /// Cookies the "browser" holds, updated from every Set-Cookie.
    var cookies: [String: String] = [:]
    static let password = "correct horse battery staple"

    static var repositoryRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    /// `linked`: false for a standalone Fieldbook (the only kind that offers /setup).
    /// `ownAuthority`: false for a server started with --tls-cert or --no-tls (the Add a device page offers no authority).
    /// `languages`: the pages' languages (English alone unless a test of translation gives the shipped catalogs).
    init(withSyncEngine: Bool = false, syncIntervalOverride: TimeInterval? = nil, linked: Bool = true, ownAuthority: Bool = true,
         languages: Languages = .englishOnly) async throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("fieldbook-web-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        database = try AppDatabase(path: directory.appendingPathComponent("fieldbook.sqlite").path, passwordCost: .test)
        // Linked to a hub that is never contacted, so writes queue outbox entries the tests can count.
        if linked {
            try database.linkHub(HubLink(upstream: URL(string: "http://hub.invalid")!, email: "hub@example.org",
                                         refreshToken: "not-a-real-token", linkedAt: Date()))
        }
        let renderer = try await PageRenderer.load(directory: Self.repositoryRoot.appendingPathComponent("templates").path,
                                                   languages: languages)
        let staticFiles = try StaticFiles(mounts: [("", Self.repositoryRoot.appendingPathComponent("Public").path)])
        var engineSettings = SyncEngineSettings()
        engineSettings.intervalOverride = syncIntervalOverride
        syncEngine = withSyncEngine ? SyncEngine(database: database, settings: engineSettings, logger: Logger(label: "test")) : nil
        web = WebUI(database: database, renderer: renderer, staticFiles: staticFiles,
                    syncStatus: StatusBroadcaster(reporter: SyncStatusReporter(database: database, engine: syncEngine)), setupCode: setupCode,
                    syncEngine: syncEngine, signInThrottle: SignInThrottle(), configuration: WebUIConfiguration(version: "test", devices: DeviceJoining(ownAuthority: ownAuthority ? TLSFolder.inDataFolder(directory.path) : nil)),
                    logger: Logger(label: "test"))
    }

    /// The catalogs in translations/, and the pseudo-locale.
    static func shippedLanguages() throws -> Languages {
        let folder = repositoryRoot.appendingPathComponent("translations")
        return try Languages.load(folder: folder, pseudoLocale: true).languages
    }

    deinit {
        syncEngine?.stop()
        try? FileManager.default.removeItem(at: directory)
    }

    @discardableResult
    func get(_ path: String) -> Response {
        let parts = path.split(separator: "?", maxSplits: 1)
        let query = parts.count > 1 ? QueryString.decode(String(parts[1])) : Parameters()
        return send(Request(method: .get, path: String(parts[0]), query: query, cookies: cookies))
    }

    /// Posts a form; the CSRF token is taken from the page at `formPath` unless `csrf` is given.
    @discardableResult
    func post(_ path: String, _ fields: [(String, String)], csrf: String? = nil, formPath: String? = nil) -> Response {
        let token = csrf ?? csrfToken(from: get(formPath ?? path))
        var form = Parameters(fields.map { (name: $0.0, value: $0.1) })
        if let token { form.append("csrf_token", token) }
        return send(Request(method: .post, path: path, cookies: cookies, form: form))
    }

    /// Posts a multipart form with one file, written to a file as the server would spool it.
    @discardableResult
    func upload(_ path: String, field: String, filename: String, _ bytes: [UInt8], fields: [(String, String)] = [],
                formPath: String? = nil) throws -> Response {
        let file = directory.appendingPathComponent("upload-\(UUID().uuidString)")
        try Data(bytes).write(to: file)
        var form = Parameters(fields.map { (name: $0.0, value: $0.1) })
        if let token = csrfToken(from: get(formPath ?? path)) { form.append("csrf_token", token) }
        let upload = UploadedFile(fieldName: field, filename: filename, declaredContentType: "text/csv", path: file.path, size: bytes.count)
        return send(Request(method: .post, path: path, cookies: cookies, form: form, files: [upload]))
    }

    func send(_ request: Request) -> Response {
        let response = web.respond(to: request)
        for header in response.headers where header.name == "Set-Cookie" {
            let pair = header.value.split(separator: ";")[0].split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(pair[0]), value = pair.count > 1 ? String(pair[1]) : ""
            if header.value.contains("Max-Age=0") { cookies[name] = nil } else { cookies[name] = value }
        }
        return response
    }

    func csrfToken(from response: Response) -> String? {
        let html = response.bodyText
        guard let range = html.range(of: "name=\"csrf_token\" value=\"") else { return nil }
        return String(html[range.upperBound...].prefix { $0 != "\"" })
    }

    @discardableResult
    func createUser(_ email: String, _ role: UserRole) throws -> User {
        try database.createUser(NewUserInput(name: "User \(email)", email: email, role: role.rawValue, password: Self.password,
                                             passwordConfirmation: Self.password), by: .system("test"))
    }

    /// Signs in through the login form, as a browser would.
    func signIn(_ email: String) {
        cookies = [:]
        post("/login", [("email", email), ("password", Self.password)])
    }
}
