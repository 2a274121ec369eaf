import Credentials
import Foundation
import Storage

/// An AppConfiguration while its settings are read. What takes two settings together (the TLS certificate and
/// key) waits here until every setting is in, so that a missing half is reported before an unreadable file.
struct ConfigurationDraft {
    var configuration = AppConfiguration()
    var tlsCertificateFile: String?
    var tlsKeyFile: String?

    init(environment: [String: String]) {
        // No flag: cheap hashing is for test suites only (README), so it is not offered next to the real options.
        if let cost = environment["FIELDBOOK_PASSWORD_COST"].flatMap(PasswordHasher.Cost.init(rawValue:)) {
            configuration.passwordCost = cost
        }
        // Environment only, not flags: a certificate valid for seconds, checked every second, is for tests of renewal.
        if let seconds = environment["FIELDBOOK_TLS_VALIDITY"].flatMap(TimeInterval.init), seconds > 0 {
            configuration.ownTLS.serverValidity = seconds
        }
        if let seconds = environment["FIELDBOOK_TLS_CHECK_INTERVAL"].flatMap(TimeInterval.init), seconds > 0 {
            configuration.ownTLS.checkInterval = seconds
        }
        // Environment only: the pseudo-locale is for crawls in tests, never offered to the people using Fieldbook.
        configuration.pseudoLocale = environment["FIELDBOOK_PSEUDO_LOCALE"] == "1"
    }

    func finished() throws -> AppConfiguration {
        var configuration = configuration
        if (tlsCertificateFile == nil) != (tlsKeyFile == nil) { throw InvalidInput("--tls-cert and --tls-key go together") }
        if let tlsCertificateFile, let tlsKeyFile {
            configuration.server.tlsCertificatePEM = try String(contentsOfFile: tlsCertificateFile, encoding: .utf8)
            configuration.server.tlsKeyPEM = try String(contentsOfFile: tlsKeyFile, encoding: .utf8)
        }
        return configuration
    }
}

/// What was given (a flag, an environment variable, standard input, the data folder chosen) cannot be used;
/// the description says what to change. The command line reports it with its usage and exit status 64.
public struct InvalidInput: Error, Sendable, CustomStringConvertible {
    public let description: String

    public init(_ description: String) { self.description = description }
}
