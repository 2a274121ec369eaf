import Domain
import Foundation
import Records
import Storage

/// Page addresses both surfaces name: the API gives each notification the address of the page it is about.
public enum SharedPagePaths {
    public static let root = RoutePattern("/")
    public static let sync = root / "sync"
    public static let conflicts = sync / "conflicts"
}

extension NotificationSubject {
    /// The page a notification opens: the record's page, or the sync pages for what sync did.
    public var pagePath: String {
        if let collection = RecordCollection(entity: entity), let id {
            return RecordRoutes(collection.path(under: SharedPagePaths.root)).record(id)
        }
        if entity == "sync_conflict", let id { return SharedPagePaths.conflicts() + "#conflict-" + id.uuidString.lowercased() }
        return SharedPagePaths.sync()
    }
}

extension RecordCount {
    /// The page listing the counted records, where one exists.
    public var path: String? { Self.listPaths[entity] }

    /// Made once: the home page links every count, and making an address parses its pattern.
    private static let listPaths = Dictionary(uniqueKeysWithValues: RecordKind.all.map { ($0.entity, $0.path(under: SharedPagePaths.root).pattern) })
}
