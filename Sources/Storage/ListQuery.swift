import Domain
import Foundation
import GRDB

/// One page of a record list: filters collected into a WHERE clause, the total counted, and the page's rows read.
/// The page's ids come from the sort index alone, so a deep OFFSET skips index entries, not joined rows.
struct ListQuery {
    /// The table with its alias (`participants p`); the filters name its columns through the alias.
    let table: String
    /// Joins the sort needs beside the table (a type's or an area's name), or empty.
    var sortJoins = ""
    private var conditions: [String] = []
    private(set) var arguments: StatementArguments = []

    init(_ table: String, sortJoins: String = "") {
        self.table = table
        self.sortJoins = sortJoins
    }

    /// Rows whose `search_text` contains `text` (accents and case folded); nothing when `text` is blank.
    /// `firstFieldOnly`: match only the first of the folded fields (a participant's name, not their email).
    mutating func matching(_ text: String, alias: String, firstFieldOnly: Bool = false) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { return }
        let column = "\(alias).search_text"
        let folded = SearchText.fold(trimmed)
        if folded.unicodeScalars.count >= SearchIndex.shortest, SearchIndex.tables.contains(baseTable) {
            let index = SearchIndex.indexName(baseTable)
            add("\(alias).rowid IN (SELECT rowid FROM \(index) WHERE \(index) MATCH ?)", SearchIndex.phrase(folded))
        }
        let searched = firstFieldOnly ? "substr(\(column), 1, instr(\(column) || char(31), char(31)) - 1)" : column
        add("\(searched) LIKE ? ESCAPE '\\'", SearchText.pattern(trimmed))
    }

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
        conditions.isEmpty ? try RowCounts.count(db, table: baseTable)
            : try Int.fetchOne(db.cachedStatement(sql: "SELECT COUNT(*) FROM \(table) \(filter)"), arguments: arguments) ?? 0
    }

    /// Counts the matching rows and reads one page of them in `order`: `select` names the columns, `rowJoins` what the
    /// rows show beside the table (joined for the page's rows only).
    func page<Item>(_ db: Database, order: String, select: String, rowJoins: String = "", request: PageRequest,
                    item: (Row) -> Item) throws -> ListPage<Item> {
        let total = try count(db)
        // Cached (per reader connection): every value is bound, so the statements differ only by the filters' and the
        // sort's shape, a small set; preparing them again for each page cost more than reading 50 rows.
        let rows = try Row.fetchAll(db.cachedStatement(sql: """
            SELECT \(select) FROM (SELECT \(alias).id FROM \(table) \(sortJoins) \(filter) ORDER BY \(order) LIMIT ? OFFSET ?) page
            JOIN \(table) ON \(alias).id = page.id \(sortJoins) \(rowJoins) ORDER BY \(order)
            """), arguments: arguments + [request.perPage, request.offset])
        return ListPage(items: rows.map(item), total: total, request: request)
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
