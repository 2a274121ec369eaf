import Domain
import Testing

@Suite struct LastOfEachTests {
    @Test func eachKeyKeepsItsLastElementInTheOrderOfThoseLastElements() {
        let written = [("a", 1), ("b", 2), ("a", 3), ("c", 4), ("b", 5)]
        #expect(written.lastOfEach(by: \.0).map(\.1) == [3, 4, 5])
        #expect([("a", 1), ("b", 2)].lastOfEach(by: \.0).map(\.1) == [1, 2])
        #expect([(String, Int)]().lastOfEach(by: \.0).isEmpty)
    }
}
