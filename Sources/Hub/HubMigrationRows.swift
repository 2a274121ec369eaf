import Foundation

/// A bearer token as a hub keeps it (its hash only), for moving a hub to another store without signing nodes out.
public struct StoredAPIToken: Sendable {
    public let tokenHash: String
    public let kind: String
    public let userId: String
    public let familyId: String
    public let createdAt: Date
    public let expiresAt: Date
    public let revoked: Bool
    /// Issued by a rotation whose answer was lost: presenting it revokes the sign-in.
    public let lost: Bool

    public init(tokenHash: String, kind: String, userId: String, familyId: String, createdAt: Date, expiresAt: Date, revoked: Bool,
                lost: Bool = false) {
        (self.tokenHash, self.kind, self.userId, self.familyId) = (tokenHash, kind, userId, familyId)
        (self.createdAt, self.expiresAt, self.revoked, self.lost) = (createdAt, expiresAt, revoked, lost)
    }
}

/// A pushed operation a hub applied, with the answer it gave, so a node that pushes it again gets the same answer.
public struct AppliedOperation: Sendable {
    public let operationId: String
    /// The answer, as JSON text.
    public let result: String

    public init(operationId: String, result: String) {
        (self.operationId, self.result) = (operationId, result)
    }
}
