import Foundation
import SwiftASN1
import X509

/// The names Fieldbook's own authority may sign for: the machine's names and the private, link-local and loopback
/// address ranges. A device that trusts the authority then trusts it for nothing on the internet, even if its key
/// leaks.
enum LANNameConstraints {
    static let dnsDomains = ["local", "localhost"]
    /// Each range as address and mask, in network order.
    static let ipRanges: [[UInt8]] = [
        [10, 0, 0, 0, 255, 0, 0, 0],
        [172, 16, 0, 0, 255, 240, 0, 0],
        [192, 168, 0, 0, 255, 255, 0, 0],
        [169, 254, 0, 0, 255, 255, 0, 0],
        [127, 0, 0, 0, 255, 0, 0, 0],
        [0xfc] + Array(repeating: 0, count: 15) + [0xfe] + Array(repeating: 0, count: 15),
        Array(repeating: 0, count: 15) + [1] + Array(repeating: 0xff, count: 16),
    ]

    /// Critical, so that a verifier that does not understand it refuses the authority rather than trusting it for all.
    static func forAuthority(hostName: String) -> NameConstraints {
        NameConstraints(
            permittedDNSDomains: dnsDomains + (hostName.isEmpty ? [] : [hostName]),
            permittedIPRanges: ipRanges.map { ASN1OctetString(contentBytes: $0[...]) })
    }

    /// Whether `constraints` permit `name`, as RFC 5280 4.2.1.10 matches them; other kinds of names are not signed.
    static func permits(_ name: GeneralName, under constraints: NameConstraints) -> Bool {
        switch name {
        case .dnsName(let dnsName):
            let lowered = dnsName.lowercased()
            return constraints.permittedDNSDomains.contains { domain in
                let domain = domain.lowercased()
                return lowered == domain || lowered.hasSuffix("." + domain)
            }
        case .ipAddress(let address):
            let bytes = Array(address.bytes)
            return constraints.permittedIPRanges.contains { range in
                let range = Array(range.bytes)
                guard range.count == bytes.count * 2 else { return false }
                return bytes.indices.allSatisfy { bytes[$0] & range[bytes.count + $0] == range[$0] & range[bytes.count + $0] }
            }
        default:
            return false
        }
    }
}
