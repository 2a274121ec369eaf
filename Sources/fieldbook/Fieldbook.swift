import App
import ArgumentParser
import Foundation

@main
struct Fieldbook: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fieldbook",
        abstract: "Offline-first records for community organizers, served to any browser on this machine or network.",
        version: FieldbookVersion.described,
        subcommands: [Serve.self, Hub.self, HubMigrate.self, CreateUser.self, Backup.self, Restore.self, DemoData.self, Link.self, Check.self, Routes.self, Tiles.self, TranslationsCommand.self],
        defaultSubcommand: Serve.self)

    static func main() async {
        MallocArenas.limitForServing()
        await main(nil)
    }
}

/// A subcommand: App's InvalidInput (an argument or setting it cannot use) becomes the argument parser's
/// ValidationError, printed with the usage, exit status 64. A Refusal (what the command found: the data folder, the
/// database, the hub) is no mistake in its arguments: it is printed alone, exit status 1, as any other failure is.
protocol FieldbookCommand: AsyncParsableCommand {
    func perform() async throws
}

extension FieldbookCommand {
    func run() async throws {
        do {
            try await perform()
        } catch let refusal as InvalidInput {
            throw ValidationError(refusal.description)
        } catch let refusal as Refusal {
            FileHandle.standardError.write(Data("Error: \(refusal.description)\n".utf8))
            throw ExitCode.failure
        }
    }
}

/// Writes a line to stdout at once (stdout is block-buffered when piped).
func announce(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// The first line of standard input, where scripts pipe a password (never a flag: flags show up in `ps`).
func readPassword(for command: String) throws -> String {
    guard let password = readLine(strippingNewline: true) else {
        throw ValidationError("no password on standard input; pipe it in, e.g. printf '%s\\n' \"$PASSWORD\" | fieldbook \(command) ...")
    }
    return password
}

/// libcurl (Sync/CurlTransfer.swift) would send even loopback hub requests through http_proxy.
func keepLoopbackOffProxy() {
    setenv("no_proxy", "127.0.0.1,localhost,::1", 0)
}
