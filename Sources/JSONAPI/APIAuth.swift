import Domain
import Foundation
import HTTPServer
import Storage

/// Who may call an API route; the same levels the pages use.
public enum APIAccess: Sendable {
    /// No token needed (health, this document, sign-in, refresh).
    case anyone
    /// Any signed-in role, read-only included.
    case reader
    /// Editors and administrators: writes to community records.
    case editor
    /// Administrators only: users, and the sync endpoints.
    case administrator

    func allows(_ role: UserRole) -> Bool {
        switch self {
        case .anyone, .reader: true
        case .editor: role.canEditRecords
        case .administrator: role.canAdminister
        }
    }

    var label: String {
        switch self {
        case .anyone: "anyone"
        case .reader: "any signed-in user"
        case .editor: "editors and administrators"
        case .administrator: "administrators"
        }
    }
}

/// A missing, unknown, expired or revoked bearer token: answered 401 with `WWW-Authenticate: Bearer`.
struct APIUnauthorized: HTTPResponseError {
    let publicMessage: String
    var status: HTTPStatus { .unauthorized }
}

/// Checks bearer tokens and roles; sibling route files (sync) call `authenticate(_:requiring:)` too.
public struct APIAuthenticator: Sendable {
    let database: AppDatabase
    let policy: APITokenPolicy
    /// Failed sign-ins per account and client address, as on the sign-in page.
    let loginThrottle = LoginThrottle()

    public init(database: AppDatabase, policy: APITokenPolicy = APITokenPolicy()) {
        self.database = database
        self.policy = policy
    }

    /// The signed-in user behind the request's bearer token, if their role allows `access`; throws 401 or 403 otherwise.
    public func authenticate(_ request: Request, requiring access: APIAccess) throws -> User {
        try bearer(request, requiring: access).user
    }

    /// Like `authenticate`, also giving the token family (logout revokes it).
    func bearer(_ request: Request, requiring access: APIAccess) throws -> APIBearer {
        guard let token = Self.bearerToken(request) else {
            throw APIUnauthorized(publicMessage: "Send an access token from POST /api/v1/auth/login in the header Authorization: Bearer <token>.")
        }
        guard let bearer = try database.apiBearer(accessToken: token) else {
            throw APIUnauthorized(publicMessage: "The access token is unknown, expired or revoked. Get a new one from POST /api/v1/auth/refresh or sign in again.")
        }
        guard access.allows(bearer.user.role) else {
            throw HTTPError(.forbidden, "Your role (\(bearer.user.role.label)) does not allow this; it is for \(access.label).")
        }
        return bearer
    }

    static func bearerToken(_ request: Request) -> String? {
        guard let header = request.header("authorization") else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        let token = parts[1].trimmingCharacters(in: .whitespaces)
        return token.isEmpty ? nil : token
    }
}
