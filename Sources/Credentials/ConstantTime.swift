/// Compares secrets without leaking where they differ through timing: every byte is looked at whatever the first
/// difference.
public func constantTimeEquals<Bytes: Collection<UInt8>>(_ a: Bytes, _ b: Bytes) -> Bool {
    guard a.count == b.count else { return false }
    return zip(a, b).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
}

public func constantTimeEquals(_ a: String, _ b: String) -> Bool {
    constantTimeEquals(Array(a.utf8), Array(b.utf8))
}
