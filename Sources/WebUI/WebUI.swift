import Credentials
import Domain
import Foundation
import HTTPServer
import Logging
import Storage
import Surface
import Sync

/// Settings of the HTML surface.
public struct WebUIConfiguration: Sendable {
    public var sessionPolicy: SessionPolicy
    public var version: String
    /// What the "Add a device" page shows.
    public var devices: DeviceJoining

    public init(sessionPolicy: SessionPolicy = SessionPolicy(), version: String, devices: DeviceJoining) {
        self.sessionPolicy = sessionPolicy
        self.version = version
        self.devices = devices
    }
}

/// A page handler: load, build the view, render.
typealias PageHandler = (inout PageContext) throws -> Response

/// The HTML surface: its route table, sessions, CSRF checks and the error pages.
public final class WebUI: Sendable {
    let database: AppDatabase
    let renderer: PageRenderer
    let staticFiles: StaticFiles
    /// The live sync status: what every page shows, and what /events streams.
    let syncStatus: StatusBroadcaster
    let setupCode: SetupCode
    /// The sync thread's controls (nil in tests that need none).
    let syncEngine: SyncEngine?
    let configuration: WebUIConfiguration
    /// Failed sign-ins, counted together with the JSON API's.
    let signInThrottle: SignInThrottle
    /// The MBTiles files the map's tiles come from (nil: no tiles, the map shows its list only).
    let tiles: TileLibrary?
    /// Each person's last view of each list (filters, sort, page), for the navigation and breadcrumbs.
    let listViews = ListViewMemory()
    /// Forms sent after their session ended, until the person signs in again.
    let formStash = FormStash()
    /// Each person's notifications, told live on their /events streams.
    let notificationEvents: NotificationEvents
    /// Writes imports in the background (started and stopped by the app; tests run it with `runOnce`).
    public let imports: ImportRunner
    /// Writes prepared archives in the background (as `imports`).
    public let exports: ExportRunner
    /// Backs up in the background (as `imports`).
    public let backups: BackupService
    let logger: Logger
    private let router: Router
    private let writingGets: WritingGets
    /// The forms whose page can show submitted values again (`WebRouteTable.form`), by route pattern.
    private let restorableForms: [String: RestorableForm]

    public init(database: AppDatabase, renderer: PageRenderer, staticFiles: StaticFiles, syncStatus: StatusBroadcaster,
                setupCode: SetupCode, syncEngine: SyncEngine? = nil, signInThrottle: SignInThrottle, tiles: TileLibrary? = nil,
                configuration: WebUIConfiguration, imports: ImportRunner? = nil, exports: ExportRunner? = nil,
                backups: BackupService? = nil, logger: Logger) {
        self.database = database
        self.renderer = renderer
        self.staticFiles = staticFiles
        self.syncStatus = syncStatus
        self.setupCode = setupCode
        self.syncEngine = syncEngine
        self.signInThrottle = signInThrottle
        self.tiles = tiles
        self.configuration = configuration
        self.logger = logger
        self.imports = imports ?? ImportRunner(database: database, logger: logger, openArchive: Self.openArchive)
        self.exports = exports ?? ExportRunner(database: database, logger: logger)
        self.backups = backups ?? BackupService(database: database, logger: logger)
        notificationEvents = NotificationEvents(database: database, broadcaster: syncStatus)
        var table = WebRouteTable()
        WebRoutes.register(in: &table)
        self.router = table.router
        writingGets = table.writingGets
        restorableForms = table.restorableForms
        table.bind(to: self)
    }

    /// The pages that take files larger than a form (the server's upload limit applies to them only).
    public static var uploadPaths: Set<String> { [Paths.imports(), Paths.tileUpload(), Paths.photos()] }

    /// Every page route with its access, as the route table declares them.
    public static var declaredRoutes: [DeclaredRoute] {
        var table = WebRouteTable()
        WebRoutes.register(in: &table)
        return table.declared
    }

    /// Answers a page request; every failure becomes an HTML error page.
    public func respond(to request: Request) -> Response {
        DateStyle.$current.withValue(DateStyle.preferred(byAcceptLanguage: request.header("accept-language"))) {
            do {
                return try router.handle(request)
            } catch {
                return errorPage(for: error, request: request)
            }
        }
    }

    /// True for a GET or HEAD whose page only reads: it never waits for the writer (sessions' upkeep is written in
    /// the background), so the server answers it on its reading threads.
    public func onlyReads(_ request: Request) -> Bool { writingGets.onlyReads(request) }

    /// Answers a request whose body the server refused.
    public func respond(to request: Request, failure: HTTPError) -> Response {
        errorPage(for: failure, request: request)
    }

    /// Runs one page: resolves the session, checks role and CSRF token, then calls the handler.
    /// A GET only reads, so all its reads share one transaction (`readingTogether`); the session's upkeep, its one
    /// write, is left to the background (`keepUpLater`). Forms' answers write, then redirect: each read and write stands alone.
    func run(_ request: Request, access: Access, route: String, handler: PageHandler) throws -> Response {
        var upkeep: SessionUpkeep?
        defer { database.keepUpLater(upkeep) }
        guard request.method == .get else {
            return try runChecked(request, access: access, route: route, handler: handler, upkeep: &upkeep)
        }
        return try database.readingTogether { try runChecked(request, access: access, route: route, handler: handler, upkeep: &upkeep) }
    }

    private func runChecked(_ request: Request, access: Access, route: String, handler: PageHandler,
                            upkeep: inout SessionUpkeep?) throws -> Response {
        var context = makeContext(request, upkeep: &upkeep)
        if access != .anyone, context.user == nil {
            if try database.offersSetup() { return context.redirect(to: Paths.setup()) }
            if request.method == .post, ScriptedForm.isScripted(request) { throw ScriptedForm.sessionEnded() }
            if request.method == .post, let signIn = LoginPages.sessionEnded(&context, restorable: restorableForms[route] != nil) {
                return signIn
            }
            let next = request.method == .get ? "?next=" + QueryString.escape(request.pathWithQuery) : ""
            return context.redirect(to: Paths.login() + next)
        }
        guard access.allows(context.user) else { throw AccessDenied(message: access.refusal(for: context.user)) }
        if request.method == .post, !constantTimeEquals(request.field("csrf_token"), context.csrfToken) {
            // A script takes its token from the session it then sends with: a token that does not match means that session
            // ended or changed since, which the script asks the person to sign in for. To a script, 403 is only "not allowed".
            if ScriptedForm.isScripted(request) { throw ScriptedForm.sessionEnded() }
            throw HTTPError(.forbidden, "This form has expired or did not come from Fieldbook. Go back, reload the page and submit it again.")
        }
        if request.method == .get, let form = restorableForms[route], let session = context.session,
           let kept = formStash.take(claimedBy: session.csrfToken, path: request.path) {
            return try restore(kept, on: context, with: form)
        }
        let response = try handler(&context)
        // A write may have changed the pending count; open pages update live. Unchanged statuses are not re-sent.
        if request.method == .post, response.status.code < 400 { syncStatus.publishCurrent() }
        return response
    }

    /// The form's page with what was typed before the session ended: only the form's `show` handler runs, so nothing
    /// is saved until the person presses Save (with this session's CSRF token).
    private func restore(_ kept: FormStash.Entry, on context: PageContext, with form: RestorableForm) throws -> Response {
        var sent = context.request
        sent.method = .post
        sent.form = kept.parameters
        var restored = PageContext(request: sent, session: context.session, csrfToken: context.csrfToken, cookies: context.cookies,
                                   flash: LoginPages.restoredNotice, web: self)
        return try form.show(&restored)
    }

    /// Who is asking and their form token; the write their session's row needs is left in `upkeep`.
    private func makeContext(_ request: Request, upkeep: inout SessionUpkeep?) -> PageContext {
        var cookies: [Cookie] = []
        let found = try? database.lookUpSession(of: request, policy: configuration.sessionPolicy)
        let session = found?.session
        upkeep = found?.upkeep
        // An ended session's cookie stays while its session is remembered: the page's own requests (its live updates)
        // must not drop it before Save, whose form is then kept for that session's user (`LoginPages.sessionEnded`).
        if session == nil, found?.endedSessionUser == nil, request.cookie(CookieName.session) != nil {
            cookies.append(.expired(CookieName.session, secure: request.isTLS))
        }
        var csrf = session?.csrfToken ?? request.cookie(CookieName.anonymousCSRF) ?? ""
        if session == nil, csrf.count != 48 {
            csrf = randomToken()
            cookies.append(Cookie(name: CookieName.anonymousCSRF, value: csrf, secure: request.isTLS, sameSite: "Strict"))
        }
        let flash = request.cookie(CookieName.flash).flatMap { $0.removingPercentEncoding }
        if flash != nil, request.method == .get { cookies.append(.expired(CookieName.flash, secure: request.isTLS)) }
        return PageContext(request: request, session: session, csrfToken: csrf, cookies: cookies,
                           flash: request.method == .get ? flash : nil, web: self, endedSessionUser: found?.endedSessionUser)
    }

    func errorPage(for error: Error, request: Request) -> Response {
        let failure = PublicError(error)
        if let line = failure.logLine() {
            logger.error("\(line)", metadata: ["path": "\(request.path)", "error": "\(String(reflecting: error))"])
        }
        let status = failure.status
        var upkeep: SessionUpkeep?
        var context = makeContext(request, upkeep: &upkeep)
        database.keepUpLater(upkeep)
        if status == .notFound || status.code >= 500 { context.cookies.removeAll { $0.name == CookieName.flash } }
        var view: TemplateView = ["status": status.code, "heading": Self.heading(status), "message": failure.message]
        if let fields = failure.fields, !fields.isEmpty {
            view["fields"] = fields.map(\.message)
            view["has_fields"] = true
        }
        if failure.isDiskFull, request.method == .post { view.merge(TypedValues.view(of: request, csrfToken: context.csrfToken)) }
        var response = context.page("error", title: status.reasonPhrase, section: nil, view: view, status: status)
        if !failure.allowedMethods.isEmpty {
            response.setHeader("Allow", failure.allowedMethods.map(\.rawValue).joined(separator: ", "))
        }
        if let seconds = failure.retryAfter { response.setHeader("Retry-After", String(seconds)) }
        return response
    }

    static func heading(_ status: HTTPStatus) -> String {
        switch status.code {
        case 400: "The request could not be read"
        case 403: "You cannot do this"
        case 404: "Page not found"
        case 405: "This address does not accept that request"
        case 409: "This cannot be done right now"
        case 422: "Some values are not valid"
        case 413: "What you sent is too large"
        case 429: "Too many attempts"
        case 507: "The server's disk is full"
        default: "Sorry, there is a problem with the service"
        }
    }
}

/// Collects routes with their access level, then binds them to the WebUI that runs them.
struct WebRouteTable {
    private(set) var router = Router()
    /// The GET routes whose handler writes (`getThatWrites`).
    private(set) var writingGets = WritingGets()
    /// Every route with its access, for `fieldbook routes`.
    private(set) var declared: [DeclaredRoute] = []
    /// The POST routes registered with `form`, by pattern.
    private(set) var restorableForms: [String: RestorableForm] = [:]
    private let owner = OwnerBox()

    final class OwnerBox: @unchecked Sendable {
        weak var web: WebUI?
    }

    mutating func add(_ method: HTTPMethod, _ pattern: RoutePattern, _ access: Access, _ handler: @escaping PageHandler) {
        let owner = self.owner
        declared.append(DeclaredRoute(surface: "page", method: method, path: pattern.pattern, access: access))
        nonisolated(unsafe) let handler = handler
        router.add(method, pattern.pattern) { request in
            guard let web = owner.web else { throw HTTPError(.serviceUnavailable, "Fieldbook is shutting down.") }
            return try web.run(request, access: access, route: pattern.pattern, handler: handler)
        }
    }

    mutating func get(_ pattern: RoutePattern, _ access: Access, _ handler: @escaping PageHandler) { add(.get, pattern, access, handler) }

    /// A GET whose handler writes (opening a notification marks it read): it may wait for the writer, so it is not
    /// answered on the reading threads (`WebUI.onlyReads`).
    mutating func getThatWrites(_ pattern: RoutePattern, _ access: Access, _ handler: @escaping PageHandler) {
        add(.get, pattern, access, handler)
        writingGets.add(pattern)
    }
    mutating func post(_ pattern: RoutePattern, _ access: Access, _ handler: @escaping PageHandler) { add(.post, pattern, access, handler) }

    /// A form posted to the address of its own page (GET): `save` answers the POST; `show` shows the form filled in
    /// with the values its request carries, saving nothing. After a sign-in that interrupted the form, its page comes
    /// back with what was typed through `show` alone, so a restored form is never saved.
    mutating func form(_ pattern: RoutePattern, _ access: Access, show: @escaping PageHandler, save: @escaping PageHandler) {
        post(pattern, access, save)
        restorableForms[pattern.pattern] = RestorableForm(show: show)
    }

    func bind(to web: WebUI) { owner.web = web }
}

/// How a form that can be shown again filled in shows itself (`WebRouteTable.form`).
struct RestorableForm: @unchecked Sendable {
    /// Set once while the route table is built, then only called.
    let show: PageHandler
}
