import Domain
import Foundation
import HTTPServer
import Records
import Storage
import Surface

/// Field visits: visit lists with their progress, their stops, and the contact logs made at each stop.
/// Logs are append-only: there is no PUT, PATCH or DELETE of a log.
enum VisitResource {
    /// A visit list's body, schema and write fields derived from the declared fields, with its progress.
    static let listShape = APIRecordShape(
        VisitList.declaration, id: { $0.id }, version: { $0.version },
        read: [.init(.of("stops_total", .integer, required: true)), .init(.of("stops_visited", .integer, required: true, "Stops with at least one log"))],
        summaries: ["assigned_user_id": "The organizer (an editor or administrator) who makes the visits"])

    static func listBody(_ list: VisitList, progress: VisitProgress) -> RecordBody {
        listShape.body(list, extras: ["stops_total": progress.total, "stops_visited": progress.visited])
    }

    struct StopBody: Encodable, Sendable {
        let id: String
        let visitListId: String
        @Null var venueId: String?
        @Null var participantId: String?
        @Null var followUpOf: String?
        let name: String
        let address: String
        @Null var coordinates: VenueResource.Coordinates?
        let logCount: Int
        @Null var lastResult: String?
        let addedAt: Date

        /// The stop as its read model gives it: a stop at the home of someone whose home the caller may not see
        /// (`StopLine.hidesPerson`) names no one and nowhere.
        init(_ line: StopLine) {
            let stop = line.stop
            (id, visitListId) = (stop.id.text, stop.listId.text)
            venueId = line.venueId?.text
            participantId = line.participantId?.text
            (followUpOf, addedAt) = (stop.followUpOf?.text, stop.createdAt)
            (name, address) = (line.name, line.address)
            coordinates = line.coordinate.map { VenueResource.Coordinates(latitude: $0.latitude, longitude: $0.longitude) }
            (logCount, lastResult) = (line.logs.count, line.lastResult?.rawValue)
        }
    }

    struct LogLocation: Encodable, Sendable {
        let latitude: Double
        let longitude: Double
        let accuracyM: Double
    }

    struct LogBody: Encodable, Sendable {
        let id: String
        let visitStopId: String
        let result: String
        let note: String
        let loggedAt: Date
        let loggedBy: String
        @Null var coordinates: LogLocation?

        init(_ log: ContactLog) {
            (id, visitStopId, result, note, loggedAt, loggedBy) = (log.id.text, log.stopId.text, log.result.rawValue, log.note, log.loggedAt, log.loggedBy.text)
            coordinates = log.location.map { LogLocation(latitude: $0.coordinate.latitude, longitude: $0.coordinate.longitude, accuracyM: $0.accuracy ?? 0) }
        }
    }

    static let stopWriteFields: [Field] = [
        .input("venue_id", .id(VisitStopRules.venueId)),
        .input("participant_id", .id(VisitStopRules.participantId), "Someone living at the venue; null to visit the venue itself"),
    ]
    static let filterWriteFields: [Field] = [
        .input("source", .choice(StopFilterInput.Rules.source), "participants: people at their home venues; venues: the places"),
        .input("area_id", .id(StopFilterInput.Rules.areaId), "Venues in this area or an area inside it"),
        .input("venue_type", .choice(StopFilterInput.Rules.venueType)),
        .input("activity_id", .id(StopFilterInput.Rules.activityId), "Participants assigned to this activity (participants only)"),
        .input("not_visited_since", .date(StopFilterInput.Rules.notVisitedSince), "Leave out anyone with a visit logged on or after this day"),
        .of("follow_up_only", .boolean, "Only those whose latest visit says FOLLOW_UP"),
    ]
    static let logCoordinateFields: [Field] = [
        .input("latitude", .number(ContactLogInput.Rules.latitude)),
        .input("longitude", .number(ContactLogInput.Rules.longitude)),
        .input("accuracy_m", .number(ContactLogInput.Rules.accuracy)),
    ]
    static let logWriteFields: [Field] = [
        .input("id", .id(ContactLogInput.Rules.id),
               "Made by the client, so a log sent again (not knowing whether the first try arrived) is logged once: the same id at "
                   + "the same stop answers the stored log; at another stop it is refused (409). Absent: the server makes one"),
        .input("result", .choice(ContactLogInput.Rules.result)),
        .input("note", .text(ContactLogInput.Rules.note), "Required with OTHER"),
        .of("coordinates", .object(logCoordinateFields), nullable: true, "Where the device was, with its accuracy in metres; null or absent for none"),
        .input("logged_at", .instant(ContactLogInput.Rules.loggedAt),
               "When the visit happened by the device's clock, for a visit kept on a device away from the network and sent later: "
                   + ContactLogInput.Rules.loggedAt.promise + ". Null or absent: when the server receives it"),
    ]

    static let components: [String: [Field]] = [
        "VisitStop": [
            .of("id", .uuid, required: true), .of("visit_list_id", .uuid, required: true), .of("venue_id", .uuid, required: true, nullable: true,
                "null at the home of someone whose home the caller may not see (the privacy setting)"),
            .of("participant_id", .uuid, required: true, nullable: true), .of("follow_up_of", .uuid, required: true, nullable: true),
            .of("name", .text, required: true), .of("address", .text, required: true),
            .of("coordinates", .object(VenueResource.coordinateFields), required: true, nullable: true),
            .of("log_count", .integer, required: true),
            .of("last_result", .choice(ContactResult.allCases.map(\.rawValue)), required: true, nullable: true),
            .of("added_at", .dateTime, required: true),
        ],
        "VisitStopWrite": stopWriteFields,
        "ContactLog": [
            .of("id", .uuid, required: true), .of("visit_stop_id", .uuid, required: true),
            .of("result", .choice(ContactResult.allCases.map(\.rawValue)), required: true), .of("note", .text, required: true),
            .of("logged_at", .dateTime, required: true), .of("logged_by", .uuid, required: true),
            .of("coordinates", .object(logCoordinateFields), required: true, nullable: true),
        ],
        "ContactLogWrite": logWriteFields,
        "StopFilterWrite": filterWriteFields,
        "StopsAdded": [
            .of("added", .integer, required: true, "Stops the filter added (those the list already held are not added twice)"),
            .of("stops_total", .integer, required: true),
        ],
    ]

    static let docs = ResourceDocs(schema: "VisitList", plural: "VisitLists", listQuery: [
        .of("assigned_user_id", .uuid, "Only this organizer's lists"),
        .of("from", .date, "Only lists on this day or later (then earliest first; otherwise latest first)"),
    ])

    static let resource = RecordResource(
        kind: VisitList.kind, routes: APIPaths.visitLists, docs: docs, shape: listShape, list: list,
        input: { body, keep, _, _ in listInput(body, keep: keep) },
        body: { list, context in listBody(list, progress: try context.database.visitSheet(id: list.id, seen: .everything).progress) })

    static let stopsDoc = APIOperation(id: "listVisitStops", summary: "The stops of a visit list, by name", query: APIOperation.paging,
                                       success: .page("VisitStop"))
    static let addStopDoc = APIOperation(id: "createVisitStop", summary: "Add a stop (a venue, or a participant at a venue) to a visit list",
                                         body: "VisitStopWrite", success: .created("VisitStop"), conflict: true)
    static let addFilteredStopsDoc = APIOperation(id: "addVisitStopsFromFilter", summary: "Add every stop a filter selects to a visit list",
                                                  body: "StopFilterWrite", success: .json("StopsAdded"), conflict: true)
    static let stopDoc = APIOperation(id: "getVisitStop", summary: "Read one stop", success: .json("VisitStop"))
    static let removeStopDoc = APIOperation(id: "deleteVisitStop", summary: "Remove a stop nothing was logged at from a list whose walk has not "
                                                + "started (status PLANNED): once it has, a visit kept on the organizer's phone may be on its way, and the "
                                                + "stop stays (409)", success: .noContent,
                                            conflict: true)
    static let logsDoc = APIOperation(id: "listContactLogs", summary: "The visits logged at a stop, oldest first", query: APIOperation.paging,
                                      success: .page("ContactLog"))
    static let addLogDoc = APIOperation(id: "createContactLog",
                                        summary: "Log a visit at a stop (the list's organizer or an administrator); logs are never changed. "
                                            + "Sent again with the same id, the stored log is answered (201) and nothing is added",
                                        body: "ContactLogWrite", success: .created("ContactLog"), conflict: true, protected: true)
    static let logDoc = APIOperation(id: "getContactLog", summary: "Read one contact log", success: .json("ContactLog"))

    @Sendable static func list(_ context: APIContext) throws -> Response {
        let from = try context.request.query["from"].map { text in
            guard let day = CalendarDate.strict(text) else { throw APIBadParameter(name: "from", expected: "a day like 2025-03-12") }
            return day
        }
        let page = try context.database.visitLists(assignee: try context.uuid("assigned_user_id"), from: from, page: try context.pageRequest())
        return APIResponse.ok(ListEnvelope(page) { listBody($0.list, progress: $0.progress) })
    }

    @Sendable static func stops(_ context: APIContext) throws -> Response {
        let sheet = try context.database.visitSheet(id: try context.id(), seen: try ParticipantResource.visibility(context))
        return APIResponse.ok(ListEnvelope(all: sheet.stops.map { StopBody($0) }, page: try context.pageRequest()))
    }

    @Sendable static func stop(_ context: APIContext) throws -> Response {
        APIResponse.ok(StopBody(try line(context)))
    }

    @Sendable static func addStop(_ context: APIContext) throws -> Response {
        let listId = try context.id()
        _ = try context.database.visitList(id: listId)
        let body = try context.body(stopWriteFields, mode: .full)
        let stop = try context.database.addStop(venue: body.text("venue_id"), participant: body.text("participant_id"), toList: listId,
                                                by: context.actor)
        let line = try context.database.visitSheet(id: listId, seen: try ParticipantResource.visibility(context)).stops.first { $0.stop.id == stop.id }
        return APIResponse.created(StopBody(try line.orThrow(DomainError.notFound(entity: "stop"))), at: APIPaths.visitStop(listId, stop.id))
    }

    struct StopsAdded: Encodable, Sendable {
        let added: Int
        let stopsTotal: Int
    }

    @Sendable static func addFilteredStops(_ context: APIContext) throws -> Response {
        let listId = try context.id()
        _ = try context.database.visitList(id: listId)
        let body = try context.body(filterWriteFields, mode: .full)
        let filter = StopFilterInput(source: body.text("source"), areaId: body.text("area_id"), venueType: body.text("venue_type"),
                                     activityId: body.text("activity_id"), notVisitedSince: body.text("not_visited_since"),
                                     followUpOnly: body.bool("follow_up_only") ?? false)
        let added = try context.database.addStops(matching: filter, toList: listId, by: context.actor)
        return APIResponse.ok(StopsAdded(added: added, stopsTotal: try context.database.visitSheet(id: listId, seen: .everything).stops.count))
    }

    @Sendable static func removeStop(_ context: APIContext) throws -> Response {
        try context.database.removeStop(try context.id("stopId"), fromList: try context.id(), by: context.actor)
        return APIResponse.noContent
    }

    @Sendable static func logs(_ context: APIContext) throws -> Response {
        APIResponse.ok(ListEnvelope(all: try line(context).logs.map(LogBody.init), page: try context.pageRequest()))
    }

    @Sendable static func log(_ context: APIContext) throws -> Response {
        let found = try line(context).logs.first { $0.id == (try? context.id("logId")) }
        return APIResponse.ok(LogBody(try found.orThrow(DomainError.notFound(entity: "contact log"))))
    }

    @Sendable static func addLog(_ context: APIContext) throws -> Response {
        let (listId, stopId) = (try context.id(), try context.id("stopId"))
        _ = try line(context)
        let body = try context.body(logWriteFields, mode: .full)
        let coordinates = body.object("coordinates")
        let input = ContactLogInput(result: body.text("result"), note: body.text("note"),
                                    latitude: coordinates?.number("latitude").map { "\($0)" } ?? "",
                                    longitude: coordinates?.number("longitude").map { "\($0)" } ?? "",
                                    accuracy: coordinates?.number("accuracy_m").map { "\($0)" } ?? "", id: body.text("id"),
                                    loggedAt: body.text("logged_at"))
        let user = try context.database.user(id: try (context.caller?.user.id).orThrow(DomainError.notFound(entity: "user")))
        let log: ContactLog
        do {
            log = try context.database.logContact(input, atStop: stopId, onList: listId, by: user)
        } catch let error as ValidationError {
            throw error.renamingFields(["latitude": "coordinates.latitude", "longitude": "coordinates.longitude", "accuracy_m": "coordinates.accuracy_m",
                                        "log_id": "id"])
        }
        return APIResponse.created(LogBody(log), at: APIPaths.contactLog(listId, stopId, log.id))
    }

    /// The addressed stop, which must be on the addressed list.
    private static func line(_ context: APIContext) throws -> StopLine {
        let sheet = try context.database.visitSheet(id: try context.id(), seen: try ParticipantResource.visibility(context))
        let stopId = try context.id("stopId")
        return try sheet.stops.first { $0.stop.id == stopId }.orThrow(DomainError.notFound(entity: "stop"))
    }

    private static func listInput(_ body: APIBody, keep: VisitList?) -> VisitListInput {
        VisitListInput(listShape.texts(body, keep: keep))
    }
}

extension Optional {
    /// The value, or `error` thrown when there is none.
    func orThrow(_ error: @autoclosure () -> some Error) throws -> Wrapped {
        guard let self else { throw error() }
        return self
    }
}
