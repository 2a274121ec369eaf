import Credentials
import Domain
import Foundation
import HTTPServer
import Hub
import Storage
import Surface

/// Sign-in, token refresh and sign-out for API clients (bearer tokens; README, JSON API).
enum AuthResource {
    struct TokenBody: Encodable, Sendable {
        let accessToken: String
        let refreshToken: String
        let tokenType = "Bearer"
        let expiresIn: Int
        let user: RecordBody

        init(_ pair: APITokenPair) {
            accessToken = pair.accessToken
            refreshToken = pair.refreshToken
            expiresIn = pair.expiresIn
            user = UserResource.body(pair.user)
        }
    }

    static let loginFields: [Field] = [
        .text("email", max: EmailAddress.maxLength, required: true, "The account's email address"),
        .text("password", max: 1000, required: true),
        .text("node_name", max: NodeCredential.maxNameLength, "A node linking to this hub: its name. The sign-in becomes the "
              + "node's own (an administrator's account only), which outlives password changes; administrators list and revoke "
              + "it under /api/v1/linked-nodes"),
    ]
    static let refreshFields: [Field] = [.text("refresh_token", max: 200, required: true, "From login or the last refresh")]

    static let components: [String: [Field]] = [
        "Login": loginFields,
        "Refresh": refreshFields,
        "Tokens": [
            .of("access_token", .text, required: true, "Send as Authorization: Bearer <access_token>"),
            .of("refresh_token", .text, required: true, "Single use: each refresh answers a new one"),
            .of("token_type", .choice(["Bearer"]), required: true),
            .of("expires_in", .integer, required: true, "Seconds the access token stays valid"),
            .of("user", .reference("User"), required: true),
        ],
    ]

    static let loginDoc = APIOperation(id: "login", summary: "Sign in with email and password; answers an access and a refresh token",
                                       body: "Login", success: .json("Tokens"), throttled: true, refusesCredentials: true)
    static let refreshDoc = APIOperation(id: "refreshTokens", summary: "Exchange a refresh token for a new pair (the old one stops working)",
                                         body: "Refresh", success: .json("Tokens"), refusesCredentials: true)
    static let logoutDoc = APIOperation(id: "logout", summary: "Sign out: the tokens of this sign-in stop working", success: .noContent)

    @Sendable static func login(_ context: APIContext) throws -> Response {
        let body = try context.body(loginFields, mode: .full)
        let email = body.text("email").trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        let throttle = context.authenticator.signInThrottle
        let address = context.request.remoteAddress
        let wait = throttle.waitTime(email: email, address: address)
        if wait > 0 { throw TooManySignIns(seconds: wait) }
        guard let user = try context.hub.verifyCredentials(email: email, password: body.text("password")) else {
            throttle.recordFailure(email: email, address: address)
            throw APIUnauthorized(publicMessage: "The email address or password is not right, or the account is disabled.")
        }
        throttle.recordSuccess(email: email, address: address)
        let nodeName = body.text("node_name").trimmingCharacters(in: .whitespacesAndNewlines)
        guard !nodeName.isEmpty else {
            return APIResponse.ok(TokenBody(try context.hub.issueAPITokens(for: user, policy: context.authenticator.policy, now: Date())))
        }
        // A node receives every record, accounts included: only an administrator links one.
        guard user.role.canAdminister else {
            throw HTTPError(.forbidden, "\(user.email) is not an administrator on the hub. Only an administrator's account can link a node.")
        }
        return APIResponse.ok(TokenBody(try context.hub.issueNodeCredential(for: user, nodeName: nodeName,
                                                                             policy: context.authenticator.policy, now: Date())))
    }

    @Sendable static func refresh(_ context: APIContext) throws -> Response {
        let body = try context.body(refreshFields, mode: .full)
        guard let pair = try context.hub.refreshAPITokens(refreshToken: body.text("refresh_token"),
                                                           policy: context.authenticator.policy, now: Date()) else {
            throw APIUnauthorized(publicMessage: "The refresh token is unknown, expired or already used. Sign in again with POST \(APIPaths.login()).")
        }
        return APIResponse.ok(TokenBody(pair))
    }

    @Sendable static func logout(_ context: APIContext) throws -> Response {
        if let family = context.bearer?.familyId { try context.database.revokeAPITokenFamily(family) }
        return APIResponse.noContent
    }
}
