/// A request handler: takes a fully read request and answers it, or throws an error that carries its status.
public typealias Handler = @Sendable (Request) throws -> Response

/// A route table: method plus path pattern (`/things/{id}/edit`) to handler.
public struct Router: Sendable {
    private struct Route: Sendable {
        let method: HTTPMethod
        let segments: [Segment]
        let handler: Handler
    }

    private enum Segment: Sendable, Equatable {
        case literal(String)
        case parameter(String)
    }

    private var routes: [Route] = []

    public init() {}

    public mutating func add(_ method: HTTPMethod, _ pattern: String, _ handler: @escaping Handler) {
        routes.append(Route(method: method, segments: Self.parse(pattern), handler: handler))
    }

    public mutating func get(_ pattern: String, _ handler: @escaping Handler) { add(.get, pattern, handler) }
    public mutating func post(_ pattern: String, _ handler: @escaping Handler) { add(.post, pattern, handler) }
    public mutating func put(_ pattern: String, _ handler: @escaping Handler) { add(.put, pattern, handler) }
    public mutating func delete(_ pattern: String, _ handler: @escaping Handler) { add(.delete, pattern, handler) }

    /// Finds the handler for a request; HEAD is answered by the GET route.
    /// Throws 404 when no pattern matches the path, 405 (with the allowed methods) when only the method differs.
    public func resolve(_ request: Request) throws -> (Handler, Request) {
        let pathSegments = Self.split(request.path)
        let wanted: HTTPMethod = request.method == .head ? .get : request.method
        // A path that matches a literal segment belongs to that route's resource, not to a pattern that would take the
        // same word as a parameter: `/lists/1/stops/from-filter` is not the stop called "from-filter".
        let matches = routes.compactMap { route in Self.match(route.segments, pathSegments).map { (route, $0) } }
        let specific = matches.map { Self.literalCount($0.0.segments) }.max() ?? 0
        var allowed: [HTTPMethod] = []
        for (route, parameters) in matches where Self.literalCount(route.segments) == specific {
            if route.method == wanted {
                var matched = request
                matched.pathParameters = parameters
                return (route.handler, matched)
            }
            allowed.append(route.method)
            if route.method == .get { allowed.append(.head) }
        }
        if allowed.isEmpty { throw HTTPError.notFound(request.path) }
        let unique = HTTPMethod.allCases.filter(allowed.contains)
        throw HTTPError(.methodNotAllowed,
                        "This address does not accept \(request.method.rawValue). It accepts \(unique.map(\.rawValue).joined(separator: ", ")).",
                        allowedMethods: unique)
    }

    private static func literalCount(_ segments: [Segment]) -> Int {
        segments.reduce(0) { count, segment in if case .literal = segment { count + 1 } else { count } }
    }

    public func handle(_ request: Request) throws -> Response {
        let (handler, matched) = try resolve(request)
        return try handler(matched)
    }

    private static func split(_ path: String) -> [Substring] {
        path.split(separator: "/", omittingEmptySubsequences: true)
    }

    private static func parse(_ pattern: String) -> [Segment] {
        split(pattern).map { piece in
            if piece.hasPrefix("{") && piece.hasSuffix("}") {
                return .parameter(String(piece.dropFirst().dropLast()))
            }
            return .literal(String(piece))
        }
    }

    private static func match(_ segments: [Segment], _ path: [Substring]) -> [String: String]? {
        guard segments.count == path.count else { return nil }
        var parameters: [String: String] = [:]
        for (segment, piece) in zip(segments, path) {
            switch segment {
            case .literal(let text): if text != piece { return nil }
            case .parameter(let name): parameters[name] = String(piece)
            }
        }
        return parameters
    }
}
