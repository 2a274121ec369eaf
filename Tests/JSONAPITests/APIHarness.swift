import Credentials
import Domain
import Foundation
import HTTPServer
@testable import JSONAPI
import Logging
import Storage
import Surface
import Testing

/// A JSONAPI over a fresh temporary database, driven by calling its handler directly.
final class APIHarness {
    let directory: URL
    let database: AppDatabase
    let api: JSONAPI
    static let password = "correct horse battery staple"

    init(tokenPolicy: APITokenPolicy = APITokenPolicy()) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("fieldbook-api-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        database = try AppDatabase(path: directory.appendingPathComponent("fieldbook.sqlite").path, passwordCost: .test)
        api = JSONAPI(database: database, version: "test", logger: Logger(label: "test"), signInThrottle: SignInThrottle(),
                      tokenPolicy: tokenPolicy)
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    /// One answer: status, headers and the body parsed as JSON (nil when empty).
    struct Answer {
        let response: Response
        var status: Int { response.status.code }
        var json: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any] ?? [:] }
        var items: [[String: Any]] { json["items"] as? [[String: Any]] ?? [] }
        var errorCode: String? { (json["error"] as? [String: Any])?["code"] as? String }
        var errorMessage: String { (json["error"] as? [String: Any])?["message"] as? String ?? "" }
        var errorFields: [String] { ((json["error"] as? [String: Any])?["fields"] as? [[String: Any]] ?? []).compactMap { $0["field"] as? String } }
        subscript(key: String) -> Any? { json[key] }
        func string(_ key: String) -> String { json[key] as? String ?? "" }
    }

    @discardableResult
    func send(_ method: HTTPMethod, _ path: String, _ body: [String: Any]? = nil, token: String? = nil, raw: String? = nil,
              bytes rawBytes: [UInt8]? = nil, cookies: [String: String] = [:], headers extra: [String: String] = [:]) -> Answer {
        let parts = path.split(separator: "?", maxSplits: 1)
        var headers = extra.merging(["content-type": "application/json"]) { $1 }
        if let token { headers["authorization"] = "Bearer \(token)" }
        let bytes = rawBytes ?? raw.map { Array($0.utf8) } ?? body.map { Array(try! JSONSerialization.data(withJSONObject: $0)) } ?? []
        let request = Request(method: method, path: String(parts[0]),
                              query: parts.count > 1 ? QueryString.decode(String(parts[1])) : Parameters(), headers: headers,
                              cookies: cookies, body: bytes)
        return Answer(response: api.respond(to: request))
    }

    @discardableResult
    func createUser(_ email: String, _ role: UserRole) throws -> User {
        try database.createUser(NewUserInput(name: "User \(email)", email: email, role: role.rawValue, password: Self.password,
                                             passwordConfirmation: Self.password), by: .system("test"))
    }

    /// Signs in through the API; returns the login answer.
    func login(_ email: String, password: String = APIHarness.password) -> Answer {
        send(.post, "/api/v1/auth/login", ["email": email, "password": password])
    }

    /// A user of `role` and an access token for them.
    func token(_ role: UserRole) throws -> String {
        let email = "\(role.rawValue)-\(UUID().uuidString.prefix(6))@example.org"
        try createUser(email, role)
        return login(email).string("access_token")
    }
}
