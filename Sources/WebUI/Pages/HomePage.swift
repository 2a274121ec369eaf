import HTTPServer
import Storage
import Surface

/// Home: how much is recorded, and how sync stands.
enum HomePage {
    static func show(_ context: inout PageContext) throws -> Response {
        let counts = try context.database.recordCounts()
        let status = context.syncStatus
        var view: [String: Any] = [
            "user_name": try context.signedInUser.name,
            "counts": counts.map { ["label": $0.label, "count": $0.count, "path": $0.path ?? "", "has_path": $0.path != nil] },
            "hub": status.hub.label,
            "pending": status.pendingOperations,
            "standalone": status.hub == .standalone,
            "hub_refused": status.hub == .refused,
        ]
        if try context.signedInUser.role.canEditRecords { view.merge(gettingStarted(counts)) { $1 } }
        view.merge(try SyncNotice.view(context.database, for: context.actor)) { $1 }
        view.merge(DiskSpaceNotice.view(context.database)) { $1 }
        return context.page("home", title: "Home", section: .home, view: view)
    }

    /// The order to set up a community in, while any step has nothing yet: each kind needs the one before it (a venue
    /// is in an area, a participant may live at a venue, an activity is held at venues).
    static func gettingStarted(_ counts: [RecordCount]) -> [String: Any] {
        let steps: [(entity: String, text: String, link: String, path: String)] = [
            ("geographic_area", "Add the areas you work in: cities, then neighbourhoods inside them.", "Add an area", Paths.areas.new()),
            ("venue", "Add venues: the places where activities happen or people live, each in an area.", "Add a venue", Paths.venues.new()),
            ("participant", "Add participants, with the venue each lives at.", "Add a participant", Paths.participants.new()),
            ("activity", "Add activities, held at venues, and assign participants to them.", "Add an activity", Paths.activities.new()),
        ]
        let count = Dictionary(counts.map { ($0.entity, $0.count) }) { $1 }
        guard steps.contains(where: { (count[$0.entity] ?? 0) == 0 }) else { return [:] }
        return ["has_getting_started": true, "getting_started": steps.map { step -> [String: Any] in
            ["text": step.text, "link": step.link, "path": step.path, "done": (count[step.entity] ?? 0) > 0]
        }]
    }
}
