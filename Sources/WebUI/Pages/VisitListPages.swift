import Domain
import Foundation
import HTTPServer
import Records
import Storage
import Surface
import Translations

/// Visit lists (issue 12): editors make them from a filter or by picking, and assign them; everyone signed in sees
/// them, their progress, a printable copy and the results as CSV.
enum VisitListPages: RecordPages {
    /// The filter's activity: a search, since a community may hold more activities than one page should list.
    static let activityPicker = SearchPicker(field: "activity_id", legend: Message("Participants of an activity"), multiple: false,
                                             noneLabel: Message("Any activity"), searchField: "activity_search",
                                             searchLabel: Message("Search activities by name"), findButton: "find_activities",
                                             buttonLabel: Message("Find activities"))

    static func list(_ context: inout PageContext) throws -> Response {
        let page = try context.database.visitLists(page: LenientListReader(context.request).page())
        let organizers = try context.database.organizerProgress().map { organizer -> TemplateView in
            (["name": organizer.name, "lists": organizer.lists] as TemplateView).merging(progressView(organizer.progress))
        }
        return context.listPage("visits/list", title: Message("Visit lists"), section: .visitLists, filters: FormView(), page: page,
                                noun: .visitLists, filtered: false,
                                extra: ["organizers": organizers, "has_organizers": !organizers.isEmpty], row: { TemplateFields(summaryView($0)) })
    }

    static func detail(_ context: inout PageContext) throws -> Response {
        try detailPage(&context, search: "", chosen: [], errors: ValidationError())
    }

    /// The list with its stops and, for editors, the venue picker that adds stops after the list was made.
    private static func detailPage(_ context: inout PageContext, search: String, chosen: [String], errors: ValidationError,
                                   status: HTTPStatus = .ok) throws -> Response {
        let sheet = try context.database.visitSheet(id: context.request.uuidParameter(), seen: try context.participantVisibility)
        let user = try context.signedInUser
        var view = sheetView(sheet).merging(FormView(errors: errors).view)
        view["may_log"] = VisitWalkPages.mayLog(user, on: sheet.list)
        if user.role.canEditRecords {
            view["add_stops_path"] = Paths.visitListStops(sheet.list.id)
            view["stop_picker"] = stopPicker.view(
                search: search, chosen: VenueChoices.chosen(context.database, chosen.compactMap(UUID.init(uuidString:))),
                matches: try VenueChoices.matches(context.database, search), error: errors.message(for: stopPicker.field))
        }
        return context.page("visits/detail", title: sheet.list.name, section: .visitLists, view: view, status: status,
                            hasErrors: !errors.isEmpty)
    }

    static let stopPicker = SearchPicker(field: "venue_id", legend: Message("Venues to add"), multiple: true, noneLabel: nil, searchField: "venue_search",
                                         searchLabel: Message("Search venues by name or address, then tick each one to add"),
                                         findButton: "find_venues", buttonLabel: Message("Find venues"))

    /// POST /visit-lists/{id}/stops: the ticked venues become stops (a household left out when the list was made), all
    /// or none, or, with the find button, the page again with the venues found.
    static func addStops(_ context: inout PageContext) throws -> Response {
        let request = context.request
        let (listId, chosen, search) = (try request.uuidParameter(), request.form.all(stopPicker.field), request.field(stopPicker.searchField))
        if request.form[stopPicker.findButton] != nil { return try detailPage(&context, search: search, chosen: chosen, errors: ValidationError()) }
        do {
            guard !chosen.isEmpty else {
                throw ValidationError([FieldError(field: stopPicker.field, message: Message("Find the venues by name or address, then tick each one to add").english)])
            }
            try context.database.addStops(venues: chosen, toList: listId, by: context.actor)
        } catch let errors as ValidationError {
            return try detailPage(&context, search: search, chosen: chosen, errors: errors, status: PublicError(errors).status)
        }
        return context.redirect(to: Paths.visitLists.record(listId), flash: Message("{count} stop added.", plural: "{count} stops added.", count: chosen.count))
    }

    /// POST /visit-lists/{id}/stops/{stopId}/remove: a stop nothing was logged at leaves the list; one with logs stays,
    /// since logs are never lost, and the page says so (409).
    static func removeStop(_ context: inout PageContext) throws -> Response {
        let (listId, stopId) = (try context.request.uuidParameter(), try context.request.uuidParameter("stopId"))
        do {
            try context.database.removeStop(stopId, fromList: listId, by: context.actor)
        } catch DomainError.stillReferenced(let message, _) {
            return try detailPage(&context, search: "", chosen: [], errors: ValidationError([FieldError(field: "stops", message: message)]),
                                  status: .conflict)
        }
        return context.redirect(to: Paths.visitLists.record(listId), flash: Message("Stop removed."))
    }

    /// The list on paper, for organizers without a tablet: every stop with boxes to tick and room for notes.
    static func printable(_ context: inout PageContext) throws -> Response {
        let sheet = try context.database.visitSheet(id: context.request.uuidParameter(), seen: try context.participantVisibility)
        var view = sheetView(sheet)
        view["results"] = ContactResult.allCases.map(\.message)
        return context.page("visits/print", title: Message("Print: {name}", ["name": .text(sheet.list.name)]), section: .visitLists, view: view)
    }

    /// Every stop with every log (a stop not yet visited is one row with an empty result), as CSV.
    static func results(_ context: inout PageContext) throws -> Response {
        let sheet = try context.database.visitSheet(id: context.request.uuidParameter(), seen: try context.participantVisibility)
        let authors = Dictionary(try context.database.users().map { ($0.id, $0.name) }) { first, _ in first }
        let csv = VisitResultsCSV.text(sheet, authors: authors)
        let file = sheet.list.visitDate.description + "-" + sheet.list.name.filter { $0.isLetter || $0.isNumber }.prefix(40) + ".csv"
        return Response(status: .ok, headers: [("Content-Type", "text/csv; charset=utf-8"),
                                                ("Content-Disposition", "attachment; filename=\"\(file)\"")], body: Array(csv.utf8))
    }

    static func newForm(_ context: inout PageContext) throws -> Response {
        let input = VisitListInput(name: "", visitDate: CalendarDate.today().description, assigneeId: "")
        return try form(&context, list: nil, values: input, filter: StopFilterInput(), picked: nil, errors: ValidationError())
    }

    /// The new form with the submitted values: the stops picked from, with the ones ticked, once they were shown.
    static func filledNewForm(_ context: inout PageContext) throws -> Response {
        try newFormAgain(&context, errors: ValidationError(), status: .ok)
    }

    /// Previews the filter's stops as checkboxes to pick from ("Show matching stops"), or creates the list: from the
    /// picked stops once they were shown, else from the filter.
    static func create(_ context: inout PageContext) throws -> Response {
        let request = context.request
        let (input, filter) = (submitted(request), submittedFilter(request))
        let picking = request.field("picking") == "1"
        if request.form[activityPicker.findButton] != nil { return try newFormAgain(&context, errors: ValidationError(), status: .ok) }
        if request.form["preview"] != nil {
            do {
                let targets = try context.database.stopTargets(matching: try filter.validated())
                return try form(&context, list: nil, values: input, filter: filter, picked: (targets, Set(targets)), errors: ValidationError())
            } catch let errors as ValidationError {
                return try form(&context, list: nil, values: input, filter: filter, picked: nil, errors: errors, status: .unprocessableContent)
            }
        }
        let selection: StopSelection = picking ? .picked(request.form.all("stop")) : .filter(filter)
        do {
            let list = try context.database.createVisitList(input, stops: selection, by: context.actor)
            let count = try context.database.visitSheet(id: list.id, seen: .everything).stops.count
            return context.redirect(to: Paths.visitLists.record(list.id), flash: Message("Visit list “{name}” created with {count} stop.", plural: "Visit list “{name}” created with {count} stops.",
                                                                                    count: count, ["name": .text(list.name)]))
        } catch let errors as ValidationError {
            return try newFormAgain(&context, errors: errors, status: .unprocessableContent)
        }
    }

    /// The new form with the submitted values and these errors.
    private static func newFormAgain(_ context: inout PageContext, errors: ValidationError, status: HTTPStatus) throws -> Response {
        let request = context.request
        let filter = submittedFilter(request)
        let shown = request.field("picking") == "1" ? try pickedAgain(context, filter: filter) : nil
        return try form(&context, list: nil, values: submitted(request), filter: filter, picked: shown, errors: errors, status: status)
    }

    static func editForm(_ context: inout PageContext) throws -> Response {
        let list = try context.database.visitList(id: context.request.uuidParameter())
        return try form(&context, list: list, values: VisitListInput(FieldTexts(VisitList.declaration, record: list)), filter: nil, picked: nil,
                        errors: ValidationError())
    }

    /// The edit form with the submitted values, at the version they were typed on.
    static func filledEditForm(_ context: inout PageContext) throws -> Response {
        let list = try context.database.visitList(id: context.request.uuidParameter())
        return try form(&context, list: list.at(Int(context.request.field("version"))), values: submitted(context.request), filter: nil,
                        picked: nil, errors: ValidationError())
    }

    static func update(_ context: inout PageContext) throws -> Response {
        let list = try context.database.visitList(id: context.request.uuidParameter())
        let input = submitted(context.request)
        let edited = list.at(Int(context.request.field("version")))
        do {
            let saved = try context.database.updateVisitList(id: list.id, input, expectedVersion: Int(context.request.field("version")), by: context.actor)
            return context.redirect(to: Paths.visitLists.record(saved.id), flash: Message("Visit list “{name}” saved.", ["name": .text(saved.name)]))
        } catch let errors as ValidationError {
            return try form(&context, list: edited, values: input, filter: nil, picked: nil, errors: errors, status: .unprocessableContent)
        } catch DomainError.staleVersion {
            // The list as read for this request is the current one, which the typed values were not based on.
            return try form(&context, list: list, values: input, filter: nil, picked: nil,
                            errors: ValidationError.staleEdit(of: "visit list"), status: .conflict)
        }
    }

    static func deleteConfirmation(_ context: inout PageContext) throws -> Response {
        try deletePage(&context, sheet: try context.database.visitSheet(id: context.request.uuidParameter(), seen: try context.participantVisibility),
                       refusal: nil, status: .ok)
    }

    static func delete(_ context: inout PageContext) throws -> Response {
        let sheet = try context.database.visitSheet(id: context.request.uuidParameter(), seen: try context.participantVisibility)
        do {
            try context.database.deleteVisitList(id: sheet.list.id, by: context.actor)
            return context.redirect(to: Paths.visitLists.list(), flash: Message("Visit list “{name}” deleted.", ["name": .text(sheet.list.name)]))
        } catch DomainError.stillReferenced(let message, _) {
            return try deletePage(&context, sheet: sheet, refusal: message, status: .conflict)
        }
    }

    private static func deletePage(_ context: inout PageContext, sheet: VisitSheet, refusal: String?, status: HTTPStatus) throws -> Response {
        let logged = sheet.progress.logs
        var view = sheetView(sheet)
        let name: [String: MessageArgument] = ["name": .text(sheet.list.name)]
        // A refusal on a list read with no logs means they arrived in between: the writer's English words then.
        if logged > 0 {
            view["refusal"] = VisitList.deletionRefusal(name: sheet.list.name, logged: logged)
        } else if let refusal {
            view["refusal"] = Message(domainText: refusal)
        } else if !sheet.list.allowsDeleting {
            view["refusal"] = VisitList.listStaysOnceStarted
        } else {
            view["can_delete"] = true
        }
        let title = view["can_delete"] == nil ? Message("“{name}” cannot be deleted", name) : Message("Delete visit list “{name}”", name)
        return context.page("visits/delete", title: title, section: .visitLists, view: view, status: status)
    }

    // MARK: - Form

    private static func submitted(_ request: Request) -> VisitListInput {
        var input = VisitListInput(FieldTexts(VisitList.declaration, request.field))
        // A new list's form asks no status: the list starts planned.
        if request.form["status"] == nil { input.status = VisitStatus.planned.rawValue }
        return input
    }

    private static func submittedFilter(_ request: Request) -> StopFilterInput {
        StopFilterInput(source: request.field("source"), areaId: request.field("area_id"), venueType: request.field("venue_type"),
                        activityId: request.field("activity_id"), notVisitedSince: request.field("not_visited_since"),
                        followUpOnly: request.field("follow_up_only") == "yes")
    }

    /// The stops shown for picking, with the ones the person had ticked, after a refusal.
    private static func pickedAgain(_ context: PageContext, filter: StopFilterInput) throws -> ([StopTarget], Set<StopTarget>)? {
        let ticked = Set(context.request.form.all("stop").compactMap(StopTarget.init(token:)))
        let shown = (try? filter.validated()).map { try? context.database.stopTargets(matching: $0) } ?? nil
        return ((shown ?? []) + ticked.filter { !(shown ?? []).contains($0) }.sorted(), ticked)
    }

    private static func form(_ context: inout PageContext, list: VisitList?, values: VisitListInput, filter: StopFilterInput?,
                             picked: ([StopTarget], Set<StopTarget>)?, errors: ValidationError,
                             status: HTTPStatus = .ok) throws -> Response {
        var form = FormView(errors: errors)
        form.input("name", label: Message("Name"), value: values.name)
        form.input("visit_date", label: Message("Day of the visits"), value: values.visitDate, type: "date")
        form.input("purpose", label: Message("Purpose (optional)"), value: values.purpose, hint: Message("Why these visits, in a sentence"))
        form.input("script", label: Message("Notes or script (optional)"), value: values.script,
                   hint: Message("What the organizer says or asks at each door"))
        let organizers = try context.database.organizers()
        form.select("assigned_user_id", label: Message("Organizer"), value: values.assigneeId,
                    options: [("", Message("Choose…"))] + organizers.map { ($0.id.lowercasedString, .verbatim($0.name)) },
                    hint: Message("Editors and administrators can be given lists; they log the visits"))
        form.select("status", label: Message("Status"), value: values.status, options: VisitStatus.allCases.map { ($0.rawValue, $0.message) })
        if let filter { try addFilterFields(&form, filter, context.database) }
        var view = form.view
        if let filter {
            let search = context.request.field(activityPicker.searchField)
            view["activity_picker"] = activityPicker.view(
                search: search, chosen: ActivityChoices.chosen(context.database, UUID(uuidString: filter.activityId).map { [$0] } ?? []),
                matches: try ActivityChoices.matches(context.database, search), error: errors.message(for: activityPicker.field))
        }
        view["is_new"] = list == nil
        let heading = list.map { Message("Edit “{name}”", ["name": .text($0.name)]) } ?? Message("New visit list")
        view["heading"] = heading
        view["action"] = list.map { Paths.visitLists.edit($0.id) } ?? Paths.visitLists.new()
        view["back"] = list.map { Paths.visitLists.record($0.id) } ?? context.web.listViews.address(of: .visitLists, for: context.user?.id)
        if let list { view["version"] = list.version }
        if let filter { view["follow_up_only"] = filter.followUpOnly }
        if let (shown, ticked) = picked { view["picker"] = try pickerView(context.database, shown, ticked, error: errors.message(for: "stops")) }
        return context.page("visits/form", title: heading, section: .visitLists, view: view,
                            status: status, hasErrors: form.hasErrors)
    }

    private static func addFilterFields(_ form: inout FormView, _ filter: StopFilterInput, _ database: AppDatabase) throws {
        form.select("source", label: Message("Who or what to visit"), value: filter.source,
                    options: StopSource.allCases.map { ($0.rawValue, $0.message) })
        form.select("area_id", label: Message("Area (and the areas inside it)"), value: filter.areaId,
                    options: [("", Message("Any area"))] + (try database.areaTree()).map { ($0.area.id.lowercasedString, .verbatim(AreaPages.indented($0))) })
        form.select("venue_type", label: Message("Kind of venue"), value: filter.venueType,
                    options: [("", Message("Any kind"))] + VenueType.allCases.map { ($0.rawValue, Message(domainText: $0.label)) })
        form.input("not_visited_since", label: Message("Not visited since (optional)"), value: filter.notVisitedSince, type: "date",
                   hint: Message("Leave out anyone with a visit logged on or after this day"))
    }

    private static func pickerView(_ database: AppDatabase, _ shown: [StopTarget], _ ticked: Set<StopTarget>, error: String?) throws -> TemplateView {
        let names = try database.stopTargetNames(shown)
        var view: TemplateView = [
            "options": shown.enumerated().map { index, target -> TemplateView in
                ["id": "stop-\(index)", "value": target.token, "label": names[target] ?? target.token, "checked": ticked.contains(target)]
            },
            "count": shown.count, "has_options": !shown.isEmpty,
        ]
        if let error { view["error"] = Message(domainText: error) }
        return view
    }

    // MARK: - Views

    static func summaryView(_ summary: VisitListSummary) -> TemplateView {
        listView(summary.list).merging(["organizer": summary.assigneeName]).merging(progressView(summary.progress))
    }

    static func listView(_ list: VisitList) -> TemplateView {
        var view: TemplateView = [
            "name": list.name, "date": list.visitDate.display, "date_iso": list.visitDate.description, "purpose": list.purpose,
            "script": list.script, "status": list.status.message, "walk_path": Paths.walkVisitList(list.id),
            "print_path": Paths.printVisitList(list.id), "results_path": Paths.visitResults(list.id),
            "map_path": Paths.map.filtered(by: .visitListId, list.id.lowercasedString),
            "offline_path": Paths.offlineVisitList(list.id),
        ]
        view.merge(Paths.visitLists.links(list.id))
        return view
    }

    static func progressView(_ progress: VisitProgress) -> TemplateView {
        let breakdown = ContactResult.allCases.compactMap { result -> TemplateView? in
            progress.byResult[result].map { ["label": result.message, "count": $0] }
        }
        return [
            "progress_text": Message("{visited} of {total} visited", ["visited": .number(progress.visited), "total": .number(progress.total)]), "visited": progress.visited, "total": progress.total,
            "percent": progress.percent, "log_count": progress.logs, "breakdown": breakdown, "has_breakdown": !breakdown.isEmpty,
        ]
    }

    static func sheetView(_ sheet: VisitSheet) -> TemplateView {
        [
            "list": listView(sheet.list).merging(["organizer": sheet.assigneeName]),
            "progress": progressView(sheet.progress), "has_stops": !sheet.stops.isEmpty, "stops_stay": !sheet.list.allowsRemovingStops,
            "stops": sheet.stops.map { line in
                VisitWalkPages.stopView(line, listId: sheet.list.id, distance: nil)
                    .merging(["has_logs": !line.logs.isEmpty, "remove_path": Paths.removeVisitStop(sheet.list.id, line.stop.id)])
            },
        ]
    }
}
