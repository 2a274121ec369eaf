import Foundation
import HTTPServer
import SwiftASN1
import X509

/// Every name and address the server certificate is for: the machine's LAN names and addresses, and loopback, so that
/// a browser on the machine itself is served without a warning too.
public struct ServedNames: Sendable, Hashable {
    public let machine: MachineNames

    public init(_ machine: MachineNames) { self.machine = machine }

    public var dnsNames: [String] { machine.dnsNames + ["localhost"] }
    public var addresses: [String] { machine.addresses + ["127.0.0.1", "::1"] }

    var generalNames: [GeneralName] {
        dnsNames.map { .dnsName($0) } + addresses.compactMap { Self.addressBytes($0).map { .ipAddress(ASN1OctetString(contentBytes: $0[...])) } }
    }

    /// The address's bytes in network order (4 for IPv4, 16 for IPv6), as a certificate names it.
    static func addressBytes(_ text: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 { return withUnsafeBytes(of: &v6) { Array($0) } }
        return nil
    }
}
