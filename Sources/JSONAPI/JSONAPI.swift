import Domain
import Foundation
import HTTPServer
import Logging
import Storage
import Sync

/// The JSON surface under /api/v1: its route table and its one error envelope.
public final class JSONAPI: Sendable {
    let database: AppDatabase
    let version: String
    let logger: Logger
    private let router: Router

    public init(database: AppDatabase, version: String, logger: Logger, tokenPolicy: APITokenPolicy = APITokenPolicy(),
                syncEngine: SyncEngine? = nil, syncStatus: SyncStatusReporter? = nil) {
        self.database = database
        self.version = version
        self.logger = logger
        var table = APIRouteTable()
        JSONRoutes.register(in: &table, version: version, sync: SyncEndpoints(engine: syncEngine, status: syncStatus))
        var router = Router()
        table.register(in: &router, authenticator: APIAuthenticator(database: database, policy: tokenPolicy))
        self.router = router
    }

    public func respond(to request: Request) -> Response {
        do {
            return try router.handle(request)
        } catch {
            return errorResponse(for: error, request: request)
        }
    }

    public func respond(to request: Request, failure: HTTPError) -> Response {
        errorResponse(for: failure, request: request)
    }

    private func errorResponse(for error: Error, request: Request) -> Response {
        let (status, code, message, fields) = Self.describe(error)
        if status == .internalServerError {
            logger.error("unhandled API error", metadata: ["path": "\(request.path)", "error": "\(String(reflecting: error))"])
        }
        var response = JSONResponse.make(ErrorEnvelope(error: .init(code: code, message: message, fields: fields)), status: status)
        if let httpError = error as? HTTPError, !httpError.allowedMethods.isEmpty {
            response.setHeader("Allow", httpError.allowedMethods.map(\.rawValue).joined(separator: ", "))
        }
        if status == .unauthorized { response.setHeader("WWW-Authenticate", "Bearer") }
        if let throttled = error as? TooManySignIns { response.setHeader("Retry-After", String(throttled.seconds)) }
        return response
    }

    static func describe(_ error: Error) -> (HTTPStatus, String, String, [FieldError]?) {
        switch error {
        case let error as ValidationError: (.unprocessableContent, "validation_failed", "Some fields are not valid.", error.fieldErrors)
        case let error as DomainError:
            switch error {
            case .notFound: (.notFound, "not_found", error.userMessage, nil)
            case .protected: (.forbidden, "protected", error.userMessage, nil)
            case .stillReferenced: (.conflict, "still_referenced", error.userMessage, nil)
            case .staleVersion: (.conflict, "stale_version", error.userMessage, nil)
            }
        case let error as APIConflict: (.conflict, "conflict", "The change conflicts with other records; see fields.", error.fields)
        case let error as APIErrorCode & HTTPResponseError: (error.status, error.code, error.publicMessage, nil)
        case let error as HTTPResponseError:
            (error.status, error.status.reasonPhrase.lowercased().replacingOccurrences(of: " ", with: "_"), error.publicMessage, nil)
        default: (.internalServerError, "internal_error", "Something went wrong on the server; the details are in its log.", nil)
        }
    }
}

/// An API error with its own machine-readable code (rather than one derived from the status).
protocol APIErrorCode {
    var code: String { get }
}

extension APIMalformedJSON: APIErrorCode { var code: String { "malformed_json" } }
extension APIBadParameter: APIErrorCode { var code: String { "invalid_parameter" } }
extension APIUnauthorized: APIErrorCode { var code: String { "unauthorized" } }

/// The one shape every API error takes.
struct ErrorEnvelope: Encodable {
    struct Body: Encodable {
        let code: String
        let message: String
        let fields: [FieldError]?
    }

    let error: Body
}

enum JSONResponse {
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        encoder.keyEncodingStrategy = .convertToSnakeCase
        return encoder
    }()

    static func make(_ value: some Encodable, status: HTTPStatus = .ok) -> Response {
        let data = (try? encoder.encode(value)) ?? Data("{}".utf8)
        return Response.json(data, status: status)
    }
}
