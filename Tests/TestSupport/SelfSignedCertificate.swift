import Foundation

/// A self-signed certificate and its key, made by openssl as PEM files in a folder: an organization's own certificate
/// (`--tls-cert`) in the tests, or one a test server presents.
public struct SelfSignedCertificate: Sendable {
    public enum KeyType: Sendable {
        case ecP256, rsa2048

        var arguments: [String] {
            switch self {
            case .ecP256: ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1"]
            case .rsa2048: ["-newkey", "rsa:2048"]
            }
        }
    }

    public let certificatePath: String
    public let keyPath: String

    /// `NAME.pem` and `NAME-key.pem` in `folder`, for the common name `commonName`, valid for a day; `addresses` are
    /// its subject alternative names (IP addresses).
    public init(_ name: String, commonName: String? = nil, key: KeyType = .ecP256, addresses: [String] = [], in folder: URL) throws {
        certificatePath = folder.appendingPathComponent("\(name).pem").path
        keyPath = folder.appendingPathComponent("\(name)-key.pem").path
        let alternatives = addresses.isEmpty ? [] : ["-addext", "subjectAltName=" + addresses.map { "IP:\($0)" }.joined(separator: ",")]
        let made = try runCommand("/usr/bin/openssl", ["req", "-x509"] + key.arguments + [
            "-nodes", "-keyout", keyPath, "-out", certificatePath, "-days", "1", "-subj", "/CN=\(commonName ?? name)",
        ] + alternatives)
        guard made.status == 0 else { throw CommandFailure(output: made.output) }
    }

    public var certificatePEM: String { get throws { try String(contentsOfFile: certificatePath, encoding: .utf8) } }
    public var keyPEM: String { get throws { try String(contentsOfFile: keyPath, encoding: .utf8) } }

    public struct CommandFailure: Error, CustomStringConvertible {
        public let output: String
        public var description: String { "openssl could not make the certificate: \(output)" }
    }
}
