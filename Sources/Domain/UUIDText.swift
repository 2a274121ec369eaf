import Foundation

extension UUID {
    /// The canonical form in lower case (`0d2f3a10-…`), as ids are stored and written in addresses. Built from the bytes:
    /// a list page writes three addresses per row, and `uuidString.lowercased()` was a visible part of its time.
    public var lowercaseText: String {
        withUnsafeBytes(of: uuid) { bytes in
            String(unsafeUninitializedCapacity: 36) { text in
                var at = 0
                for (index, byte) in bytes.enumerated() {
                    if index == 4 || index == 6 || index == 8 || index == 10 {
                        text[at] = UInt8(ascii: "-")
                        at += 1
                    }
                    text[at] = hexDigits[Int(byte >> 4)]
                    text[at + 1] = hexDigits[Int(byte & 0x0F)]
                    at += 2
                }
                return at
            }
        }
    }
}

extension UUID {
    /// Reads the canonical form (`0d2f3a10-…`, either case) byte by byte; nil for anything else. Foundation's
    /// `UUID(uuidString:)` parses with `sscanf`, which was a visible part of reading a 50-row page's ids.
    public init?(canonicalText text: String) {
        var text = text
        let parsed: uuid_t? = text.withUTF8 { bytes in
            guard bytes.count == 36 else { return nil }
            var value: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            var at = 0
            let complete = withUnsafeMutableBytes(of: &value) { out -> Bool in
                for index in 0..<16 {
                    if index == 4 || index == 6 || index == 8 || index == 10 {
                        guard bytes[at] == UInt8(ascii: "-") else { return false }
                        at += 1
                    }
                    guard let high = hexDigitValue(bytes[at]), let low = hexDigitValue(bytes[at + 1]) else { return false }
                    out[index] = high << 4 | low
                    at += 2
                }
                return true
            }
            return complete ? value : nil
        }
        guard let parsed else { return nil }
        self.init(uuid: parsed)
    }
}
