import HTTPServer
import Storage

/// Home: how much is recorded, and how sync stands.
enum HomePage {
    static func show(_ context: inout PageContext) throws -> Response {
        let counts = try context.database.recordCounts()
        let status = context.web.syncStatus.current()
        var view: [String: Any] = [
            "user_name": try context.signedInUser.name,
            "counts": counts.map { ["label": $0.label, "count": $0.count, "path": $0.path ?? "", "has_path": $0.path != nil] },
            "hub": status.hub.label,
            "pending": status.pendingOperations,
            "standalone": status.hub == .standalone,
        ]
        view.merge(try SyncNotice.view(context.database, for: context.actor)) { $1 }
        view.merge(DiskSpaceNotice.view(context.database)) { $1 }
        return context.page("home", title: "Home", section: .home, view: view)
    }
}
