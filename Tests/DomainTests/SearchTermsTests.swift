import Domain
import Testing

/// What the search of every kind accepts (issue 41 item 5).
@Suite struct SearchTermsTests {
    @Test func wordsAreTrimmedAndRefusedWhenTooShortOrTooLong() throws {
        #expect(try SearchTerms.check("  an \n").get().text == "an")
        #expect(SearchTerms.check("   ") == .failure(.empty) && SearchTerms.check(" é ") == .failure(.tooShort))
        #expect(SearchTerms.check(String(repeating: "é", count: 200)).map(\.text.count) == .success(200))
        #expect(SearchTerms.check(String(repeating: "é", count: 201)) == .failure(.tooLong))
    }

    /// The API document's maxLength counts code points of the parameter as sent, spaces included: whatever it calls too
    /// long is refused, even when the trimmed words or their characters are fewer (schemathesis sent such a q).
    @Test func theLimitCountsCodePointsAsSentLikeTheDocument() {
        #expect(SearchTerms.check(" " + String(repeating: "a", count: 199) + " ") == .failure(.tooLong))
        #expect(SearchTerms.check(String(repeating: "e\u{301}", count: 101)) == .failure(.tooLong), "101 characters, 202 code points")
        #expect((try? SearchTerms.check(String(repeating: "a", count: 200)).get())?.text.count == 200)
    }
}
