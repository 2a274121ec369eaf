import Domain
import Foundation
import GRDB

/// One page of a record list: filters collected into a WHERE clause, the total counted, and the page's rows read.
/// The page's ids come from the sort index alone, so a deep OFFSET skips index entries, not joined rows.
struct ListQuery {
    /// The table with its alias (`participants p`); the filters name its columns through the alias.
    let table: String
    /// Joins the sort needs beside the table (a type's or an area's name), or empty. Inner joins on a required
    /// reference: they never drop a row, so the page's rows may be the same with or without them.
    var sortJoins = ""
    /// Whether this order reads the joined tables. When it does not, a page's ids are read from the sort index alone
    /// and the joins are made for the page's rows only: `?sort=name&page=100` joined 5,000 skipped rows otherwise.
    var sortUsesJoins = true
    /// The joins a page's id query makes: the sort's, when it reads them.
    private var idJoins: String { sortUsesJoins ? sortJoins : "" }
    private var conditions: [String] = []
    private(set) var arguments: StatementArguments = []
    /// A search the trigram index decides alone (every field searched): its index and phrase. When it is the only
    /// filter, the total is counted in the index and a page may be read in the sort's order (`page`).
    private var indexedSearch: (index: String, phrase: String)?
    /// The first filter when it is a column's equality (`add(equal:)`), whose total may be kept.
    private var countedValue: (column: String, value: String)?
    /// Whether a filter reads a trigram search index. Such a list's deep pages are not read from kept rows: the index
    /// is rebuilt after a first sync that dropped its triggers (`DeferredIndexes`), which moves no records version.
    private var searchesIndex = false
    /// Whether the one filter is a search too short for the trigram index: a LIKE over every row, whose total may be
    /// estimated (`estimatedCount`).
    private var isShortSearchAlone = false

    init(_ table: String, sortJoins: String = "") {
        self.table = table
        self.sortJoins = sortJoins
    }

    /// Rows whose `search_text` contains `text` (accents and case folded); nothing when `text` is blank.
    /// `firstFieldOnly`: match only the first of the folded fields (a participant's name, not their email).
    /// Three or more characters go through the trigram index, whose phrase matches exactly the rows whose folded text
    /// holds the folded query (`SearchIndex`); a LIKE still decides shorter queries, and which field matched.
    mutating func matching(_ text: String, alias: String, firstFieldOnly: Bool = false) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { return }
        let column = "\(alias).search_text"
        let folded = SearchText.fold(trimmed)
        let short = folded.unicodeScalars.count < SearchIndex.shortest
        let indexed = !short && SearchIndex.tables.contains(baseTable)
        if indexed {
            let index = SearchIndex.indexName(baseTable)
            if !firstFieldOnly, conditions.isEmpty { indexedSearch = (index, SearchIndex.phrase(folded)) }
            searchesIndex = true
            add("\(alias).rowid IN (SELECT rowid FROM \(index) WHERE \(index) MATCH ?)", SearchIndex.phrase(folded))
            if !firstFieldOnly { return }
        }
        let searched = firstFieldOnly ? "substr(\(column), 1, instr(\(column) || char(31), char(31)) - 1)" : column
        // Only a search of one or two letters matches so many rows that a sample estimates it well, as the page says;
        // a longer one over a table without an index (a declared kind's) is counted.
        isShortSearchAlone = short && conditions.isEmpty
        add("\(searched) LIKE ? ESCAPE '\\'", SearchText.pattern(trimmed))
    }

    /// The indexed search when it is the only filter.
    private var searchAlone: (index: String, phrase: String)? { conditions.count == 1 ? indexedSearch : nil }

    /// Rows whose `areaColumn` holds the area or any area inside it; nothing when `areaId` is nil.
    mutating func within(_ areaId: UUID?, areaColumn: String) {
        guard let areaId else { return }
        add("\(areaColumn) IN (\(AppDatabase.areaTreeSQL))", areaId.databaseText)
    }

    /// Rows whose `venueColumn` names a venue in the area or any area inside it; nothing when `areaId` is nil.
    mutating func atVenueWithin(_ areaId: UUID?, venueColumn: String) {
        guard let areaId else { return }
        add("\(venueColumn) IN (SELECT id FROM venues WHERE geographic_area_id IN (\(AppDatabase.areaTreeSQL)))", areaId.databaseText)
    }

    /// Rows whose `column` holds `value`. Alone, its total is a count kept by value when `RowCounts` keeps one.
    mutating func add(equal column: String, alias: String, _ value: String) {
        if conditions.isEmpty { countedValue = (column, value) }
        add("\(alias).\(column) = ?", value)
    }

    mutating func add(_ condition: String, _ values: (any DatabaseValueConvertible)?...) {
        conditions.append(condition)
        arguments += StatementArguments(values)
    }

    /// A condition whose values are already collected (another query's filter used as a subquery).
    mutating func add(_ condition: String, arguments values: StatementArguments) {
        conditions.append(condition)
        arguments += values
    }

    /// The table's name without its alias.
    private var baseTable: String { table.split(separator: " ").first.map(String.init) ?? table }

    private var filter: String { conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ") }

    /// The filters as a WHERE clause (empty when there are none), for queries that read all rows rather than a page.
    var whereClause: String { filter }

    /// How many rows match (a kept count when nothing filters them).
    func count(_ db: Database) throws -> Int {
        if conditions.isEmpty { return try RowCounts.count(db, table: baseTable) }
        if conditions.count == 1, let counted = countedValue {
            return try RowCounts.count(db, table: baseTable, column: counted.column, value: counted.value)
        }
        if let search = searchAlone {
            // The index's own entries: no row of the table is read.
            return try Int.fetchOne(db.cachedStatement(sql: "SELECT COUNT(*) FROM \(search.index) WHERE \(search.index) MATCH ?"),
                                    arguments: [search.phrase]) ?? 0
        }
        return try Int.fetchOne(db.cachedStatement(sql: "SELECT COUNT(*) FROM \(table) \(filter)"), arguments: arguments) ?? 0
    }

    /// Tables up to this many rows are counted exactly whatever the search.
    static let mostCountedEveryRow = 50_000
    /// The rows a short search's total is estimated from, and the fewest matches among them an estimate is made from.
    static let sampledRows = 20_000, fewestSampledMatches = 500

    /// A search of one or two letters matches most rows, and counting them reads every row while the page itself reads
    /// a few: on a large table its total is estimated from the first `sampledRows` rows, to two significant figures.
    /// nil when the table is small or the search rare among the sample, where only an exact count is honest.
    private func estimatedCount(_ db: Database) throws -> Int? {
        guard isShortSearchAlone, conditions.count == 1 else { return nil }
        let rows = try RowCounts.count(db, table: baseTable)
        guard rows > Self.mostCountedEveryRow else { return nil }
        let matched = try Int.fetchOne(db.cachedStatement(sql: """
            SELECT COUNT(*) FROM (SELECT rowid, search_text FROM \(baseTable) LIMIT \(Self.sampledRows)) \(alias) \(filter)
            """), arguments: arguments) ?? 0
        guard matched >= Self.fewestSampledMatches else { return nil }
        let estimate = Double(matched) * Double(rows) / Double(Self.sampledRows)
        let unit = pow(10, max(0, floor(log10(estimate)) - 1))
        return Int((estimate / unit).rounded() * unit)
    }

    /// How many rows match, whether that is an estimate (only when `request` allows one), and for an indexed search
    /// alone the set of the rows it matched (`RowIdSet`), read in the same pass over the index: nil when the matches
    /// span too many rowids for a set, or when another filter decides.
    private func countWithMatches(_ db: Database, _ request: PageRequest) throws -> (total: Int, estimated: Bool, matched: Data?) {
        guard let search = searchAlone else {
            if request.mayEstimateTotal, let estimate = try estimatedCount(db) { return (estimate, true, nil) }
            return (try count(db), false, nil)
        }
        let row = try Row.fetchOne(db.cachedStatement(sql: """
            SELECT COUNT(*), \(RowIdSet.build)(rowid) FROM \(search.index) WHERE \(search.index) MATCH ?
            """), arguments: [search.phrase])
        return (row?[0] ?? 0, false, row?[1])
    }

    /// Whether a page of a search is cheaper read by walking the sort's index and keeping the rows the search matched,
    /// than by reading every match and sorting them. SQLite picks the second whenever the index narrows, which for a
    /// common trigram reads every match to show a page. Walking in order reads about (rows skipped + page) × rows ÷
    /// matches index entries, and no row. An entry walked past costs a match read and sorted ÷ `entriesPerMatch`
    /// (measured with a `RowIdSet` on deep pages of common searches, with a margin kept); with `IN` an entry's lookup
    /// costs about what a match's read does.
    private func readsInSortOrder(_ db: Database, total: Int, request: PageRequest, entriesPerMatch: Double) throws -> Bool {
        guard searchAlone != nil, idJoins.isEmpty, total > 0 else { return false }
        let rows = try RowCounts.count(db, table: baseTable)
        return Double(request.offset + request.perPage) * Double(rows) / Double(total) < Double(total) * entriesPerMatch
    }

    /// Counts the matching rows and reads one page of them in `order`: `select` names the columns, `rowJoins` what the
    /// rows show beside the table (joined for the page's rows only). A deep page starts from the nearest row `anchors`
    /// holds for this list, when its order allows (`KeysetOrder`), and leaves the page's first and last rows there.
    func page<Item>(_ db: Database, order: String, select: String, rowJoins: String = "", request: PageRequest,
                    anchors: PageAnchors, item: (Row) -> Item) throws -> ListPage<Item> {
        let (total, estimated, matched) = try countWithMatches(db, request)
        guard total > 0 else { return ListPage(items: [], total: 0, request: request) }
        var filter = filter
        var arguments = arguments
        if try readsInSortOrder(db, total: total, request: request, entriesPerMatch: matched == nil ? 1 : 16) {
            // Neither a function of the rowid nor `+rowid` lets SQLite read the matches by rowid, so it walks the index
            // that serves ORDER BY. The set tests an entry by one bit; `IN` builds a temporary b-tree of the matches.
            if let matched {
                filter = "WHERE \(RowIdSet.contains)(?, \(alias).rowid)"
                arguments = [matched]
            } else {
                filter = "WHERE +" + conditions[0]
            }
        }
        var skipped = request.offset
        let anchored = try anchoredRead(db, order: order, request: request, anchors: anchors)
        if let anchored, let start = anchored.start {
            filter += (filter.isEmpty ? "WHERE " : " AND ") + anchored.keyset.fromAnchor
            arguments += StatementArguments(start.key)
            skipped -= start.offset
        }
        // Cached (per reader connection): every value is bound, so the statements differ only by the filters' and the
        // sort's shape, a small set; preparing them again for each page costs more than reading a page of rows.
        // Read through a cursor rather than `Row.fetchAll`: a cursor's row finds a column by name in its statement's
        // index of names, while a fetched row lowers the case of every column's name at each lookup.
        let rows = try Row.fetchCursor(db.cachedStatement(sql: """
            SELECT \(select)\(anchored?.keyset.selected ?? "") FROM (SELECT \(alias).id FROM \(table) \(idJoins) \(filter) ORDER BY \(order) LIMIT ? OFFSET ?) page
            JOIN \(table) ON \(alias).id = page.id \(sortJoins) \(rowJoins) ORDER BY \(order)
            """), arguments: arguments + [request.perPage, skipped])
        let keyLength = anchored?.keyset.columns.count ?? 0
        func key(_ row: Row) -> [DatabaseValue] { (row.count - keyLength..<row.count).map { row[$0] } }
        var items: [Item] = []
        items.reserveCapacity(request.perPage)
        var firstKey: [DatabaseValue]?, lastKey: [DatabaseValue]?
        while let row = try rows.next() {
            if anchored != nil {
                lastKey = key(row)
                if firstKey == nil { firstKey = lastKey }
            }
            items.append(item(row))
        }
        if let anchored, let firstKey, let lastKey {
            anchors.keep([PageAnchors.Anchor(offset: request.offset, key: firstKey),
                          PageAnchors.Anchor(offset: request.offset + items.count - 1, key: lastKey)],
                         in: anchored.list, at: anchored.version)
        }
        return ListPage(items: items, total: total, request: request, totalIsEstimate: estimated)
    }

    /// How a deep page is read from an anchor: the order as a key, the list's name among the anchors, the records
    /// version read at, and the anchor to start from (nil: from the first row). nil for a shallow page, or an order
    /// a key cannot stand for.
    func anchoredRead(_ db: Database, order: String, request: PageRequest, anchors: PageAnchors) throws
        -> (keyset: KeysetOrder, list: String, version: Int64, start: PageAnchors.Anchor?)? {
        guard request.offset >= anchors.shallowestOffset, !searchesIndex,
              let keyset = KeysetOrder(order, alias: alias, required: try anchors.requiredColumns(db, table: baseTable)) else { return nil }
        let list = "\(table) \(idJoins) \(self.filter) ORDER BY \(order) \(arguments)"
        let version = try AppDatabase.recordsVersion(db)
        return (keyset, list, version, anchors.nearest(in: list, at: version, atOrBefore: request.offset))
    }

    /// Every matching row in `order`, read one at a time (an export of the whole list): `body` answers false to stop.
    func forEachRow(_ db: Database, order: String, select: String, _ body: (Row) throws -> Bool) throws {
        let rows = try Row.fetchCursor(db, sql: "SELECT \(select) FROM \(table) \(sortJoins) \(filter) ORDER BY \(order)", arguments: arguments)
        while let row = try rows.next() {
            guard try body(row) else { return }
        }
    }

    /// The table's alias (`p` of `participants p`).
    var alias: String { table.split(separator: " ").last.map(String.init) ?? table }
}

extension AppDatabase {
    /// The ids of an area (the one argument) and of every area inside it.
    static let areaTreeSQL = """
        WITH RECURSIVE tree(id) AS (SELECT ? UNION ALL SELECT a.id FROM geographic_areas a JOIN tree t ON a.parent_id = t.id)
        SELECT id FROM tree
        """
}
