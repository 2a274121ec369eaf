import Domain
import GRDB

/// Names that may be alike (`NameSimilarity`), met under their blocking keys, so a name is compared with the few that
/// share a key rather than with every one: a table's stored records, or the rows of a file read so far. Each name
/// carries a tag (a record's id, a row's line and id).
struct CloseNames<Tag> {
    private var names: [String] = []
    private var tags: [Tag] = []
    private var buckets: [String: [Int32]] = [:]

    /// The records of `table` by their folded names, tagged with their ids.
    static func stored(_ db: Database, table: String) throws -> CloseNames<String> {
        var found = CloseNames<String>()
        let rows = try Row.fetchCursor(db, sql: "SELECT id, name FROM \(table)")
        while let row = try rows.next() { found.add(SearchText.fold(row["name"]), row["id"]) }
        return found
    }

    mutating func add(_ folded: String, _ tag: Tag) {
        let index = Int32(names.count)
        names.append(folded)
        tags.append(tag)
        for key in Set(NameSimilarity.blockingKeys(folded)) { buckets[key, default: []].append(index) }
    }

    /// The most alike name at or above the threshold, other than `folded` itself (an exact match is not "close").
    func closest(to folded: String) -> (tag: Tag, score: Double)? {
        var best: (index: Int, score: Double)?
        var seen = Set<Int32>()
        for key in NameSimilarity.blockingKeys(folded) {
            for index in buckets[key] ?? [] where seen.insert(index).inserted && names[Int(index)] != folded {
                let score = NameSimilarity.score(folded, names[Int(index)])
                if score >= NameSimilarity.threshold, score > best?.score ?? 0 { best = (Int(index), score) }
            }
        }
        return best.map { (tags[$0.index], $0.score) }
    }
}
