import Credentials
import Domain
import Foundation
import HTTPServer
import Hub
import Logging
import Storage
import Surface
import Sync

/// The JSON surface under /api/v1: its route table and its one error envelope.
public final class JSONAPI: Sendable {
    let version: String
    let logger: Logger
    private let router: Router
    private let writingGets: WritingGets

    /// `signInThrottle` is the one the pages use too; `sessionPolicy` is the pages' as well, for reads signed in by their cookie.
    public init(database: AppDatabase, version: String, logger: Logger, signInThrottle: SignInThrottle,
                tokenPolicy: APITokenPolicy = APITokenPolicy(), sessionPolicy: SessionPolicy = SessionPolicy(),
                syncEngine: SyncEngine? = nil, syncStatus: SyncStatusReporter? = nil) {
        self.version = version
        self.logger = logger
        var table = APIRouteTable()
        JSONRoutes.register(in: &table, version: version, sync: SyncEndpoints(engine: syncEngine, status: syncStatus,
                                                                                 waiters: ChangeWaiters(hub: database)))
        var router = Router()
        table.register(in: &router, authenticator: APIAuthenticator(database: database, policy: tokenPolicy, sessionPolicy: sessionPolicy,
                                                                    signInThrottle: signInThrottle))
        self.router = router
        writingGets = table.writingGets
    }

    /// True for a GET or HEAD whose route only reads (`APIRouteTable.getThatWrites` declares the others).
    public func onlyReads(_ request: Request) -> Bool { writingGets.onlyReads(request) }

    /// The addresses whose multipart uploads the server spills to disk as they arrive (a photo), as the pages' uploads.
    public static var uploadPaths: Set<String> { [APIPaths.photos()] }

    /// Every API route with its access, as the route table declares them.
    public static func declaredRoutes(version: String) -> [DeclaredRoute] {
        var table = APIRouteTable()
        JSONRoutes.register(in: &table, version: version)
        return table.routes.map { DeclaredRoute(surface: "api", method: $0.method, path: $0.path, access: $0.access) }
    }

    public func respond(to request: Request) -> Response {
        APIErrors(logger: logger).answer(request, router)
    }

    public func respond(to request: Request, failure: HTTPError) -> Response {
        APIErrors(logger: logger).response(for: failure, request: request)
    }
}

/// The API's one error renderer: every error, from any route of any API surface, in the one envelope with its status.
struct APIErrors {
    let logger: Logger

    /// The router's answer to the request, or its error as the envelope.
    func answer(_ request: Request, _ router: Router) -> Response {
        do {
            return try router.handle(request)
        } catch {
            return response(for: error, request: request)
        }
    }

    func response(for error: Error, request: Request) -> Response {
        let failure = PublicError(error)
        if let line = failure.logLine() {
            logger.error("\(line)", metadata: ["path": "\(request.path)", "error": "\(String(reflecting: error))"])
        }
        var response = JSONResponse.make(ErrorEnvelope(failure), status: failure.status)
        if !failure.allowedMethods.isEmpty {
            response.setHeader("Allow", failure.allowedMethods.map(\.rawValue).joined(separator: ", "))
        }
        if failure.status == .unauthorized { response.setHeader("WWW-Authenticate", "Bearer") }
        if let seconds = failure.retryAfter { response.setHeader("Retry-After", String(seconds)) }
        return response
    }
}

extension APIMalformedJSON: CodedError { var code: String { "malformed_json" } }
extension APIBadParameter: CodedError { var code: String { "invalid_parameter" } }

/// The one shape every API error takes.
struct ErrorEnvelope: Encodable {
    struct Body: Encodable {
        let code: String
        let message: String
        let fields: [FieldError]?
    }

    let error: Body

    init(_ failure: PublicError) {
        error = Body(code: failure.code, message: failure.message, fields: failure.fields)
    }
}

enum JSONResponse {
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // `.iso8601`'s text, written without Foundation's ISO 8601 style, which woke ICU's time zone data.
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(TimestampText.text(date, .api) ?? date.formatted(.iso8601))
        }
        encoder.keyEncodingStrategy = .convertToSnakeCase
        return encoder
    }()

    static func make(_ value: some Encodable, status: HTTPStatus = .ok) -> Response {
        let data = (try? encoder.encode(value)) ?? Data("{}".utf8)
        return Response.json(data, status: status)
    }
}

/// The JSON API of a hub that only syncs (`fieldbook hub`, on PostgreSQL): health, sign-in, push, the change log with
/// its long poll, and the document describing them, with the same handlers, checks and errors as every Fieldbook's.
public final class HubAPI: RequestResponder, Sendable {
    private let logger: Logger
    private let router: Router

    public init(hub: any SyncHub, version: String, logger: Logger, signInThrottle: SignInThrottle,
                tokenPolicy: APITokenPolicy = APITokenPolicy()) {
        self.logger = logger
        var table = APIRouteTable()
        JSONRoutes.registerHub(in: &table, version: version, sync: SyncEndpoints(waiters: ChangeWaiters(hub: hub)))
        var router = Router()
        table.register(in: &router, authenticator: APIAuthenticator(hub: hub, policy: tokenPolicy, signInThrottle: signInThrottle))
        self.router = router
    }

    public func respond(to request: Request) -> Response {
        APIErrors(logger: logger).answer(request, router)
    }

    public func respond(to request: Request, failure: HTTPError) -> Response {
        APIErrors(logger: logger).response(for: failure, request: request)
    }
}
