import Foundation
import HTTPServer
import Logging
import Testing
import TestSupport

/// Echoes what the server parsed, so tests can see exactly what a handler would receive.
struct EchoResponder: RequestResponder {
    func respond(to request: Request) -> Response {
        var router = Router()
        router.get("/echo/{name}") { request in
            let query = request.query.pairs.map { "\($0.name)=\($0.value)" }.joined(separator: "&")
            return .text("name=\(request.pathParameter("name") ?? "") query=\(query)")
        }
        router.post("/form") { request in
            let form = request.form.pairs.map { "\($0.name)=\($0.value)" }.joined(separator: "&")
            // The size the server counted, and the bytes on disk (read back, so the test sees the spooled file whole).
            let files = request.files.map { file in
                let onDisk = FileManager.default.contents(atPath: file.path) ?? Data()
                return "\(file.fieldName):\(file.filename):\(file.size):\(onDisk.count):\(onDisk.allSatisfy { $0 == UInt8(ascii: "x") })"
            }.joined(separator: ",")
            return .text("form=\(form) files=\(files) raw=\(request.body.count)")
        }
        router.get("/slow") { _ in
            Thread.sleep(forTimeInterval: 0.5)
            return .text("done")
        }
        do {
            return try router.handle(request)
        } catch let error as HTTPError {
            var response = Response.text(error.publicMessage, status: error.status)
            if !error.allowedMethods.isEmpty { response.setHeader("Allow", error.allowedMethods.map(\.rawValue).joined(separator: ", ")) }
            return response
        } catch {
            return .text("error", status: .internalServerError)
        }
    }

    func respond(to request: Request, failure: HTTPError) -> Response {
        .text("refused: \(failure.publicMessage)", status: failure.status)
    }
}

@Suite(.serialized) struct HTTPServerTests {
    func withServer(maxBody: Int = 1024, maxUpload: Int = 200 << 20, uploads: String? = nil, _ body: (UInt16) throws -> Void) throws {
        var configuration = ServerConfiguration(port: 0, threadCount: 4, maxBodyBytes: maxBody, maxUploadBytes: maxUpload, uploadDirectory: uploads)
        configuration.uploadPaths = ["/form"]
        let server = HTTPServer(configuration: configuration,
                                responder: EchoResponder(), logger: Logger(label: "test"))
        let port = try server.start()
        defer { server.stop() }
        try body(port)
    }

    @Test func routesPathParametersAndDecodesTheQuery() throws {
        try withServer { port in
            let answer = try RawHTTPClient.send("GET /echo/ada?q=a%20b&q=c&empty= HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", port: port)
            #expect(answer.status == 200)
            #expect(answer.body == "name=ada query=q=a b&q=c&empty=")
        }
    }

    @Test func anEncodedQuestionMarkStaysInThePath() throws {
        try withServer { port in
            let answer = try RawHTTPClient.send("GET /echo/a%3Fb?q=1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", port: port)
            #expect(answer.status == 200)
            #expect(answer.body == "name=a?b query=q=1")
        }
    }

    @Test func everyResponseCarriesTheSecurityHeaders() throws {
        try withServer { port in
            let answer = try RawHTTPClient.send("GET /nowhere HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", port: port)
            #expect(answer.status == 404)
            #expect(answer.headers["content-security-policy"]?.contains("frame-ancestors 'none'") == true)
            #expect(answer.headers["content-security-policy"]?.contains("script-src 'self'") == true)
            #expect(answer.headers["x-content-type-options"] == "nosniff")
            #expect(answer.headers["referrer-policy"] == "same-origin")
        }
    }

    @Test func wrongMethodIs405WithAllow() throws {
        try withServer { port in
            let answer = try RawHTTPClient.send("POST /echo/x HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n", port: port)
            #expect(answer.status == 405)
            #expect(answer.headers["allow"] == "GET, HEAD")
        }
    }

    @Test func headIsAnsweredByTheGetRouteWithoutABody() throws {
        try withServer { port in
            let answer = try RawHTTPClient.send("HEAD /echo/ada HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", port: port)
            #expect(answer.status == 200)
            #expect(answer.body.isEmpty)
        }
    }

    @Test func parsesURLEncodedFormsIncludingATrailingEmptyValue() throws {
        try withServer { port in
            let body = "name=Ada+Lovelace&note=%C3%A9t%C3%A9&last="
            let answer = try RawHTTPClient.send("POST /form HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)", port: port)
            #expect(answer.body == "form=name=Ada Lovelace&note=été&last= files= raw=0")
        }
    }

    @Test func aNULInAFormValueArrivesAsAReplacementCharacter() throws {
        try withServer { port in
            let body = "name=%00Ada"
            let answer = try RawHTTPClient.send("POST /form HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)", port: port)
            #expect(answer.body == "form=name=\u{FFFD}Ada files= raw=0")
        }
    }

    @Test func parsesMultipartFormsWithFiles() throws {
        try withServer(maxBody: 64 * 1024) { port in
            let file = String(repeating: "x", count: 5000)
            let body = "--XyZzy42\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nPicnic\r\n--XyZzy42\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"p.jpg\"\r\nContent-Type: image/jpeg\r\n\r\n\(file)\r\n--XyZzy42--\r\n"
            let answer = try RawHTTPClient.send("POST /form HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=XyZzy42\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)", port: port)
            #expect(answer.body == "form=title=Picnic files=photo:p.jpg:5000:5000:true raw=0")
        }
    }

    /// An upload far larger than the body limit goes to a file as it arrives, and the file is gone once answered.
    @Test func largeUploadsAreSpooledToDiskAndRemovedAfterTheRequest() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fieldbook-uploads-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try withServer(maxBody: 1024, maxUpload: 8 << 20, uploads: folder) { (port: UInt16) throws -> Void in
            let size = 3 << 20
            let send = { (file: Int, title: String) throws -> RawHTTPClient.Answer in try Self.upload(file, title: title, port: port) }
            #expect(try send(size, "Picnic").body == "form=title=Picnic files=list:big.csv:\(size):\(size):true raw=0")
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
            #expect(try send(9 << 20, "Picnic").status == 413)
            // Form values stay in memory, so they keep the body limit even beside a file.
            #expect(try send(10, String(repeating: "t", count: 2000)).status == 413)
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
        }
    }

    static func upload(_ file: Int, title: String, port: UInt16) throws -> RawHTTPClient.Answer {
        let head = "--XyZzy42\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\n\(title)\r\n--XyZzy42\r\nContent-Disposition: form-data; name=\"list\"; filename=\"big.csv\"\r\n\r\n"
        let body = head + String(repeating: "x", count: file) + "\r\n--XyZzy42--\r\n"
        return try RawHTTPClient.send("POST /form HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=XyZzy42\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)", port: port)
    }

    @Test func announcedOversizedBodyIs413() throws {
        try withServer { port in
            let answer = try RawHTTPClient.send("POST /form HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 5000\r\nConnection: close\r\n\r\n", port: port)
            #expect(answer.status == 413)
            #expect(answer.body.contains("larger than the 1 KiB"))
        }
    }

    @Test func chunkedOversizedBodyIs413() throws {
        try withServer { port in
            let chunk = String(repeating: "a", count: 800)
            let chunked = "320\r\nv=\(chunk.dropFirst(2))\r\n320\r\n\(chunk)\r\n0\r\n\r\n"
            let answer = try RawHTTPClient.send("POST /form HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n\(chunked)", port: port)
            #expect(answer.status == 413)
        }
    }

    @Test func malformedFormBodyIs400() throws {
        try withServer { port in
            let body = "a=1&b"
            let answer = try RawHTTPClient.send("POST /form HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)", port: port)
            #expect(answer.status == 400)
            #expect(answer.body.contains("could not be read"))
        }
    }

    @Test func multipartWithoutBoundaryIs400() throws {
        try withServer { port in
            let answer = try RawHTTPClient.send("POST /form HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data\r\nContent-Length: 3\r\nConnection: close\r\n\r\nabc", port: port)
            #expect(answer.status == 400)
        }
    }

    /// Issue 36, item 13: a request whose body two HTTP parsers could end in different places, each with a second
    /// request after it where a front proxy may see the end of the body. Each gets one 400, and nothing more is read
    /// from its connection.
    static let smuggled = "GET /echo/smuggled HTTP/1.1\r\nHost: x\r\n\r\n"
    static let formHead = "POST /form HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\n"
    static let ambiguous: [(name: String, bytes: String)] = [
        ("two different Content-Lengths",
         formHead + "Content-Length: 3\r\nContent-Length: \(3 + smuggled.utf8.count)\r\n\r\na=1" + smuggled),
        ("a Content-Length and chunked",
         formHead + "Content-Length: \(5 + smuggled.utf8.count)\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n" + smuggled),
        ("a bare CR before a Content-Length", formHead + "X-Note: a\rContent-Length: \(smuggled.utf8.count)\r\n\r\n" + smuggled),
        ("an unknown Transfer-Encoding", formHead + "Transfer-Encoding: gzip\r\n\r\n" + smuggled),
        ("chunked after another coding", formHead + "Transfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n" + smuggled),
        ("two Transfer-Encodings", formHead + "Transfer-Encoding: chunked\r\nTransfer-Encoding: gzip\r\n\r\n0\r\n\r\n" + smuggled),
        ("a space before the colon", formHead + "Content-Length : \(smuggled.utf8.count)\r\n\r\n" + smuggled),
        // HTTP/1.0 has no Transfer-Encoding (RFC 9112 §6.1): a proxy may ignore it and end the body elsewhere.
        ("chunked in an HTTP/1.0 request", formHead.replacingOccurrences(of: "HTTP/1.1", with: "HTTP/1.0")
            + "Connection: keep-alive\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n" + smuggled),
    ]

    @Test(arguments: ambiguous) func ambiguousFramingIsRefusedAndTheConnectionClosed(_ name: String, _ bytes: String) throws {
        try withServer { port in
            let exchange = try RawHTTPClient.exchange(bytes, port: port)
            #expect(exchange.statuses == [400], "\(name): \(exchange.text)")
            #expect(exchange.text.contains("The request could not be read"), "\(name)")
            #expect(!exchange.text.contains("smuggled"), "\(name)")
            #expect(exchange.closedByServer, "\(name)")
        }
    }

    @Test func unambiguousRequestsKeepTheirConnection() throws {
        try withServer { port in
            let chunked = "POST /form HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nTransfer-Encoding: Chunked\r\n\r\n3\r\na=1\r\n0\r\n\r\n"
            let sameLengthTwice = Self.formHead + "Content-Length: 3\r\ncontent-length: 3\r\nX-Note: a\ttab\r\n\r\na=2"
            let exchange = try RawHTTPClient.exchange(chunked + sameLengthTwice + Self.smuggled, port: port, seconds: 1)
            #expect(exchange.statuses == [200, 200, 200], "\(exchange.text)")
            #expect(exchange.text.contains("form=a=1") && exchange.text.contains("form=a=2") && exchange.text.contains("name=smuggled"))
            #expect(!exchange.closedByServer)
        }
    }

    @Test func stopWaitsForRequestsInFlight() throws {
        let server = HTTPServer(configuration: ServerConfiguration(port: 0, threadCount: 2), responder: EchoResponder(),
                                logger: Logger(label: "test"))
        let port = try server.start()
        nonisolated(unsafe) var answer: RawHTTPClient.Answer?
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            answer = try? RawHTTPClient.send("GET /slow HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", port: port)
            done.signal()
        }
        while server.requestsInFlight == 0 { usleep(1000) }
        server.stop()
        done.wait()
        #expect(answer?.status == 200)
        #expect(answer?.body == "done")
    }

    @Test func whileStopDrainsNewConnectionsAreRefusedAtOnce() throws {
        let server = HTTPServer(configuration: ServerConfiguration(port: 0, threadCount: 2), responder: EchoResponder(),
                                logger: Logger(label: "test"))
        let port = try server.start()
        let answered = DispatchSemaphore(value: 0), stopped = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            _ = try? RawHTTPClient.send("GET /slow HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", port: port)
            answered.signal()
        }
        while server.requestsInFlight == 0 { usleep(1000) }
        Thread.detachNewThread {
            server.stop()
            stopped.signal()
        }
        while server.port != 0 { usleep(1000) }
        usleep(50_000)
        // The slow request is still being answered: a connection queued now would wait for the whole drain.
        #expect(answered.wait(timeout: .now()) == .timedOut)
        #expect(throws: POSIXError.self) { close(try connectToLoopback(port: port)) }
        answered.wait()
        stopped.wait()
    }

    @Test func aSlowClientDoesNotStallOthers() throws {
        try withServer { port in
            // A client that sends half a request and then waits holds no worker thread.
            let slowSockets = try (0..<6).map { _ in try StalledConnection(port: port, partial: "GET /echo/slow HTTP/1.1\r\nHost: x\r\n") }
            let started = Date()
            let answer = try RawHTTPClient.send("GET /echo/fast HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", port: port)
            #expect(answer.status == 200)
            #expect(Date().timeIntervalSince(started) < 5)
            withExtendedLifetime(slowSockets) {}
        }
    }
}
