import Domain
import Records
import Surface

/// Every API address by name. JSONRoutes.swift registers these patterns and `Location` headers are built from them
/// (`APIPaths.venues.item(id)`), so each address is written once.
enum APIPaths {
    static let root = RoutePattern.apiRoot
    static let health = root / "health"
    static let openAPIDocument = root / "openapi.json"
    static let login = root / "auth" / "login"
    static let refresh = root / "auth" / "refresh"
    static let logout = root / "auth" / "logout"

    static let activityTypes = APIRecordRoutes(.activityTypes)
    static let roles = APIRecordRoutes(.roles)
    static let areas = APIRecordRoutes(.areas)
    static let venues = APIRecordRoutes(.venues)
    static let participants = APIRecordRoutes(.participants)
    static let activities = APIRecordRoutes(.activities)
    static let users = APIRecordRoutes(.users)
    static let visitLists = APIRecordRoutes(.visitLists)

    static func categories(_ kind: CategoryKind) -> APIRecordRoutes { kind == .activityType ? activityTypes : roles }

    static let areaChildren = areas.item / "children"
    static let areaAncestors = areas.item / "ancestors"
    static let areaVenues = areas.item / "venues"
    static let areaStatistics = areas.item / "statistics"
    static let venueActivities = venues.item / "activities"
    static let venueParticipants = venues.item / "participants"
    static let addressHistory = participants.item / "address-history"
    static let participantDuplicates = participants.collection / "possible-duplicates"
    static let participantMerge = participants.item / "merge"
    /// Everything as one ZIP archive.
    static let exportEverything = root / "export"
    static let areaExport = areas.item / "export"
    static let activityExport = activities.item / "export"
    static let activityCompletion = activities.item / "completion"
    static let assignments = activities.item / "assignments"
    static let assignment = assignments / "{assignmentId}"
    static let userPassword = users.item / "password"
    static let visitStops = visitLists.item / "stops"
    static let visitStopsFromFilter = visitStops / "from-filter"
    static let visitStop = visitStops / "{stopId}"
    static let contactLogs = visitStop / "logs"
    static let contactLog = contactLogs / "{logId}"

    /// The photos of any participant, venue, activity or logged visit, named in the query or the form.
    static let photos = root / "photos"
    static let photo = photos / "{id}"

    /// Participants, venues, activities and areas found by the same words.
    static let search = root / "search"
    static let mapVenues = MapDataPaths.venues
    static let mapHomes = MapDataPaths.homes

    static let engagement = AnalyticsView.engagement.twin
    static let growth = AnalyticsView.growth.twin

    static let notifications = root / "notifications"
    static let notificationRead = notifications / "{id}" / "read"
    static let notificationsReadAll = notifications / "read-all"
    static let notificationPreferences = notifications / "preferences"

    static let syncPush = root / "sync" / "push"
    static let syncChanges = root / "sync" / "changes"
    static let syncStatus = root / "sync" / "status"
    static let syncRun = root / "sync" / "run"
    static let syncConflicts = root / "sync" / "conflicts"
    /// Photo contents by hash: which of a list the hub lacks, and one file sent or fetched.
    static let syncPhotoFilesMissing = root / "sync" / "photo-files" / "missing"
    static let syncPhotoFile = root / "sync" / "photo-files" / "{sha256}"
    /// Hub side: the nodes' own sign-ins.
    static let linkedNodes = root / "linked-nodes"
    static let linkedNodeRevoke = linkedNodes / "{id}" / "revoke"
}

/// The two addresses of a record resource: the collection (list, create) and one record (read, change, delete).
struct APIRecordRoutes: Sendable {
    /// `/api/v1/venues`
    let collection: RoutePattern
    /// `/api/v1/venues/{id}`
    let item: RoutePattern
    /// `/api/v1/venues/export`: the whole list as one file.
    let export: RoutePattern

    init(_ collection: RecordCollection) { self.init(collection.kind) }

    /// The addresses of any kind, at its pages' address below the API's root (`/api/v1/notes`).
    init(_ kind: RecordKind) {
        collection = kind.path(under: APIPaths.root)
        item = collection / "{id}"
        export = collection / "export"
    }
}
