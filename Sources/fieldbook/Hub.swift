import App
import ArgumentParser
import Foundation

/// `fieldbook hub --database-url …`: a sync hub on PostgreSQL, until SIGINT or SIGTERM.
struct Hub: FieldbookCommand {
    static let configuration = CommandConfiguration(
        abstract: "Serve a sync hub whose records are in PostgreSQL (for organizations with many nodes); pages stay on nodes.")

    @Option(.databaseURL) var databaseURL: String?
    @Option(.host) var host: String?
    @Option(.port) var port: UInt16?
    @Option(.threads) var threads: Int?
    @Option(.connectionsPerAddress) var connectionsPerAddress: Int?
    @Option(.logLevel) var logLevel: String?
    @Option(.tlsCertificate) var tlsCertificate: String?
    @Option(.tlsKey) var tlsKey: String?

    func perform() async throws {
        let configuration = try AppConfiguration([GivenSetting(.databaseURL, databaseURL), GivenSetting(.host, host),
                                                  GivenSetting(.port, port), GivenSetting(.threads, threads),
                                                  GivenSetting(.connectionsPerAddress, connectionsPerAddress),
                                                  GivenSetting(.logLevel, logLevel), GivenSetting(.tlsCertificate, tlsCertificate),
                                                  GivenSetting(.tlsKey, tlsKey)])
        let logger = makeLogger(level: configuration.logLevel)
        let hub = try PostgresHubServer(configuration, logger: logger)
        let termination = try TerminationSignal()
        try hub.start(announce: announce)
        await termination.wait()
        logger.info("shutting down")
        hub.stop()
    }
}

/// `fieldbook hub-migrate`: a stopped SQLite hub's records, change log, sign-ins and photos into PostgreSQL.
struct HubMigrate: FieldbookCommand {
    static let configuration = CommandConfiguration(
        commandName: "hub-migrate",
        abstract: "Move a stopped SQLite hub into an empty PostgreSQL database; linked nodes carry on without linking again.")

    @Option(help: "The data folder of the SQLite hub (stop it first).") var from: String
    @Option(.databaseURL) var databaseURL: String?

    func perform() async throws {
        let configuration = try AppConfiguration([GivenSetting(.databaseURL, databaseURL)])
        try HubMigration.run(configuration, from: from, announce: announce)
    }
}
