import Foundation

/// The real `fieldbook` executable running as a child process on a free port with its own data folder.
public final class FieldbookProcess {
    public let process = Process()
    public let dataDirectory: URL
    public private(set) var port: UInt16 = 0
    public private(set) var setupCode: String?
    /// What the server printed up to and including its "serving at" line.
    public private(set) var announcements: [String] = []
    private let output = Pipe()

    public static var repositoryRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    /// The binary under test: $FIELDBOOK_BINARY, or the debug build in .build.
    public static var binary: URL {
        if let path = ProcessInfo.processInfo.environment["FIELDBOOK_BINARY"] { return URL(fileURLWithPath: path) }
        return repositoryRoot.appendingPathComponent(".build/debug/fieldbook")
    }

    /// Starts the server and waits until it prints its address. Without `namingResources` the server finds its
    /// templates itself; `workingDirectory` is where it runs from (the test's own by default); `variables` are added
    /// to its environment. A server serving beyond loopback announces itself through the machine's Avahi; only a test of
    /// that (`announcing`) lets it reach the system D-Bus, so that servers of tests running at the same time do not
    /// announce beside the one under test.
    public init(dataDirectory: URL, extraArguments: [String] = [], namingResources: Bool = true, workingDirectory: URL? = nil,
                variables: [String: String] = [:], announcing: Bool = false) throws {
        self.dataDirectory = dataDirectory
        process.executableURL = Self.binary
        process.arguments = ["serve", "--port", "0", "--data", dataDirectory.path, "--log-level", "warning"]
            + (namingResources ? ["--resources", Self.repositoryRoot.path] : []) + extraArguments
        process.currentDirectoryURL = workingDirectory
        var environment = ProcessInfo.processInfo.environment
        environment["FIELDBOOK_PASSWORD_COST"] = "test"
        if !announcing { environment["DBUS_SYSTEM_BUS_ADDRESS"] = "unix:path=/nonexistent/fieldbook-test-without-avahi" }
        process.environment = environment.merging(variables) { _, given in given }
        process.standardOutput = output
        try process.run()
        try readAnnouncements()
    }

    /// Reads stdout up to the "serving at" line, which the server prints after the setup code.
    private func readAnnouncements() throws {
        let handle = output.fileHandleForReading
        var text = ""
        while !(text.contains("Fieldbook is serving at") && text.hasSuffix("\n")) {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        let lines = text.split(separator: "\n")
        announcements = lines.map(String.init)
        setupCode = lines.first { $0.hasPrefix("One-time setup code:") }
            .map { $0.dropFirst("One-time setup code:".count).trimmingCharacters(in: .whitespaces) }
        let address = lines.first { $0.hasPrefix("Fieldbook is serving at") }
        port = address.flatMap { UInt16($0.split(separator: ":").last?.trimmingCharacters(in: CharacterSet(charactersIn: "/ ")) ?? "") } ?? 0
        guard port != 0 else { throw ProcessError.didNotStart(text) }
    }

    /// Runs a one-off command (`link`, `create-user`, ...) with `input` on stdin and `variables` added to the
    /// environment; returns its exit status and output (stdout and stderr). A command still running after `timeout`
    /// seconds (a serve that should have been refused) is stopped with SIGTERM.
    @discardableResult
    public static func command(_ arguments: [String], input: String = "", variables: [String: String] = [:],
                               timeout: TimeInterval = 300) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["FIELDBOOK_PASSWORD_COST"] = "test"
        process.environment = environment.merging(variables) { _, given in given }
        let stdin = Pipe()
        let stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stdout
        try process.run()
        let deadline = DispatchWorkItem { if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: deadline)
        defer { deadline.cancel() }
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }

    /// SIGKILL: the process gets no chance to flush or clean up.
    public func kill9() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// SIGTERM and wait; returns the exit status.
    @discardableResult
    public func terminate() -> Int32 {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        return process.terminationStatus
    }

    deinit { if process.isRunning { kill9() } }

    /// The server did not print its address.
    public enum ProcessError: Error {
        case didNotStart(String)
    }
}
