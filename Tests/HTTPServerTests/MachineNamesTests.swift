import Foundation
@testable import HTTPServer
import Testing

/// The names a certificate and the add-a-device page use: the machine's own, without loopback.
@Suite struct MachineNamesTests {
    @Test func theMachinesOwnNamesLeaveOutLoopbackAndLinkLocal() {
        let names = MachineNames.current()
        #expect(!names.hostName.isEmpty)
        #expect(!names.hostName.contains("."))
        #expect(names.localName == "\(names.hostName).local")
        #expect(names.dnsNames == [names.hostName, names.localName])
        for address in names.addresses {
            #expect(!address.hasPrefix("127."))
            #expect(address != "::1")
            #expect(!address.lowercased().hasPrefix("fe80:"))
        }
    }

    @Test func addressesAreOrderedSoTwoReadingsOfTheSameMachineCompareEqual() {
        let one = MachineNames(hostName: "hall", addresses: ["fd00::2", "192.168.1.20", "10.0.0.5", "192.168.1.20"])
        let two = MachineNames(hostName: "hall", addresses: ["10.0.0.5", "fd00::2", "192.168.1.20"])
        #expect(one == two)
        #expect(one.addresses == ["10.0.0.5", "192.168.1.20", "fd00::2"])
    }

    @Test func loopbackIsEveryLoopbackAddressHoweverWritten() {
        for host in ["127.0.0.1", "127.1.2.3", "::1", "0:0:0:0:0:0:0:1", "::ffff:127.0.0.1"] {
            #expect(ServerConfiguration.isLoopback(host), "\(host)")
        }
        for host in ["0.0.0.0", "::", "192.168.1.20", "::ffff:192.168.1.20", "::2", "fe80::1", "localhost"] {
            #expect(!ServerConfiguration.isLoopback(host), "\(host)")
        }
    }

    @Test func aReadingThatFailsKeepsTheLastNames() {
        let hall = MachineNames(hostName: "hall", addresses: ["192.168.1.20"])
        let answers = Answers([hall, nil])
        let reading = MachineNamesReading { answers.next() }
        #expect(reading.current() == hall)
        #expect(reading.current() == hall)
        #expect(MachineNamesReading { nil }.current() == MachineNames(hostName: "", addresses: []))
    }

    @Test func temporaryAndDeprecatedIPv6AddressesAreLeftOut() {
        let list = """
        fd000000000000000000000000000020 02 40 00 80     eth0
        20010db8000000001c2a3b4c5d6e7f80 02 40 00 01     eth0
        20010db8000000000000000000000021 02 40 00 20     eth0
        20010db8000000000000000000000020 02 40 00 00     eth0
        fe800000000000000000000000000001 02 40 20 80     eth0
        """
        #expect(MachineNames.passingIPv6Addresses(inIfInet6: list) == ["2001:db8::1c2a:3b4c:5d6e:7f80", "2001:db8::21"])
        #expect(MachineNames.passingIPv6Addresses(inIfInet6: "") == [])
    }
}

/// Answers given one at a time, then nil.
private final class Answers: @unchecked Sendable {
    private var left: [MachineNames?]
    private let lock = NSLock()
    init(_ answers: [MachineNames?]) { left = answers }
    func next() -> MachineNames? { lock.withLock { left.isEmpty ? nil : left.removeFirst() } }
}
