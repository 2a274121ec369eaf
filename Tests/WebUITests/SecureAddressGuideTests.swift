import Foundation
import HTTPServer
import Testing
@testable import WebUI

/// What plain HTTP answers beside Fieldbook's own HTTPS: where to go and how to trust it, and nothing else.
@Suite struct SecureAddressGuideTests {
    let address = SecureAddress(hosts: ["hall.local", "192.168.1.20", "fd00::20"], port: 8080,
                                authorityPEM: "-----BEGIN CERTIFICATE-----\n", authorityFingerprint: "AB:CD")

    @Test func theAddressTheDeviceAskedForComesFirstAndNoOtherHostIsRepeatedBack() {
        #expect(address.urls(asked: "192.168.1.20:8081") == ["https://192.168.1.20:8080/", "https://hall.local:8080/", "https://[fd00::20]:8080/"])
        #expect(address.urls(asked: "[fd00::20]:8081").first == "https://[fd00::20]:8080/")
        #expect(address.urls(asked: "evil.example:8081") == ["https://hall.local:8080/", "https://192.168.1.20:8080/", "https://[fd00::20]:8080/"])
        #expect(address.urls(asked: nil).first == "https://hall.local:8080/")
    }

    @Test func everyAddressGetsThePageFormsAreRefusedAndTheAuthorityIsOffered() async throws {
        let guide = SecureAddressGuide(renderer: try await PageRenderer.load(directory: WebHarness.repositoryRoot.appendingPathComponent("templates").path),
                                       staticFiles: try StaticFiles(mounts: [("", WebHarness.repositoryRoot.appendingPathComponent("Public").path)])) { address }
        let page = guide.respond(to: Request(method: .get, path: "/participants", headers: ["host": "evil.example"]))
        let html = String(decoding: page.body, as: UTF8.self)
        #expect(page.status == .ok)
        #expect(html.contains("<a href=\"https://hall.local:8080/\">") && !html.contains("evil.example"))
        #expect(html.contains("AB:CD"))
        #expect(guide.respond(to: Request(method: .post, path: "/login")).status == .forbidden)
        let authority = guide.respond(to: Request(method: .get, path: "/fieldbook-authority.pem"))
        #expect(authority.body == Array("-----BEGIN CERTIFICATE-----\n".utf8))
        #expect(authority.header("Content-Disposition")?.contains("attachment") == true)
        let api = guide.respond(to: Request(method: .get, path: "/api/v1/health"))
        #expect(api.status == .upgradeRequired && api.header("Content-Type")?.hasPrefix("application/json") == true)
        #expect(String(decoding: api.body, as: UTF8.self).contains("\"code\":\"https_required\""))
    }
}
