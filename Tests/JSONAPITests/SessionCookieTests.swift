import Domain
import Foundation
import HTTPServer
@testable import JSONAPI
import Storage
import Surface
import Testing

/// Scripts on the pages read the API with the pages' session cookie; writes still need a bearer token.
@Suite struct SessionCookieTests {
    /// A signed-in page session of a user with `role`: the cookie a browser would send along.
    private func pageSession(_ given: APIHarness, _ role: UserRole) throws -> [String: String] {
        let user = try given.createUser("\(role.rawValue)@example.org", role)
        return [CookieName.session: try given.database.startSession(for: user.id).token]
    }

    @Test func readsAcceptTheSessionCookie() throws {
        let given = try APIHarness()
        let cookies = try pageSession(given, .readOnly)
        let area = try given.database.createArea(AreaInput(name: "Nairobi", areaType: "CITY", parentId: ""), by: .system("test"))
        let list = given.send(.get, "/api/v1/areas", cookies: cookies)
        #expect(list.status == 200)
        #expect(list.items.compactMap { $0["name"] as? String } == ["Nairobi"])
        #expect(given.send(.get, "/api/v1/areas/\(area.id.text)/statistics", cookies: cookies).status == 200)
    }

    @Test func writesRefuseTheSessionCookie() throws {
        let given = try APIHarness()
        let cookies = try pageSession(given, .editor)
        let area = try given.database.createArea(AreaInput(name: "Nairobi", areaType: "CITY", parentId: ""), by: .system("test"))
        let create = given.send(.post, "/api/v1/areas", ["name": "Mombasa", "area_type": "CITY"], cookies: cookies)
        #expect(create.status == 401)
        #expect(create.response.header("WWW-Authenticate") == "Bearer")
        #expect(given.send(.patch, "/api/v1/areas/\(area.id.text)", ["name": "Nairobi City"], cookies: cookies).status == 401)
        #expect(given.send(.delete, "/api/v1/areas/\(area.id.text)", cookies: cookies).status == 401)
        #expect(try given.database.area(id: area.id).name == "Nairobi")
    }

    @Test func aDeadSessionOrAnAdministratorsOnlyReadIsNotSignedInByTheCookie() throws {
        let given = try APIHarness()
        #expect(given.send(.get, "/api/v1/areas", cookies: [CookieName.session: "no-such-session"]).status == 401)
        let admin = try pageSession(given, .administrator)
        #expect(given.send(.get, "/api/v1/users", cookies: admin).status == 401, "only reads open to every signed-in user take the cookie")
    }

    @Test func aBearerTokenWhenSentDecidesOverTheCookie() throws {
        let given = try APIHarness()
        let cookies = try pageSession(given, .readOnly)
        #expect(given.send(.get, "/api/v1/areas", token: "not-a-token", cookies: cookies).status == 401)
    }

    @Test func theDocumentSaysWhichOperationsTakeTheSessionCookie() throws {
        let given = try APIHarness()
        let paths = try #require(given.send(.get, "/api/v1/openapi.json").json["paths"] as? [String: [String: Any]])
        func security(_ path: String, _ method: String) -> [[String: [String]]]? {
            (paths[path]?[method] as? [String: Any])?["security"] as? [[String: [String]]]
        }
        #expect(security("/api/v1/areas", "get") == [["bearerAuth": []], ["sessionCookie": []]])
        #expect(security("/api/v1/areas", "post") == nil, "writes keep the document's bearer-only default")
        #expect(security("/api/v1/users", "get") == nil, "administrators' reads need a bearer token")
        #expect(security("/api/v1/health", "get") == [])
    }
}
