import Foundation

/// A value made the first time it is asked for, once, whichever thread asks first: for what a server that is never
/// asked for it should not hold (the OpenAPI document: large, and sorting its keys wakes ICU's locale data).
final class BuiltWhenFirstAsked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var build: (() -> Value)?
    private var built: Value?

    init(_ build: @escaping () -> Value) { self.build = build }

    var value: Value {
        lock.withLock {
            if let built { return built }
            let value = build!()
            built = value
            build = nil
            return value
        }
    }
}
