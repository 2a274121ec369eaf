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

    /// Returns the hub's own certificate authority when it serves with one: from then on the only authority its
    /// certificate is checked against, so the caller shows its fingerprint to compare with the hub's Add a device page.
    @discardableResult
    public static func link(_ database: AppDatabase, upstream: URL, email: String, password: String) throws -> AuthorityCertificate? {
        guard ["http", "https"].contains(upstream.scheme ?? ""), upstream.host != nil else {
            throw Failure(cause: .address, description: "The hub address must start with http:// or https://, like https://192.168.1.20:8080")
        }
        let authority = try ownAuthority(at: upstream)
        let client = HubClient(baseURL: upstream, authority: authority?.pem, timeout: 15)
        let tokens = try nodeCredential(database, client, email: email, password: password)
        try database.linkHub(HubLink(upstream: upstream, email: email, refreshToken: tokens.refreshToken, linkedAt: Date(),
                                     authority: authority?.pem))
        return authority
    }

    /// A hub on the LAN serves with Fieldbook's own authority, which no system trusts: it is fetched unchecked (the
    /// fingerprint is what a person checks) and then trusted alone. An authority that changes later is never fetched
    /// again without a new link.
    private static func ownAuthority(at upstream: URL) throws -> AuthorityCertificate? {
        guard upstream.scheme == "https" else { return nil }
        do {
            return try HubClient(baseURL: upstream, trust: .unchecked, timeout: 15).ownAuthority()
        } catch let error as HubError {
            throw Failure(cause: .address, description: error.description)
        }
    }

    /// Signs a linked node in again (its sign-in was revoked, or the account that made it disabled) with a new node
    /// credential. Nothing else changes: the queue, the pull cursor and the link stay. `upstream`: where the hub is
    /// reached now (`--upstream`), when not at the linked address.
    public static func signInAgain(_ database: AppDatabase, upstream: URL? = nil, email: String, password: String) throws {
        guard let link = try database.hubLink() else {
            throw Failure(cause: .address, description: "This Fieldbook is not linked to a hub: link it first.")
        }
        let client = HubClient(baseURL: upstream ?? link.upstream, authority: link.authority, timeout: 15)
        let tokens = try nodeCredential(database, client, email: email, password: password)
        try database.renewHubCredential(email: email, refreshToken: tokens.refreshToken)
    }

    private static func nodeCredential(_ database: AppDatabase, _ client: HubClient, email: String, password: String) throws -> HubTokens {
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

    /// Says which authority the node now trusts for its hub, to compare before syncing.
    public static func trustNotice(_ authority: AuthorityCertificate) -> String {
        """
        The hub serves HTTPS with its own certificate authority; this node now trusts only that one for it. Its SHA-256 \
        fingerprint is \(authority.fingerprint). Compare it with the fingerprint on the hub's Add a device page (or its \
        start-up line); if they differ, unlink at once: someone else answered at that address.
        """
    }

    /// How the hub's administrators see this node in their list: the machine's name and the start of the node's id.
    static func nodeName(_ database: AppDatabase) throws -> String {
        let host = ProcessInfo.processInfo.hostName.prefix(60)
        return "\(host.isEmpty ? "Fieldbook" : String(host)) (\(try database.nodeId().uuidString.prefix(8).lowercased()))"
    }
}
