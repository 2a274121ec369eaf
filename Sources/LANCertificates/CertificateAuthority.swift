import Crypto
import Foundation
import SwiftASN1
import X509

/// Fieldbook's own certificate authority: made once per data folder, trusted once on each device, and signing every
/// server certificate after, so that a renewal or a new address asks nothing more of the devices.
public struct CertificateAuthority: Sendable {
    public let certificate: Certificate
    let key: Certificate.PrivateKey

    /// Long, as every device would have to trust a new one; its key never leaves the data folder (and its backups).
    static let validity: TimeInterval = 20 * 365 * 86_400

    /// No clock that is set reads earlier than this (it is when this code was written). A machine without a
    /// battery-backed clock or network time can start in the past, and an authority dated from such a clock would
    /// have expired, for every device, before the day it is used: it is dated from here instead.
    public static let earliestPlausibleDate = Date(timeIntervalSince1970: 1_793_491_200)

    /// Whether `now` is before any date a set clock reads: serve says so, as certificates made meanwhile are dated
    /// from the wrong day.
    public static func clockIsBehind(_ now: Date) -> Bool { now < earliestPlausibleDate }

    init(certificate: Certificate, key: Certificate.PrivateKey) {
        self.certificate = certificate
        self.key = key
    }

    /// A new authority named after the machine, so that a device trusting several says which is which; valid from
    /// before `now` and for `validity` from `now`, or from `earliestPlausibleDate` when the clock is behind it.
    public static func make(hostName: String, now: Date = Date()) throws -> CertificateAuthority {
        let key = Certificate.PrivateKey(P256.Signing.PrivateKey())
        let publicKey = key.publicKey
        let name = try DistinguishedName {
            OrganizationName("Fieldbook")
            CommonName("Fieldbook on \(hostName.isEmpty ? "this machine" : hostName)")
        }
        let certificate = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: publicKey,
            notValidBefore: min(now, earliestPlausibleDate).addingTimeInterval(-ServerCertificate.clockAllowance),
            notValidAfter: max(now, earliestPlausibleDate).addingTimeInterval(validity),
            issuer: name, subject: name, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
                Critical(LANNameConstraints.forAuthority(hostName: hostName))
                SubjectKeyIdentifier(hash: publicKey)
            },
            issuerPrivateKey: key)
        return CertificateAuthority(certificate: certificate, key: key)
    }

    /// Reads the authority's PEM files' text; throws when they are not a certificate and its key.
    public init(certificatePEM: String, keyPEM: String) throws {
        let certificate = try Certificate(pemEncoded: certificatePEM)
        let key = try Certificate.PrivateKey(pemEncoded: keyPEM)
        guard certificate.publicKey == key.publicKey else { throw MismatchedKey(whose: "certificate authority") }
        self.init(certificate: certificate, key: key)
    }

    public var certificatePEM: String { get throws { try certificate.serializeAsPEM().pemString } }
    public var keyPEM: String { get throws { try key.serializeAsPEM().pemString } }

    /// The SHA-256 fingerprint of the certificate, as devices show it: upper-case hex bytes joined by colons.
    public var fingerprint: String {
        var serializer = DER.Serializer()
        try? serializer.serialize(certificate)
        return Self.fingerprint(ofDER: serializer.serializedBytes)
    }

    /// The fingerprint of a certificate's DER bytes, in the one format every page and log line shows.
    public static func fingerprint(ofDER der: some DataProtocol) -> String {
        SHA256.hash(data: der).map { String(format: "%02X", $0) }.joined(separator: ":")
    }

    /// The certificate's subject common name, which is how devices list a trusted authority; nil when `der` is not a
    /// certificate or its subject has no common name.
    public static func commonName(ofDER der: some DataProtocol) -> String? {
        guard let certificate = try? Certificate(derEncoded: Array(der)) else { return nil }
        let attributes = certificate.subject.flatMap { $0 }
        return attributes.first { $0.type == .RDNAttributeType.commonName }.flatMap { String($0.value) }
    }

    /// The names of `names` this authority may sign for: a name outside its constraints (a public address, a host name
    /// given after the authority was made) would make devices refuse the whole certificate.
    func signableNames(_ names: ServedNames) -> [GeneralName] {
        guard let constraints = try? certificate.extensions.nameConstraints else { return names.generalNames }
        return names.generalNames.filter { LANNameConstraints.permits($0, under: constraints) }
    }

    /// A server certificate for `names`, valid from a little before `now` for `validity` seconds, with a new key.
    public func issue(for names: ServedNames, now: Date = Date(), validity: TimeInterval = ServerCertificate.validity) throws -> ServerCertificate {
        let key = Certificate.PrivateKey(P256.Signing.PrivateKey())
        let publicKey = key.publicKey
        let subject = try DistinguishedName {
            OrganizationName("Fieldbook")
            CommonName(signableNames(names).lazy.compactMap { if case .dnsName(let name) = $0 { name } else { nil } }.first ?? "localhost")
        }
        let certificate = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: publicKey,
            notValidBefore: now.addingTimeInterval(-ServerCertificate.clockAllowance), notValidAfter: now.addingTimeInterval(validity),
            issuer: self.certificate.subject, subject: subject, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                Critical(KeyUsage(digitalSignature: true))
                try ExtendedKeyUsage([.serverAuth])
                SubjectKeyIdentifier(hash: publicKey)
                AuthorityKeyIdentifier(keyIdentifier: try self.certificate.extensions.subjectKeyIdentifier?.keyIdentifier)
                SubjectAlternativeNames(signableNames(names))
            },
            issuerPrivateKey: self.key)
        return ServerCertificate(certificate: certificate, key: key)
    }

    struct MismatchedKey: Error, CustomStringConvertible {
        let whose: String
        var description: String { "the \(whose)'s key is not the key of its certificate" }
    }
}
