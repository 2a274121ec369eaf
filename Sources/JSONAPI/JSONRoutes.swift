import Domain
import Foundation
import HTTPServer
import Hub
import Records
import Storage
import Surface

/// The JSON API's route table: every address, who may call it, its handler and what the document says about it.
enum JSONRoutes {
    static let prefix = APIPaths.root.pattern

    static func register(in table: inout APIRouteTable, version: String, sync: SyncEndpoints = SyncEndpoints()) {
        registerSyncing(in: &table, version: version, sync: sync)
        table.add(.post, APIPaths.logout, .signedIn, AuthResource.logoutDoc, AuthResource.logout)

        for resource in records { table.records(resource) }
        table.add(.get, APIPaths.areaChildren, .signedIn, AreaResource.childrenDoc, AreaResource.children)
        table.add(.get, APIPaths.areaAncestors, .signedIn, AreaResource.ancestorsDoc, AreaResource.ancestors)
        table.add(.get, APIPaths.areaVenues, .signedIn, AreaResource.venuesDoc, AreaResource.venues)
        table.add(.get, APIPaths.areaStatistics, .signedIn, AreaResource.statisticsDoc, AreaResource.statistics)

        table.add(.get, APIPaths.venueActivities, .signedIn, VenueResource.activitiesDoc, VenueResource.activities)
        table.add(.get, APIPaths.venueParticipants, .signedIn, VenueResource.participantsDoc, VenueResource.participants)

        table.add(.get, APIPaths.addressHistory, .signedIn, ParticipantResource.historyDoc, ParticipantResource.history)
        table.add(.get, APIPaths.participantDuplicates, .editor, ParticipantResource.duplicatesDoc, ParticipantResource.duplicates)
        table.add(.post, APIPaths.participantMerge, .editor, ParticipantResource.mergeDoc, ParticipantResource.merge)

        table.add(.post, APIPaths.activityCompletion, .editor, ActivityResource.completeDoc, ActivityResource.complete)
        table.add(.get, APIPaths.assignments, .signedIn, AssignmentResource.listDoc, AssignmentResource.list)
        table.add(.post, APIPaths.assignments, .editor, AssignmentResource.createDoc, AssignmentResource.create)
        table.add(.get, APIPaths.assignment, .signedIn, AssignmentResource.getDoc, AssignmentResource.get)
        table.add(.delete, APIPaths.assignment, .editor, AssignmentResource.deleteDoc, AssignmentResource.delete)

        table.add(.get, APIPaths.visitStops, .signedIn, VisitResource.stopsDoc, VisitResource.stops)
        table.add(.post, APIPaths.visitStops, .editor, VisitResource.addStopDoc, VisitResource.addStop)
        table.add(.post, APIPaths.visitStopsFromFilter, .editor, VisitResource.addFilteredStopsDoc, VisitResource.addFilteredStops)
        table.add(.get, APIPaths.visitStop, .signedIn, VisitResource.stopDoc, VisitResource.stop)
        table.add(.delete, APIPaths.visitStop, .editor, VisitResource.removeStopDoc, VisitResource.removeStop)
        table.add(.get, APIPaths.contactLogs, .signedIn, VisitResource.logsDoc, VisitResource.logs)
        table.add(.post, APIPaths.contactLogs, .editor, VisitResource.addLogDoc, VisitResource.addLog)
        table.add(.get, APIPaths.contactLog, .signedIn, VisitResource.logDoc, VisitResource.log)
        table.add(.get, APIPaths.engagement, .signedIn, AnalyticsResource.engagementDoc, AnalyticsResource.engagement)
        table.add(.get, APIPaths.growth, .signedIn, AnalyticsResource.growthDoc, AnalyticsResource.growth)

        table.records(APIPaths.users, UserResource.docs, UserResource.handlers, read: .administrator, write: .administrator)
        table.add(.post, APIPaths.userPassword, .administrator, UserResource.passwordDoc, UserResource.resetPassword)
        table.add(.get, APIPaths.notifications, .signedIn, NotificationResource.listDoc, NotificationResource.list)
        table.add(.get, APIPaths.notificationPreferences, .signedIn, NotificationResource.preferencesDoc, NotificationResource.preferences)
        table.add(.put, APIPaths.notificationPreferences, .signedIn, NotificationResource.savePreferencesDoc, NotificationResource.savePreferences)
        table.add(.post, APIPaths.notificationsReadAll, .signedIn, NotificationResource.readAllDoc, NotificationResource.markAllRead)
        table.add(.post, APIPaths.notificationRead, .signedIn, NotificationResource.readDoc, NotificationResource.markRead)
        table.add(.get, APIPaths.exportEverything, .editor, ExportEndpoints.everythingDoc, ExportEndpoints.everything)
        table.add(.get, APIPaths.areaExport, .editor, ExportEndpoints.areaDoc, ExportEndpoints.area)
        table.add(.get, APIPaths.activityExport, .editor, ExportEndpoints.activityDoc, ExportEndpoints.activity)
        table.add(.get, APIPaths.participants.export, .signedIn, ParticipantResource.docs.export(entity: "participant"), ExportEndpoints.participants)
        table.add(.get, APIPaths.venues.export, .signedIn, VenueResource.docs.export(entity: "venue"), ExportEndpoints.venues)
        table.add(.get, APIPaths.activities.export, .signedIn, ActivityResource.docs.export(entity: "activity"), ExportEndpoints.activities)
        table.add(.get, APIPaths.mapVenues, .signedIn, MapResource.venuesDoc, MapResource.venues)
        table.add(.get, APIPaths.mapHomes, .signedIn, MapResource.homesDoc, MapResource.homes)
        table.add(.get, APIPaths.search, .signedIn, SearchResource.doc, SearchResource.search)
        PhotoResource.register(in: &table)
        sync.registerNode(in: &table)
        addDocument(to: &table, version: version)
    }

    /// What a hub that only syncs (a PostgreSQL hub) serves: health, sign-in, push, the change log, and its document.
    static func registerHub(in table: inout APIRouteTable, version: String, sync: SyncEndpoints) {
        registerSyncing(in: &table, version: version, sync: sync)
        addDocument(to: &table, version: version)
    }

    /// The routes nodes sync through, which every Fieldbook and every hub serves.
    private static func registerSyncing(in table: inout APIRouteTable, version: String, sync: SyncEndpoints) {
        table.add(.get, APIPaths.health, .anyone, HealthEndpoint.operation) { context in
            HealthEndpoint.check(context.hub, version: version)
        }
        table.add(.post, APIPaths.login, .anyone, AuthResource.loginDoc, AuthResource.login)
        table.add(.post, APIPaths.refresh, .anyone, AuthResource.refreshDoc, AuthResource.refresh)
        sync.registerHub(in: &table)
        PhotoFileEndpoints.register(in: &table)
    }

    /// The record kinds the API lists, reads, creates, changes and deletes: one line each.
    static let records: [RecordAPI] = CategoryKind.allCases.map { CategoryResource.resource($0).api } + [
        AreaResource.resource.api,
        VenueResource.resource.api,
        ParticipantResource.resource.api,
        ActivityResource.resource.api,
        VisitResource.resource.api,
        RecordResource(Note.self).api,
    ]

    /// The document describes every route, itself included, so it is built once the table is complete.
    private static func addDocument(to table: inout APIRouteTable, version: String) {
        var complete = table
        complete.add(.get, APIPaths.openAPIDocument, .anyone, OpenAPIDocument.operation) { _ in Response(status: .noContent) }
        let document = BuiltWhenFirstAsked { [routes = complete.routes] in OpenAPIDocument.json(version: version, routes: routes) }
        table.add(.get, APIPaths.openAPIDocument, .anyone, OpenAPIDocument.operation) { _ in Response.json(document.value) }
    }

    /// Schemas the operations refer to, by component name.
    static var components: [String: [Field]] {
        var all: [String: [Field]] = ["Health": HealthEndpoint.fields]
        let parts: [[String: [Field]]] = records.map(\.components) + [AuthResource.components, AreaResource.components, ParticipantResource.components,
                                          AssignmentResource.components, UserResource.components, SyncEndpoints.components,
                                          MapResource.components, VisitResource.components, NotificationResource.components,
                                          LinkedNodeResource.components, AnalyticsResource.components, PhotoFileEndpoints.components,
                                          PhotoResource.components, SearchResource.components]
        for part in parts { all.merge(part) { $1 } }
        return all
    }
}

/// The handlers of a record resource; `update` serves PUT (every field) and PATCH (some fields).
struct RecordHandlers: Sendable {
    let list: APIHandler
    let get: APIHandler
    let create: APIHandler
    let update: @Sendable (APIContext, WriteMode) throws -> Response
    var delete: APIHandler?
}

/// Collects the API's routes; `register` puts them into a router behind the bearer-token and role check.
struct APIRouteTable {
    private(set) var routes: [APIRoute] = []
    /// The GET routes whose handler may write (`getThatWrites`).
    private(set) var writingGets = WritingGets()

    mutating func add(_ method: HTTPMethod, _ pattern: RoutePattern, _ access: Access, _ operation: APIOperation,
                      _ handler: @escaping APIHandler) {
        routes.append(APIRoute(method: method, path: pattern.pattern, access: access, operation: operation, handler: handler))
    }

    /// A GET whose handler may write: the server answers it on the threads that may wait, not the reading ones.
    mutating func getThatWrites(_ pattern: RoutePattern, _ access: Access, _ operation: APIOperation, _ handler: @escaping APIHandler) {
        add(.get, pattern, access, operation, handler)
        writingGets.add(pattern)
    }

    /// A record kind's resource, which only editors and administrators change.
    mutating func records(_ resource: RecordAPI) {
        records(resource.routes, resource.docs, resource.handlers, write: .editor)
    }

    /// list, read, create, replace (PUT), update (PATCH) and delete of one resource.
    mutating func records(_ routes: APIRecordRoutes, _ docs: ResourceDocs, _ handlers: RecordHandlers, read: Access = .signedIn,
                          write: Access) {
        add(.get, routes.collection, read, docs.list, handlers.list)
        add(.post, routes.collection, write, docs.create, handlers.create)
        add(.get, routes.item, read, docs.get, handlers.get)
        add(.put, routes.item, write, docs.replace) { try handlers.update($0, .full) }
        add(.patch, routes.item, write, docs.patch) { try handlers.update($0, .partial) }
        if let delete = handlers.delete { add(.delete, routes.item, write, docs.delete, delete) }
    }

    func register(in router: inout Router, authenticator: APIAuthenticator) {
        for route in routes {
            router.add(route.method, route.path) { request in
                let caller = route.access == .anyone ? nil
                    : try authenticator.caller(request, requiring: route.access, acceptsSession: route.readsWithSession)
                return try route.handler(APIContext(request: request, caller: caller, authenticator: authenticator))
            }
        }
    }
}

/// Liveness for monitors and for nodes probing their hub.
enum HealthEndpoint {
    struct Body: Encodable {
        let status: String
        let version: String
        let database: String
    }

    static let fields: [Field] = [
        .of("status", .choice(["ok", "degraded"]), required: true),
        .of("version", .text, required: true),
        .of("database", .choice(["ok", "unavailable"]), required: true),
    ]

    static let operation = APIOperation(id: "getHealth", summary: "Liveness and database check", success: .json("Health"),
                                        mayBeUnavailable: true)

    static func check(_ hub: any SyncHub, version: String) -> Response {
        let healthy = hub.isHealthy()
        return JSONResponse.make(Body(status: healthy ? "ok" : "degraded", version: version, database: healthy ? "ok" : "unavailable"),
                                 status: healthy ? .ok : .serviceUnavailable)
    }
}
