/// An error that knows which HTTP status it should be answered with.
public protocol HTTPResponseError: Error {
    /// The status the error renderer answers with.
    var status: HTTPStatus { get }
    /// A message safe to show to the user.
    var publicMessage: String { get }
}

/// A transport-level failure raised by the server or router (bad body, unknown path, ...).
public struct HTTPError: HTTPResponseError, Equatable {
    public let status: HTTPStatus
    public let publicMessage: String
    /// Methods the path does accept, for 405 answers.
    public let allowedMethods: [HTTPMethod]

    public init(_ status: HTTPStatus, _ message: String, allowedMethods: [HTTPMethod] = []) {
        self.status = status
        self.publicMessage = message
        self.allowedMethods = allowedMethods
    }

    public static func notFound(_ path: String) -> HTTPError {
        HTTPError(.notFound, "There is no page at \(path). Check the address, or start again from the home page.")
    }

    public static func malformedBody(_ detail: String) -> HTTPError {
        HTTPError(.badRequest, "The form data sent could not be read (\(detail)). Reload the page and try again.")
    }

    /// A request that arrived, or waited its turn, while the server was stopping: it was not carried out.
    public static let stopping = HTTPError(.serviceUnavailable, "Fieldbook is shutting down, and this request was not carried out. Try again in a minute.")

    public static func bodyTooLarge(limit: Int) -> HTTPError {
        HTTPError(.payloadTooLarge, "What was sent is larger than the \(ByteCountText.describe(limit)) this server accepts. Send something smaller.")
    }
}

/// Renders byte counts for people.
public enum ByteCountText {
    public static func describe(_ bytes: Int) -> String {
        if bytes >= 1 << 20 { return "\(bytes >> 20) MiB" }
        if bytes >= 1 << 10 { return "\(bytes >> 10) KiB" }
        return "\(bytes) bytes"
    }
}
