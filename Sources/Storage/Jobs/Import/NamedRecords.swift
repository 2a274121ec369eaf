import Domain
import Foundation
import GRDB

/// The records of one kind a row may name (a home venue, an area, a type): by Fieldbook id, or by name (folded as
/// search folds it), an area also by its path, with what tells records of one name apart (a venue's address).
struct NamedRecords {
    let noun: String
    /// How a problem asks for what tells two records of one name apart: "its address".
    let tellingApart: String
    private var byKey: [String: [String]] = [:]
    private var details: [String: String] = [:]
    private(set) var ids = Set<String>()
    /// Where names not here are noted, and stand for records the import creates when the person chose that.
    var missing: MissingNames?

    init(noun: String, tellingApart: String = "its Fieldbook id") {
        (self.noun, self.tellingApart) = (noun, tellingApart)
    }

    /// `detail`: the column that tells records of one name apart, read as text.
    init(_ db: Database, table: String, noun: String, detail: String? = nil, tellingApart: String = "its Fieldbook id") throws {
        self.init(noun: noun, tellingApart: tellingApart)
        for row in try Row.fetchAll(db, sql: "SELECT id, name, \(detail ?? "''") AS detail FROM \(table) ORDER BY created_at") {
            add(id: row["id"], keys: [row["name"]], detail: (row["detail"] as String?) ?? "")
        }
    }

    /// A name or path folded for matching: case and accents ignored, the parts of a path trimmed and empty ones
    /// dropped ("world/Kenya/" is "world / kenya").
    static func key(_ text: String) -> String {
        SearchText.fold(parts(text).joined(separator: " / "))
    }

    /// The parts of a path from the top, trimmed, empty ones dropped: how the review and the import both read a path.
    static func parts(_ path: String) -> [String] {
        path.split(separator: "/").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// Adds a record under each of its names; a record already here is kept as it is.
    mutating func add(id: String, keys: [String], detail: String = "") {
        guard ids.insert(id).inserted else { return }
        for key in Set(keys.map(Self.key)) { byKey[key, default: []].append(id) }
        details[id] = Self.detailKey(detail)
    }

    /// What tells records of one name apart, folded as names are.
    static func detailKey(_ detail: String) -> String {
        SearchText.fold(detail.trimmingCharacters(in: .whitespaces))
    }

    /// The record a cell names (its Fieldbook id or its name, with `detail` telling records of one name apart), ""
    /// for an empty cell, or why it names none.
    func resolve(_ cell: String, detail: String = "") -> ResolvedName {
        if cell.isEmpty { return ResolvedName(id: "", problem: nil) }
        if let id = UUID(uuidString: cell)?.databaseText {
            return ids.contains(id) ? ResolvedName(id: id, problem: nil) : ResolvedName(id: "", problem: "No \(noun) has the id \(cell) on this Fieldbook: add it first, or use its name")
        }
        let named = byKey[Self.key(cell)]
        var found = named ?? []
        let given = Self.detailKey(detail)
        if found.count > 1, !given.isEmpty { found = found.filter { details[$0] == given } }
        if found.isEmpty, let missing {
            let id = missing.note(cell, detail: detail, stored: self)
            if missing.creating { return ResolvedName(id: id, problem: nil, isPlanned: true) }
        }
        switch found.count {
        case 1: return ResolvedName(id: found[0], problem: nil)
        case 0 where !given.isEmpty && named != nil:
            return ResolvedName(id: "", problem: "No \(noun) named “\(cell)” has the address “\(detail)”: write the address as Fieldbook shows it", isMissing: true)
        case 0: return ResolvedName(id: "", problem: "No \(noun) is named “\(cell)”: add it first, or write its name as Fieldbook shows it", isMissing: true)
        default: return ResolvedName(id: "", problem: "“\(cell)” matches \(found.count) \(noun)s: give \(tellingApart)")
        }
    }

    /// The id a cell names, or a ValidationError (on `field`) saying why it names none.
    func checked(_ cell: String, _ field: ImportField, detail: String = "") throws -> String {
        let found = resolve(cell, detail: detail)
        if let problem = found.problem { throw ValidationError([FieldError(field: field.rawValue, message: problem)]) }
        return found.id
    }
}

/// What a cell naming a record resolved to: the record's id, or why it names none.
struct ResolvedName {
    let id: String
    let problem: String?
    /// It names no record here (rather than several).
    var isMissing = false
    /// It names a record the import creates.
    var isPlanned = false

    func problems(_ field: ImportField) -> [FieldError] {
        problem.map { [FieldError(field: field.rawValue, message: $0)] } ?? []
    }
}

/// The areas a row may name, by Fieldbook id, name, or path from the top ("World / Kenya / Nairobi").
struct AreaTree {
    private(set) var named = NamedRecords(noun: "area", tellingApart: "its path from the top, such as “World / Kenya / Nairobi”")
    private var paths: [String: String] = [:]
    /// Every path here, folded: a name alone may be any area's, a path only one's.
    private var pathKeys = Set<String>()

    init(_ db: Database) throws {
        var parents: [String: (name: String, parent: String?)] = [:]
        var order: [String] = []
        for row in try Row.fetchAll(db, sql: "SELECT id, name, parent_id FROM geographic_areas ORDER BY created_at") {
            parents[row["id"]] = (row["name"], row["parent_id"])
            order.append(row["id"])
        }
        /// The path of an area, its parents' paths found first; a loop of parents (which the writer refuses) ends it.
        func path(_ id: String, seen: Set<String> = []) -> String {
            if let known = paths[id] { return known }
            guard let area = parents[id] else { return "" }
            let above = area.parent.flatMap { seen.contains($0) ? nil : path($0, seen: seen.union([id])) } ?? ""
            let whole = above.isEmpty ? area.name : above + " / " + area.name
            paths[id] = whole
            pathKeys.insert(NamedRecords.key(whole))
            return whole
        }
        for id in order { named.add(id: id, keys: [parents[id]!.name, path(id)]) }
    }

    /// The path from the top of an area here, for a resolved id.
    func path(of id: String) -> String? { paths[id] }

    /// The path an area of `name` would have inside `parent` (an id here, or "" for the top).
    func path(of name: String, in parent: String) -> String {
        guard let above = paths[parent], !above.isEmpty else { return name }
        return above + " / " + name
    }

    /// Adds an area a file's row will create, so the rows after it may name it; an area of the same id or path
    /// already here is kept (the row merges into it).
    mutating func add(id: String, name: String, parent: String) {
        let whole = path(of: name, in: parent)
        guard paths[id] == nil, pathKeys.insert(NamedRecords.key(whole)).inserted else { return }
        paths[id] = whole
        named.add(id: id, keys: [name, whole])
    }
}
