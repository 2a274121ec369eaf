import Credentials
import Domain
import Foundation
import HTTPServer
import Hub
import Storage
import Surface

/// A missing, unknown, expired or revoked bearer token: answered 401 with `WWW-Authenticate: Bearer`.
struct APIUnauthorized: CodedError {
    let publicMessage: String
    var status: HTTPStatus { .unauthorized }
    var code: String { "unauthorized" }
}

/// Who sent an API request: the user, and the bearer token's sign-in when they sent one (nil for the session cookie).
struct APICaller {
    let user: User
    let bearer: APIBearer?
}

/// Checks bearer tokens (and, for reads, the pages' session cookie) and roles.
public struct APIAuthenticator: Sendable {
    /// Where accounts and bearer tokens live: this Fieldbook's database, or a PostgreSQL hub's.
    let accounts: any SyncHub
    /// This Fieldbook's own database, behind the record routes and the pages' session cookie; nil on a hub that only
    /// syncs (a PostgreSQL hub).
    let node: AppDatabase?
    let policy: APITokenPolicy
    let sessionPolicy: SessionPolicy
    /// Failed sign-ins, counted together with the sign-in page's.
    let signInThrottle: SignInThrottle

    public init(database: AppDatabase, policy: APITokenPolicy = APITokenPolicy(), sessionPolicy: SessionPolicy = SessionPolicy(),
                signInThrottle: SignInThrottle) {
        accounts = database
        node = database
        self.policy = policy
        self.sessionPolicy = sessionPolicy
        self.signInThrottle = signInThrottle
    }

    /// For a hub that only syncs: bearer tokens only, no session cookie.
    public init(hub: any SyncHub, policy: APITokenPolicy = APITokenPolicy(), signInThrottle: SignInThrottle) {
        accounts = hub
        node = nil
        self.policy = policy
        sessionPolicy = SessionPolicy()
        self.signInThrottle = signInThrottle
    }

    /// The caller, if their role allows `access`; throws 401 or 403 otherwise. A request without a bearer token may be
    /// signed in by the pages' session cookie where `acceptsSession` (reads only); a bearer token, when sent, decides.
    func caller(_ request: Request, requiring access: Access, acceptsSession: Bool) throws -> APICaller {
        if acceptsSession, Self.bearerToken(request) == nil, let user = try node?.session(of: request, policy: sessionPolicy)?.user {
            guard access.allows(user) else { throw HTTPError(.forbidden, access.refusal(for: user)) }
            return APICaller(user: user, bearer: nil)
        }
        let bearer = try bearer(request, requiring: access)
        return APICaller(user: bearer.user, bearer: bearer)
    }

    /// The user behind the request's bearer token, if their role allows `access`; throws 401 or 403 otherwise.
    func bearer(_ request: Request, requiring access: Access) throws -> APIBearer {
        guard let token = Self.bearerToken(request) else {
            throw APIUnauthorized(publicMessage: "Send an access token from POST \(APIPaths.login()) in the header Authorization: Bearer <token>.")
        }
        guard let bearer = try accounts.apiBearer(accessToken: token, now: Date()) else {
            throw APIUnauthorized(publicMessage: "The access token is unknown, expired or revoked. Get a new one from POST \(APIPaths.refresh()) or sign in again.")
        }
        guard access.allows(bearer.user) else { throw HTTPError(.forbidden, access.refusal(for: bearer.user)) }
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
