import Foundation
import HTTPServer
import Storage
import Surface

/// Home: how much is recorded, and how sync stands.
enum HomePage {
    static func show(_ context: inout PageContext) throws -> Response {
        let counts = try context.database.recordCounts()
        let status = context.syncStatus
        var view: TemplateView = [
            "user_name": try context.signedInUser.name,
            "counts": counts.map { count -> TemplateView in
                ["label": count.label, "count": count.count, "path": count.path ?? "", "has_path": count.path != nil]
            },
            "hub": SyncStatusText(status: status, translator: context.translator).state,
            "pending": status.pendingOperations,
            "standalone": status.hub == .standalone,
            "hub_refused": status.hub == .refused,
        ]
        if try context.signedInUser.role.canEditRecords { view.merge(gettingStarted(counts)) }
        view.merge(try SyncNotice.view(context.database, for: context.actor))
        view.merge(DiskSpaceNotice.view(context.database))
        if try context.signedInUser.role.canAdminister {
            view.merge(BackupNotice.view(context.web.backups.status(), now: Date(), linksToPage: true))
        }
        return context.page("home", title: "Home", section: .home, view: view)
    }

    /// The order to set up a community in, while any step has nothing yet: each kind needs the one before it (a venue
    /// is in an area, a participant may live at a venue, an activity is held at venues).
    static func gettingStarted(_ counts: [RecordCount]) -> TemplateView {
        let steps: [(entity: String, text: String, link: String, path: String)] = [
            ("geographic_area", "Add the areas you work in: cities, then neighbourhoods inside them.", "Add an area", Paths.areas.new()),
            ("venue", "Add venues: the places where activities happen or people live, each in an area.", "Add a venue", Paths.venues.new()),
            ("participant", "Add participants, with the venue each lives at.", "Add a participant", Paths.participants.new()),
            ("activity", "Add activities, held at venues, and assign participants to them.", "Add an activity", Paths.activities.new()),
        ]
        let count = Dictionary(counts.map { ($0.entity, $0.count) }) { $1 }
        guard steps.contains(where: { (count[$0.entity] ?? 0) == 0 }) else { return [:] }
        return ["has_getting_started": true, "getting_started": steps.map { step -> TemplateView in
            ["text": step.text, "link": step.link, "path": step.path, "done": (count[step.entity] ?? 0) > 0]
        }]
    }
}
