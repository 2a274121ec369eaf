import Domain
import GRDB

/// Names that may be alike (`NameSimilarity`), met under their blocking keys, so a name is compared with the few that
/// share a key rather than with every one: a table's stored records, or the rows of a file read so far. Each name
/// carries a tag (a record's id, a row's line and id).
struct CloseNames<Tag> {
    private var names: [String] = []
    private var tags: [Tag] = []
    private var buckets: [String: [Int32]] = [:]
    /// Names added but not yet under their keys: most files never look for a close name (every row matches something
    /// closer), so the keys are made only once one is looked for.
    private var waiting = 0

    /// The records of `table` by their folded names, tagged with their ids.
    static func stored(_ db: Database, table: String) throws -> CloseNames<String> {
        var found = CloseNames<String>()
        let rows = try Row.fetchCursor(db, sql: "SELECT id, name FROM \(table)")
        while let row = try rows.next() { found.add(SearchText.fold(row["name"]), row["id"]) }
        return found
    }

    mutating func add(_ folded: String, _ tag: Tag) {
        names.append(folded)
        tags.append(tag)
        waiting += 1
    }

    /// The most alike name at or above the threshold, other than `folded` itself (an exact match is not "close").
    mutating func closest(to folded: String) -> (tag: Tag, score: Double)? {
        for index in (names.count - waiting)..<names.count {
            for key in Set(NameSimilarity.blockingKeys(names[index])) { buckets[key, default: []].append(Int32(index)) }
        }
        waiting = 0
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
