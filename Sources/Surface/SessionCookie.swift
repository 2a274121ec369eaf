import HTTPServer
import Storage

/// Cookie names Fieldbook sets. The pages set the session cookie at sign-in; the JSON API's reads accept it too, so
/// scripts on the pages can read /api/v1 as the signed-in user.
public enum CookieName {
    public static let session = "fieldbook_session"
    public static let anonymousCSRF = "fieldbook_csrf"
    public static let flash = "fieldbook_flash"
}

extension AppDatabase {
    /// The pages' session named by the request's session cookie, if it is still alive; both surfaces sign in with it.
    public func session(of request: Request, policy: SessionPolicy) throws -> SignedInSession? {
        let found = try lookUpSession(of: request, policy: policy)
        keepUpLater(found.upkeep)
        return found.session
    }

    /// The same, with the write the session's row needs left to the caller (`keepUp`).
    public func lookUpSession(of request: Request, policy: SessionPolicy) throws -> SessionLookup {
        guard let token = request.cookie(CookieName.session) else { return SessionLookup(session: nil, upkeep: nil) }
        return try lookUpSession(token: token, policy: policy)
    }
}
