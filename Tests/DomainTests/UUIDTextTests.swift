import Domain
import Foundation
import Testing

@Suite struct UUIDTextTests {
    /// Ids written from their bytes read exactly as Foundation's canonical form in lower case.
    @Test func anIdsTextIsItsCanonicalFormInLowerCase() {
        for _ in 0..<2_000 {
            let id = UUID()
            #expect(id.lowercaseText == id.uuidString.lowercased())
        }
        let edge = UUID(uuid: (0, 0x0F, 0xF0, 0xFF, 0x10, 0x01, 0xAB, 0xCD, 0xEF, 0x9A, 0x00, 0x00, 0xFF, 0xFF, 0x12, 0x34))
        #expect(edge.lowercaseText == "000ff0ff-1001-abcd-ef9a-0000ffff1234")
    }
}
