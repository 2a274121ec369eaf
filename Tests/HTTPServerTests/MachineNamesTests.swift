import Foundation
import HTTPServer
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
}
