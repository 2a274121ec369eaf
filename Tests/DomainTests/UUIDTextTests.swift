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

    /// The byte-wise reader agrees with Foundation's on ids in either case, and refuses what Foundation refuses.
    @Test func canonicalTextReadsAsFoundationReadsIt() {
        for _ in 0..<2_000 {
            let id = UUID()
            #expect(UUID(canonicalText: id.lowercaseText) == id)
            #expect(UUID(canonicalText: id.uuidString) == id)
        }
        let text = "000ff0ff-1001-abcd-ef9a-0000ffff1234"
        let broken = ["", "000ff0ff-1001-abcd-ef9a-0000ffff123", "000ff0ff-1001-abcd-ef9a-0000ffff12345", "000ff0ff1001-abcd-ef9a-0000ffff1234-",
                      "000ff0ff-1001-abcd-ef9a-0000ffff123g", "000ff0ff_1001-abcd-ef9a-0000ffff1234", "{00ff0ff-1001-abcd-ef9a-0000ffff1234}",
                      "000ff0ff-1001-abcd-ef9a-0000ffff12é"]
        for candidate in broken {
            #expect(UUID(canonicalText: candidate) == nil, "\(candidate)")
            #expect(UUID(uuidString: candidate) == nil, "\(candidate)")
        }
        #expect(UUID(canonicalText: text) == UUID(uuidString: text))
    }
}

