/// Whether a request's headers say unambiguously where its body ends (RFC 9112 §6.1, §6.3). libmicrohttpd reads
/// some requests one way where a proxy in front of a hub may read them another: it takes the first of two different
/// Content-Lengths, prefers chunked over a Content-Length, keeps a bare CR inside a header value (a proxy may end
/// the line there and see the header after it), waits for the connection to close after a transfer coding it
/// does not know, and reads chunked in an HTTP/1.0 request, whose parsers know no Transfer-Encoding. Where two
/// parsers disagree on where a body ends, the rest of it is a second, smuggled request, so each of these is refused
/// with a 400 and the connection closed.
enum MessageFraming {
    /// Why the request's framing is refused, or nil when it is unambiguous. `fields` are the header fields as
    /// libmicrohttpd parsed them: every one, repeated names included, in order; `version` is the request line's.
    static func refusal(_ fields: [HeaderField], version: String) -> HTTPError? {
        var codings = 0, firstCoding = ""
        var length: String?, lengthsDisagree = false
        for field in fields {
            guard isToken(field.name) else {
                return refused("the header name \"\(printable(field.name))\" is not a valid field name")
            }
            if field.value.utf8.contains(where: isControl) {
                return refused("the \(printable(field.name)) header holds a control character")
            }
            if sameName(field.name, "Transfer-Encoding") {
                if codings == 0 { firstCoding = field.value }
                codings += 1
            } else if sameName(field.name, "Content-Length") {
                if let length, length != field.value { lengthsDisagree = true }
                length = length ?? field.value
            }
        }
        if codings > 0 {
            // RFC 9112 §6.1: HTTP/1.0 has no Transfer-Encoding, so a proxy may end such a body elsewhere; libmicrohttpd
            // reads it as chunked whatever the version.
            guard version == "HTTP/1.1" else {
                return refused("it has a Transfer-Encoding, which only HTTP/1.1 requests may have, in an \(printable(version)) request")
            }
            if length != nil { return refused("it has both a Content-Length and a Transfer-Encoding") }
            // libmicrohttpd reads a body as chunked only when its first Transfer-Encoding is exactly "chunked".
            guard codings == 1, sameName(firstCoding, "chunked") else {
                return refused("its Transfer-Encoding is not the one this server reads, chunked")
            }
        }
        if lengthsDisagree { return refused("it has Content-Length headers that disagree") }
        return nil
    }

    private static func refused(_ reason: String) -> HTTPError {
        HTTPError(.badRequest, "The request could not be read: \(reason). Send it again as one well-formed HTTP request.")
    }

    /// RFC 9110 §5.6.2: a field name is a token.
    private static func isToken(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
            default: "!#$%&'*+-.^_`|~".utf8.contains(byte)
            }
        }
    }

    /// RFC 9110 §5.5: CR, LF and NUL in a value must be refused; other controls but the tab have no place in one either.
    private static func isControl(_ byte: UInt8) -> Bool {
        (byte < 0x20 && byte != UInt8(ascii: "\t")) || byte == 0x7F
    }

    private static func sameName(_ first: String, _ second: String) -> Bool { Response.sameHeaderName(first, second) }

    /// A header name as it can be quoted in the answer: controls shown as "?", and no longer than 40 characters.
    private static func printable(_ name: String) -> String {
        String(String(decoding: name.utf8.prefix(40).map { isControl($0) ? UInt8(ascii: "?") : $0 }, as: UTF8.self))
    }
}

/// One header field of a request, as it arrived.
struct HeaderField {
    let name: String
    let value: String
}
