import Domain
import Foundation
import Records
import GRDB

/// Areas name their parent by path, name or Fieldbook id, and the parent may be a row of the same file, before or
/// after the row: rows are written parents first. Areas match by path (the same area), or by name alone (possibly the
/// same).
struct AreaImporter: InputImporter {
    typealias Record = GeographicArea
    typealias Extra = Void
    /// The stored areas and those the file's rows add.
    let tree: AreaTree
    let writeOrder: [Int]?
    private let stored: KeyedRecords
    private let fieldsByColumn = ImportTarget.areas.fieldsByColumn

    /// `leavingOut`: rows of these decisions add no area (when writing, the skipped rows).
    init(_ db: Database, job: UUID, mapping: ImportMapping, leavingOut: Set<ImportDecision>) throws {
        var tree = try AreaTree(db)
        stored = KeyedRecords(try Row.fetchAll(db, sql: "SELECT id, name FROM geographic_areas ORDER BY created_at").map { row in
            (row["id"], NamedRecords.key(tree.path(of: row["id"] as String) ?? ""), SearchText.fold(row["name"]))
        })
        var waiting: [(line: Int, values: ImportedRow, id: String)] = []
        var leftOut: [Int] = []
        for row in try Row.fetchAll(db, sql: "SELECT line, cells, new_id, decision FROM import_rows WHERE job_id = ? ORDER BY line",
                                    arguments: [job.databaseText]) {
            guard !leavingOut.contains(ImportDecision(rawValue: row["decision"]) ?? .skip) else {
                leftOut.append(row["line"])
                continue
            }
            let values = mapping.values(ImportJSON.strings(row["cells"]))
            waiting.append((row["line"], values, UUID(uuidString: values[.id])?.databaseText ?? row["new_id"]))
        }
        // A row is added once its parent is known: each pass adds the rows whose parents earlier passes added.
        var order: [Int] = []
        while true {
            let before = order.count
            waiting = waiting.filter { row in
                let parent = tree.named.resolve(row.values[.parent])
                guard parent.problem == nil else { return true }
                tree.add(id: row.id, name: row.values[.name], parent: parent.id)
                order.append(row.line)
                return false
            }
            if order.count == before { break }
        }
        self.tree = tree
        writeOrder = order + waiting.map(\.line) + leftOut
    }

    private func input(_ row: ImportedRow, parentId: String, over stored: FieldTexts<GeographicArea>?) -> AreaInput {
        AreaInput(row.texts(GeographicArea.declaration, references: [GeographicArea.declaration.column(\.parentId): parentId], over: stored))
    }

    func problems(_ row: ImportedRow, mergingInto id: UUID?, _ db: Database) throws -> [FieldError] {
        let parent = tree.named.resolve(row[.parent])
        let input = input(row, parentId: parent.id, over: try id.flatMap { try current(db, id: $0) }?.texts)
        return parent.problems(.parent) + Storage.problems(of: { _ = try input.validated() }, renaming: fieldsByColumn)
    }

    func keys(_ row: ImportedRow) -> (strong: String?, weak: String?) {
        let name = row[.name]
        guard !name.isEmpty else { return (nil, nil) }
        let parent = tree.named.resolve(row[.parent])
        return (parent.problem == nil ? NamedRecords.key(tree.path(of: name, in: parent.id)) : nil, SearchText.fold(name))
    }

    func stored(_ db: Database, strong: String?, weak: String?) throws -> (reason: ImportMatchReason, id: String)? {
        stored.stored(strong: strong, weak: weak)
    }

    func checkedInput(_ row: ImportedRow, over stored: (texts: FieldTexts<GeographicArea>, extra: Void)?) throws -> AreaInput.Valid {
        try input(row, parentId: tree.named.checked(row[.parent], .parent), over: stored?.texts).validated()
    }
}
