import Foundation
import HTTPServer
import Testing

@Suite struct QueryStringTests {
    /// The byte-level escape writes what Foundation's percent-encoding of RFC 3986's unreserved set writes.
    @Test func escapingKeepsOnlyUnreservedCharactersAsTheyAre() {
        let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        for value in ["", "plain-text_1.0~", "a b&c=d+e/f?g#h", "Zoë Ångström", "东京 🗺️", "100%", "\u{0}\u{7F}", "'\"<>"] {
            #expect(QueryString.escape(value) == value.addingPercentEncoding(withAllowedCharacters: unreserved), "\(value)")
        }
    }

    @Test func anEncodedQueryDecodesToTheSameParameters() {
        var parameters = Parameters()
        parameters.append("q", "Zoë & co")
        parameters.append("sort", "name")
        let decoded = QueryString.decode(QueryString.encode(parameters))
        #expect(decoded.pairs.map(\.name) == ["q", "sort"])
        #expect(decoded.pairs.map(\.value) == ["Zoë & co", "name"])
    }
}
