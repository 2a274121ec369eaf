import Credentials
import Foundation
import HTTPServer
import Synchronization

func randomToken() -> String {
    var generator = SystemRandomNumberGenerator()
    return (0..<24).map { _ in UInt8.random(in: .min ... .max, using: &generator) }.lowercaseHex
}

/// The one-time code printed at start-up that /setup requires, so nobody else on the LAN can claim the first account.
public final class SetupCode: Sendable {
    private let code = Mutex<String?>(nil)

    public init() {}

    /// Makes a new code like `K7QF-2M9X` (no easily confused letters).
    public func generate() -> String {
        let alphabet = Array("ABCDEFGHJKLMNPQRSTUVWXYZ23456789")
        var generator = SystemRandomNumberGenerator()
        let letters = (0..<8).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] }
        let text = String(letters.prefix(4)) + "-" + String(letters.suffix(4))
        code.withLock { $0 = text }
        return text
    }

    /// Case, spaces and the hyphen do not matter: "k7qf2m9x" and "K7QF 2M9X" are the code `K7QF-2M9X`, as typed from
    /// a terminal or read aloud across a room.
    func matches(_ candidate: String) -> Bool {
        let normalized = Self.letters(of: candidate)
        return code.withLock { current in current.map { constantTimeEquals(Self.letters(of: $0), normalized) } ?? false }
    }

    private static func letters(of text: String) -> String {
        text.uppercased().filter { $0.isLetter || $0.isNumber }
    }

    func invalidate() { code.withLock { $0 = nil } }
}
