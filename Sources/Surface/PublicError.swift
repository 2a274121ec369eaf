import Domain
import HTTPServer

/// What a failure tells the client, the same on both surfaces: the HTML error page shows the message under a heading for
/// the status, the JSON API puts code, message and fields into its error envelope.
public struct PublicError: Sendable, Equatable {
    public let status: HTTPStatus
    /// Machine-readable, for API clients (`not_found`, `validation_failed`, ...).
    public let code: String
    /// Worded for people, and safe to show: never the internal error.
    public let message: String
    /// The fields concerned, for errors about a body's or form's values.
    public let fields: [FieldError]?
    /// Methods the address does accept, for a 405's `Allow` header.
    public let allowedMethods: [HTTPMethod]
    /// Seconds to wait, for a 429's `Retry-After` header.
    public let retryAfter: Int?

    public init(status: HTTPStatus, code: String, message: String, fields: [FieldError]? = nil,
                allowedMethods: [HTTPMethod] = [], retryAfter: Int? = nil) {
        self.status = status
        self.code = code
        self.message = message
        self.fields = fields
        self.allowedMethods = allowedMethods
        self.retryAfter = retryAfter
    }

    /// True when the failure is the server's own; the surfaces log the error then.
    public var isServerFault: Bool { status == .internalServerError }

    public static let internalMessage = "Something went wrong on the server, and this request changed nothing. Try again; "
        + "if it keeps happening, tell your administrator (the details are in the server log)."

    /// The one mapping from errors to what the client is told.
    public init(_ error: Error) {
        switch error {
        case let error as PubliclyDescribed: self = error.publicError
        case let error as ValidationError: self = .invalid(error)
        case let error as DomainError: self = .domain(error)
        case let error as HTTPResponseError:
            let code = (error as? CodedError)?.code
                ?? error.status.reasonPhrase.lowercased().replacingOccurrences(of: " ", with: "_")
            self.init(status: error.status, code: code, message: error.publicMessage,
                      allowedMethods: (error as? HTTPError)?.allowedMethods ?? [])
        default: self.init(status: .internalServerError, code: "internal_error", message: Self.internalMessage)
        }
    }

    /// Values that break a rule on their own are 422; values that clash with the records stored now are 409, since the
    /// same values can succeed once those records change.
    static func invalid(_ error: ValidationError) -> PublicError {
        switch error.cause {
        case .input: PublicError(status: .unprocessableContent, code: "validation_failed", message: "Some fields are not valid.",
                                 fields: error.fieldErrors)
        case .currentRecords: conflict(error.fieldErrors)
        }
    }

    /// A change the current records refuse, with the fields concerned.
    public static func conflict(_ fields: [FieldError]) -> PublicError {
        PublicError(status: .conflict, code: "conflict", message: "The change conflicts with other records; see fields.", fields: fields)
    }

    static func domain(_ error: DomainError) -> PublicError {
        switch error {
        case .notFound: PublicError(status: .notFound, code: "not_found", message: error.userMessage)
        case .protected: PublicError(status: .forbidden, code: "protected", message: error.userMessage)
        case .stillReferenced: PublicError(status: .conflict, code: "still_referenced", message: error.userMessage)
        case .staleVersion: PublicError(status: .conflict, code: "stale_version", message: error.userMessage)
        }
    }
}

/// An HTTP error with its own machine-readable code, rather than one derived from its status.
public protocol CodedError: HTTPResponseError {
    var code: String { get }
}

/// An error that says itself what the client is told.
public protocol PubliclyDescribed: Error {
    var publicError: PublicError { get }
}
