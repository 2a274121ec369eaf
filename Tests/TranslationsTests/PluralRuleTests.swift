import Translations
import XCTest

/// The Plural-Forms headers of the common languages, as gettext's manual and the CLDR-derived catalogs write them,
/// against the forms their grammars take.
final class PluralRuleTests: XCTestCase {
    private func forms(_ header: String, _ numbers: [Int]) throws -> [Int] {
        let rule = try PluralRule(header: header)
        return numbers.map(rule.form(for:))
    }

    func testOneOtherLanguages() throws {
        let germanic = "nplurals=2; plural=(n != 1);"
        XCTAssertEqual(try forms(germanic, [0, 1, 2, 5, 21]), [1, 0, 1, 1, 1])   // en, es, pt
        let french = "nplurals=2; plural=(n > 1);"
        XCTAssertEqual(try forms(french, [0, 1, 2, 100]), [0, 0, 1, 1])         // fr, pt-BR: 0 takes the singular
        let persian = "nplurals=2; plural=(n > 1);"
        XCTAssertEqual(try forms(persian, [0, 1, 2]), [0, 0, 1])
        XCTAssertEqual(PluralRule.english.form(for: 1), 0)
        XCTAssertEqual(PluralRule.english.form(for: 3), 1)
    }

    func testRussian() throws {
        let header = "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);"
        XCTAssertEqual(try forms(header, [1, 21, 101, 2, 3, 4, 22, 5, 11, 12, 14, 25, 111, 0]),
                       [0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2])
    }

    func testPolish() throws {
        let header = "nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);"
        XCTAssertEqual(try forms(header, [1, 2, 4, 22, 5, 12, 21, 0]), [0, 1, 1, 1, 2, 2, 2, 2])
    }

    func testArabic() throws {
        let header = "nplurals=6; plural=(n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : n%100>=3 && n%100<=10 ? 3 : n%100>=11 ? 4 : 5);"
        XCTAssertEqual(try forms(header, [0, 1, 2, 3, 10, 103, 11, 99, 100, 102]), [0, 1, 2, 3, 3, 3, 4, 4, 5, 5])
    }

    func testPrecedenceAndUnaryNot() throws {
        XCTAssertEqual(try forms("nplurals=2; plural=!(n == 1);", [1, 2]), [0, 1])
        XCTAssertEqual(try forms("nplurals=3; plural=n*2+1-1 == 4 ? 2 : n/2 % 2;", [2, 4, 6, 1]), [2, 0, 1, 0])
        XCTAssertEqual(try forms("nplurals=1; plural=0;", [0, 1, 7]), [0, 0, 0])
    }

    func testAFormOutOfRangeIsTheLast() throws {
        XCTAssertEqual(try forms("nplurals=2; plural=n;", [0, 1, 5]), [0, 1, 1])
    }

    func testMalformedHeadersAreRefused() {
        for header in ["plural=(n != 1);", "nplurals=2;", "nplurals=2; plural=(n != 1;", "nplurals=2; plural=n ? 1;",
                       "nplurals=2; plural=x;", "nplurals=0; plural=0;"] {
            XCTAssertThrowsError(try PluralRule(header: header), header)
        }
    }
}
