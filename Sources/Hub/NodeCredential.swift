import Foundation

/// A node's own sign-in at its hub ("linked nodes"): a token family made when the node was linked, with a person's
/// email and password used once. It outlives that person's password changes (a node must not stop when someone picks
/// a new password) and ends only when a hub administrator revokes it, or when the account that made it is disabled.
public struct NodeCredential: Sendable, Equatable {
    /// The token family's id, by which an administrator revokes it.
    public let id: UUID
    public let name: String
    /// The account that linked the node, and its email.
    public let userId: UUID
    public let linkedBy: String
    public let createdAt: Date
    /// The last time the node renewed its sign-in (about every quarter of an hour while it syncs).
    public let lastSeenAt: Date
    public let revokedAt: Date?

    public init(id: UUID, name: String, userId: UUID, linkedBy: String, createdAt: Date, lastSeenAt: Date, revokedAt: Date?) {
        (self.id, self.name, self.userId, self.linkedBy) = (id, name, userId, linkedBy)
        (self.createdAt, self.lastSeenAt, self.revokedAt) = (createdAt, lastSeenAt, revokedAt)
    }

    /// The longest name a node may give itself.
    public static let maxNameLength = 100
}
