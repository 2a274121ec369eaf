import Crypto
import Foundation
import LANCertificates

/// Fieldbook's own certificate authority as devices get it: the certificate serve made (`DATA/tls/authority.pem`), in
/// the forms each system installs, and the fingerprint a person compares before trusting it; a node keeps its hub's to
/// check the hub's certificate.
public struct AuthorityCertificate: Sendable {
    public let pem: String
    public let der: Data

    /// The first certificate of the PEM file at `path`; nil when there is none (no file: Fieldbook made no authority).
    public static func read(from path: String) -> AuthorityCertificate? {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        return AuthorityCertificate(pem: text)
    }

    public init?(pem text: String) {
        let begin = "-----BEGIN CERTIFICATE-----", end = "-----END CERTIFICATE-----"
        guard let start = text.range(of: begin), let stop = text.range(of: end, range: start.upperBound..<text.endIndex),
              let der = Data(base64Encoded: String(text[start.upperBound..<stop.lowerBound]), options: .ignoreUnknownCharacters),
              !der.isEmpty else { return nil }
        self.der = der
        pem = String(text[start.lowerBound..<stop.upperBound]) + "\n"
    }

    /// SHA-256 of the certificate, as the plain-HTTP guide and serve's log show it too.
    public var fingerprint: String { CertificateAuthority.fingerprint(ofDER: der) }

    /// The name the authority was made with (its subject's common name), as iOS trust settings and Keychain Access list
    /// it; it stays when the machine is renamed.
    public var name: String? { CertificateAuthority.commonName(ofDER: der) }

    /// An Apple configuration profile with the certificate as its one root-certificate payload: what iPadOS and iOS
    /// install from Safari (Settings then offers it under "Profile Downloaded"). Its identifiers come from the
    /// certificate, so downloading it again installs the same profile, not a second one.
    public func configurationProfile(serverName: String) throws -> Data {
        let digest = Array(SHA256.hash(data: der))
        let certificateUUID = Self.uuid(digest[0..<16]), profileUUID = Self.uuid(digest[16..<32])
        let certificate: [String: Any] = [
            "PayloadType": "com.apple.security.root", "PayloadVersion": 1, "PayloadUUID": certificateUUID,
            "PayloadIdentifier": "org.fieldbook.authority.\(certificateUUID)", "PayloadContent": der,
            "PayloadDisplayName": "Fieldbook certificate authority", "PayloadCertificateFileName": "fieldbook-authority.cer",
        ]
        let profile: [String: Any] = [
            "PayloadType": "Configuration", "PayloadVersion": 1, "PayloadUUID": profileUUID,
            "PayloadIdentifier": "org.fieldbook.profile.\(profileUUID)", "PayloadDisplayName": serverName,
            "PayloadDescription": "Lets this device open \(serverName) over HTTPS.", "PayloadContent": [certificate],
        ]
        return try PropertyListSerialization.data(fromPropertyList: profile, format: .xml, options: 0)
    }

    private static func uuid(_ bytes: ArraySlice<UInt8>) -> String {
        let b = Array(bytes)
        return UUID(uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15])).uuidString
    }
}
