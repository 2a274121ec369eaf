import App
import ArgumentParser
import Foundation
import HTTPServer
import Logging
import Storage

@main
struct Fieldbook: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fieldbook",
        abstract: "Offline-first records for community organizers, served to any browser on this machine or network.",
        subcommands: [Serve.self, CreateUser.self, Backup.self, DemoData.self, Link.self],
        defaultSubcommand: Serve.self)
}

/// Options every command shares: where the data and resources are.
struct CommonOptions: ParsableArguments {
    @Option(help: "Folder holding the database (env FIELDBOOK_DATA; default ./data).")
    var data: String?

    @Option(help: "Folder holding templates/ and Public/ (env FIELDBOOK_RESOURCES; default .).")
    var resources: String?

    @Option(help: "Log level: trace, debug, info, notice, warning, error (env FIELDBOOK_LOG_LEVEL; default info).")
    var logLevel: String?

    func apply(to configuration: inout AppConfiguration, environment: Environment) {
        configuration.dataDirectory = data ?? environment["FIELDBOOK_DATA"] ?? "./data"
        configuration.resourcesDirectory = resources ?? environment["FIELDBOOK_RESOURCES"] ?? "."
        if let cost = environment["FIELDBOOK_PASSWORD_COST"].flatMap(PasswordHasher.Cost.init(rawValue:)) {
            configuration.passwordCost = cost
        }
    }

    func makeLogger(environment: Environment) -> Logger {
        let level = (logLevel ?? environment["FIELDBOOK_LOG_LEVEL"]).flatMap(Logger.Level.init(rawValue:)) ?? .info
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        return Logger(label: "fieldbook")
    }
}

/// The process environment, read in one place.
struct Environment {
    let values: [String: String]

    init(_ values: [String: String] = ProcessInfo.processInfo.environment) { self.values = values }

    subscript(name: String) -> String? {
        guard let value = values[name], !value.isEmpty else { return nil }
        return value
    }

    /// The flag's value, else the environment variable's (which must parse), else the default.
    func resolve<T: LosslessStringConvertible>(_ flag: T?, _ variable: String, default value: T) throws -> T {
        if let flag { return flag }
        guard let text = self[variable] else { return value }
        guard let parsed = T(text) else { throw ValidationError("\(variable) must be a number, got '\(text)'") }
        return parsed
    }
}

/// Writes a line to stdout at once (stdout is block-buffered when piped).
func announce(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}
