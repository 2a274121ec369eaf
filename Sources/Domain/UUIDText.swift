import Foundation

extension UUID {
    /// The canonical form in lower case (`0d2f3a10-…`), as ids are stored and written in addresses. Built from the bytes:
    /// a list page writes three addresses per row, and `uuidString.lowercased()` was a visible part of its time.
    public var lowercaseText: String {
        let digits = Array("0123456789abcdef".utf8)
        return withUnsafeBytes(of: uuid) { bytes in
            String(unsafeUninitializedCapacity: 36) { text in
                var at = 0
                for (index, byte) in bytes.enumerated() {
                    if index == 4 || index == 6 || index == 8 || index == 10 {
                        text[at] = UInt8(ascii: "-")
                        at += 1
                    }
                    text[at] = digits[Int(byte >> 4)]
                    text[at + 1] = digits[Int(byte & 0x0F)]
                    at += 2
                }
                return at
            }
        }
    }
}
