import Crypto
import Foundation
import X509

/// A certificate the server presents, with its key.
public struct ServerCertificate: Sendable {
    public let certificate: Certificate
    let key: Certificate.PrivateKey

    /// Under Apple's limit for certificates of an authority a user added (825 days), and short enough that a key
    /// taken from an old backup soon stops being useful.
    public static let validity: TimeInterval = 90 * 86_400
    /// Devices whose clock is a little behind accept a certificate made just now.
    static let clockAllowance: TimeInterval = 3600

    init(certificate: Certificate, key: Certificate.PrivateKey) {
        self.certificate = certificate
        self.key = key
    }

    /// Throws when the files are not a certificate and its own key (a crash between writing the two leaves a pair
    /// every handshake would fail with).
    public init(certificatePEM: String, keyPEM: String) throws {
        let certificate = try Certificate(pemEncoded: certificatePEM)
        let key = try Certificate.PrivateKey(pemEncoded: keyPEM)
        guard certificate.publicKey == key.publicKey else { throw CertificateAuthority.MismatchedKey(whose: "server certificate") }
        self.init(certificate: certificate, key: key)
    }

    public var certificatePEM: String { get throws { try certificate.serializeAsPEM().pemString } }
    public var keyPEM: String { get throws { try key.serializeAsPEM().pemString } }

    /// Why this certificate should be replaced now for `names` issued by `authority`, or nil while it serves: once
    /// less than a third of its life is left (renewed well before devices see it expire, even after the machine was
    /// off for a while), when it names other names or addresses than the machine answers on, or when another
    /// authority issued it.
    public func renewalReason(for names: ServedNames, authority: CertificateAuthority, now: Date = Date()) -> RenewalReason? {
        if certificate.issuer != authority.certificate.subject
            || (try? certificate.extensions.authorityKeyIdentifier?.keyIdentifier) != (try? authority.certificate.extensions.subjectKeyIdentifier?.keyIdentifier) {
            return .otherAuthority
        }
        let life = certificate.notValidAfter.timeIntervalSince(certificate.notValidBefore) - Self.clockAllowance
        if certificate.notValidAfter.timeIntervalSince(now) < life / 3 { return .expiring }
        if now < certificate.notValidBefore { return .notYetValid }
        let named = (try? certificate.extensions.subjectAlternativeNames).flatMap { $0 }.map { Set($0) } ?? []
        if named != Set(authority.signableNames(names)) { return .namesChanged }
        return nil
    }
}

/// Why a server certificate is made again.
public enum RenewalReason: String, Sendable {
    case missing = "no server certificate yet"
    case unreadable = "the server certificate could not be read"
    case otherAuthority = "the server certificate was issued by another authority"
    case expiring = "the server certificate expires soon"
    case notYetValid = "the server certificate is not valid yet (the clock went back)"
    case namesChanged = "the machine's names or addresses changed"
}
