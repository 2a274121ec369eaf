import Domain
import PropertyBased
import Testing

/// Names typed differently that may be one person (issue 14's "names that are close").
@Suite struct NameSimilarityTests {
    @Test func namesTypedAlmostAlikeScoreAboveTheThreshold() {
        for (first, second) in [("jon smith", "john smith"), ("ann lee", "anne lee"), ("mohammed ali", "muhammad ali"),
                                ("dubois, emile", "emile dubois"), ("anne-marie roy", "anne marie roy"), ("amina odhiambo", "amina odhimabo")] {
            #expect(NameSimilarity.score(first, second) >= NameSimilarity.threshold, "\(first) / \(second): \(NameSimilarity.score(first, second))")
        }
    }

    @Test func differentNamesScoreBelowIt() {
        for (first, second) in [("ann lee", "anna kim"), ("emile dubois", "grace hopper"), ("ada", "bob"), ("li wei", "wei chen"),
                                ("flat 12 riverside", "flat 13 riverside"), ("person 7", "person 17")] {
            #expect(NameSimilarity.score(first, second) < NameSimilarity.threshold, "\(first) / \(second): \(NameSimilarity.score(first, second))")
        }
    }

    @Test func alikeNamesShareABlockingKey() {
        for (first, second) in [("jon smith", "john smith"), ("emile dubois", "dubois emile"), ("amina odhiambo", "amina odhimabo")] {
            #expect(!Set(NameSimilarity.blockingKeys(first)).isDisjoint(with: NameSimilarity.blockingKeys(second)), "\(first) / \(second)")
        }
        #expect(NameSimilarity.blockingKeys("") == [])
    }

    @Test func theScoreIsSymmetricOneForTheSameWordsAndBetweenZeroAndOne() async {
        let alphabet = Array("abcdeé mn-")
        let letters = Gen.int(in: 0...(alphabet.count - 1)).array(of: 0...14).map { String($0.map { alphabet[$0] }) }
        await propertyCheck(count: 300, input: letters, letters) { first, second in
            let score = NameSimilarity.score(first, second)
            #expect(score >= 0 && score <= 1)
            #expect(abs(score - NameSimilarity.score(second, first)) < 1e-9)
            #expect(NameSimilarity.score(first, NameSimilarity.words(first).reversed().joined(separator: " ")) == 1 || NameSimilarity.words(first).isEmpty)
        }
    }
}
