import Domain
import Foundation
import Storage
import Surface

/// Every page address by name. Routes.swift registers these patterns, and handlers, views and redirects build their
/// links from them (`Paths.participants.record(id)`), so each address is written once.
enum Paths {
    static let home = RoutePattern("/")
    static let setup = home / "setup"
    static let login = home / "login"
    /// A form sent after its session ended, to check and send again once signed in (forms whose own page cannot show it).
    static let sendAgain = home / "send-again"
    /// The signed-in person's own password.
    static let accountPassword = home / "account" / "password"
    /// The language the signed-in person's pages are shown in.
    static let accountLanguage = home / "account" / "language"
    static let privacySettings = home / "settings" / "privacy"
    static let backups = home / "settings" / "backups"
    static let backupNow = backups / "now"
    /// A fresh backup, taken for the download (a POST: it does the work of a backup).
    static let backupDownload = backups / "download"
    static let devices = home / "settings" / "devices"
    static let authorityPEM = devices / "fieldbook-authority.pem"
    static let authorityDER = devices / "fieldbook-authority.crt"
    static let authorityProfile = devices / "fieldbook-authority.mobileconfig"
    static let logout = home / "logout"
    /// Participants, venues, activities and areas found by the same words (the header's search box).
    static let search = home / "search"
    static let events = home / "events"

    static let notifications = home / "notifications"
    /// Opens the notification's page and marks it read (a link, so it works like any other).
    static let openNotification = notifications / "{id}"
    static let readNotification = notifications / "{id}" / "read"
    static let readAllNotifications = notifications / "read-all"
    static let notificationPreferences = notifications / "preferences"

    static let activityTypes = RecordRoutes(RecordCollection.activityTypes.path(under: home))
    static let roles = RecordRoutes(RecordCollection.roles.path(under: home))
    static let areas = RecordRoutes(RecordCollection.areas.path(under: home))
    static let venues = RecordRoutes(RecordCollection.venues.path(under: home))
    static let participants = RecordRoutes(RecordCollection.participants.path(under: home))
    static let activities = RecordRoutes(RecordCollection.activities.path(under: home))
    static let users = RecordRoutes(RecordCollection.users.path(under: home))
    static let visitLists = RecordRoutes(RecordCollection.visitLists.path(under: home))

    static func categories(_ kind: CategoryKind) -> RecordRoutes { kind == .activityType ? activityTypes : roles }

    /// Pairs of participants that may be one person, and merging one pair.
    static let participantDuplicates = participants.list / "duplicates"
    static let mergeParticipants = participants.record / "merge"
    /// A pair brought in by sync set aside as two people.
    static let dismissSyncedDuplicate = participantDuplicates / "dismiss"

    /// Participants brought in from a CSV file: the upload, then each import's review, progress and outcome.
    static let imports = home / "imports"
    static let importRecord = imports / "{id}"
    static let importColumns = importRecord / "columns"
    static let importChoices = importRecord / "choices"
    static let importReferences = importRecord / "references"
    static let importStart = importRecord / "start"
    static let importCancel = importRecord / "cancel"
    static let importReview = importRecord / "review"
    static let importDelete = importRecord / "delete"
    static let importProgress = importRecord / "progress"
    /// One row beside the stored record it matches, merged field by field.
    static let importRow = importRecord / "rows" / "{line}"

    /// Photos of participants, venues and activities: the upload (one address, which takes large files), each photo's
    /// page, its edit and its deletion, and the image files by hash.
    static let photos = home / "photos"
    static let newPhoto = photos / "new"
    static let photo = photos / "{id}"
    static let editPhoto = photo / "edit"
    static let deletePhoto = photo / "delete"
    static let photoFiles = home / "photo-files"
    static let photoFileByHash = photoFiles / "{sha256}"

    static let exports = home / "export"
    static let exportEverything = exports / "everything.zip"
    /// Archives prepared in the background: asked for, followed, cancelled, downloaded.
    static let exportJobs = exports / "jobs"
    static let exportJob = exportJobs / "{id}"
    static let exportJobProgress = exportJob / "progress"
    static let exportJobCancel = exportJob / "cancel"
    static let exportJobDownload = exportJob / "download"
    /// An area's records (with the areas inside it) as one archive.
    static let areaExport = areas.record / "export.zip"
    /// An activity with its venues, assignments and participants as one archive.
    static let activityExport = activities.record / "export.zip"

    /// A list downloaded whole (`/participants/export.csv`), with the list's filters in the query string.
    static func export(_ routes: RecordRoutes, _ format: ExportFormat) -> RoutePattern { routes.list / "export.\(format.rawValue)" }

    static let activityCompletion = activities.record / "completion"
    static let assignments = activities.record / "assignments"
    static let newAssignment = assignments / "new"
    static let deleteAssignment = assignments / "{assignmentId}" / "delete"
    /// Everyone from another activity, each in their role there.
    static let copyAssignments = assignments / "copy"
    /// Several assignments removed at once (a confirmation, then the removal).
    static let removeAssignments = assignments / "remove"
    static let userPassword = users.record / "password"

    static let myVisits = home / "my-visits"
    static let printVisitList = visitLists.record / "print"
    static let visitResults = visitLists.record / "results.csv"
    static let walkVisitList = visitLists.record / "walk"
    static let visitListStops = visitLists.record / "stops"
    static let visitStop = visitListStops / "{stopId}"
    static let removeVisitStop = visitStop / "remove"
    static let contactLogs = visitStop / "logs"
    static let stopFollowUp = visitStop / "follow-up"
    /// What a phone keeps of a list to walk it away from the network (JSON for the page's script).
    static let offlineVisitList = visitLists.record / "offline.json"
    /// The service worker: at the root, so its scope is every page.
    static let offlineWorker = home / "offline-worker.js"

    static let sync = SharedPagePaths.sync
    static let syncRun = sync / "run"
    static let syncPause = sync / "pause"
    static let syncResume = sync / "resume"
    static let syncCancel = sync / "cancel"
    static let retryFailedOperation = sync / "failed" / "{operationId}" / "retry"
    static let discardFailedOperation = sync / "failed" / "{operationId}" / "discard"
    static let conflicts = SharedPagePaths.conflicts
    static let reapplyConflict = conflicts / "{id}" / "reapply"
    static let dismissConflict = conflicts / "{id}" / "dismiss"

    static let map = home / "map"
    /// Raster tiles, `/tiles/{z}/{x}/{y}.png` (the last segment carries the extension).
    static let tile = home / "tiles" / "{z}" / "{x}" / "{y}"
    static let tileTemplate = "/tiles/{z}/{x}/{y}.png"
    static let mapSettings = home / "settings" / "map"
    static let tileUpload = mapSettings / "tiles"

    static let analytics = AnalyticsView.engagement.page
    static let analyticsGrowth = AnalyticsView.growth.page
    static let analyticsTable = AnalyticsView.pages / "table.csv"

    static let syncSettings = home / "settings" / "sync"
    static let syncInterval = syncSettings / "interval"
    static let unlink = syncSettings / "unlink"
    static let hubSignIn = syncSettings / "sign-in"
    /// Hub side: the nodes' own sign-ins.
    static let linkedNodes = home / "settings" / "linked-nodes"
    static let revokeLinkedNode = linkedNodes / "{id}" / "revoke"
}

extension RecordRoutes {
    /// The names of a record's addresses in a view.
    private static let linkNames = ["path", "edit_path", "delete_path"]

    /// One record's addresses for its view: `path`, `edit_path` and `delete_path`.
    func links(_ id: UUID) -> TemplateView {
        let text = id.lowercaseText
        var links: TemplateView = [:]
        for name in Self.linkNames { links[name] = link(name, idText: text) }
        return links
    }

    /// The address named `name` (one of `linkNames`) of the record whose id is `idText`, or nil for another name: a
    /// list row's fields (`TemplateFields`) answer through it, `links` is made from it.
    func link(_ name: String, idText: String) -> String? {
        switch name {
        case "path": record.filled(idText: idText)
        case "edit_path": edit.filled(idText: idText)
        case "delete_path": delete.filled(idText: idText)
        default: nil
        }
    }
}

extension Paths {
    /// The addresses without parameters, for every template as `{{paths.name}}` (`{{paths.participants_new}}`).
    static let templateView: TemplateView = {
        var view: [String: String] = [
            "home": home(), "search": search(), "setup": setup(), "login": login(), "logout": logout(), "account_password": accountPassword(), "account_language": accountLanguage(), "privacy_settings": privacySettings(),
            "backups": backups(), "backup_now": backupNow(), "backup_download": backupDownload(),
            "devices": devices(), "authority_pem": authorityPEM(), "authority_der": authorityDER(), "authority_profile": authorityProfile(),
            "notifications": notifications(), "notifications_read_all": readAllNotifications(), "notification_preferences": notificationPreferences(),
            "sync": sync(), "sync_run": syncRun(), "sync_pause": syncPause(), "sync_resume": syncResume(),
            "sync_cancel": syncCancel(), "conflicts": conflicts(), "all_conflicts": conflicts() + "?show=all",
            "sync_settings": syncSettings(), "sync_interval": syncInterval(), "unlink": unlink(), "hub_sign_in": hubSignIn(), "linked_nodes": linkedNodes(),
            "map": map(), "map_settings": mapSettings(), "tile_upload": tileUpload(), "my_visits": myVisits(),
            "offline_worker": offlineWorker(),
            "analytics": analytics(), "analytics_growth": analyticsGrowth(), "exports": exports(),
            "participant_duplicates": participantDuplicates(), "imports": imports(),
        ]
        let records: [(String, RecordRoutes)] = [("activity_types", activityTypes), ("roles", roles), ("areas", areas),
                                                 ("venues", venues), ("participants", participants),
                                                 ("activities", activities), ("users", users),
                                                 ("visit_lists", visitLists)]
        for (name, routes) in records {
            view[name] = routes.list()
            view[name + "_new"] = routes.new()
        }
        return TemplateView(view.mapValues(TemplateValue.text))
    }()
}
