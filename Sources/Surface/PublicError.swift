import Domain
import Foundation
import HTTPServer
import Storage

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
    /// Seconds to wait, for a 429's or 503's `Retry-After` header.
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
        case let error where DiskSpace.isFull(error): self = .diskFull
        default: self.init(status: .internalServerError, code: "internal_error", message: Self.internalMessage)
        }
    }

    /// Every write fails while the disk is full, and works again once space is freed: no restart needed.
    public static let diskFull = PublicError(
        status: .insufficientStorage, code: "disk_full",
        message: "The server's disk is full, so nothing from this request was saved. Ask your administrator to free space on "
            + "the disk that holds Fieldbook's data folder, then send it again.")

    public var isDiskFull: Bool { code == Self.diskFull.code }

    /// What the server log says about this failure, if anything: the server's own faults every time; a full disk, which
    /// fails every write until space is freed, at most once a minute, so the log cannot fill what is left of the disk.
    public func logLine(at now: Date = Date()) -> String? {
        if isServerFault { return "unhandled error" }
        if isDiskFull, Self.diskFullLog.allows(at: now) {
            return "the disk holding the database is full: writes fail until space is freed (logged at most once a minute)"
        }
        return nil
    }

    static let diskFullLog = OncePerInterval(seconds: 60)

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

/// Lets something happen at most once per interval, across threads.
public final class OncePerInterval: @unchecked Sendable {
    private let seconds: TimeInterval
    private let lock = NSLock()
    private var last: Date?

    public init(seconds: TimeInterval) { self.seconds = seconds }

    /// True, and counts as the once, when the interval has passed since the last time it was true.
    public func allows(at now: Date = Date()) -> Bool {
        lock.withLock {
            if let last, now.timeIntervalSince(last) < seconds { return false }
            last = now
            return true
        }
    }
}

extension AnalyticsPreparing: PubliclyDescribed {
    public var publicError: PublicError {
        PublicError(status: .serviceUnavailable, code: "analytics_preparing",
                    message: AnalyticsPreparing.explanation + " Try again in \(retryAfter) seconds.", retryAfter: retryAfter)
    }
}
