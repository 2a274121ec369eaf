import App
import ArgumentParser
import Domain
import Foundation
import Storage

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
