import Foundation
import HTTPServer
import Imaging
import Surface
import Sync
import Translations

/// /settings/devices, for administrators, printable to hang on the wall: the address as a QR code and as text, the
/// certificate authority to download with its fingerprint, and how each system trusts it. The downloads are open to
/// anyone: a tablet fetches the authority before anyone signs in on it, and a certificate holds nothing secret.
enum DevicePages {
    static let addressID = "device-address"

    static func show(_ context: inout PageContext) throws -> Response {
        let devices = context.web.configuration.devices
        let names = MachineNames.current()
        let urls = devices.reachableURLs(names: names)
        let authority = devices.authorityPath.flatMap(AuthorityCertificate.read(from:))
        var view: TemplateView = [
            "server_name": serverName(authority, names), "has_address": !urls.isEmpty, "address": urls.first ?? "",
            "other_addresses": Array(urls.dropFirst()), "has_other_addresses": urls.count > 1,
            "address_id": addressID, "announced": devices.isAnnounced(as: names), "local_name": names.localName,
            "other_name": devices.announcedUnderAnotherName(than: names),
            "no_address_reason": noAddressReason(devices.address),
        ]
        if let first = urls.first {
            do {
                view["qr_svg"] = try QRCodeDrawer.draw(first, labelledBy: addressID).svg
            } catch {
                view["qr_problem"] = Message("{problem} Type the address instead.", ["problem": .text("\(error)")])
            }
        }
        if let authority {
            view["has_authority"] = true
            view["fingerprint"] = authority.fingerprint
        } else {
            view["has_authority"] = false
            view["no_authority_reason"] = noAuthorityReason(devices.address)
        }
        return context.page("settings/devices", title: Message("Add a device"), section: .users, view: view)
    }

    static func authorityPEM(_ context: inout PageContext) throws -> Response {
        let authority = try authority(context)
        return download(Array(authority.pem.utf8), type: "application/x-pem-file", name: "fieldbook-authority.pem")
    }

    static func authorityDER(_ context: inout PageContext) throws -> Response {
        download(Array(try authority(context).der), type: "application/pkix-cert", name: "fieldbook-authority.crt")
    }

    static func authorityProfile(_ context: inout PageContext) throws -> Response {
        let authority = try authority(context)
        let profile = try authority.configurationProfile(serverName: serverName(authority, MachineNames.current()))
        return download(Array(profile), type: "application/x-apple-aspen-config", name: "fieldbook-authority.mobileconfig")
    }

    private static func authority(_ context: PageContext) throws -> AuthorityCertificate {
        guard let authority = context.web.configuration.devices.authorityPath.flatMap(AuthorityCertificate.read(from:)) else {
            throw HTTPError(.notFound, "This Fieldbook has no certificate authority of its own to download.")
        }
        return authority
    }

    private static func download(_ bytes: [UInt8], type: String, name: String) -> Response {
        Response(headers: [("Content-Type", type), ("Content-Disposition", "attachment; filename=\"\(name)\""),
                           ("X-Content-Type-Options", "nosniff"), ("Cache-Control", "no-cache")], body: bytes)
    }

    /// The name devices list the authority under once trusted: the one it was made with, which stays when the machine
    /// is renamed; without an authority, the machine's.
    static func serverName(_ authority: AuthorityCertificate?, _ names: MachineNames) -> String {
        authority?.name ?? "Fieldbook on \(names.hostName)"
    }

    private static func noAddressReason(_ address: ServingAddress?) -> Message {
        guard let address else { return Message("This Fieldbook is not serving the network yet.") }
        guard address.isLoopback else { return Message("This computer has no network address: connect it to the Wi-Fi, then reload this page.") }
        return Message("This Fieldbook serves only this computer ({host}), so other devices cannot reach it. Start it with --host 0.0.0.0 to serve the tablets and phones on the network.",
                       ["host": .text(address.host)])
    }

    private static func noAuthorityReason(_ address: ServingAddress?) -> Message {
        guard let address, !address.isLoopback else {
            return Message("Fieldbook made no certificate authority: it serves only this computer, where none is needed.")
        }
        return address.isTLS
            ? Message("Fieldbook made no certificate authority: it serves HTTPS with your organization's own certificate. Devices that already trust your organization open the address as it is.")
            : Message("Fieldbook made no certificate authority: it serves plain HTTP (--no-tls). Devices open the address as it is, but passwords and records cross the network unencrypted, and browsers refuse location and offline use on it.")
    }
}
