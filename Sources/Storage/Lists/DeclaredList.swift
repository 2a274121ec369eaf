import Domain
import Foundation
import GRDB
import Records

extension AppDatabase {
    /// One page of every record of the kind, by its first listed field, then id: the list of a kind with no filters or
    /// order of its own.
    public func records<Record: DeclaredRecord>(_ type: Record.Type, page: PageRequest) throws -> ListPage<Record> {
        let listed = Record.kind.fields.first { $0.flags.contains(.listed) }.map { "t.\($0.column) COLLATE NOCASE, " } ?? ""
        return try read { db in
            try ListQuery("\(Record.kind.table) t").page(db, order: listed + "t.id", select: "t.*", request: page, anchors: pageAnchors) {
                Record.declaration.record($0)
            }
        }
    }
}
