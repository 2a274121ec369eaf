extension Sequence<UInt8> {
    /// The bytes in lower-case hexadecimal, two digits each (a SHA-256 as stored, a random token). Written byte by byte:
    /// `String(format: "%02x")` goes through Foundation's formatter once per byte, and every page looks its session up.
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

/// The value of one hexadecimal digit in either case, or nil for any other byte (an id's text, a `\u` escape).
func hexDigitValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
}
