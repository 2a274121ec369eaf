import Archives
import Foundation

/// Where Fieldbook keeps its own TLS in the data folder: `tls/authority.pem` (the authority's certificate, which devices
/// download and trust), `tls/authority-key.pem`, `tls/server.pem` and `tls/server-key.pem`. The folder and the keys are
/// for the service's user alone.
public struct TLSFolder: Sendable {
    public let path: String

    public init(path: String) { self.path = path }

    public static func inDataFolder(_ dataDirectory: String) -> TLSFolder {
        TLSFolder(path: (dataDirectory as NSString).appendingPathComponent(folderName))
    }

    public static let folderName = "tls"
    public static let authorityCertificateName = "authority.pem"
    public static let authorityKeyName = "authority-key.pem"
    public var authorityCertificatePath: String { file(Self.authorityCertificateName) }
    public var authorityKeyPath: String { file(Self.authorityKeyName) }
    public var serverCertificatePath: String { file("server.pem") }
    public var serverKeyPath: String { file("server-key.pem") }

    /// The authority in this folder, made and written on first use. A key without its certificate (a crash between the
    /// two writes) counts as not yet made: no device can trust an authority whose certificate was never written.
    /// The folder is made for the service alone again each time, whatever was done to it meanwhile.
    public func authority(hostName: String, now: Date = Date()) throws -> CertificateAuthority {
        try prepare()
        if FileManager.default.fileExists(atPath: authorityKeyPath), FileManager.default.fileExists(atPath: authorityCertificatePath) {
            do {
                return try CertificateAuthority(certificatePEM: read(authorityCertificatePath), keyPEM: read(authorityKeyPath))
            } catch {
                throw UnreadableAuthority(folder: path, reason: "\(error)")
            }
        }
        let authority = try CertificateAuthority.make(hostName: hostName, now: now)
        try write(authority.keyPEM, to: authorityKeyPath, permissions: 0o600)
        try write(authority.certificatePEM, to: authorityCertificatePath, permissions: 0o644)
        return authority
    }

    /// The server certificate kept here when it still serves `names`; else a new one, written, with the reason.
    public func serverCertificate(for names: ServedNames, authority: CertificateAuthority, now: Date = Date(),
                                  validity: TimeInterval = ServerCertificate.validity) throws -> (ServerCertificate, renewed: RenewalReason?) {
        let reason: RenewalReason?
        if !FileManager.default.fileExists(atPath: serverCertificatePath) {
            reason = .missing
        } else if let kept = try? ServerCertificate(certificatePEM: read(serverCertificatePath), keyPEM: read(serverKeyPath)) {
            reason = kept.renewalReason(for: names, authority: authority, now: now)
            if reason == nil { return (kept, nil) }
        } else {
            reason = .unreadable
        }
        let made = try authority.issue(for: names, now: now, validity: validity)
        try write(made.keyPEM, to: serverKeyPath, permissions: 0o600)
        try write(made.certificatePEM, to: serverCertificatePath, permissions: 0o644)
        return (made, reason)
    }

    private func file(_ name: String) -> String { (path as NSString).appendingPathComponent(name) }

    private func read(_ path: String) throws -> String { try String(contentsOfFile: path, encoding: .utf8) }

    private func prepare() throws {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        guard chmod(path, 0o700) == 0 else { throw WriteFailure(path: path, reason: String(cString: strerror(errno))) }
    }

    /// Written whole and flushed beside, then renamed over, so that neither a reader (a device downloading the
    /// authority) nor a start after a power cut sees half a file.
    private func write(_ text: String, to target: String, permissions: mode_t) throws {
        let temporary = target + ".new"
        unlink(temporary)
        let output = try NewFileOutput(creating: temporary, permissions: permissions) { WriteFailure(path: temporary, reason: $0) }
        try output.write(Array(text.utf8))
        try output.finish()
        guard rename(temporary, target) == 0 else { throw WriteFailure(path: target, reason: String(cString: strerror(errno))) }
    }

    /// The authority's files are there but are not a certificate and its key: making a new one would silently make
    /// every device distrust this server, so serve stops and says what to do.
    struct UnreadableAuthority: Error, CustomStringConvertible {
        let folder: String
        let reason: String
        var description: String {
            "the certificate authority in \(folder) (\(TLSFolder.authorityCertificateName) and \(TLSFolder.authorityKeyName)) cannot be read (\(reason)); "
                + "restore the folder from a backup, or move it aside to make a new authority, which every device must then trust again"
        }
    }

    struct WriteFailure: Error, CustomStringConvertible {
        let path: String
        let reason: String
        var description: String { "\(path) could not be written (\(reason)); check that the data folder's disk is there, writable and not full" }
    }
}
