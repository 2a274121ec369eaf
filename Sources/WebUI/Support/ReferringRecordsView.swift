import Domain
import Foundation
import Records
import Storage
import Surface

/// What a record's page shows of the records of each kind declared only in Records that refer to it ("Notes about
/// this participant"): how many, the latest few, and the new-record form with the reference filled in.
enum ReferringRecordsView {
    static let latest = 5

    /// `referring` in the page's view: one section per declared reference to `kind`.
    static func view(_ database: AppDatabase, about kind: RecordKind, id: UUID) throws -> TemplateView {
        ["referring": try WebRoutes.declaredKinds.flatMap { try sections($0, database, about: kind, id: id) }]
    }

    private static func sections<Record: DeclaredKind>(_ type: Record.Type, _ database: AppDatabase, about kind: RecordKind,
                                                       id: UUID) throws -> [TemplateView] {
        let routes = DeclaredPages<Record>.routes
        return try Record.kind.references.filter { $0.entity == kind.entity }.map { reference in
            let page = try database.records(Record.self, matching: "", referring: (reference.column, id), page: PageRequest(perPage: latest))
            return [
                "title": "\(Record.kind.label.many.capitalizedFirst) about this \(kind.label.one)",
                "add": "Add a \(Record.kind.label.one)",
                "none": "No \(Record.kind.label.many) about this \(kind.label.one) yet.",
                "total": page.total, "has_records": !page.items.isEmpty, "more": page.total > page.items.count,
                "records": page.items.map { record -> TemplateView in ["name": record.name, "path": routes.record(record.id)] },
                "list_path": routes.list(),
                "new_path": routes.new() + "?" + reference.column + "=" + id.uuidString.lowercased(),
            ]
        }
    }
}
