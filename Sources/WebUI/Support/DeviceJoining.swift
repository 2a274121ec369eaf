import Foundation
import HTTPServer
import LANCertificates
import Synchronization

/// Where this server answers and how, once it listens (its port may have been chosen by the system).
public struct ServingAddress: Sendable, Equatable {
    public var host: String
    public var port: UInt16
    public var isTLS: Bool

    /// The address serve listens on, once it has its port.
    public static func listening(on host: String, port: UInt16, isTLS: Bool) -> ServingAddress {
        ServingAddress(host: host, port: port, isTLS: isTLS)
    }

    var scheme: String { isTLS ? "https" : "http" }
    public var isLoopback: Bool { ServerConfiguration.isLoopback(host) }
    var isEveryAddress: Bool { host == "0.0.0.0" || host == "::" || host.isEmpty }

    /// `https://name:port/`, the port left out when it is the scheme's own and an IPv6 address in brackets.
    func url(_ name: String) -> String {
        let host = name.contains(":") ? "[\(name)]" : name
        let usual: UInt16 = isTLS ? 443 : 80
        return "\(scheme)://\(host)\(port == usual ? "" : ":\(port)")/"
    }
}

/// What the "Add a device" page tells, kept up to date by the app: the address it serves, whether the LAN hears of it
/// by mDNS, and which certificate authority devices trust.
public final class DeviceJoining: Sendable {
    /// Fieldbook's own certificate authority, offered only while serve serves HTTPS with it: an authority an earlier
    /// run made stays in the data folder when serve is started with --tls-cert or --no-tls, and trusting it then helps
    /// no device.
    let authorityPath: String?
    private let serving = Mutex<ServingAddress?>(nil)
    private let announcedName = Mutex<String?>(nil)

    /// `ownAuthority`: the folder of the authority serve serves with; nil when it serves another certificate or none.
    public init(ownAuthority: TLSFolder?) {
        authorityPath = ownAuthority?.authorityCertificatePath
    }

    public func served(at address: ServingAddress) { serving.withLock { $0 = address } }

    /// Called as the machine's Avahi publishes the service or loses it (restarted, stopped): the host name Avahi
    /// answers for while it announces the service, nil when it does not.
    public func setAnnounced(hostName: String?) { announcedName.withLock { $0 = hostName } }

    var address: ServingAddress? { serving.withLock { $0 } }

    /// Whether Avahi announces the service under `names.localName`, the name the server certificate holds. After a
    /// host-name collision on the LAN it answers for another (`NAME-2.local`), which no certificate names.
    func isAnnounced(as names: MachineNames) -> Bool {
        !names.hostName.isEmpty && announcedName.withLock { $0 }?.lowercased() == names.localName.lowercased()
    }

    /// The name Avahi answers for when it is not `names.localName` (a host-name collision), else nil.
    func announcedUnderAnotherName(than names: MachineNames) -> String? {
        isAnnounced(as: names) ? nil : announcedName.withLock { $0 }
    }

    /// The hosts a device on the LAN can open, the one the QR code holds first: the `.local` name while Avahi
    /// announces it (it survives the LAN address changing), then each LAN address. None when serving loopback only.
    /// The Add a device page and the plain-HTTP guide both offer these.
    public func reachableHosts(names: MachineNames) -> [String] {
        guard let address, !address.isLoopback else { return [] }
        guard address.isEveryAddress else { return [address.host] }
        return (isAnnounced(as: names) ? [names.localName] : []) + names.addresses
    }

    func reachableURLs(names: MachineNames) -> [String] {
        guard let address else { return [] }
        return reachableHosts(names: names).map(address.url)
    }
}
