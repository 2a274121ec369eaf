import Foundation
import Testing
import TestSupport

/// Serving beyond loopback, Fieldbook makes its own certificate authority and a server certificate that a client
/// trusting that authority alone accepts; plain HTTP on the next port only says where to go. `--no-tls` and an
/// organization's own certificate (`--tls-cert`) keep their meaning. The LAN itself is tests/lan's.
@Suite struct OwnTLSTests {
    func curl(_ arguments: [String]) throws -> String { try runCommand("/usr/bin/curl", ["-sS"] + arguments).output }

    @Test func beyondLoopbackItServesHTTPSWithItsOwnAuthorityAndPlainHTTPGivesTheAddress() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let data = directory.appendingPathComponent("data")
        let server = try FieldbookProcess(dataDirectory: data, extraArguments: ["--host", "0.0.0.0", "--http-port", "0"])
        defer { server.terminate() }
        let authority = data.appendingPathComponent("tls/authority.pem").path
        for host in ["127.0.0.1", "localhost"] {
            let answer = try curl(["--cacert", authority, "-D", "-", "-o", "/dev/null", "https://\(host):\(server.port)/setup"])
            #expect(answer.hasPrefix("HTTP/1.1 200"), "\(host): \(answer)")
            #expect(!answer.contains("Strict-Transport-Security"), "no HSTS with Fieldbook's own authority")
        }
        let key = data.appendingPathComponent("tls/authority-key.pem").path
        #expect(try FileManager.default.attributesOfItem(atPath: key)[.posixPermissions] as? Int == 0o600)
        let plainPort = try plainPort(of: server)
        let guide = try curl(["http://127.0.0.1:\(plainPort)/participants"])
        #expect(guide.contains("Open Fieldbook securely"))
        #expect(guide.contains(":\(server.port)/\">https://"))
        #expect(try curl(["http://127.0.0.1:\(plainPort)/fieldbook-authority.pem"]) == String(contentsOfFile: authority, encoding: .utf8))
        let plainForm = try curl(["-o", "/dev/null", "-w", "%{http_code}", "-d", "email=a", "http://127.0.0.1:\(plainPort)/login"])
        #expect(plainForm == "403")
    }

    /// A certificate near its end is replaced while serving, signed by the same authority: a client trusting only the
    /// authority is shown a new serial from the next connection on. tests/lan checks the same from a tablet, as root.
    @Test func aServerCertificateNearItsEndIsReplacedWhileServing() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let data = directory.appendingPathComponent("data")
        let server = try FieldbookProcess(dataDirectory: data, extraArguments: ["--host", "0.0.0.0", "--http-port", "0"],
                                          variables: ["FIELDBOOK_TLS_VALIDITY": "6", "FIELDBOOK_TLS_CHECK_INTERVAL": "1"])
        defer { server.terminate() }
        let authority = data.appendingPathComponent("tls/authority.pem").path
        let serial = {
            try runCommand("/bin/sh", ["-c", "openssl s_client -connect 127.0.0.1:\(server.port) -CAfile \(authority) -verify_return_error "
                                             + "</dev/null 2>/dev/null | openssl x509 -noout -serial"]).output
        }
        let first = try serial()
        #expect(first.hasPrefix("serial="), "\(first)")
        let deadline = Date().addingTimeInterval(30)
        var latest = first
        while latest == first && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.5)
            latest = try serial()
        }
        #expect(latest.hasPrefix("serial=") && latest != first, "renewed: \(first) then \(latest)")
        #expect(try curl(["--cacert", authority, "-o", "/dev/null", "-w", "%{http_code}", "https://127.0.0.1:\(server.port)/setup"]) == "200")
    }

    /// The plain port another program holds (here another Fieldbook's guide): HTTPS is served all the same.
    @Test func aPlainPortInUseCostsOnlyTheGuide() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = try FieldbookProcess(dataDirectory: directory.appendingPathComponent("first"), extraArguments: ["--host", "0.0.0.0", "--http-port", "0"])
        defer { first.terminate() }
        let heldPort = try plainPort(of: first)
        let data = directory.appendingPathComponent("data")
        let server = try FieldbookProcess(dataDirectory: data, extraArguments: ["--host", "0.0.0.0", "--http-port", String(heldPort)])
        defer { server.terminate() }
        let authority = data.appendingPathComponent("tls/authority.pem").path
        #expect(try curl(["--cacert", authority, "-o", "/dev/null", "-w", "%{http_code}", "https://127.0.0.1:\(server.port)/setup"]) == "200")
        #expect(server.announcements.contains { $0.contains("plain HTTP could not start") }, "\(server.announcements)")
    }

    /// The plain guide's port, from the start-up line that names it.
    private func plainPort(of server: FieldbookProcess) throws -> UInt16 {
        let line = try #require(server.announcements.first { $0.contains("plain HTTP on port") }, "\(server.announcements)")
        return try #require(line.split(separator: " ").reversed().compactMap { UInt16($0.trimmingCharacters(in: .punctuationCharacters)) }.first)
    }

    @Test func noTLSServesPlainHTTPAndMakesNoAuthority() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let data = directory.appendingPathComponent("data")
        let server = try FieldbookProcess(dataDirectory: data, extraArguments: ["--host", "0.0.0.0", "--no-tls"])
        defer { server.terminate() }
        #expect(try curl(["-o", "/dev/null", "-w", "%{http_code}", "http://127.0.0.1:\(server.port)/setup"]) == "200")
        #expect(!FileManager.default.fileExists(atPath: data.appendingPathComponent("tls").path))
    }

    @Test func anOrganizationsOwnCertificateWins() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let made = try SelfSignedCertificate("cert", commonName: "organization.example", key: .rsa2048, addresses: ["127.0.0.1"], in: directory)
        let key = made.keyPath, certificate = made.certificatePath
        let data = directory.appendingPathComponent("data")
        let server = try FieldbookProcess(dataDirectory: data, extraArguments: ["--host", "0.0.0.0", "--tls-cert", certificate, "--tls-key", key])
        defer { server.terminate() }
        let answer = try curl(["--cacert", certificate, "-o", "/dev/null", "-w", "%{http_code}", "https://127.0.0.1:\(server.port)/setup"])
        #expect(answer == "200")
        #expect(!FileManager.default.fileExists(atPath: data.appendingPathComponent("tls").path))
    }
}
