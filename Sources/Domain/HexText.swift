extension Sequence<UInt8> {
    /// The bytes in lower-case hexadecimal, two digits each (a SHA-256 as stored, a random token). Written byte by byte:
    /// `String(format: "%02x")` per byte went through Foundation's formatter 32 times for every page's session lookup.
    public var lowercaseHex: String {
        var text: [UInt8] = []
        text.reserveCapacity(underestimatedCount * 2)
        for byte in self {
            text.append(hexDigits[Int(byte >> 4)])
            text.append(hexDigits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}

/// The sixteen digits, in lower case.
let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)
