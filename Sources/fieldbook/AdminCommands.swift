import App
import ArgumentParser
import Domain
import Foundation
import Storage
import Sync

/// `fieldbook create-user`: add an account from the command line (password on stdin).
struct CreateUser: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create-user",
        abstract: "Create a user; reads the password from the first line of standard input.")

    @OptionGroup var common: CommonOptions

    @Option(help: "Email address the user signs in with.")
    var email: String

    @Option(help: "administrator, editor or read-only.")
    var role: String

    @Option(help: "The person's name (default: the part of the email before @).")
    var name: String?

    func run() async throws {
        let environment = Environment()
        var configuration = AppConfiguration()
        common.apply(to: &configuration, environment: environment)
        guard let password = readLine(strippingNewline: true) else {
            throw ValidationError("no password on standard input; pipe it in, e.g. printf '%s\\n' \"$PASSWORD\" | fieldbook create-user ...")
        }
        let database = try openDatabase(configuration)
        let input = NewUserInput(name: name ?? String(email.split(separator: "@").first ?? ""), email: email, role: role,
                                 password: password, passwordConfirmation: password)
        do {
            let user = try database.createUser(input, by: .system("command-line"))
            announce("Created \(user.role.label.lowercased()) \(user.email) (\(user.id.uuidString.lowercased())).")
        } catch let errors as Domain.ValidationError {
            throw ValidationError(errors.fieldErrors.map { "\($0.field): \($0.message)" }.joined(separator: "\n"))
        }
        try database.close()
    }
}

/// `fieldbook backup FILE`: an online, consistent copy of the database.
struct Backup: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Write a consistent copy of the database while Fieldbook runs.")

    @OptionGroup var common: CommonOptions

    @Argument(help: "Where to write the copy (a SQLite file; replaced if it exists).")
    var file: String

    func run() async throws {
        var configuration = AppConfiguration()
        common.apply(to: &configuration, environment: Environment())
        let database = try openDatabase(configuration)
        try database.backup(to: file)
        announce("Backed up \(configuration.databasePath) to \(file).")
        try database.close()
    }
}

/// `fieldbook link`: connect this node to an upstream hub (the hub administrator's password on stdin).
struct Link: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Link this node to a Fieldbook hub; reads the hub account's password from standard input.")

    @OptionGroup var common: CommonOptions

    @Option(help: "The hub's address, like http://192.168.1.20:8080")
    var upstream: String

    @Option(help: "Email of an administrator account on the hub.")
    var email: String

    func run() async throws {
        var configuration = AppConfiguration()
        common.apply(to: &configuration, environment: Environment())
        guard let url = URL(string: upstream) else { throw ValidationError("--upstream must be a URL like http://192.168.1.20:8080") }
        guard let password = readLine(strippingNewline: true) else {
            throw ValidationError("no password on standard input; pipe it in, e.g. printf '%s\\n' \"$PASSWORD\" | fieldbook link ...")
        }
        setenv("no_proxy", "127.0.0.1,localhost,::1", 0)
        let database = try openDatabase(configuration)
        do {
            try HubLinker.link(database, upstream: url, email: email, password: password)
        } catch let failure as HubLinker.Failure {
            throw ValidationError(failure.description)
        }
        announce("Linked to \(url.absoluteString) as \(email). `fieldbook serve` syncs with it in the background.")
        try database.close()
    }
}
