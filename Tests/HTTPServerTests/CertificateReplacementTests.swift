import Foundation
@testable import HTTPServer
import Logging
import Testing
import TestSupport

/// The certificate a running server presents is replaced without closing its listening socket (a renewal), and TLS is
/// held to versions 1.2 and 1.3. Certificates are made with openssl, the client is openssl s_client, on loopback.
@Suite struct CertificateReplacementTests {
    struct Made {
        let certificate: String
        let key: String
    }

    func make(_ name: String, in folder: URL) throws -> Made {
        let made = try SelfSignedCertificate(name, in: folder)
        return Made(certificate: try made.certificatePEM, key: try made.keyPEM)
    }

    func shell(_ command: String) throws -> (status: Int32, output: String) { try runCommand("/bin/sh", ["-c", command]) }

    /// A server presenting `made`, on a free port, for `body`.
    func serving(_ made: Made, _ body: (HTTPServer, UInt16) throws -> Void) throws {
        let server = HTTPServer(configuration: ServerConfiguration(port: 0, tlsCertificatePEM: made.certificate, tlsKeyPEM: made.key),
                                responder: EchoResponder(), logger: Logger(label: "test"))
        let port = try server.start()
        defer { server.stop() }
        try body(server, port)
    }

    /// The client sent its hello and the server answered nothing. A client that could not offer the version or the
    /// cipher at all writes nothing, and must not pass for the server's refusal.
    static func refusedByTheServer(_ shown: String) -> Bool {
        shown.range(of: #"has read 0 bytes and written [1-9][0-9]* bytes"#, options: .regularExpression) != nil
    }

    /// The subject of the certificate a new connection is shown, and the protocol it got.
    func handshake(_ port: UInt16, _ options: String = "") throws -> String {
        try shell("/usr/bin/openssl s_client -connect 127.0.0.1:\(port) \(options) </dev/null 2>&1").output
    }

    @Test func aPresentedCertificateIsShownFromTheNextConnectionOnWithoutANewSocket() throws {
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = try make("first", in: folder), second = try make("second", in: folder)
        try serving(first) { server, port throws in
            #expect(try handshake(port).contains("subject=CN = first"))
            // A connection the listening socket took before the replacement shakes hands after it: a new socket
            // would have dropped it.
            let waiting = try ConnectionHandshakingLater(port: port)
            try server.present(certificatePEM: second.certificate, keyPEM: second.key)
            #expect(try waiting.handshake() == "second")
            let after = try handshake(port)
            #expect(after.contains("subject=CN = second"), "\(after)")
            let answer = try shell("/usr/bin/curl -sk https://127.0.0.1:\(port)/echo/renewed").output
            #expect(answer == "name=renewed query=")
        }
    }

    @Test func anUnreadableCertificateIsRefusedWithGnuTLSsReasonAndTheOldOneStays() throws {
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = try make("first", in: folder)
        try serving(first) { server, port throws in
            #expect(throws: ServerStartError.self) { try server.present(certificatePEM: "not a certificate", keyPEM: first.key) }
            #expect(try handshake(port).contains("subject=CN = first"))
        }
    }

    @Test func anIdentityNoDaemonTookIsStillOwnedAndFreedByItsHolder() throws {
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let made = try make("first", in: folder)
        let identity = try TLSIdentity(certificatePEM: made.certificate, keyPEM: made.key)
        var offered: [OpaquePointer] = []
        #expect(!identity.handOver { offered.append($0); return false })
        #expect(!identity.handOver { offered.append($0); return false })
        #expect(offered.count == 2 && offered[0] == offered[1], "refused, it stays with the identity, which frees it")
    }

    @Test func onlyTLS12And13AreSpoken() throws {
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        try serving(try make("only-modern", in: folder)) { _, port throws in
            #expect(try handshake(port, "-tls1_3").contains("TLSv1.3"))
            #expect(try handshake(port, "-tls1_2").contains("TLSv1.2"))
            for refused in ["-tls1_1 -cipher DEFAULT@SECLEVEL=0", "-tls1 -cipher DEFAULT@SECLEVEL=0", "-tls1_2 -cipher ECDHE-ECDSA-AES128-SHA@SECLEVEL=0"] {
                let shown = try handshake(port, refused)
                #expect(Self.refusedByTheServer(shown), "\(refused): \(shown)")
            }
        }
    }
}

/// A TCP connection opened now whose TLS handshake waits for `handshake()`, which gives the common name it was shown
/// ("first" or "second", the names these tests give their certificates).
private final class ConnectionHandshakingLater {
    private let process = Process()
    private let input = Pipe(), output = Pipe()

    init(port: UInt16) throws {
        let script = """
        import socket, ssl, sys
        raw = socket.create_connection(("127.0.0.1", \(port)))
        print("connected", flush=True)
        sys.stdin.readline()
        context = ssl.create_default_context()
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
        shown = context.wrap_socket(raw).getpeercert(True)
        print("second" if b"second" in shown else "first" if b"first" in shown else "other", flush=True)
        """
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", script]
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        _ = try readLine()
    }

    func handshake() throws -> String {
        input.fileHandleForWriting.write(Data("go\n".utf8))
        defer { process.waitUntilExit() }
        return try readLine()
    }

    private func readLine() throws -> String {
        var line = Data()
        while let byte = try output.fileHandleForReading.read(upToCount: 1), let first = byte.first, first != UInt8(ascii: "\n") {
            line.append(first)
        }
        return String(decoding: line, as: UTF8.self)
    }
}
