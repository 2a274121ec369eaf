import Foundation
import HTTPServer
import LANCertificates
import Logging
import WebUI

/// Serves HTTPS on the LAN with Fieldbook's own certificate authority (`DATA/tls`): makes the authority on first
/// start, and a server certificate for every name and address the machine answers on, and keeps that certificate
/// current while the server runs: a renewed one (near its end, or for changed addresses) is presented from the next
/// connection on, signed by the same authority, so devices need trust nothing new and nothing restarts.
final class ServerCertificateKeeper: @unchecked Sendable {
    let folder: TLSFolder
    let settings: OwnTLSSettings
    private let authority: CertificateAuthority
    private let authorityPEM: String
    private let logger: Logger
    private let lock = NSLock()
    private var names: ServedNames
    private var timer: DispatchSourceTimer?

    /// The keeper when `configuration` serves Fieldbook's own HTTPS, its current certificate and key put into `server`.
    static func ifServing(_ configuration: AppConfiguration, into server: inout ServerConfiguration, logger: Logger) throws -> ServerCertificateKeeper? {
        guard configuration.servesOwnTLS else { return nil }
        let keeper = try ServerCertificateKeeper(dataDirectory: configuration.dataDirectory, settings: configuration.ownTLS, logger: logger)
        let made = try keeper.current()
        server.tlsCertificatePEM = made.certificatePEM
        server.tlsKeyPEM = made.keyPEM
        server.strictTransportSecuritySeconds = nil
        return keeper
    }

    /// Makes the authority when it is missing.
    init(dataDirectory: String, settings: OwnTLSSettings, logger: Logger) throws {
        folder = TLSFolder.inDataFolder(dataDirectory)
        self.settings = settings
        self.logger = logger
        names = ServedNames(.current())
        if CertificateAuthority.clockIsBehind(Date()) {
            logger.warning("this machine's clock reads \(Date()), which is too early: set the clock (or let it get network time); certificates made meanwhile are dated from the wrong day")
        }
        authority = try folder.authority(hostName: names.machine.hostName)
        authorityPEM = try authority.certificatePEM
    }

    /// The certificate and key as they should be now, written anew when they no longer serve.
    func current(now: Date = Date()) throws -> (certificatePEM: String, keyPEM: String, renewed: RenewalReason?) {
        let names = lock.withLock { () -> ServedNames in
            self.names = ServedNames(.current())
            return self.names
        }
        let (certificate, reason) = try folder.serverCertificate(for: names, authority: authority, now: now, validity: settings.serverValidity)
        if let reason {
            logger.notice("made a server certificate", metadata: ["reason": "\(reason.rawValue)", "names": "\(names.dnsNames + names.addresses)",
                                                                 "until": "\(certificate.certificate.notValidAfter)"])
        }
        return (try certificate.certificatePEM, try certificate.keyPEM, reason)
    }

    /// Where devices reach the server on `port` (the hosts the Add a device page offers), and the authority they trust.
    func secureAddress(port: UInt16, devices: DeviceJoining) -> SecureAddress {
        SecureAddress(hosts: devices.reachableHosts(names: lock.withLock { names.machine }), port: port, authorityPEM: authorityPEM,
                      authorityFingerprint: authority.fingerprint)
    }

    /// Plain HTTP beside `secure` (same host, `OwnTLSSettings.plainPort`), answering only `SecureAddressGuide`.
    func plainServer(beside secure: HTTPServer, devices: DeviceJoining, renderer: PageRenderer, staticFiles: StaticFiles,
                     logger: Logger) -> HTTPServer {
        let guide = SecureAddressGuide(renderer: renderer, staticFiles: staticFiles) { [self] in secureAddress(port: secure.port, devices: devices) }
        let plain = ServerConfiguration(host: secure.configuration.host, port: settings.plainPort(serving: secure.configuration.port),
                                        threadCount: 2, maxBodyBytes: 64 << 10)
        return HTTPServer(configuration: plain, responder: guide, logger: logger)
    }

    /// Checks every `checkInterval` whether the certificate still serves, and presents a new one on `server` when not.
    func start(presentingOn server: HTTPServer) {
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "fieldbook.server-certificate"))
        timer.schedule(deadline: .now() + settings.checkInterval, repeating: settings.checkInterval)
        timer.setEventHandler { [self] in
            do {
                let made = try current()
                guard made.renewed != nil else { return }
                try server.present(certificatePEM: made.certificatePEM, keyPEM: made.keyPEM)
            } catch {
                logger.error("could not renew the server certificate", metadata: ["error": "\(error)"])
            }
        }
        lock.withLock { self.timer = timer }
        timer.resume()
    }

    func stop() {
        lock.withLock { () -> DispatchSourceTimer? in defer { timer = nil }; return timer }?.cancel()
    }
}

/// How Fieldbook serves HTTPS with its own certificate authority.
public struct OwnTLSSettings: Sendable {
    /// `--no-tls`: plain HTTP even beyond loopback.
    public var turnedOff = false
    /// Port of the plain-HTTP page that sends a device to the HTTPS address; nil: the port after `--port`.
    public var plainPort: UInt16?
    /// How long a server certificate is valid; tests shorten it (FIELDBOOK_TLS_VALIDITY) to see one renewed.
    public var serverValidity: TimeInterval = ServerCertificate.validity
    /// How often the certificate is checked against the machine's addresses and its end (FIELDBOOK_TLS_CHECK_INTERVAL):
    /// an address change shows within this.
    public var checkInterval: TimeInterval = 60

    public init() {}

    /// The plain port for a server on `port`: 0 (a free one) when the server's port is picked too.
    func plainPort(serving port: UInt16) -> UInt16 {
        plainPort ?? (port == 0 || port == .max ? 0 : port + 1)
    }
}
