import Domain
import Foundation

/// Page addresses both surfaces name: the API gives each notification the address of the page it is about.
public enum SharedPagePaths {
    public static let root = RoutePattern("/")
    public static let sync = root / "sync"
    public static let conflicts = sync / "conflicts"
}

extension NotificationSubject {
    /// The page a notification opens: the record's page, or the sync pages for what sync did.
    public var pagePath: String {
        let collections: [String: RecordCollection] = ["activity": .activities, "visit_list": .visitLists, "participant": .participants,
                                                       "venue": .venues, "geographic_area": .areas, "user": .users]
        if let collection = collections[entity], let id {
            return RecordRoutes(collection.path(under: SharedPagePaths.root)).record(id)
        }
        if entity == "sync_conflict", let id { return SharedPagePaths.conflicts() + "#conflict-" + id.uuidString.lowercased() }
        return SharedPagePaths.sync()
    }
}
