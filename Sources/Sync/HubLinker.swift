import Domain
import Foundation
import Storage

/// Links a node to a hub: a hub administrator's email and password are used once, to make the node's own sign-in there
/// (a node credential, which outlives that person's password changes); only its refresh token is kept.
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
        let tokens = try nodeCredential(database, at: upstream, email: email, password: password)
        try database.linkHub(HubLink(upstream: upstream, email: email, refreshToken: tokens.refreshToken, linkedAt: Date()))
    }

    /// Signs a linked node in again (its sign-in was revoked, or the account that made it disabled) with a new node
    /// credential. Nothing else changes: the queue, the pull cursor and the link stay. `upstream`: where the hub is
    /// reached now (`--upstream`), when not at the linked address.
    public static func signInAgain(_ database: AppDatabase, upstream: URL? = nil, email: String, password: String) throws {
        guard let link = try database.hubLink() else {
            throw Failure(cause: .address, description: "This Fieldbook is not linked to a hub: link it first.")
        }
        let tokens = try nodeCredential(database, at: upstream ?? link.upstream, email: email, password: password)
        try database.renewHubCredential(email: email, refreshToken: tokens.refreshToken)
    }

    private static func nodeCredential(_ database: AppDatabase, at upstream: URL, email: String, password: String) throws -> HubTokens {
        let client = HubClient(baseURL: upstream, timeout: 15)
        do {
            return try client.makeNodeCredential(email: email, password: password, nodeName: try nodeName(database))
        } catch HubError.unauthorized {
            throw Failure(cause: .account, description: "The hub did not accept that email and password. Use an administrator account of the hub.")
        } catch HubError.server(let status, _) where status == 403 {
            throw Failure(cause: .account, description: "\(email) is not an administrator on the hub. Only an administrator's account can link a node, because a node receives every record, users included.")
        } catch let error as HubError {
            throw Failure(cause: .address, description: error.description)
        }
    }

    /// How the hub's administrators see this node in their list: the machine's name and the start of the node's id.
    static func nodeName(_ database: AppDatabase) throws -> String {
        let host = ProcessInfo.processInfo.hostName.prefix(60)
        return "\(host.isEmpty ? "Fieldbook" : String(host)) (\(try database.nodeId().uuidString.prefix(8).lowercased()))"
    }
}
