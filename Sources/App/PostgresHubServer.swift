import Credentials
import Domain
import Foundation
import HTTPServer
import Hub
import JSONAPI
import Logging
import PostgresHub
import Storage
import Surface

/// `fieldbook hub`: a sync hub whose store is PostgreSQL. It serves only what nodes sync through (health, sign-in,
/// push, the change log and its long poll, the API document); pages stay on nodes. Several such processes may serve
/// one database at once, behind any load balancer.
public final class PostgresHubServer: Sendable {
    private let hub: PostgresHub
    private let server: HTTPServer
    private let configuration: AppConfiguration

    /// Connects to the database and migrates its schema; nothing listens until `start`.
    public init(_ configuration: AppConfiguration, logger: Logger) throws {
        guard let url = configuration.databaseURL else { throw InvalidInput("fieldbook hub needs --database-url postgresql://USER@HOST:PORT/DB") }
        self.configuration = configuration
        // One connection per worker thread and two more, so a request never waits for a connection another holds.
        hub = try Self.connect(url, poolSize: configuration.server.threadCount + 2, passwordCost: configuration.passwordCost, logger: logger)
        let api = HubAPI(hub: hub, version: configuration.version, logger: logger,
                         signInThrottle: SignInThrottle())
        server = HTTPServer(configuration: configuration.server, responder: api, logger: logger)
    }

    /// Opens the hub's database, saying what to check when it cannot (never repeating the URL, which may hold a password).
    static func connect(_ url: String, poolSize: Int, passwordCost: PasswordHasher.Cost,
                        logger: Logger = Logger(label: "fieldbook")) throws -> PostgresHub {
        do {
            return try PostgresHub(url: url, poolSize: poolSize, passwordCost: passwordCost, logger: logger)
        } catch let error as PostgresError {
            throw Refusal("\(error.message)\nCheck --database-url: the host, port, user, password and database name, and that PostgreSQL accepts the connection.")
        }
    }

    /// Starts listening; returns the bound port.
    @discardableResult
    public func start(announce: (String) -> Void = { _ in }) throws -> UInt16 {
        let port = try server.start()
        let address = configuration.server.baseURL(port: port)
        announce("A Fieldbook hub on PostgreSQL: nodes link to it with fieldbook link --upstream \(address)/")
        announce("Fieldbook is serving at \(address)/")
        return port
    }

    public func stop() {
        server.stop()
        hub.close()
    }

    /// `fieldbook create-user --database-url`: the hub's first administrator, or any account.
    public static func createUser(_ configuration: AppConfiguration, email: String, role: String, name: String?, password: String) throws -> String {
        guard let url = configuration.databaseURL else { throw InvalidInput("--database-url is missing") }
        let hub = try connect(url, poolSize: 1, passwordCost: configuration.passwordCost)
        defer { hub.close() }
        let input = NewUserInput(name: name ?? String(email.split(separator: "@").first ?? ""), email: email, role: role,
                                 password: password, passwordConfirmation: password)
        do {
            let user = try hub.createUser(input)
            return "Created \(user.role.label.lowercased()) \(user.email) (\(user.id.uuidString.lowercased())) on the PostgreSQL hub."
        } catch let errors as ValidationError {
            throw InvalidInput(errors.fieldErrors.map { "\($0.field): \($0.message)" }.joined(separator: "\n"))
        }
    }
}
