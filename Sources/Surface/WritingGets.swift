import HTTPServer

/// The GET routes of a surface whose handler writes. The server answers every other GET on its reading threads
/// (`RequestResponder.isQuickRead`), which must never wait for the database's writer.
public struct WritingGets: Sendable {
    private var routes = Router()

    public init() {}

    public mutating func add(_ pattern: RoutePattern) {
        routes.add(.get, pattern.pattern) { _ in throw HTTPError.notFound(pattern.pattern) }
    }

    /// True for a GET or HEAD whose route only reads.
    public func onlyReads(_ request: Request) -> Bool {
        (request.method == .get || request.method == .head) && (try? routes.resolve(request)) == nil
    }
}
