import CAvahi
import Foundation
import Logging
import WebUI

/// Announces this server on the LAN by DNS-SD/mDNS through the machine's Avahi (the one Swift file that calls it, through
/// the CAvahi shim), so tablets find `NAME.local`; tells the "Add a device" page whether it is announced.
final class LANAnnouncer: @unchecked Sendable {
    private let devices: DeviceJoining
    private let logger: Logger
    /// Touched by `start` and `stop` only, which the app calls in turn.
    private var announcement: OpaquePointer?
    /// The name the server certificate holds for mDNS, set by `start` before Avahi reports.
    private var localName = ""

    init(devices: DeviceJoining, logger: Logger) {
        self.devices = devices
        self.logger = logger
    }

    private static let startFailure: String? = {
        guard fieldbook_avahi_start() != 0 else { return nil }
        return fieldbook_avahi_start_failure().map { String(cString: $0) } ?? "libavahi-client did not start"
    }()

    /// `_https._tcp` when serving HTTPS, `_http._tcp` otherwise; nothing when serving loopback only, which no other
    /// machine could open.
    func start(serving address: ServingAddress, hostName: String) {
        guard !address.isLoopback else { return }
        if let failure = Self.startFailure {
            logger.notice("Fieldbook is not announced on the network: \(failure) (devices type its address)")
            return
        }
        let type = address.isTLS ? "_https._tcp" : "_http._tcp"
        let context = Unmanaged.passUnretained(self).toOpaque()
        localName = "\(hostName).local"
        announcement = fieldbook_announce("Fieldbook on \(hostName)", type, address.port, { context, announced, message, answering in
            guard let context else { return }
            Unmanaged<LANAnnouncer>.fromOpaque(context).takeUnretainedValue()
                .report(announced != 0, String(cString: message!), answeringFor: answering.map { String(cString: $0) })
        }, context)
    }

    private func report(_ announced: Bool, _ message: String, answeringFor hostName: String?) {
        devices.setAnnounced(hostName: announced ? hostName : nil)
        if announced { logger.info("\(message)") } else { logger.notice("\(message)") }
        if announced, let hostName, hostName.lowercased() != localName.lowercased() {
            logger.notice("Avahi answers for \(hostName), not \(localName): another machine on the network has this one's name, so devices are given its addresses only; give this machine a name of its own")
        }
    }

    /// Withdraws the service before the server stops answering at its address.
    func stop() {
        fieldbook_announcement_stop(announcement)
        announcement = nil
        devices.setAnnounced(hostName: nil)
    }
}
