import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The names and addresses a device on the LAN can reach this machine by: what the server's certificate names and
/// what a device is told to open. Loopback is not among them: no other device reaches it.
public struct MachineNames: Sendable, Hashable {
    /// The host name's first label, as `gethostname` gives it.
    public var hostName: String
    /// Each LAN address as text, IPv4 before IPv6, each family sorted, so that two readings compare equal when the
    /// machine's addresses have not changed.
    public var addresses: [String]

    public init(hostName: String, addresses: [String]) {
        self.hostName = hostName
        self.addresses = Self.ordered(addresses)
    }

    /// The name mDNS (Avahi) answers for on the LAN.
    public var localName: String { "\(hostName).local" }

    /// The host name and its .local name.
    public var dnsNames: [String] { hostName.isEmpty ? [] : [hostName, localName] }

    /// The names and addresses as the system has them now, or as last read when the system cannot say now: a failed
    /// call is not "no addresses", and a certificate made from it would leave every LAN address out.
    public static func current() -> MachineNames { lastReading.current() }

    private static let lastReading = MachineNamesReading(read: read)

    /// The names and addresses as the system has them now; nil when a call to read them failed.
    static func read() -> MachineNames? {
        guard let hostName = currentHostName(), let addresses = currentAddresses() else { return nil }
        let passing = (try? String(contentsOfFile: "/proc/self/net/if_inet6", encoding: .utf8)).map(passingIPv6Addresses(inIfInet6:)) ?? []
        return MachineNames(hostName: hostName, addresses: addresses.filter { !passing.contains($0) })
    }

    static func currentHostName() -> String? {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count) == 0 else { return nil }
        let name = String(cString: buffer)
        return name.split(separator: ".").first.map(String.init)
    }

    /// The addresses of the interfaces that are up, loopback left out, and IPv6 link-local addresses too: a URL or
    /// a certificate cannot name them without the interface, which differs on every device.
    static func currentAddresses() -> [String]? {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0 else { return nil }
        guard let first = list else { return [] }
        defer { freeifaddrs(list) }
        var found: [String] = []
        for entry in sequence(first: first, next: { $0.pointee.ifa_next }) {
            let flags = Int32(entry.pointee.ifa_flags)
            guard flags & Int32(IFF_UP) != 0, flags & Int32(IFF_LOOPBACK) == 0,
                  let address = entry.pointee.ifa_addr, let text = Self.text(of: address) else { continue }
            if text.lowercased().hasPrefix("fe80:") { continue }
            found.append(text)
        }
        return found
    }

    /// The IPv6 addresses the kernel's list (/proc/self/net/if_inet6) marks temporary (privacy addresses, replaced
    /// every few hours) or deprecated: naming them would make a new certificate at every rotation, and no device is
    /// told to open them. An unreadable list leaves every address in.
    static func passingIPv6Addresses(inIfInet6 text: String) -> Set<String> {
        let temporary: UInt32 = 0x01, deprecated: UInt32 = 0x20  // IFA_F_TEMPORARY, IFA_F_DEPRECATED
        var passing = Set<String>()
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count >= 6, fields[0].count == 32, let flags = UInt32(fields[4], radix: 16),
                  flags & (temporary | deprecated) != 0 else { continue }
            let hex = Array(fields[0])
            let groups = stride(from: 0, to: 32, by: 4).map { String(hex[$0..<$0 + 4]) }.joined(separator: ":")
            var raw = in6_addr(), buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
            guard inet_pton(AF_INET6, groups, &raw) == 1, let text = inet_ntop(AF_INET6, &raw, &buffer, socklen_t(buffer.count)) else { continue }
            passing.insert(String(cString: text))
        }
        return passing
    }

    private static func text(of address: UnsafeMutablePointer<sockaddr>) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        switch Int32(address.pointee.sa_family) {
        case AF_INET:
            return address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { v4 in
                var raw = v4.pointee.sin_addr
                return inet_ntop(AF_INET, &raw, &buffer, socklen_t(buffer.count)).map { String(cString: $0) }
            }
        case AF_INET6:
            return address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { v6 in
                var raw = v6.pointee.sin6_addr
                return inet_ntop(AF_INET6, &raw, &buffer, socklen_t(buffer.count)).map { String(cString: $0) }
            }
        default:
            return nil
        }
    }

    private static func ordered(_ addresses: [String]) -> [String] {
        let unique = Set(addresses)
        let v4 = unique.filter { !$0.contains(":") }.sorted()
        let v6 = unique.filter { $0.contains(":") }.sorted()
        return v4 + v6
    }
}

/// The last names the system gave: a reading that fails keeps them.
final class MachineNamesReading: @unchecked Sendable {
    private let read: @Sendable () -> MachineNames?
    private let lock = NSLock()
    private var last: MachineNames?

    init(read: @escaping @Sendable () -> MachineNames?) { self.read = read }

    func current() -> MachineNames {
        lock.withLock {
            if let now = read() { last = now }
            return last ?? MachineNames(hostName: "", addresses: [])
        }
    }
}
