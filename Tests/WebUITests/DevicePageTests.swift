import Foundation
import HTTPServer
import Testing
@testable import WebUI

/// Issue 38: the "Add a device" page and the certificate authority's downloads, over a fresh database with an authority
/// made by openssl in the harness's data folder, where serve keeps its own (`DATA/tls/authority.pem`).
@Suite struct DevicePageTests {
    let given: WebHarness
    var devices: DeviceJoining { given.web.configuration.devices }
    var authorityPath: String { given.directory.appendingPathComponent("tls/authority.pem").path }

    init() async throws {
        given = try await WebHarness()
        try given.createUser("admin@example.org", .administrator)
        try given.createUser("ed@example.org", .editor)
    }

    private func makeAuthority() throws { try Self.makeAuthority(in: given) }

    /// An authority in `given`'s data folder, where serve keeps its own.
    static func makeAuthority(in given: WebHarness) throws {
        let authorityPath = given.directory.appendingPathComponent("tls/authority.pem").path
        try FileManager.default.createDirectory(atPath: (authorityPath as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let key = given.directory.appendingPathComponent("authority.key").path
        try openssl(["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", key,
                     "-out", authorityPath, "-days", "30", "-subj", "/CN=Fieldbook test authority"])
    }

    /// The authority certificate's subject common name, as openssl reads it.
    private func authoritySubjectName() throws -> String {
        let subject = try openssl(["x509", "-in", authorityPath, "-noout", "-subject", "-nameopt", "RFC2253"])
        let name = try #require(subject.range(of: "CN=")).upperBound
        return String(subject[name...]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @discardableResult
    private func openssl(_ arguments: [String]) throws -> String { try Self.openssl(arguments) }

    @discardableResult
    private static func openssl(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "openssl \(arguments.first ?? "")")
        return text
    }

    @Test func anAdministratorSeesTheAddressAsAQRCodeAndTextWithTheAuthoritysFingerprint() throws {
        try makeAuthority()
        // One LAN address of its own, so the page has an address whatever this machine's network.
        devices.served(at: ServingAddress.listening(on: "192.168.1.20", port: 8443, isTLS: true))
        given.signIn("admin@example.org")
        let page = given.get("/settings/devices")
        #expect(page.status == .ok)
        let html = page.bodyText
        #expect(html.contains("id=\"device-address\">https://192.168.1.20:8443/</p>"), "the address as text, the code's name")
        #expect(html.contains("class=\"qr-code\"") && html.contains("aria-labelledby=\"device-address\""))
        // openssl's own fingerprint of the same certificate, as the plain-HTTP guide and serve's log show it too.
        let expected = try openssl(["x509", "-in", authorityPath, "-noout", "-fingerprint", "-sha256"])
            .split(separator: "=").last!.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(html.contains("<code>\(expected)</code>"))
        // The steps name the authority as the device lists it, by its certificate's own subject (which is not the
        // machine's name), and say how to get past the warning before it is trusted.
        let serverName = try authoritySubjectName()
        #expect(html.contains("turn on “\(serverName)”") && html.contains("Open “\(serverName)” in Keychain Access"))
        #expect(!html.contains("Fieldbook certificate authority”"))
        #expect(html.contains("continue past the warning this once"))
        for platform in ["iPad and iPhone", "Android (Chrome)", "ChromeOS", "Windows", "macOS", "Firefox"] {
            #expect(html.contains("<h3>\(platform)</h3>\n<ol>"), "steps for \(platform)")
        }
        #expect(given.get("/users").bodyText.contains("href=\"/settings/devices\""), "linked beside Backups")
    }

    @Test func onlyAdministratorsSeeThePage() throws {
        given.signIn("ed@example.org")
        #expect(given.get("/settings/devices").status == .forbidden)
    }

    @Test func theAuthorityDownloadsAsPEMDERAndAnAppleProfileBeforeAnyoneSignsIn() throws {
        try makeAuthority()
        let pem = given.get("/settings/devices/fieldbook-authority.pem")
        #expect(pem.status == .ok && pem.header("Content-Type") == "application/x-pem-file")
        #expect(pem.bodyText == (try String(contentsOfFile: authorityPath, encoding: .utf8)))

        let der = given.get("/settings/devices/fieldbook-authority.crt")
        #expect(der.status == .ok && der.header("Content-Type") == "application/pkix-cert")
        let derPath = given.directory.appendingPathComponent("authority.der").path
        try openssl(["x509", "-in", authorityPath, "-outform", "DER", "-out", derPath])
        #expect(Data(der.body) == FileManager.default.contents(atPath: derPath))

        let profile = given.get("/settings/devices/fieldbook-authority.mobileconfig")
        #expect(profile.status == .ok && profile.header("Content-Type") == "application/x-apple-aspen-config")
        let plist = try #require(try PropertyListSerialization.propertyList(from: Data(profile.body), format: nil) as? [String: Any])
        #expect(plist["PayloadType"] as? String == "Configuration")
        #expect(plist["PayloadDisplayName"] as? String == (try authoritySubjectName()))
        let payloads = try #require(plist["PayloadContent"] as? [[String: Any]])
        #expect(payloads.count == 1)
        #expect(payloads.first?["PayloadType"] as? String == "com.apple.security.root")
        #expect(payloads.first?["PayloadContent"] as? Data == Data(der.body))
        let again = given.get("/settings/devices/fieldbook-authority.mobileconfig")
        #expect(again.body == profile.body, "the same profile each time, not a second one to install")
    }

    @Test func withoutAnAuthorityThePageSaysSoAndShowsTheAddressToType() throws {
        devices.served(at: ServingAddress.listening(on: "192.0.2.10", port: 8080, isTLS: false))
        given.signIn("admin@example.org")
        let html = given.get("/settings/devices").bodyText
        #expect(html.contains("id=\"device-address\">http://192.0.2.10:8080/</p>"))
        #expect(html.contains("Fieldbook made no certificate authority: it serves plain HTTP (--no-tls)."))
        #expect(html.contains("Avahi is not running"), "nothing announced it, so the address is typed")
        #expect(!html.contains("fieldbook-authority.pem"))
        #expect(given.get("/settings/devices/fieldbook-authority.pem").status == .notFound)
    }

    /// An authority an earlier run made stays in the data folder; served with another certificate or none, the page
    /// offers it to no device.
    @Test func anAuthorityServeDoesNotServeWithIsNotOffered() async throws {
        try makeAuthority()
        let other = try await WebHarness(ownAuthority: false)
        let otherPath = other.directory.appendingPathComponent("tls/authority.pem").path
        try FileManager.default.createDirectory(atPath: (otherPath as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: authorityPath, toPath: otherPath)
        try other.createUser("admin@example.org", .administrator)
        other.web.configuration.devices.served(at: ServingAddress(host: "192.0.2.10", port: 8443, isTLS: true))
        other.signIn("admin@example.org")
        let html = other.get("/settings/devices").bodyText
        #expect(html.contains("Fieldbook made no certificate authority: it serves HTTPS with your organization"))
        #expect(!html.contains("fieldbook-authority.pem"))
        #expect(other.get("/settings/devices/fieldbook-authority.pem").status == .notFound)
    }

    @Test func servingOnlyThisComputerThePageSaysHowToServeTheNetwork() throws {
        try makeAuthority()
        devices.served(at: ServingAddress.listening(on: "127.0.0.1", port: 8080, isTLS: false))
        given.signIn("admin@example.org")
        let html = given.get("/settings/devices").bodyText
        #expect(html.contains("serves only this computer (127.0.0.1)") && html.contains("--host 0.0.0.0"))
        #expect(!html.contains("class=\"qr-code\""), "no code of an address no device can open")
    }

    @Test func whileAvahiAnnouncesItTheCodeHoldsTheLocalName() throws {
        devices.served(at: ServingAddress.listening(on: "0.0.0.0", port: 443, isTLS: true))
        devices.setAnnounced(hostName: MachineNames.current().localName)
        given.signIn("admin@example.org")
        let html = given.get("/settings/devices").bodyText
        #expect(html.contains("id=\"device-address\">https://\(MachineNames.current().localName)/</p>"))
        #expect(!html.contains("Avahi is not running"))
    }

    /// Another machine on the LAN has this one's name: Avahi answers for NAME-2.local, which the certificate does not
    /// hold, so neither name is offered and the page says why.
    @Test func aHostNameCollisionOffersNoLocalName() throws {
        devices.served(at: ServingAddress.listening(on: "0.0.0.0", port: 443, isTLS: true))
        let names = MachineNames.current(), other = "\(names.hostName)-2.local"
        devices.setAnnounced(hostName: other)
        #expect(!devices.reachableHosts(names: names).contains { $0.hasSuffix(".local") })
        given.signIn("admin@example.org")
        let html = given.get("/settings/devices").bodyText
        #expect(!html.contains("https://\(names.localName)/") && !html.contains("https://\(other)/"))
        #expect(html.contains("Avahi announces it as <code>\(other)</code>") && !html.contains("Avahi is not running"))
    }
}
