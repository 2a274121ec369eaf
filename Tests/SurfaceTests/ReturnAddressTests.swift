import Foundation
import Surface
import Testing

/// Issue 36, item 12: a `next` or `return_to` is followed only when a browser reads it as a path on this server.
@Suite struct ReturnAddressTests {
    /// Every form a browser reads as another site, or that is no path at all, as it arrives here (percent-decoded once).
    static let dropped = [
        "//evil.example/", "///evil.example", "https://evil.example/", "http:evil.example", "javascript:alert(1)",
        "evil.example", "", " /evil.example", " //evil.example",
        "/\t/evil.example/", "\t//evil.example", "/\n/evil.example", "/\r/evil.example", "/\r\n/evil.example",
        "\n//evil.example", "/\t\t/evil.example", "/\u{0}/evil.example", "\u{1F}//evil.example", "\u{7F}//evil.example",
        "/\\evil.example", "\\/evil.example", "\\\\evil.example", "/\t\\evil.example", "\\evil.example",
        "/roles\r\nSet-Cookie: x=1", "/roles?page=2\n", "/roles\t", "/a/b\\..\\..\\evil",
    ]

    static let onSite = [
        "/", "/roles", "/roles?page=2", "/participants?q=Ama%20Mensah&sort=name", "/notifications?page=3&unread=1",
        "/%2F/evil.example", "/%09/evil.example", "/%5Cevil.example", "/a//b", "/participants?q=a b", "/café",
        "/..//evil.example", "/?next=//evil.example",
    ]

    @Test(arguments: dropped) func anAddressThatIsNotAPathOnThisServerIsDropped(_ wanted: String) {
        #expect(ReturnAddress.localPath(wanted) == nil)
    }

    @Test(arguments: onSite) func aPathOnThisServerStaysAsItIs(_ wanted: String) {
        #expect(ReturnAddress.localPath(wanted) == wanted)
    }

    /// Every string of up to four characters from those that matter to the URL standard's reading: whatever the
    /// rule keeps, a browser reads as a path on this server and the Location header can carry.
    @Test func everyShortAddressKeptIsAPathOnThisServerToABrowser() {
        let alphabet: [Character] = ["/", "\\", "\t", "\n", "\r", " ", "\u{0}", "\u{1F}", "\u{7F}", "e", ".", ":", "?", "#", "%"]
        var addresses: [String] = [""]
        var kept = 0
        for _ in 1...4 {
            addresses = addresses.flatMap { prefix in alphabet.map { prefix + String($0) } }
            for address in addresses where ReturnAddress.localPath(address) != nil {
                kept += 1
                #expect(Self.browserReadsAsThisServer(address), "kept \(address.debugDescription)")
                let breaksTheHeader = address.contains { $0.isNewline }
                #expect(!breaksTheHeader, "kept \(address.debugDescription)")
            }
        }
        #expect(kept > 500, "a slash, then anything but a second slash, from the eight printable characters")
    }

    /// The URL standard's reading of a relative address against an http(s) page, as far as the host goes: controls
    /// and spaces stripped from both ends, tabs and newlines removed, a backslash read as a slash; the address then
    /// names another host only when it starts with two slashes or a scheme.
    static func browserReadsAsThisServer(_ address: String) -> Bool {
        let isControlOrSpace = { (scalar: Unicode.Scalar) -> Bool in scalar.value <= 0x20 }
        let trimmed = Array(address.unicodeScalars.drop(while: isControlOrSpace).reversed().drop(while: isControlOrSpace).reversed())
        let removed: Set<Unicode.Scalar> = ["\t", "\n", "\r"]
        let read = String(String.UnicodeScalarView(trimmed.filter { !removed.contains($0) }))
            .replacingOccurrences(of: "\\", with: "/")
        if read.hasPrefix("//") { return false }
        guard let first = read.unicodeScalars.first, first != "/" else { return true }
        return !(first.properties.isAlphabetic && first.isASCII) || !read.contains(":")
    }
}
