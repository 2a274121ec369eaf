import Domain

/// Many ids as one JSON array, bound as a single parameter and read back with `json_each`: the statement's text is the
/// same whatever the number of ids, so it is prepared once (`cachedStatement`) rather than once per list: preparing
/// weighs heavily in serving a page of the change log.
enum IdentifierList {
    /// The ids, for `id IN (\(IdentifierList.values))`.
    static let values = "SELECT value FROM json_each(?)"

    static func json(_ ids: some Sequence<String>) -> String {
        var json = JSONBytes(capacity: 256)
        json.raw("[")
        for (index, id) in ids.enumerated() {
            if index > 0 { json.raw(",") }
            json.string(id)
        }
        json.raw("]")
        return String(decoding: json.bytes, as: UTF8.self)
    }
}
