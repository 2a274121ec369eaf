import HTTPServer

/// A route as its table declares it: surface, method, address pattern and who may use it. `fieldbook routes --json`
/// prints every one, so the reliability suite checks each route for each role, including routes added later.
public struct DeclaredRoute: Sendable, Encodable, Equatable {
    /// "page" or "api".
    public let surface: String
    public let method: String
    public let path: String
    /// "anyone", "signed-in", "editor" or "administrator".
    public let access: String
    /// Who the route is for, as a refusal words it ("editors and administrators").
    public let accessLabel: String

    public init(surface: String, method: HTTPMethod, path: String, access: Access) {
        self.surface = surface
        self.method = method.rawValue
        self.path = path
        self.access = access.name
        accessLabel = access.label
    }
}

extension Access {
    /// The access level's name in `fieldbook routes` output.
    public var name: String {
        switch self {
        case .anyone: "anyone"
        case .signedIn: "signed-in"
        case .editor: "editor"
        case .administrator: "administrator"
        }
    }
}
