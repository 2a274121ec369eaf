import Credentials
import Crypto
import Domain
import Foundation
import GRDB
import HTTPServer
@testable import JSONAPI
import Storage
import Testing

@Suite struct AuthTests {
    @Test func loginAnswersATokenPairThatAuthenticates() throws {
        let given = try APIHarness()
        let user = try given.createUser("ada@example.org", .editor)
        let login = given.login("ADA@example.org ")
        #expect(login.status == 200)
        #expect(login.string("token_type") == "Bearer")
        #expect(login["expires_in"] as? Int == 900)
        #expect((login["user"] as? [String: Any])?["id"] as? String == user.id.uuidString.lowercased())
        #expect(given.send(.get, "/api/v1/venues", token: login.string("access_token")).status == 200)
        // A refresh token is not an access token.
        #expect(given.send(.get, "/api/v1/venues", token: login.string("refresh_token")).status == 401)
    }

    @Test func missingOrUnknownTokensAre401WithABearerChallenge() throws {
        let given = try APIHarness()
        for token in [nil, "not-a-token"] {
            let answer = given.send(.get, "/api/v1/participants", token: token)
            #expect(answer.status == 401)
            #expect(answer.response.header("WWW-Authenticate") == "Bearer")
            #expect(answer.errorCode == "unauthorized")
        }
        #expect(given.send(.get, "/api/v1/health").status == 200)
        #expect(given.send(.get, "/api/v1/openapi.json").status == 200)
    }

    @Test func wrongPasswordsAndDisabledAccountsAreRefused() throws {
        let given = try APIHarness()
        let user = try given.createUser("ada@example.org", .editor)
        #expect(given.login("ada@example.org", password: "wrong password!").status == 401)
        #expect(given.login("nobody@example.org").status == 401)
        let token = given.login("ada@example.org").string("access_token")
        try given.database.updateUser(id: user.id, UserChangeInput(name: user.name, role: "editor", isDisabled: true), by: .system("test"))
        #expect(given.login("ada@example.org").status == 401)
        #expect(given.send(.get, "/api/v1/venues", token: token).status == 401)
    }

    @Test func repeatedFailedSignInsAreThrottled() throws {
        let given = try APIHarness()
        try given.createUser("ada@example.org", .editor)
        for _ in 0..<LoginThrottle.freeAttempts { #expect(given.login("ada@example.org", password: "wrong password!").status == 401) }
        let throttled = given.login("ada@example.org")
        #expect(throttled.status == 429)
        #expect(Int(throttled.response.header("Retry-After") ?? "") ?? 0 > 0)
    }

    @Test func refreshRotatesRetriesOfLostRotationsWorkAndReusingAnOlderTokenRevokesTheSignIn() throws {
        let given = try APIHarness()
        try given.createUser("ada@example.org", .editor)
        let first = given.login("ada@example.org")
        let second = given.send(.post, "/api/v1/auth/refresh", ["refresh_token": first.string("refresh_token")])
        #expect(second.status == 200)
        #expect(second.string("refresh_token") != first.string("refresh_token"))
        #expect(given.send(.get, "/api/v1/venues", token: first.string("access_token")).status == 401)
        #expect(given.send(.get, "/api/v1/venues", token: second.string("access_token")).status == 200)

        // A rotation whose answer was lost: the replaced token once more, before its successor was used, gets a new pair.
        let lost = given.send(.post, "/api/v1/auth/refresh", ["refresh_token": first.string("refresh_token")])
        #expect(lost.status == 200)
        #expect(given.send(.get, "/api/v1/venues", token: second.string("access_token")).status == 401)
        // That answer was lost too: the same token is retried again, as often as answers are cut.
        let retried = given.send(.post, "/api/v1/auth/refresh", ["refresh_token": first.string("refresh_token")])
        #expect(retried.status == 200)
        #expect(given.send(.get, "/api/v1/venues", token: lost.string("access_token")).status == 401)
        #expect(given.send(.get, "/api/v1/venues", token: retried.string("access_token")).status == 200)
        let third = given.send(.post, "/api/v1/auth/refresh", ["refresh_token": retried.string("refresh_token")])
        #expect(third.status == 200)

        // Any older token presented again now means it was copied: the whole sign-in ends.
        let reuse = given.send(.post, "/api/v1/auth/refresh", ["refresh_token": first.string("refresh_token")])
        #expect(reuse.status == 401)
        #expect(given.send(.get, "/api/v1/venues", token: third.string("access_token")).status == 401)
        #expect(given.send(.post, "/api/v1/auth/refresh", ["refresh_token": third.string("refresh_token")]).status == 401)
        // Another sign-in of the same user is a separate family and keeps working.
        #expect(given.send(.get, "/api/v1/venues", token: given.login("ada@example.org").string("access_token")).status == 200)
    }

    @Test func logoutRevokesTheAccessAndRefreshToken() throws {
        let given = try APIHarness()
        try given.createUser("ada@example.org", .editor)
        let login = given.login("ada@example.org")
        #expect(given.send(.post, "/api/v1/auth/logout", token: login.string("access_token")).status == 204)
        #expect(given.send(.get, "/api/v1/venues", token: login.string("access_token")).status == 401)
        #expect(given.send(.post, "/api/v1/auth/refresh", ["refresh_token": login.string("refresh_token")]).status == 401)
        #expect(given.send(.post, "/api/v1/auth/logout").status == 401)
    }

    @Test func expiredTokensAreRefused() throws {
        let given = try APIHarness(tokenPolicy: APITokenPolicy(accessLifetime: -1, refreshLifetime: -1))
        try given.createUser("ada@example.org", .editor)
        let login = given.login("ada@example.org")
        #expect(login.status == 200)
        #expect(given.send(.get, "/api/v1/venues", token: login.string("access_token")).status == 401)
        #expect(given.send(.post, "/api/v1/auth/refresh", ["refresh_token": login.string("refresh_token")]).status == 401)
    }

    @Test func onlyHashesOfTokensAreStored() throws {
        let given = try APIHarness()
        try given.createUser("ada@example.org", .editor)
        let login = given.login("ada@example.org")
        let queue = try DatabaseQueue(path: given.database.path)
        let hashes = try queue.read { try String.fetchAll($0, sql: "SELECT token_hash FROM api_tokens") }
        try queue.close()
        let expected = SHA256.hash(data: Data(login.string("access_token").utf8)).map { String(format: "%02x", $0) }.joined()
        #expect(hashes.count == 2)
        #expect(hashes.contains(expected))
        #expect(!hashes.contains(login.string("access_token")) && !hashes.contains(login.string("refresh_token")))
    }

    @Test func resettingAPasswordEndsTheUsersAPISignIns() throws {
        let given = try APIHarness()
        let user = try given.createUser("ada@example.org", .editor)
        let token = given.login("ada@example.org").string("access_token")
        try given.database.resetPassword(id: user.id, password: "another long password", confirmation: "another long password",
                                         by: .system("test"))
        #expect(given.send(.get, "/api/v1/venues", token: token).status == 401)
    }
}

@Suite struct RoleTests {
    @Test func readOnlyUsersReadButCannotWrite() throws {
        let given = try APIHarness()
        let token = try given.token(.readOnly)
        #expect(given.send(.get, "/api/v1/activity-types", token: token).status == 200)
        let refused = given.send(.post, "/api/v1/activity-types", ["name": "Picnic"], token: token)
        #expect(refused.status == 403)
        #expect(refused.errorCode == "forbidden")
        let predefined = CategoryKind.activityType.predefined[0].id.uuidString.lowercased()
        #expect(given.send(.delete, "/api/v1/activity-types/\(predefined)", token: token).status == 403)
        #expect(given.send(.patch, "/api/v1/participants/\(UUID().uuidString.lowercased())", ["name": "X"], token: token).status == 403)
        #expect(given.send(.get, "/api/v1/users", token: token).status == 403)
        #expect(try given.database.categories(.activityType).count == CategoryKind.activityType.predefined.count)
    }

    @Test func editorsWriteRecordsButCannotManageUsers() throws {
        let given = try APIHarness()
        let token = try given.token(.editor)
        #expect(given.send(.post, "/api/v1/roles", ["name": "Driver"], token: token).status == 201)
        #expect(given.send(.get, "/api/v1/users", token: token).status == 403)
        let body: [String: Any] = ["name": "Eve", "email": "eve@example.org", "role": "administrator", "password": "long enough password"]
        #expect(given.send(.post, "/api/v1/users", body, token: token).status == 403)
        #expect(try given.database.userCount() == 1)
    }

    @Test func administratorsManageUsers() throws {
        let given = try APIHarness()
        let token = try given.token(.administrator)
        #expect(given.send(.get, "/api/v1/users", token: token).status == 200)
    }
}
