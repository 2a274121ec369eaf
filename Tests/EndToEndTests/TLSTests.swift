import Foundation
import Testing
import TestSupport

/// HTTPS on the LAN: the browser's geolocation needs it, and cookies must then be Secure.
@Suite struct TLSTests {
    @Test func servesHTTPSWithSecureCookiesAndHSTS() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fieldbook-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let made = try SelfSignedCertificate("cert", commonName: "localhost", key: .rsa2048, in: directory)
        let key = made.keyPath, certificate = made.certificatePath
        let server = try FieldbookProcess(dataDirectory: directory.appendingPathComponent("data"),
                                          extraArguments: ["--tls-cert", certificate, "--tls-key", key])
        defer { server.terminate() }
        let answer = try runCommand("/usr/bin/curl", ["-sk", "-D", "-", "-o", "/dev/null", "https://127.0.0.1:\(server.port)/setup"])
        #expect(answer.output.hasPrefix("HTTP/1.1 200"))
        #expect(answer.output.contains("Strict-Transport-Security: max-age=31536000"))
        #expect(answer.output.contains("Set-Cookie: __Host-fieldbook_csrf=") && answer.output.contains("SameSite=Strict; Secure"))
        let plain = try runCommand("/usr/bin/curl", ["-s", "-o", "/dev/null", "-w", "%{http_code}", "http://127.0.0.1:\(server.port)/setup"])
        #expect(plain.output != "200")
    }
}
