import Foundation
@testable import HTTPServer
import TestSupport
import Testing

@Suite struct GzipTests {
    func request(acceptEncoding: String?) -> Request {
        Request(method: .get, path: "/", query: Parameters(), headers: acceptEncoding.map { ["accept-encoding": $0] } ?? [:])
    }

    @Test func readsAcceptEncoding() {
        #expect(Gzip.isAccepted(by: request(acceptEncoding: "gzip, deflate, br")))
        #expect(Gzip.isAccepted(by: request(acceptEncoding: "br;q=1.0, gzip;q=0.8")))
        #expect(!Gzip.isAccepted(by: request(acceptEncoding: "gzip;q=0")))
        #expect(!Gzip.isAccepted(by: request(acceptEncoding: "identity")))
        #expect(!Gzip.isAccepted(by: request(acceptEncoding: nil)))
    }

    // A large body is sent in gzip format (magic bytes 1f 8b) and smaller; a small one is sent as it is.
    @Test func compressesOnlyWhatIsWorthIt() {
        let large = Response(status: .ok, headers: [], body: Array(String(repeating: "{\"name\":\"Venue\"},", count: 500).utf8))
        let packed = Gzip.negotiate(large, for: request(acceptEncoding: "gzip"))
        #expect(packed.header("Content-Encoding") == "gzip" && packed.body.starts(with: [0x1f, 0x8b]) && packed.body.count < large.body.count / 10)
        #expect(packed.header("Vary") == "Accept-Encoding")
        let small = Gzip.negotiate(Response(status: .ok, headers: [], body: Array("{}".utf8)), for: request(acceptEncoding: "gzip"))
        #expect(small.header("Content-Encoding") == nil && small.body == Array("{}".utf8))
    }

    // Parts compressed on their own threads join into one gzip member that gzip itself reads back as the parts joined,
    // whatever the parts' sizes (empty ones too).
    @Test func partsCompressedApartAreOneGzipDocument() throws {
        let text = Array(String(repeating: "{\"name\":\"Venue Ünïcode\",\"n\":12345},", count: 20_000).utf8)
        for cuts in [[0, text.count], [0, 1, text.count], [0, 7_000, 7_000, text.count], [0, 100_000, 300_000, 500_000, text.count]] {
            let parts = zip(cuts, cuts.dropFirst()).map { Array(text[$0..<$1]) }
            let packed = try #require(Gzip.compress(parts: parts))
            #expect(packed.starts(with: [0x1f, 0x8b]) && packed.count < text.count / 10)
            #expect(try gunzip(packed) == text, "cuts \(cuts)")
        }
    }
}
