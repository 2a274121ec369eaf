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
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    public mutating func setHeader(_ name: String, _ value: String) {
        headers.removeAll { $0.name.caseInsensitiveCompare(name) == .orderedSame }
        headers.append((name, value))
    }

    public mutating func addHeader(_ name: String, _ value: String) { headers.append((name, value)) }

    public func settingHeader(_ name: String, _ value: String) -> Response {
        var copy = self
        copy.setHeader(name, value)
        return copy
    }

    public var bodyText: String { String(decoding: body, as: UTF8.self) }
}

/// A Set-Cookie value with the attributes Fieldbook always wants.
public struct Cookie: Sendable {
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
        var parts = ["\(name)=\(value)", "Path=/", "HttpOnly", "SameSite=\(sameSite)"]
        if let maxAge { parts.append("Max-Age=\(maxAge)") }
        if secure { parts.append("Secure") }
        return parts.joined(separator: "; ")
    }

    /// Parses a Cookie request header.
    public static func parse(header: String) -> [String: String] {
        var cookies: [String: String] = [:]
        for piece in header.split(separator: ";") {
            let parts = piece.split(separator: "=", maxSplits: 1)
            guard parts.count == 2 else { continue }
            let name = parts[0].trimmingCharacters(in: .whitespaces)
            if cookies[name] == nil { cookies[name] = parts[1].trimmingCharacters(in: .whitespaces) }
        }
        return cookies
    }
}

extension Response {
    public mutating func setCookie(_ cookie: Cookie) { addHeader("Set-Cookie", cookie.headerValue) }
}
