import Crypto
import Domain
import Foundation

/// How long JSON API tokens live.
public struct APITokenPolicy: Sendable {
    public var accessLifetime: TimeInterval
    public var refreshLifetime: TimeInterval

    public init(accessLifetime: TimeInterval = 15 * 60, refreshLifetime: TimeInterval = 30 * 24 * 3600) {
        self.accessLifetime = accessLifetime
        self.refreshLifetime = refreshLifetime
    }
}

/// A freshly issued access and refresh token: the only moment the plain tokens exist on the server.
public struct APITokenPair: Sendable {
    public let accessToken: String
    public let refreshToken: String
    /// Seconds the access token stays valid.
    public let expiresIn: Int
    public let user: User
    /// The sign-in (token family) the pair belongs to.
    public let familyId: UUID

    public init(accessToken: String, refreshToken: String, expiresIn: Int, user: User, familyId: UUID) {
        (self.accessToken, self.refreshToken, self.expiresIn, self.user, self.familyId) = (accessToken, refreshToken, expiresIn, user, familyId)
    }
}

/// The user behind a live access token, and the sign-in (token family) it belongs to.
public struct APIBearer: Sendable {
    public let user: User
    public let familyId: UUID

    public init(user: User, familyId: UUID) {
        (self.user, self.familyId) = (user, familyId)
    }
}

/// Secrets handed to browsers and API clients (session ids, bearer tokens): random, URL-safe, and stored only as their
/// SHA-256, so a copy of the database holds no usable token.
public enum TokenSecret {
    public static func random() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    public static func hash(_ token: String) -> String {
        SHA256.hash(data: Data(token.utf8)).lowercaseHex
    }
}
