@testable import HTTPServer
import Testing

/// Header names are compared as HTTP compares them: ASCII letters without regard to case, every other byte exactly.
@Suite struct HeaderNameTests {
    @Test func everyPairOfASCIICharactersComparesAsTheirLowercaseDoes() {
        for first in 0..<128 {
            for second in 0..<128 {
                let one = String(UnicodeScalar(UInt8(first))), other = String(UnicodeScalar(UInt8(second)))
                #expect(Response.sameHeaderName("X-" + one, "x-" + other) == (one.lowercased() == other.lowercased()), "\(first) \(second)")
            }
        }
    }

    @Test func namesOfOtherLengthsOrOutsideASCIIDiffer() {
        #expect(Response.sameHeaderName("Cache-Control", "cache-control"))
        #expect(Response.sameHeaderName("CONTENT-SECURITY-POLICY", "Content-Security-Policy"))
        #expect(!Response.sameHeaderName("Cache-Control", "Cache-Controls"))
        #expect(!Response.sameHeaderName("", "a"))
        #expect(Response.sameHeaderName("", ""))
        #expect(!Response.sameHeaderName("X-É", "X-é"))
        #expect(Response.sameHeaderName("X-É", "x-É"))
    }

    @Test func aResponseFindsAndReplacesAHeaderWhateverItsCase() {
        var response = Response(status: .ok, headers: [("Cache-Control", "no-cache")])
        #expect(response.header("cache-control") == "no-cache")
        response.setHeader("CACHE-CONTROL", "no-store")
        #expect(response.headers.count == 1 && response.header("Cache-Control") == "no-store")
    }
}

/// A Cookie header as browsers send it, and as a hand-written one may be spaced.
@Suite struct CookieHeaderTests {
    @Test func pairsAreReadWithoutTheSpacesAroundThem() {
        #expect(Cookie.parse(header: "fieldbook_session=abc123; theme=dark") == ["fieldbook_session": "abc123", "theme": "dark"])
        // A pair with nothing on one side of its `=` is skipped, as before this parser lost Foundation.
        #expect(Cookie.parse(header: " \ta = 1 \t;b=x=y;;  ;c=") == ["a": "1", "b": "x=y"])
        #expect(Cookie.parse(header: "a=first; a=second") == ["a": "first"])
        #expect(Cookie.parse(header: "") == [:])
        #expect(Cookie.parse(header: "no-value; =empty-name") == ["": "empty-name"])
    }

    @Test func overTLSACookieIsSetAndReadOnlyUnderTheHostPrefix() {
        #expect(Cookie(name: "fieldbook_csrf", value: "t", secure: true, sameSite: "Strict").headerValue
                == "__Host-fieldbook_csrf=t; Path=/; HttpOnly; SameSite=Strict; Secure")
        #expect(Cookie(name: "fieldbook_csrf", value: "t", secure: false).headerValue.hasPrefix("fieldbook_csrf=t; Path=/;"))
        // One planted by a forged plain-HTTP answer goes by the plain name, which a TLS request does not read.
        let planted = ["fieldbook_csrf": "planted"], set = ["__Host-fieldbook_csrf": "set"]
        #expect(Request(method: .get, path: "/", cookies: planted, isTLS: true).cookie("fieldbook_csrf") == nil)
        #expect(Request(method: .get, path: "/", cookies: planted.merging(set) { $1 }, isTLS: true).cookie("fieldbook_csrf") == "set")
        #expect(Request(method: .get, path: "/", cookies: planted, isTLS: false).cookie("fieldbook_csrf") == "planted")
    }

    @Test func onlySpacesAndTabsAreTrimmed() {
        #expect(Cookie.trimmingSpaces(" \t x y \t ") == "x y")
        #expect(Cookie.trimmingSpaces("   ") == "")
        #expect(Cookie.trimmingSpaces("\u{A0}é\u{A0}") == "\u{A0}é\u{A0}")
    }
}
