import Foundation
import Testing
import TestSupport

/// HTTPS on the LAN: the browser's geolocation needs it, and cookies must then be Secure.
@Suite struct TLSTests {
    func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }

    @Test func servesHTTPSWithSecureCookiesAndHSTS() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fieldbook-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let key = directory.appendingPathComponent("key.pem").path, certificate = directory.appendingPathComponent("cert.pem").path
        let made = try run("/usr/bin/openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", certificate,
                                                "-days", "1", "-subj", "/CN=localhost"])
        #expect(made.status == 0)
        let server = try FieldbookProcess(dataDirectory: directory.appendingPathComponent("data"),
                                          extraArguments: ["--tls-cert", certificate, "--tls-key", key])
        defer { server.terminate() }
        let answer = try run("/usr/bin/curl", ["-sk", "-D", "-", "-o", "/dev/null", "https://127.0.0.1:\(server.port)/setup"])
        #expect(answer.output.hasPrefix("HTTP/1.1 200"))
        #expect(answer.output.contains("Strict-Transport-Security: max-age=31536000"))
        #expect(answer.output.contains("SameSite=Strict; Secure"))
        let plain = try run("/usr/bin/curl", ["-s", "-o", "/dev/null", "-w", "%{http_code}", "http://127.0.0.1:\(server.port)/setup"])
        #expect(plain.output != "200")
    }
}
