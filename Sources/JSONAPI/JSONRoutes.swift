import Domain
import Foundation
import HTTPServer
import Storage

/// The JSON API's route table: every address, who may call it, its handler and what the document says about it.
enum JSONRoutes {
    static let prefix = "/api/v1"

    static func register(in table: inout APIRouteTable, version: String, sync: SyncEndpoints = SyncEndpoints()) {
        table.add(.get, "/health", .anyone, HealthEndpoint.operation) { context in
            HealthEndpoint.check(database: context.database, version: version)
        }
        table.add(.post, "/auth/login", .anyone, AuthResource.loginDoc, AuthResource.login)
        table.add(.post, "/auth/refresh", .anyone, AuthResource.refreshDoc, AuthResource.refresh)
        table.add(.post, "/auth/logout", .reader, AuthResource.logoutDoc, AuthResource.logout)

        for kind in CategoryKind.allCases {
            let resource = CategoryResource(kind: kind)
            table.records(resource.path, resource.docs, resource.handlers, write: .editor)
        }
        table.records("/areas", AreaResource.docs, AreaResource.handlers, write: .editor)
        table.add(.get, "/areas/{id}/children", .reader, AreaResource.childrenDoc, AreaResource.children)
        table.add(.get, "/areas/{id}/ancestors", .reader, AreaResource.ancestorsDoc, AreaResource.ancestors)
        table.add(.get, "/areas/{id}/venues", .reader, AreaResource.venuesDoc, AreaResource.venues)
        table.add(.get, "/areas/{id}/statistics", .reader, AreaResource.statisticsDoc, AreaResource.statistics)

        table.records("/venues", VenueResource.docs, VenueResource.handlers, write: .editor)
        table.add(.get, "/venues/{id}/activities", .reader, VenueResource.activitiesDoc, VenueResource.activities)
        table.add(.get, "/venues/{id}/participants", .reader, VenueResource.participantsDoc, VenueResource.participants)

        table.records("/participants", ParticipantResource.docs, ParticipantResource.handlers, write: .editor)
        table.add(.get, "/participants/{id}/address-history", .reader, ParticipantResource.historyDoc, ParticipantResource.history)

        table.records("/activities", ActivityResource.docs, ActivityResource.handlers, write: .editor)
        table.add(.post, "/activities/{id}/completion", .editor, ActivityResource.completeDoc, ActivityResource.complete)
        table.add(.get, "/activities/{id}/assignments", .reader, AssignmentResource.listDoc, AssignmentResource.list)
        table.add(.post, "/activities/{id}/assignments", .editor, AssignmentResource.createDoc, AssignmentResource.create)
        table.add(.get, "/activities/{id}/assignments/{assignmentId}", .reader, AssignmentResource.getDoc, AssignmentResource.get)
        table.add(.delete, "/activities/{id}/assignments/{assignmentId}", .editor, AssignmentResource.deleteDoc, AssignmentResource.delete)

        table.records("/users", UserResource.docs, UserResource.handlers, read: .administrator, write: .administrator)
        table.add(.post, "/users/{id}/password", .administrator, UserResource.passwordDoc, UserResource.resetPassword)
        sync.register(in: &table)
        addDocument(to: &table, version: version)
    }

    /// The document describes every route, itself included, so it is built once the table is complete.
    private static func addDocument(to table: inout APIRouteTable, version: String) {
        var complete = table
        complete.add(.get, "/openapi.json", .anyone, OpenAPIDocument.operation) { _ in Response(status: .noContent) }
        let document = OpenAPIDocument.json(version: version, routes: complete.routes)
        table.add(.get, "/openapi.json", .anyone, OpenAPIDocument.operation) { _ in Response.json(document) }
    }

    /// Schemas the operations refer to, by component name.
    static var components: [String: [Field]] {
        var all: [String: [Field]] = [
            "Health": HealthEndpoint.fields,
            "Category": CategoryResource.fields,
            "CategoryWrite": CategoryResource.writeFields,
        ]
        let parts: [[String: [Field]]] = [AuthResource.components, AreaResource.components, VenueResource.components,
                                          ParticipantResource.components, ActivityResource.components,
                                          AssignmentResource.components, UserResource.components, SyncEndpoints.components]
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

    mutating func add(_ method: HTTPMethod, _ path: String, _ access: APIAccess, _ operation: APIOperation,
                      _ handler: @escaping APIHandler) {
        routes.append(APIRoute(method: method, path: JSONRoutes.prefix + path, access: access, operation: operation, handler: handler))
    }

    /// list, read, create, replace (PUT), update (PATCH) and delete of one resource.
    mutating func records(_ path: String, _ docs: ResourceDocs, _ handlers: RecordHandlers, read: APIAccess = .reader, write: APIAccess) {
        add(.get, path, read, docs.list, handlers.list)
        add(.post, path, write, docs.create, handlers.create)
        add(.get, path + "/{id}", read, docs.get, handlers.get)
        add(.put, path + "/{id}", write, docs.replace) { try handlers.update($0, .full) }
        add(.patch, path + "/{id}", write, docs.patch) { try handlers.update($0, .partial) }
        if let delete = handlers.delete { add(.delete, path + "/{id}", write, docs.delete, delete) }
    }

    func register(in router: inout Router, authenticator: APIAuthenticator) {
        for route in routes {
            router.add(route.method, route.path) { request in
                let bearer = route.access == .anyone ? nil : try authenticator.bearer(request, requiring: route.access)
                return try route.handler(APIContext(request: request, bearer: bearer, authenticator: authenticator))
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

    static func check(database: AppDatabase, version: String) -> Response {
        let healthy = database.isHealthy()
        return JSONResponse.make(Body(status: healthy ? "ok" : "degraded", version: version, database: healthy ? "ok" : "unavailable"),
                                 status: healthy ? .ok : .serviceUnavailable)
    }
}
