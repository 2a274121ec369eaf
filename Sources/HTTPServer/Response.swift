import Foundation

/// An HTTP response: a complete body, or a long-lived stream (Server-Sent Events).
public struct Response: Sendable {
    public var status: HTTPStatus
    /// Header name/value pairs; a name may repeat (Set-Cookie).
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]
    /// When set, the body is whatever the application sends into this stream until it closes; `body` is ignored.
    public var stream: EventStream?
    /// When set, the body is this open file, sent from its descriptor; `body` is ignored.
    public var file: OpenFile?

    public init(status: HTTPStatus = .ok, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    public static func html(_ text: String, status: HTTPStatus = .ok) -> Response {
        Response(status: status, headers: [("Content-Type", "text/html; charset=utf-8")], body: Array(text.utf8))
    }

    /// An HTML page already encoded (a rendered template).
    public static func html(bytes: [UInt8], status: HTTPStatus = .ok) -> Response {
        Response(status: status, headers: [("Content-Type", "text/html; charset=utf-8")], body: bytes)
    }

    public static func text(_ text: String, status: HTTPStatus = .ok) -> Response {
        Response(status: status, headers: [("Content-Type", "text/plain; charset=utf-8")], body: Array(text.utf8))
    }

    public static func json(_ data: Data, status: HTTPStatus = .ok) -> Response {
        Response(status: status, headers: [("Content-Type", "application/json")], body: Array(data))
    }

    /// A long-lived response fed by `stream`; the server never caches it and ends it when the server stops.
    public static func stream(contentType: String, _ stream: EventStream) -> Response {
        var response = Response(headers: [("Content-Type", contentType), ("Cache-Control", "no-store")])
        response.stream = stream
        return response
    }

    /// An open file as the body, sent by the server from its descriptor (never read into memory).
    public static func file(_ file: OpenFile, contentType: String, headers: [(name: String, value: String)] = []) -> Response {
        var response = Response(headers: [("Content-Type", contentType)] + headers)
        response.file = file
        return response
    }

    /// A redirect after a successful POST (Post/Redirect/Get).
    public static func redirect(to location: String, status: HTTPStatus = .seeOther) -> Response {
        Response(status: status, headers: [("Location", location)])
    }

    public func header(_ name: String) -> String? {
        headers.first { Self.sameHeaderName($0.name, name) }?.value
    }

    public mutating func setHeader(_ name: String, _ value: String) {
        headers.removeAll { Self.sameHeaderName($0.name, name) }
        headers.append((name, value))
    }

    /// Whether two header names are the same name: field names are ASCII tokens, compared without regard to case
    /// (RFC 9110, 5.1). Byte by byte, without an NSString for each name: it runs several times for every response
    /// (the security headers ask for each one first).
    static func sameHeaderName(_ first: String, _ second: String) -> Bool {
        guard first.utf8.count == second.utf8.count else { return false }
        for (one, other) in zip(first.utf8, second.utf8) where one != other {
            let folded = one | 0x20
            guard folded == other | 0x20, folded >= UInt8(ascii: "a"), folded <= UInt8(ascii: "z") else { return false }
        }
        return true
    }

    public mutating func addHeader(_ name: String, _ value: String) { headers.append((name, value)) }

    public func settingHeader(_ name: String, _ value: String) -> Response {
        var copy = self
        copy.setHeader(name, value)
        return copy
    }

    public var bodyText: String { String(decoding: body, as: UTF8.self) }
}

/// A Set-Cookie value with the attributes Fieldbook always wants. A `Secure` cookie is sent under the `__Host-` prefix:
/// browsers accept such a name only from HTTPS, for this host and path `/`, so someone on the LAN who forges a plain
/// HTTP answer cannot plant it (a planted anonymous CSRF cookie would otherwise sign the device in as the attacker).
public struct Cookie: Sendable {
    /// The prefix of every cookie set over TLS.
    public static let hostOnlyPrefix = "__Host-"

    public var name: String
    public var value: String
    public var maxAge: Int?
    public var secure: Bool
    public var sameSite: String = "Lax"

    public init(name: String, value: String, maxAge: Int? = nil, secure: Bool, sameSite: String = "Lax") {
        self.name = name
        self.value = value
        self.maxAge = maxAge
        self.secure = secure
        self.sameSite = sameSite
    }

    /// A cookie that removes `name` from the browser.
    public static func expired(_ name: String, secure: Bool) -> Cookie {
        Cookie(name: name, value: "", maxAge: 0, secure: secure)
    }

    public var headerValue: String {
        var parts = ["\(Self.sentName(name, secure: secure))=\(value)", "Path=/", "HttpOnly", "SameSite=\(sameSite)"]
        if let maxAge { parts.append("Max-Age=\(maxAge)") }
        if secure { parts.append("Secure") }
        return parts.joined(separator: "; ")
    }

    /// The name a cookie called `name` goes by in the browser: prefixed when `Secure`.
    public static func sentName(_ name: String, secure: Bool) -> String { secure ? hostOnlyPrefix + name : name }

    /// Parses a Cookie request header: `name=value` pairs split by `;`, the first of a name kept.
    public static func parse(header: String) -> [String: String] {
        var cookies: [String: String] = [:]
        for piece in header.split(separator: ";") {
            let parts = piece.split(separator: "=", maxSplits: 1)
            guard parts.count == 2 else { continue }
            let name = trimmingSpaces(parts[0])
            if cookies[name] == nil { cookies[name] = trimmingSpaces(parts[1]) }
        }
        return cookies
    }

    /// The text without the spaces and tabs around it (a header's optional whitespace, RFC 9110 5.6.3), without an
    /// NSString for each name and value: it runs on every request that carries a cookie.
    static func trimmingSpaces(_ text: Substring) -> String {
        let scalars = text.unicodeScalars
        let isSpace = { (scalar: Unicode.Scalar) in scalar == " " || scalar == "\t" }
        guard let first = scalars.firstIndex(where: { !isSpace($0) }), let last = scalars.lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(scalars[first...last])
    }
}

extension Response {
    public mutating func setCookie(_ cookie: Cookie) { addHeader("Set-Cookie", cookie.headerValue) }
}
