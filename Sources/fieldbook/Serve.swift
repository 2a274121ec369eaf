import App
import ArgumentParser
import Foundation
import Logging

/// `fieldbook serve`: run the web app until SIGINT or SIGTERM.
struct Serve: FieldbookCommand {
    static let configuration = CommandConfiguration(abstract: "Serve Fieldbook (the default command).")

    @OptionGroup var common: CommonOptions
    @Option(.host) var host: String?
    @Option(.port) var port: UInt16?
    @Option(.upstream) var upstream: String?
    @Option(.syncInterval) var syncInterval: Int?
    @Option(.threads) var threads: Int?
    @Option(.maxBody) var maxBody: Int?
    @Option(.connectionsPerAddress) var connectionsPerAddress: Int?
    @Option(.headerTimeout) var headerTimeout: Int?
    @Option(.tlsCertificate) var tlsCertificate: String?
    @Option(.tlsKey) var tlsKey: String?
    @Flag(name: .customLong(Setting<Bool>.noTLS.name), help: ArgumentHelp(Setting<Bool>.noTLS.help)) var noTLS = false
    @Option(.httpPort) var httpPort: UInt16?
    @Option(.backupDirectory) var backupDirectory: String?
    @Option(.backupInterval) var backupInterval: Int?

    /// In the order they are checked, which decides the refusal reported when several are wrong.
    var given: [GivenSetting] {
        common.given + [GivenSetting(.host, host), GivenSetting(.port, port), GivenSetting(.threads, threads),
                        GivenSetting(.maxBody, maxBody), GivenSetting(.upstream, upstream), GivenSetting(.syncInterval, syncInterval),
                        GivenSetting(.tlsCertificate, tlsCertificate), GivenSetting(.tlsKey, tlsKey),
                        GivenSetting(.noTLS, noTLS ? true : nil), GivenSetting(.httpPort, httpPort),
                        GivenSetting(.connectionsPerAddress, connectionsPerAddress), GivenSetting(.headerTimeout, headerTimeout),
                        GivenSetting(.backupDirectory, backupDirectory), GivenSetting(.backupInterval, backupInterval)]
    }

    func perform() async throws {
        let configuration = try AppConfiguration(given)
        keepLoopbackOffProxy()
        let logger = makeLogger(level: configuration.logLevel)
        let app = try await FieldbookApp.make(configuration, logger: logger)
        // Caught before the address is printed: whoever reads that line may stop the server at once.
        let termination = try TerminationSignal()
        try app.start(announce: announce)
        await termination.wait()
        logger.info("shutting down")
        app.stop()
    }
}

/// Logs to standard error at `level` and above (the serving commands).
func makeLogger(level: Logger.Level) -> Logger {
    LoggingSystem.bootstrap { label in
        var handler = StreamLogHandler.standardError(label: label)
        handler.logLevel = level
        return handler
    }
    return Logger(label: "fieldbook")
}
