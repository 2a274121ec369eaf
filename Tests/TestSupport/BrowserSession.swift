import Foundation

/// A minimal browser over RawHTTPClient: keeps cookies and fills in CSRF tokens, for end-to-end tests.
public final class BrowserSession {
    public let port: UInt16
    public private(set) var cookies: [String: String] = [:]

    public init(port: UInt16) { self.port = port }

    @discardableResult
    public func get(_ path: String) throws -> RawHTTPClient.Answer {
        try remember(RawHTTPClient.send("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\(cookieHeader)Connection: close\r\n\r\n", port: port))
    }

    /// Posts a urlencoded form, adding the CSRF token from the page at `formPath` (default: `path`).
    @discardableResult
    public func post(_ path: String, _ fields: [(String, String)], formPath: String? = nil) throws -> RawHTTPClient.Answer {
        let page = try get(formPath ?? path)
        let token = Self.csrfToken(in: page.body) ?? ""
        let body = (fields + [("csrf_token", token)]).map { Self.escape($0.0) + "=" + Self.escape($0.1) }.joined(separator: "&")
        return try remember(RawHTTPClient.send("""
            POST \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\(cookieHeader)Content-Type: application/x-www-form-urlencoded\r\n\
            Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)
            """, port: port))
    }

    public static func csrfToken(in html: String) -> String? {
        guard let range = html.range(of: "name=\"csrf_token\" value=\"") else { return nil }
        return String(html[range.upperBound...].prefix { $0 != "\"" })
    }

    private var cookieHeader: String {
        cookies.isEmpty ? "" : "Cookie: " + cookies.map { "\($0.key)=\($0.value)" }.joined(separator: "; ") + "\r\n"
    }

    private func remember(_ answer: RawHTTPClient.Answer) -> RawHTTPClient.Answer {
        for cookie in answer.setCookies {
            let pair = cookie.split(separator: ";")[0].split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(pair[0])
            if cookie.contains("Max-Age=0") { cookies[name] = nil } else { cookies[name] = pair.count > 1 ? String(pair[1]) : "" }
        }
        return answer
    }

    private static func escape(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? text
    }
}
