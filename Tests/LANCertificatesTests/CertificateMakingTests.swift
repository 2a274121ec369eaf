import Foundation
import HTTPServer
@testable import LANCertificates
import TestSupport
import Testing
import X509

/// Fieldbook's own authority and the server certificates it signs, in a fresh data folder each.
@Suite struct CertificateMakingTests {
    let names = ServedNames(MachineNames(hostName: "hall", addresses: ["192.168.1.20", "fd00::20"]))
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func theAuthorityIsMadeOnceAndItsKeyIsForTheServiceAlone() throws {
        let folder = try TLSFolder(path: temporaryDirectory().appendingPathComponent("tls").path)
        let made = try folder.authority(hostName: "hall", now: now)
        let again = try folder.authority(hostName: "other", now: now.addingTimeInterval(86_400))
        #expect(try made.certificatePEM == again.certificatePEM)
        #expect(try permissions(folder.authorityKeyPath) == 0o600)
        #expect(try permissions(folder.path) == 0o700)
        #expect(try String(contentsOfFile: folder.authorityCertificatePath, encoding: .utf8).hasPrefix("-----BEGIN CERTIFICATE-----"))
        let certificate = made.certificate
        #expect(certificate.subject.description.contains("Fieldbook on hall"))
        #expect(try certificate.extensions.basicConstraints == .isCertificateAuthority(maxPathLength: 0))
        #expect(try certificate.extensions.keyUsage == KeyUsage(keyCertSign: true, cRLSign: true))
    }

    @Test func anAuthorityMadeByAClockInThePastIsValidFromTheDayItIsUsed() throws {
        let booted = Date(timeIntervalSince1970: 0)  // a machine without a battery-backed clock, before network time
        #expect(CertificateAuthority.clockIsBehind(booted) && !CertificateAuthority.clockIsBehind(Date()))
        let made = try CertificateAuthority.make(hostName: "hall", now: booted).certificate
        #expect(made.notValidBefore <= booted)
        #expect(made.notValidAfter > Date().addingTimeInterval(CertificateAuthority.validity / 2))
        let onTime = try CertificateAuthority.make(hostName: "hall", now: now).certificate
        #expect(onTime.notValidBefore < now && onTime.notValidAfter == now.addingTimeInterval(CertificateAuthority.validity))
    }

    @Test func theServerCertificateNamesEveryNameAndAddressForServerUseOnly() throws {
        let authority = try CertificateAuthority.make(hostName: "hall", now: now)
        let server = try authority.issue(for: names, now: now).certificate
        let named = try #require(try server.extensions.subjectAlternativeNames)
        #expect(Set(named) == [
            .dnsName("hall"), .dnsName("hall.local"), .dnsName("localhost"),
            .ipAddress(.init(contentBytes: [192, 168, 1, 20])), .ipAddress(.init(contentBytes: [127, 0, 0, 1])),
            .ipAddress(.init(contentBytes: [0xfd, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x20])),
            .ipAddress(.init(contentBytes: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1])),
        ])
        #expect(try server.extensions.basicConstraints == .notCertificateAuthority)
        #expect(try server.extensions.keyUsage == KeyUsage(digitalSignature: true))
        #expect(try server.extensions.extendedKeyUsage == ExtendedKeyUsage([.serverAuth]))
        #expect(server.issuer == authority.certificate.subject)
        #expect(server.notValidAfter == now.addingTimeInterval(ServerCertificate.validity))
        #expect(server.notValidBefore < now)
    }

    @Test func theServerCertificateVerifiesAgainstTheAuthorityAlone() async throws {
        let authority = try CertificateAuthority.make(hostName: "hall", now: now)
        let server = try authority.issue(for: names, now: now).certificate
        var verifier = Verifier(rootCertificates: CertificateStore([authority.certificate])) {
            RFC5280Policy(validationTime: now.addingTimeInterval(86_400))
            ServerIdentityPolicy(serverHostname: "hall.local", serverIP: nil)
        }
        let result = await verifier.validate(leaf: server, intermediates: CertificateStore())
        guard case .validCertificate = result else { Issue.record("not valid: \(result)"); return }
    }

    @Test func aServerCertificateIsRenewedOnceTwoThirdsOfItsLifeHavePassed() throws {
        let authority = try CertificateAuthority.make(hostName: "hall", now: now)
        let server = try authority.issue(for: names, now: now)
        let life = ServerCertificate.validity
        #expect(server.renewalReason(for: names, authority: authority, now: now) == nil)
        #expect(server.renewalReason(for: names, authority: authority, now: now.addingTimeInterval(life * 0.6)) == nil)
        #expect(server.renewalReason(for: names, authority: authority, now: now.addingTimeInterval(life * 0.7)) == .expiring)
        #expect(server.renewalReason(for: names, authority: authority, now: now.addingTimeInterval(-2 * ServerCertificate.clockAllowance)) == .notYetValid)
    }

    @Test func aServerCertificateIsRenewedWhenTheAddressesChangeOrAnotherAuthoritySignedIt() throws {
        let authority = try CertificateAuthority.make(hostName: "hall", now: now)
        let server = try authority.issue(for: names, now: now)
        let moved = ServedNames(MachineNames(hostName: "hall", addresses: ["192.168.1.21", "fd00::20"]))
        #expect(server.renewalReason(for: moved, authority: authority, now: now) == .namesChanged)
        let renamed = ServedNames(MachineNames(hostName: "barn", addresses: names.machine.addresses))
        #expect(server.renewalReason(for: renamed, authority: authority, now: now) == .namesChanged)
        let other = try CertificateAuthority.make(hostName: "hall", now: now)
        #expect(server.renewalReason(for: names, authority: other, now: now) == .otherAuthority)
    }

    @Test func theFolderKeepsAServingCertificateAndReplacesOneThatNoLongerServes() throws {
        let folder = try TLSFolder(path: temporaryDirectory().appendingPathComponent("tls").path)
        let authority = try folder.authority(hostName: "hall", now: now)
        let (first, firstReason) = try folder.serverCertificate(for: names, authority: authority, now: now)
        #expect(firstReason == .missing)
        #expect(try permissions(folder.serverKeyPath) == 0o600)
        let (kept, keptReason) = try folder.serverCertificate(for: names, authority: authority, now: now.addingTimeInterval(60))
        #expect(keptReason == nil)
        #expect(kept.certificate == first.certificate)
        let moved = ServedNames(MachineNames(hostName: "hall", addresses: ["10.0.0.9"]))
        let (renewed, renewedReason) = try folder.serverCertificate(for: moved, authority: authority, now: now.addingTimeInterval(120))
        #expect(renewedReason == .namesChanged)
        #expect(renewed.certificate != first.certificate)
        let onDisk = try ServerCertificate(certificatePEM: String(contentsOfFile: folder.serverCertificatePath, encoding: .utf8),
                                           keyPEM: String(contentsOfFile: folder.serverKeyPath, encoding: .utf8))
        #expect(onDisk.certificate == renewed.certificate)
        #expect(try CertificateAuthority(certificatePEM: String(contentsOfFile: folder.authorityCertificatePath, encoding: .utf8),
                                         keyPEM: String(contentsOfFile: folder.authorityKeyPath, encoding: .utf8)).certificate == authority.certificate)
    }

    @Test func devicesRefuseACertificateTheAuthoritySignsForANameOffTheLAN() throws {
        let authority = try CertificateAuthority.make(hostName: "hall", now: Date())
        #expect(try authority.certificate.extensions[oid: .X509ExtensionID.nameConstraints]?.critical == true)
        let folder = try temporaryDirectory()
        let authorityFile = folder.appendingPathComponent("authority.pem").path
        try authority.certificatePEM.write(toFile: authorityFile, atomically: true, encoding: .utf8)
        func verify(_ names: [GeneralName], _ file: String) throws -> (status: Int32, output: String) {
            let leaf = try Certificate(
                version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: authority.key.publicKey,
                notValidBefore: Date().addingTimeInterval(-60), notValidAfter: Date().addingTimeInterval(3600),
                issuer: authority.certificate.subject, subject: try DistinguishedName { CommonName("leaf") },
                signatureAlgorithm: .ecdsaWithSHA256,
                extensions: try Certificate.Extensions {
                    Critical(BasicConstraints.notCertificateAuthority)
                    SubjectAlternativeNames(names)
                },
                issuerPrivateKey: authority.key)
            let path = folder.appendingPathComponent(file).path
            try leaf.serializeAsPEM().pemString.write(toFile: path, atomically: true, encoding: .utf8)
            return try runCommand("/usr/bin/openssl", ["verify", "-CAfile", authorityFile, path])
        }
        let lan = try verify([.dnsName("hall"), .dnsName("hall.local"), .ipAddress(.init(contentBytes: [192, 168, 1, 20]))], "lan.pem")
        #expect(lan.status == 0, "\(lan.output)")
        for (name, file) in [(GeneralName.dnsName("bank.example"), "bank.pem"), (.ipAddress(.init(contentBytes: [8, 8, 8, 8])), "public.pem")] {
            let refused = try verify([name], file)
            #expect(refused.status != 0)
            #expect(refused.output.contains("subtree"), "\(refused.output)")
        }
    }

    @Test func theServerCertificateLeavesOutWhatTheAuthorityMayNotSign() throws {
        let authority = try CertificateAuthority.make(hostName: "hall", now: now)
        let moved = ServedNames(MachineNames(hostName: "barn", addresses: ["192.168.1.20", "2001:db8::20", "203.0.113.5"]))
        let server = try authority.issue(for: moved, now: now)
        let named = try #require(try server.certificate.extensions.subjectAlternativeNames)
        #expect(Set(named) == [
            .dnsName("barn.local"), .dnsName("localhost"),
            .ipAddress(.init(contentBytes: [192, 168, 1, 20])), .ipAddress(.init(contentBytes: [127, 0, 0, 1])),
            .ipAddress(.init(contentBytes: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1])),
        ])
        #expect(server.renewalReason(for: moved, authority: authority, now: now) == nil)
    }

    @Test func aKeyThatIsNotTheCertificatesCountsAsUnreadableAndTheServerCertificateIsMadeAgain() throws {
        let folder = try TLSFolder(path: temporaryDirectory().appendingPathComponent("tls").path)
        let authority = try folder.authority(hostName: "hall", now: now)
        _ = try folder.serverCertificate(for: names, authority: authority, now: now)
        let other = try authority.issue(for: names, now: now)
        try other.keyPEM.write(toFile: folder.serverKeyPath, atomically: true, encoding: .utf8)
        let (made, reason) = try folder.serverCertificate(for: names, authority: authority, now: now.addingTimeInterval(60))
        #expect(reason == .unreadable)
        #expect(try ServerCertificate(certificatePEM: String(contentsOfFile: folder.serverCertificatePath, encoding: .utf8),
                                      keyPEM: String(contentsOfFile: folder.serverKeyPath, encoding: .utf8)).certificate == made.certificate)
    }

    @Test func anAuthorityKeyWithoutItsCertificateIsNotYetMadeAndTheFolderIsTightenedAtEachStart() throws {
        let folder = try TLSFolder(path: temporaryDirectory().appendingPathComponent("tls").path)
        _ = try folder.authority(hostName: "hall", now: now)
        try FileManager.default.removeItem(atPath: folder.authorityCertificatePath)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path)
        let made = try folder.authority(hostName: "hall", now: now)
        #expect(try permissions(folder.path) == 0o700)
        #expect(try permissions(folder.authorityCertificatePath) == 0o644)
        #expect(try CertificateAuthority(certificatePEM: String(contentsOfFile: folder.authorityCertificatePath, encoding: .utf8),
                                         keyPEM: String(contentsOfFile: folder.authorityKeyPath, encoding: .utf8)).certificate == made.certificate)
    }

    @Test func anUnreadableAuthorityKeySaysWhichFilesAndWhatToDo() throws {
        let folder = try TLSFolder(path: temporaryDirectory().appendingPathComponent("tls").path)
        _ = try folder.authority(hostName: "hall", now: now)
        try "not a key".write(toFile: folder.authorityKeyPath, atomically: true, encoding: .utf8)
        let error = try #require(throws: TLSFolder.UnreadableAuthority.self) { try folder.authority(hostName: "hall", now: now) }
        #expect(error.description.contains(folder.path) && error.description.contains("authority-key.pem"))
        #expect(error.description.contains("restore the folder from a backup"))
        #expect(try String(contentsOfFile: folder.authorityKeyPath, encoding: .utf8) == "not a key")  // nothing made over it
    }

    private func permissions(_ path: String) throws -> Int {
        try (FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }
}
