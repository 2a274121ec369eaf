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
}
