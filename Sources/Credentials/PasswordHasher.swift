import _CryptoExtras
import Crypto
import Foundation

/// Salted scrypt password hashes, self-describing so the cost can rise without breaking old hashes.
public struct PasswordHasher: Sendable {
    /// The scrypt cost: `standard` for real use, `test` to keep test suites fast.
    public enum Cost: String, Sendable {
        case standard, test

        var log2N: Int { self == .standard ? 15 : 10 }
    }

    public let cost: Cost

    public init(cost: Cost) { self.cost = cost }

    /// `scrypt$<log2 N>$<r>$<p>$<salt>$<hash>` with base64 salt and hash.
    public func hash(_ password: String) throws -> String {
        let salt = Data((0..<16).map { _ in UInt8.random(in: .min ... .max) })
        let derived = try derive(password, salt: salt, log2N: cost.log2N, r: 8, p: 1)
        return ["scrypt", "\(cost.log2N)", "8", "1", salt.base64EncodedString(), derived.base64EncodedString()]
            .joined(separator: "$")
    }

    /// Checks a password against a stored hash in constant time.
    public func verify(_ password: String, against stored: String) -> Bool {
        let parts = stored.split(separator: "$").map(String.init)
        guard parts.count == 6, parts[0] == "scrypt", let log2N = Int(parts[1]), let r = Int(parts[2]), let p = Int(parts[3]),
              (10...20).contains(log2N), let salt = Data(base64Encoded: parts[4]), let expected = Data(base64Encoded: parts[5]),
              let derived = try? derive(password, salt: salt, log2N: log2N, r: r, p: p) else { return false }
        return constantTimeEquals(derived, expected)
    }

    /// A hash of a random password, verified against when the email is unknown so both cases take as long.
    public func dummyHash() -> String {
        (try? hash(UUID().uuidString)) ?? "scrypt$10$8$1$AAAA$AAAA"
    }

    private func derive(_ password: String, salt: Data, log2N: Int, r: Int, p: Int) throws -> Data {
        let key = try KDF.Scrypt.deriveKey(from: Data(password.utf8), salt: salt, outputByteCount: 32,
                                           rounds: 1 << log2N, blockSize: r, parallelism: p)
        return key.withUnsafeBytes { Data($0) }
    }
}
