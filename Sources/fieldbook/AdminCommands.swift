import App
import ArgumentParser
import Foundation

/// `fieldbook create-user`: add an account from the command line (password on stdin).
struct CreateUser: FieldbookCommand {
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

    @Option(.databaseURL) var databaseURL: String?

    func perform() async throws {
        let password = try readPassword(for: "create-user")
        let configuration = try AppConfiguration(common.given + [GivenSetting(.databaseURL, databaseURL)])
        if configuration.databaseURL != nil {
            return announce(try PostgresHubServer.createUser(configuration, email: email, role: role, name: name, password: password))
        }
        try common.onDataFolder(.existingDatabaseOrNewFolder) { try $0.createUser(email: email, role: role, name: name, password: password) }
    }
}

/// `fieldbook backup FILE`: an online, consistent copy of the database.
struct Backup: FieldbookCommand {
    static let configuration = CommandConfiguration(abstract: "Write a consistent copy of the database while Fieldbook runs.")

    @OptionGroup var common: CommonOptions

    @Argument(help: "Where to write the copy (a SQLite file; replaced if it exists).")
    var file: String

    func perform() async throws {
        try common.onDataFolder(.existingDatabase) { try $0.backup(to: file) }
    }
}

/// `fieldbook restore FILE`: put a backup back, the current database kept aside.
struct Restore: FieldbookCommand {
    static let configuration = CommandConfiguration(
        abstract: "Put a backup back into the data folder (refused while Fieldbook serves it); the current database is kept aside.")

    @OptionGroup var common: CommonOptions

    @Argument(help: "A backup: a fieldbook-backup-….zip from the backup folder or the backups page, or a file `fieldbook backup` wrote.")
    var file: String

    @Flag(help: "Restore even though changes are unsent, nodes are linked here, or a hub is linked (its link is kept).")
    var force = false

    func perform() async throws {
        announce(try DataFolder.restore(AppConfiguration(common.given), from: file, force: force))
    }
}

/// `fieldbook link`: connect this node to an upstream hub (the hub administrator's password on stdin).
struct Link: FieldbookCommand {
    static let configuration = CommandConfiguration(
        abstract: "Link this node to a Fieldbook hub; reads the hub account's password from standard input.")

    @OptionGroup var common: CommonOptions

    @Option(help: "The hub's address, like http://192.168.1.20:8080")
    var upstream: String

    @Option(help: "Email of an administrator account on the hub.")
    var email: String

    func perform() async throws {
        guard let url = URL(string: upstream) else { throw ValidationError("--upstream must be a URL like http://192.168.1.20:8080") }
        let password = try readPassword(for: "link")
        keepLoopbackOffProxy()
        try common.onDataFolder(.existingDatabaseOrNewFolder) { try $0.linkHub(upstream: url, email: email, password: password) }
    }
}

/// `fieldbook check`: SQLite's integrity and foreign-key checks, said in plain words; exits 1 when something is wrong.
struct Check: FieldbookCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check the database for damage and for references to missing records (safe while Fieldbook runs).")

    @OptionGroup var common: CommonOptions

    func perform() async throws {
        let verdict = try Maintenance.check(AppConfiguration(common.given))
        announce(verdict.report)
        if !verdict.intact { throw ExitCode(1) }
    }
}

/// `fieldbook routes --json`: every route with its declared access; the reliability suite derives its checks from it.
struct Routes: FieldbookCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print every page route and API operation with who may use it, as JSON.", shouldDisplay: false)

    @Flag(help: "Print JSON (the only format).") var json = false

    func perform() async throws {
        announce(try Maintenance.routesJSON(version: FieldbookVersion.current))
    }
}
