import Domain
import Foundation
import Storage

/// Links a node to a hub: signs in once with an administrator's email and password, keeps only the refresh token.
public enum HubLinker {
    /// Why linking failed, in words that say what to do.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        /// What the person must change: the hub's address, or the account they signed in with.
        public enum Cause: Sendable { case address, account }

        public let cause: Cause
        public let description: String
    }

    public static func link(_ database: AppDatabase, upstream: URL, email: String, password: String) throws {
        guard ["http", "https"].contains(upstream.scheme ?? ""), upstream.host != nil else {
            throw Failure(cause: .address, description: "The hub address must start with http:// or https://, like http://192.168.1.20:8080")
        }
        let client = HubClient(baseURL: upstream, timeout: 15)
        let tokens: HubTokens
        do {
            tokens = try client.signIn(email: email, password: password)
        } catch HubError.unauthorized {
            throw Failure(cause: .account, description: "The hub did not accept that email and password. Use an administrator account of the hub.")
        } catch let error as HubError {
            throw Failure(cause: .address, description: error.description)
        }
        guard tokens.role == nil || tokens.role == UserRole.administrator.rawValue else {
            throw Failure(cause: .account, description: "\(email) is not an administrator on the hub. Only an administrator's account can link a node, because a node receives every record, users included.")
        }
        try database.linkHub(HubLink(upstream: upstream, email: email, refreshToken: tokens.refreshToken, linkedAt: Date()))
    }
}
