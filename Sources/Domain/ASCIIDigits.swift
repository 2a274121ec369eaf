/// Reads a fixed-width run of ASCII digits, as the timestamp readers need (`2026` of `2026-11-24…`): the one place
/// the byte-level digit loop is written.
public enum ASCIIDigits {
    /// The value of `count` digits from `start`, or nil when any byte there is not a digit.
    public static func value(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, count: Int) -> Int? {
        var value = 0
        for index in start..<(start + count) {
            let digit = Int(bytes[index]) - 48
            guard (0...9).contains(digit) else { return nil }
            value = value * 10 + digit
        }
        return value
    }
}
