import Foundation
import HTTPServer
import Translations

/// Where Fieldbook is served securely, for the page the plain-HTTP port shows.
public struct SecureAddress: Sendable {
    /// The names and addresses devices can use (`DeviceJoining.reachableHosts`, as the Add a device page offers them).
    public let hosts: [String]
    public let port: UInt16
    /// The certificate authority's certificate (PEM), which devices trust once, and its SHA-256 fingerprint, to compare
    /// with the one on the Add a device sheet.
    public let authority: (pem: String, fingerprint: String)

    public init(hosts: [String], port: UInt16, authorityPEM: String, authorityFingerprint: String) {
        self.hosts = hosts
        self.port = port
        authority = (authorityPEM, authorityFingerprint)
    }

    /// The HTTPS address of each host, the one the device asked for (`Host`) first when it is one of them: a Host
    /// header naming anything else is not repeated back.
    func urls(asked hostHeader: String?) -> [String] {
        let asked = hostHeader.map(Self.hostPart)
        let ordered = hosts.filter { $0 == asked } + hosts.filter { $0 != asked }
        return ordered.map { Self.url(host: $0, port: port) }
    }

    public static func url(host: String, port: UInt16) -> String {
        "https://\(host.contains(":") ? "[\(host)]" : host):\(port)/"
    }

    /// "hall.local:8081" → "hall.local", "[fd00::1]:8081" → "fd00::1".
    static func hostPart(_ header: String) -> String {
        if header.hasPrefix("["), let end = header.firstIndex(of: "]") { return String(header[header.index(after: header.startIndex)..<end]) }
        return String(header.split(separator: ":", maxSplits: 1).first ?? "")
    }
}

/// What plain HTTP answers when Fieldbook serves HTTPS on the LAN: nothing of Fieldbook itself (no form, no sign-in,
/// no record crosses the network in clear), but a page giving the secure address and how to trust Fieldbook's
/// certificate authority, the authority's certificate, and the page's own stylesheet.
public struct SecureAddressGuide: RequestResponder {
    static let authorityPath = "/fieldbook-authority.pem"
    let renderer: PageRenderer
    let staticFiles: StaticFiles
    let address: @Sendable () -> SecureAddress

    public init(renderer: PageRenderer, staticFiles: StaticFiles, address: @escaping @Sendable () -> SecureAddress) {
        self.renderer = renderer
        self.staticFiles = staticFiles
        self.address = address
    }

    public func respond(to request: Request) -> Response {
        let reads = request.method == .get || request.method == .head
        if reads, let file = staticFiles.response(for: request) { return file }
        let address = address()
        if request.path.hasPrefix("/api/") { return apiRefusal(address, asked: request.headers["host"]) }
        if reads, request.path == Self.authorityPath {
            var response = Response(body: Array(address.authority.pem.utf8))
            response.setHeader("Content-Type", "application/x-pem-file")
            response.setHeader("Content-Disposition", "attachment; filename=\"fieldbook-authority.pem\"")
            return response
        }
        return page(address, request, status: reads ? .ok : .forbidden)
    }

    public func respond(to request: Request, failure: HTTPError) -> Response {
        page(address(), request, status: failure.status)
    }

    /// A program calling the API gets the API's error envelope, not a page it would take for an answer.
    private func apiRefusal(_ address: SecureAddress, asked: String?) -> Response {
        let secure = address.urls(asked: asked).first ?? "the HTTPS address"
        let body: [String: [String: String]] = ["error": ["code": "https_required",
                                                          "message": "This port speaks plain HTTP and serves no API. Call the API over HTTPS at \(secure)."]]
        var response = Response.json((try? JSONSerialization.data(withJSONObject: body, options: [.sortedKeys])) ?? Data(), status: .upgradeRequired)
        response.setHeader("Upgrade", "TLS/1.2, HTTP/1.1")
        return response
    }

    /// The guide in the browser's language: nobody is signed in on this port.
    private func page(_ address: SecureAddress, _ request: Request, status: HTTPStatus) -> Response {
        let urls = address.urls(asked: request.headers["host"])
        let translator = renderer.languages.negotiate(acceptLanguage: request.header("accept-language"))
        let view: TemplateView = [
            "language": translator.language,
            "direction": translator.direction.rawValue,
            "css_url": staticFiles.url(for: "css/app.css"),
            "icon_url": staticFiles.url(for: "favicon.svg"),
            "first_url": urls.first ?? "",
            "other_urls": Array(urls.dropFirst()),
            "has_other_urls": urls.count > 1,
            "authority_url": Self.authorityPath,
            "fingerprint": address.authority.fingerprint,
        ]
        return Response.html(bytes: renderer.renderBytes("secure_address", view, in: translator), status: status)
    }
}
