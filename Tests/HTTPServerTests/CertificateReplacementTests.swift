import Foundation
import HTTPServer
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
        let key = folder.appendingPathComponent("\(name)-key.pem").path, certificate = folder.appendingPathComponent("\(name).pem").path
        let made = try shell("/usr/bin/openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout \(key) -out \(certificate) -days 1 -subj /CN=\(name) 2>&1")
        #expect(made.status == 0, "\(made.output)")
        return Made(certificate: try String(contentsOfFile: certificate, encoding: .utf8), key: try String(contentsOfFile: key, encoding: .utf8))
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
            try server.present(certificatePEM: second.certificate, keyPEM: second.key)
            #expect(server.port == port)
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

    @Test func onlyTLS12And13AreSpoken() throws {
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        try serving(try make("only-modern", in: folder)) { _, port throws in
            #expect(try handshake(port, "-tls1_3").contains("TLSv1.3"))
            #expect(try handshake(port, "-tls1_2").contains("TLSv1.2"))
            #expect(try handshake(port, "-tls1_1 -cipher DEFAULT@SECLEVEL=0").contains("Cipher is (NONE)"))
            #expect(try handshake(port, "-tls1_2 -cipher ECDHE-ECDSA-AES128-SHA@SECLEVEL=0").contains("Cipher is (NONE)"))
        }
    }
}
