import Domain
import Foundation
import HTTPServer
import Storage
import Surface
import Translations

/// Walking a visit list (issue 12): "My visits", the stops in walking order with their distance, and one stop per
/// screen where a visit is logged with one tap on its result (plus an optional note).
enum VisitWalkPages {
    /// The signed-in organizer's lists for today and the coming days.
    static func myVisits(_ context: inout PageContext) throws -> Response {
        let user = try context.signedInUser
        let page = try context.database.visitLists(assignee: user.id, from: CalendarDate.today(),
                                                   page: LenientListReader(context.request).page())
        return context.listPage("visits/mine", title: Message("My visits"), section: .myVisits, filters: FormView(), page: page,
                                noun: .visitLists, filtered: false, row: { TemplateFields(VisitListPages.summaryView($0)) })
    }

    static func walk(_ context: inout PageContext) throws -> Response {
        let sheet = try context.database.visitSheet(id: context.request.uuidParameter(), seen: try context.participantVisibility)
        let plan = try WalkPlan(context.request, sheet: sheet, database: context.database)
        let user = try context.signedInUser
        var form = FormView(errors: plan.errors)
        form.select("sort", label: Message("Order"), value: plan.sort.rawValue, options: WalkPlan.Sort.allCases.map { ($0.rawValue, $0.label) })
        form.select("from", label: Message("Starting venue"), value: plan.startVenue?.lowercasedString ?? "",
                    options: [("", plan.here == nil ? Message("Choose…") : Message("My location"))]
                        + (try plan.startChoices(context.database)).map { ($0.value, .verbatim($0.label)) },
                    hint: Message("Distances are measured from here, in a straight line"))
        let next = plan.ordered.first { !$0.isVisited }
        if next != nil { form.input("note", label: Message("Note (optional)"), value: "") }
        var view = form.view
        view["list"] = VisitListPages.listView(sheet.list).merging(["organizer": sheet.assigneeName])
        view["order_label"] = plan.sort.label
        // The first stop not yet visited, with its result buttons, so a phone's first screen logs the next door.
        view["next"] = next.map { line in
            stopView(line, listId: sheet.list.id, distance: plan.distance(to: line), query: plan.query)
                .merging(logFormView(listId: sheet.list.id, stopId: line.stop.id, plan: plan))
        }
        view["short_note"] = true
        view["location_texts"] = locationTexts.json(context.translator)
        view["progress"] = VisitListPages.progressView(sheet.progress)
        view["origin"] = plan.originLabel
        view["here"] = plan.here.map { ["latitude": $0.latitude, "longitude": $0.longitude] }
        view["has_stops"] = !sheet.stops.isEmpty
        view["may_log"] = mayLog(user, on: sheet.list)
        view["stops"] = plan.ordered.enumerated().map { index, line in
            stopView(line, listId: sheet.list.id, distance: plan.distance(to: line), query: plan.query)
                .merging(["position": index + 1])
        }
        return context.page("visits/walk", title: Message("Walk: {name}", ["name": .text(sheet.list.name)]), section: .myVisits, view: view, hasErrors: form.hasErrors)
    }

    static func stop(_ context: inout PageContext) throws -> Response {
        try stopPage(&context, errors: ValidationError(), note: "")
    }

    /// One tap on a result logs the visit, then shows the next stop not yet visited in the same walking order.
    static func log(_ context: inout PageContext) throws -> Response {
        let request = context.request
        let (listId, stopId) = (try request.uuidParameter(), try request.uuidParameter("stopId"))
        let user = try context.signedInUser
        let input = ContactLogInput(result: request.field("result"), note: request.field("note"), latitude: request.field("latitude"),
                                    longitude: request.field("longitude"), accuracy: request.field("accuracy_m"), id: request.field("log_id"),
                                    loggedAt: request.field("logged_at"))
        let log: ContactLog
        do {
            log = try context.database.logContact(input, atStop: stopId, onList: listId, by: user)
        } catch let errors as ValidationError {
            // A log id that belongs to another visit clashes with the stored logs (409), as on the API.
            return try stopPage(&context, errors: errors, note: input.note, status: PublicError(errors).status)
        }
        if ScriptedForm.isScripted(request) { return ScriptedForm.logged(log) }
        let sheet = try context.database.visitSheet(id: listId, seen: try context.participantVisibility)
        let plan = try WalkPlan(request, sheet: sheet, database: context.database)
        let logged: [String: MessageArgument] = ["result": .message(log.result.message), 
                                                 "name": sheet.stops.first { $0.stop.id == stopId }.map { .text($0.name) } ?? .message(Message("the stop"))]
        guard let next = plan.ordered.first(where: { !$0.isVisited }) else {
            return context.redirect(to: plan.walkPath(listId), flash: Message("Logged “{result}” at {name}. Every stop on this list has been visited.", logged))
        }
        return context.redirect(to: plan.stopPath(listId, next.stop.id),
                                flash: Message("Logged “{result}” at {name}. Next: {next}.", logged.merging(["next": .text(next.name)]) { first, _ in first }))
    }

    /// "Follow-up needed": puts the stop's person or place on a later list.
    static func followUp(_ context: inout PageContext) throws -> Response {
        let request = context.request
        let (listId, stopId) = (try request.uuidParameter(), try request.uuidParameter("stopId"))
        guard let later = UUID.strict(request.field("later_list_id")) else {
            return try stopPage(&context, errors: .clash("later_list_id", Message("Choose the later list to put this stop on").english), note: "",
                                status: .unprocessableContent)
        }
        do {
            _ = try context.database.followUp(stop: stopId, onList: listId, onto: later, by: context.actor)
        } catch let errors as ValidationError {
            return try stopPage(&context, errors: errors, note: "", status: .unprocessableContent)
        }
        let laterList = try context.database.visitList(id: later)
        return context.redirect(to: Paths.visitStop(listId, stopId) + WalkPlan.queryString(request),
                                flash: Message("Added to “{name}” ({date}) for a follow-up.", ["name": .text(laterList.name), "date": .text(laterList.visitDate.display)]))
    }

    private static func stopPage(_ context: inout PageContext, errors: ValidationError, note: String,
                                 status: HTTPStatus = .ok) throws -> Response {
        let request = context.request
        let sheet = try context.database.visitSheet(id: try request.uuidParameter(), seen: try context.participantVisibility)
        let stopId = try request.uuidParameter("stopId")
        guard let line = sheet.stops.first(where: { $0.stop.id == stopId }) else { throw DomainError.notFound(entity: "stop") }
        let plan = try WalkPlan(request, sheet: sheet, database: context.database)
        let user = try context.signedInUser
        var form = FormView(errors: errors)
        form.input("note", label: Message("Note (optional)"), value: note, hint: Message("Anything to remember; needed with Other"))
        var view = form.view
        let authors = Dictionary(try context.database.users().map { ($0.id, $0.name) }) { first, _ in first }
        view["list"] = VisitListPages.listView(sheet.list)
        let stop = stopView(line, listId: sheet.list.id, distance: plan.distance(to: line), query: plan.query)
        view["stop"] = stop
        let photos = try context.database.photos(ofContactLogs: line.logs.map(\.id))
        view["logs"] = line.logs.reversed().map { log -> TemplateView in
            var item: TemplateView = ["result": log.result.message, "note": log.note, "when": DateText.format(log.loggedAt),
                                       "who": authors[log.loggedBy].map(Message.verbatim) ?? Message("another organizer")]
            if let location = log.location {
                let point = String(format: "%.5f, %.5f", location.coordinate.latitude, location.coordinate.longitude)
                item["location"] = location.accuracy.map {
                    Message("{point} (within {metres} m)", ["point": .text(point), "metres": .number(Int($0.rounded()))])
                } ?? Message.verbatim(point)
            }
            item["photos"] = PhotoGallery.section(photos[log.id] ?? [], .contactLog(log.id))
            return item
        }
        view["has_logs"] = !line.logs.isEmpty
        view["may_log"] = mayLog(user, on: sheet.list)
        view.merge(logFormView(listId: sheet.list.id, stopId: stopId, plan: plan))
        view["walk_path"] = plan.walkPath(sheet.list.id)
        view["location_texts"] = locationTexts.json(context.translator)
        view["follow_up_action"] = Paths.stopFollowUp(sheet.list.id, stopId) + plan.query
        let later = user.role.canEditRecords ? try context.database.laterVisitLists(than: sheet.list) : []
        view["later_lists"] = later.map { ["value": $0.id.lowercasedString, "label": "\($0.name) (\($0.visitDate.display))"] }
        view["has_later_lists"] = !later.isEmpty
        view["can_follow_up"] = user.role.canEditRecords
        view["later_error"] = errors.message(for: "later_list_id").map(Message.init(domainText:))
        return context.page("visits/stop", title: stop.text("name") ?? line.name, section: .myVisits, view: view, status: status, hasErrors: form.hasErrors)
    }

    /// The results a visit is logged with, `value` as the form sends it and `label`: the log form's buttons, and a list
    /// kept on a phone (whose service worker names the result of a visit it keeps).
    static func resultChoices(_ translator: Translator) -> [[String: String]] {
        ContactResult.allCases.map { ["value": $0.rawValue, "label": translator.text($0.message)] }
    }

    /// What the log form of a stop needs besides its note field. Each form carries a fresh id for its visit, so the same
    /// form sent twice (a double tap, a phone sending again what it kept) logs once.
    static func logFormView(listId: UUID, stopId: UUID, plan: WalkPlan) -> TemplateView {
        ["results": ContactResult.allCases.map { ["value": $0.rawValue, "label": $0.message] as TemplateView },
         "log_action": Paths.contactLogs(listId, stopId) + plan.query, "log_id": UUID().lowercasedString]
    }

    /// What app.js says while it finds the browser's location for the walking order or a logged visit.
    static let locationTexts = ScriptTexts([
        "finding": Message("Finding your location…"), "found": Message("Location found (within {metres} m)."),
        "unavailable": Message("Your location is not available ({reason}). Choose a starting venue instead."),
    ])

    /// A distance for people: "350 m", "1.2 km".
    static func distanceText(metres: Double) -> Message {
        let shown = WalkingOrder.rounded(metres: metres)
        return shown.inKilometres ? Message("{kilometres} km", ["kilometres": .text(shown.amount)]) : Message("{metres} m", ["metres": .text(shown.amount)])
    }

    /// The list's organizer logs its visits; administrators may too. Read-only users never do.
    static func mayLog(_ user: User, on list: VisitList) -> Bool {
        user.role.canEditRecords && (list.assigneeId == user.id || user.role.canAdminister)
    }

    /// The stop as its read model gives it: a hidden person's stop (`StopLine.hidesPerson`) links to no one and nowhere.
    static func stopView(_ line: StopLine, listId: UUID, distance: Double?, query: String = "") -> TemplateView {
        var view: TemplateView = [
            "id": line.stop.id.lowercasedString, "name": line.name, "venue_name": line.venueName, "address": line.address,
            "is_person": line.isPersonStop, "visited": line.isVisited, "log_count": line.logs.count,
            "last_result": line.lastResult?.message ?? Message("Not visited yet"), "path": Paths.visitStop(listId, line.stop.id) + query,
            "is_follow_up": line.stop.followUpOf != nil,
        ]
        if let participant = line.participantId { view["participant_path"] = Paths.participants.record(participant) }
        if let venue = line.venueId { view["venue_path"] = Paths.venues.record(venue) }
        if let distance { view["distance"] = distanceText(metres: distance) }
        return view
    }
}
