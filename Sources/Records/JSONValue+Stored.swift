import Domain
import Foundation

/// Values as every store keeps them, SQLite's way: a boolean is stored as 0 or 1, and an integer and a double compare
/// as `Double(integer) == double`. That is SQLite's equality for integers a double holds exactly (up to 2^53 either
/// side of zero); beyond that SQLite tells apart numbers this finds equal. Both kinds of hub compare and write values
/// by these rules.
extension JSONValue {
    /// The value as SQLite would hand it back once stored (true becomes 1), so every kind of hub answers alike.
    public var asStored: JSONValue {
        guard case .bool(let value) = self else { return self }
        return .int(value ? 1 : 0)
    }

    /// Two values that store the same: true equals 1, and an integer equals a double when `Double(integer) == double`
    /// (2 equals 2.0).
    public func storesSame(as other: JSONValue) -> Bool {
        switch (asStored, other.asStored) {
        case (.int(let a), .double(let b)), (.double(let b), .int(let a)): Double(a) == b
        case let (a, b): a == b
        }
    }
}
