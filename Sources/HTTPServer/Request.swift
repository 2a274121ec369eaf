import Foundation

/// Ordered name/value pairs (query string, form fields): a name may repeat.
public struct Parameters: Sendable, Equatable {
    public private(set) var pairs: [(name: String, value: String)]

    public init(_ pairs: [(name: String, value: String)] = []) { self.pairs = pairs }

    public subscript(name: String) -> String? { pairs.first { $0.name == name }?.value }

    public func all(_ name: String) -> [String] { pairs.filter { $0.name == name }.map(\.value) }

    public mutating func append(_ name: String, _ value: String) { pairs.append((name, value)) }

    /// Appends to the last value of `name`, or adds it (form values can arrive in pieces).
    mutating func appendChunk(_ name: String, _ chunk: String, continuing: Bool) {
        if continuing, let index = pairs.lastIndex(where: { $0.name == name }) {
            pairs[index].value += chunk
        } else {
            pairs.append((name, chunk))
        }
    }

    public var isEmpty: Bool { pairs.isEmpty }

    public static func == (lhs: Parameters, rhs: Parameters) -> Bool {
        lhs.pairs.elementsEqual(rhs.pairs) { $0.name == $1.name && $0.value == $1.value }
    }
}

/// A file received in a multipart form. The server writes it to a temporary file as it arrives, so a large upload
/// never sits in memory, and removes that file once the request has been answered: a handler that keeps the upload
/// reads or moves it before it returns.
public struct UploadedFile: Sendable {
    public let fieldName: String
    /// The name the browser gave, as sent (never a path to trust).
    public let filename: String
    public let declaredContentType: String?
    /// The temporary file holding the upload's bytes.
    public let path: String
    public let size: Int

    public init(fieldName: String, filename: String, declaredContentType: String?, path: String, size: Int) {
        self.fieldName = fieldName
        self.filename = filename
        self.declaredContentType = declaredContentType
        self.path = path
        self.size = size
    }

    public var isEmpty: Bool { size == 0 }
}

/// One HTTP request as the server received it, body fully read.
public struct Request: Sendable {
    public var method: HTTPMethod
    /// The path, percent-decoded, without the query string.
    public var path: String
    public var query: Parameters
    /// Header values keyed by lower-cased name.
    public var headers: [String: String]
    public var cookies: [String: String]
    public var form: Parameters
    public var files: [UploadedFile]
    /// The raw body for content types that are not forms (JSON).
    public var body: [UInt8]
    public var remoteAddress: String
    public var isTLS: Bool
    /// Values captured from `{name}` segments of the matched route.
    public var pathParameters: [String: String] = [:]

    public init(method: HTTPMethod, path: String, query: Parameters = Parameters(), headers: [String: String] = [:],
                cookies: [String: String] = [:], form: Parameters = Parameters(), files: [UploadedFile] = [],
                body: [UInt8] = [], remoteAddress: String = "127.0.0.1", isTLS: Bool = false) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.cookies = cookies
        self.form = form
        self.files = files
        self.body = body
        self.remoteAddress = remoteAddress
        self.isTLS = isTLS
    }

    public func header(_ name: String) -> String? { headers[name.lowercased()] }

    /// The value of the cookie Fieldbook set as `name`: over TLS only the `__Host-` one (see `Cookie`), so a cookie of
    /// the plain name that someone else planted is not read.
    public func cookie(_ name: String) -> String? { cookies[Cookie.sentName(name, secure: isTLS)] }

    public func pathParameter(_ name: String) -> String? { pathParameters[name] }

    /// The path with its query string, as a link back to this exact view.
    public var pathWithQuery: String {
        query.isEmpty ? path : path + "?" + QueryString.encode(query)
    }
}

/// Percent-encoding of query strings and form values.
public enum QueryString {
    /// The value with every UTF-8 byte outside RFC 3986's unreserved characters written `%XX`. Byte by byte, without
    /// Foundation's `addingPercentEncoding`: every pagination link of a list page is encoded.
    public static func escape(_ value: String) -> String {
        let utf8 = value.utf8
        guard !utf8.allSatisfy(isUnreserved) else { return value }
        var escaped: [UInt8] = []
        escaped.reserveCapacity(utf8.count * 3)
        for byte in utf8 {
            if isUnreserved(byte) {
                escaped.append(byte)
            } else {
                escaped += [UInt8(ascii: "%"), hexDigit(byte >> 4), hexDigit(byte & 0x0F)]
            }
        }
        return String(decoding: escaped, as: UTF8.self)
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"): true
        default: false
        }
    }

    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "A") + value - 10
    }

    public static func encode(_ parameters: Parameters) -> String {
        parameters.pairs.map { escape($0.name) + "=" + escape($0.value) }.joined(separator: "&")
    }

    /// Decodes `a=1&b=x+y` into parameters (used for raw bodies and in tests).
    public static func decode(_ text: String) -> Parameters {
        var result = Parameters()
        for piece in text.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = piece.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = unescape(String(parts[0]))
            let value = parts.count > 1 ? unescape(String(parts[1])) : ""
            result.append(name, value)
        }
        return result
    }

    private static func unescape(_ text: String) -> String {
        text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? text
    }
}
