import Foundation

/// A background job's state and how far it has gone, as an import's or an export's page script reads it.
struct JobProgress: Encodable {
    let state: String
    let done: Int
    let total: Int
}

extension JSONEncoder {
    /// An encoder writing keys in order, so the same value is always the same bytes.
    static var sortingKeys: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return encoder
    }
}
