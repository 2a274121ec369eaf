import Foundation
import Storage
import Testing

@Suite struct VersionedCacheTests {
    @Test func aValueIsServedOnlyAtTheVersionItWasBuiltAt() {
        let cache = VersionedCache<String, String>(budget: 10)
        cache.store("answer", for: "all", at: 7, cost: 1)
        #expect(cache.value(for: "all", at: 7) == "answer")
        #expect(cache.value(for: "all", at: 8) == nil)
        #expect(cache.value(for: "other", at: 7) == nil)
    }

    @Test func theEntriesUsedLongestAgoMakeRoomAndTheBudgetHolds() {
        let cache = VersionedCache<String, String>(budget: 10)
        cache.store("a", for: "a", at: 1, cost: 4)
        cache.store("b", for: "b", at: 1, cost: 4)
        _ = cache.value(for: "a", at: 1)
        cache.store("c", for: "c", at: 1, cost: 4)
        #expect(cache.value(for: "b", at: 1) == nil)
        #expect(cache.value(for: "a", at: 1) == "a")
        #expect(cache.value(for: "c", at: 1) == "c")
        #expect(cache.heldCost == 8)
        cache.store("huge", for: "huge", at: 1, cost: 11)
        #expect(cache.value(for: "huge", at: 1) == nil)
        #expect(cache.heldCost == 8)
    }

    @Test func aSlowerBuildOfAnOlderVersionDoesNotReplaceANewerOne() {
        let cache = VersionedCache<String, String>(budget: 10)
        cache.store("new", for: "all", at: 9, cost: 1)
        cache.store("old", for: "all", at: 8, cost: 1)
        #expect(cache.value(for: "all", at: 9) == "new")
        #expect(cache.heldCost == 1)
    }
}
