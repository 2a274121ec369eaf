import App
import Foundation
import Testing

/// Flags and environment variables resolve as README's Configuration table says, and what cannot be used is
/// refused with the words the command line prints.
@Suite struct SettingTests {
    func refusal(_ given: [GivenSetting], environment: [String: String]) -> String? {
        AppTests.refusal { try AppConfiguration(given, environment: environment) }
    }

    @Test func aFlagWinsOverItsVariableAndAnEmptyVariableCountsAsUnset() throws {
        let environment = ["FIELDBOOK_HOST": "0.0.0.0", "FIELDBOOK_PORT": "9000", "FIELDBOOK_DATA": "", "FIELDBOOK_MAX_BODY": "4096"]
        let configuration = try AppConfiguration(
            [GivenSetting(.host, nil), GivenSetting(.port, 8181), GivenSetting(.data, nil), GivenSetting(.maxBody, nil)],
            environment: environment)
        #expect(configuration.server.host == "0.0.0.0")
        #expect(configuration.server.port == 8181)
        #expect(configuration.dataDirectory == "./data")
        #expect(configuration.server.maxBodyBytes == 4096)
    }

    @Test func withNeitherFlagNorVariableTheDefaultsOfTheTableApply() throws {
        let configuration = try AppConfiguration(
            [GivenSetting(.data, nil), GivenSetting(.resources, nil), GivenSetting(.logLevel, nil), GivenSetting(.host, nil),
             GivenSetting(.port, nil), GivenSetting(.threads, nil), GivenSetting(.maxBody, nil), GivenSetting(.upstream, nil),
             GivenSetting(.syncInterval, nil), GivenSetting(.tlsCertificate, nil), GivenSetting(.tlsKey, nil)],
            environment: [:])
        #expect(configuration.dataDirectory == "./data" && configuration.resourcesDirectory == ResourceFolder.located)
        #expect(configuration.logLevel == .info)
        #expect(configuration.server.host == "127.0.0.1" && configuration.server.port == 8080)
        #expect(configuration.server.threadCount == max(8, 4 * ProcessInfo.processInfo.activeProcessorCount))
        #expect(configuration.server.maxBodyBytes == 10_485_760)
        #expect(configuration.upstream == nil && configuration.syncInterval == nil && !configuration.server.isTLS)
        #expect(configuration.passwordCost == .standard)
    }

    @Test func everyHelpNamesItsVariableAndTheDefaultItWouldUse() {
        #expect(Setting.port.help == "Port; 0 picks a free one (env FIELDBOOK_PORT; default 8080).")
        #expect(Setting.data.help == "Folder holding the database (env FIELDBOOK_DATA; default ./data).")
        #expect(Setting.logLevel.help == "Log level: trace, debug, info, notice, warning, error (env FIELDBOOK_LOG_LEVEL; default info).")
        #expect(Setting.upstream.help == "Use this URL for the linked hub instead of the one saved by `fieldbook link` (env FIELDBOOK_UPSTREAM).")
        #expect(Setting.tlsCertificate.name == "tls-cert" && Setting.syncInterval.name == "sync-interval")
    }

    @Test func anUnreadableVariableIsRefusedByName() {
        #expect(refusal([GivenSetting(.port, nil)], environment: ["FIELDBOOK_PORT": "70000"]) == "FIELDBOOK_PORT must be a number, got '70000'")
        #expect(refusal([GivenSetting(.threads, nil)], environment: ["FIELDBOOK_THREADS": "many"]) == "FIELDBOOK_THREADS must be a number, got 'many'")
        #expect(refusal([GivenSetting(.syncInterval, nil)], environment: ["FIELDBOOK_SYNC_INTERVAL": "soon"])
                == "FIELDBOOK_SYNC_INTERVAL must be a number of seconds")
    }

    @Test func valuesOutOfRangeAreRefusedFromFlagOrVariable() {
        #expect(refusal([GivenSetting(.syncInterval, 0)], environment: [:]) == "--sync-interval must be at least 1 second")
        #expect(refusal([GivenSetting(.syncInterval, nil)], environment: ["FIELDBOOK_SYNC_INTERVAL": "0"])
                == "--sync-interval must be at least 1 second")
        #expect(refusal([GivenSetting(.upstream, "ftp://hub")], environment: [:]) == "--upstream must be an http:// or https:// URL, got 'ftp://hub'")
        #expect(refusal([GivenSetting(.upstream, nil)], environment: ["FIELDBOOK_UPSTREAM": "hub"]) == "--upstream must be an http:// or https:// URL, got 'hub'")
    }

    @Test func theFirstSettingGivenIsTheFirstRefused() {
        let given = [GivenSetting(.upstream, "ftp://hub"), GivenSetting(.syncInterval, nil)]
        #expect(refusal(given, environment: ["FIELDBOOK_SYNC_INTERVAL": "soon"]) == "--upstream must be an http:// or https:// URL, got 'ftp://hub'")
    }

    /// create-user and backup must not fail for a server variable they do not use.
    @Test func onlyTheSettingsACommandGivesAreRead() throws {
        let configuration = try AppConfiguration([GivenSetting(.data, "folder")],
                                                 environment: ["FIELDBOOK_PORT": "abc", "FIELDBOOK_TLS_CERT": "/nowhere"])
        #expect(configuration.dataDirectory == "folder")
        #expect(configuration.server.port == 8080)
    }

    @Test func certificateAndKeyGoTogetherAndAreReadFromTheirFiles() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fieldbook-settings-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let certificate = folder.appendingPathComponent("cert.pem"), key = folder.appendingPathComponent("key.pem")
        try "CERTIFICATE".write(to: certificate, atomically: true, encoding: .utf8)
        try "KEY".write(to: key, atomically: true, encoding: .utf8)
        // The missing half is reported before the unreadable file.
        #expect(refusal([GivenSetting(.tlsCertificate, "/nowhere"), GivenSetting(.tlsKey, nil)], environment: [:])
                == "--tls-cert and --tls-key go together")
        let configuration = try AppConfiguration([GivenSetting(.tlsCertificate, certificate.path), GivenSetting(.tlsKey, nil)],
                                                 environment: ["FIELDBOOK_TLS_KEY": key.path])
        #expect(configuration.server.tlsCertificatePEM == "CERTIFICATE" && configuration.server.tlsKeyPEM == "KEY")
    }

    @Test func passwordCostAndLogLevelComeFromTheEnvironmentAndUnknownValuesAreIgnored() throws {
        let cheap = try AppConfiguration([GivenSetting(.logLevel, nil)],
                                         environment: ["FIELDBOOK_PASSWORD_COST": "test", "FIELDBOOK_LOG_LEVEL": "warning"])
        #expect(cheap.passwordCost == .test && cheap.logLevel == .warning)
        let unknown = try AppConfiguration([GivenSetting(.logLevel, "loud")], environment: ["FIELDBOOK_PASSWORD_COST": "free"])
        #expect(unknown.passwordCost == .standard && unknown.logLevel == .info)
    }
}
