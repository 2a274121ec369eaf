@testable import HTTPServer
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
}
