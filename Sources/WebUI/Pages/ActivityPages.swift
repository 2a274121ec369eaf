import Domain
import Foundation
import HTTPServer
import Records
import Storage
import Surface
import Translations

/// Activities (Requirement 5): filtered list, detail with venues, history and assignments, forms, completion.
enum ActivityPages: FormRecordPages {
    static let picker = SearchPicker(field: "venue_ids", legend: Message("Venues"), multiple: true, noneLabel: nil, searchField: "venue_search",
                                     searchLabel: Message("Search venues by name or address to add one"), findButton: "find_venues",
                                     buttonLabel: Message("Find venues"))

    static func list(_ context: inout PageContext) throws -> Response {
        let request = context.request
        let query = try ActivityQuery(reading: LenientListReader(request))
        let page = try context.database.activityRows(query)
        var filters = FormView()
        filters.input(ListParameter.text.name, label: Message("Name contains"), value: query.text)
        filters.select(ListParameter.activityTypeId.name, label: Message("Type"), value: query.typeId?.lowercasedString ?? "",
                       options: [("", Message("Any type"))] + (try context.database.categories(.activityType)).map { ($0.id.lowercasedString, .verbatim($0.name)) })
        filters.select(ListParameter.status.name, label: Message("Status"), value: query.status?.rawValue ?? "",
                       options: [("", Message("Any status"))] + ActivityStatus.allCases.map { ($0.rawValue, $0.message) })
        filters.select(ListParameter.areaId.name, label: Message("Area (and the areas inside it)"), value: query.areaId?.lowercasedString ?? "",
                       options: [("", Message("Any area"))] + (try context.database.areaTree()).map { ($0.area.id.lowercasedString, AreaPages.indentedOption($0)) })
        filters.input(ListParameter.from.name, label: Message("Running on or after"), value: query.from?.description ?? "", type: "date")
        filters.input(ListParameter.to.name, label: Message("Started on or before"), value: query.to?.description ?? "", type: "date")
        filters.select(ListParameter.sort.name, label: Message("Sort by"), value: query.sort.rawValue,
                       options: [("start", Message("Start date")), ("name", Message("Name")), ("type", Message("Type"))])
        filters.select(ListParameter.order.name, label: Message("Order"), value: query.descending ? "desc" : "asc",
                       options: [("desc", Message("Descending (newest first)")), ("asc", Message("Ascending (oldest first)"))])
        return context.listPage("activities/list", title: Message("Activities"), section: .activities, filters: filters, page: page,
                                noun: .activities,
                                filtered: !query.text.isEmpty || query.typeId != nil || query.status != nil || query.areaId != nil
                                    || query.venueId != nil || query.from != nil || query.to != nil,
                                extra: venueFilterView(query, context), downloads: Paths.activities) { item in
            rowView(item)
        }
    }

    static func detail(_ context: inout PageContext) throws -> Response {
        let activity = try context.database.activity(id: context.request.uuidParameter())
        let type = try context.database.category(.activityType, id: activity.typeId)
        let history = try context.database.venueHistory(ofActivity: activity.id)
        let assignments = try context.database.assignments(ofActivity: activity.id)
        let current = history.filter { $0.effectiveTo == nil }
        var view: TemplateView = [
            "activity": activityView(activity), "type": type.name,
            "current_venues": current.map { ["name": $0.venueName, "path": Paths.venues.record($0.venueId)] },
            "has_current_venues": !current.isEmpty,
            "history": history.map { period -> TemplateView in
                ["venue": period.venueName, "path": Paths.venues.record(period.venueId), "from": period.effectiveFrom.display,
                 "to": period.effectiveTo.map { Message.verbatim($0.display) } ?? Message("now", context: "the end of a period still running")]
            },
            "has_history": !history.isEmpty,
            "assignments": assignments.map { assignment -> TemplateView in
                ["participant": assignment.participantName, "role": assignment.roleName, "assigned": DateText.format(assignment.assignedAt),
                 "participant_path": Paths.participants.record(assignment.participantId),
                 "remove_path": Paths.deleteAssignment(activity.id, assignment.id), "id": assignment.id.lowercasedString]
            },
            "has_assignments": !assignments.isEmpty,
            "can_complete": activity.status != .completed && activity.startDate < .today(),
        ]
        view.merge(try ReferringRecordsView.view(context.database, about: Activity.kind, id: activity.id))
        view.merge(try HistoryView.view(context.database, Activity.kind, id: activity.id, updatedAt: activity.updatedAt))
        view.merge(try PhotoGallery.view(context.database, .activity(activity.id)))
        view["archive"] = ExportPages.archiveLinks(Paths.activityExport(activity.id))
            .merging(["text": Message("This activity with its venues, its assignments and the participants assigned")])
        return context.page("activities/detail", title: activity.name, section: .activities, view: view)
    }

    static let forms = RecordForm<Activity>(routes: Paths.activities, noun: "Activity")

    static func submitted(_ request: Request) -> FormSubmission<Activity, ActivityInput> {
        FormSubmission(request, Activity.declaration, findButton: picker.findButton) {
            ActivityInput($0, duration: request.field("duration"), venueIds: request.form.all(picker.field), venuesFrom: request.field("venues_from"))
        }
    }

    static func insert(_ input: ActivityInput, _ context: PageContext) throws -> Activity { try context.database.createActivity(input, by: context.actor) }

    static func change(_ activity: Activity, _ input: ActivityInput, expectedVersion: Int?, _ context: PageContext) throws -> Activity {
        try context.database.updateActivity(id: activity.id, input, expectedVersion: expectedVersion, by: context.actor)
    }

    static func remove(_ activity: Activity, _ context: PageContext) throws { try context.database.deleteActivity(id: activity.id, by: context.actor) }

    /// `POST /activities/{id}/completion`: marks the activity complete.
    static func complete(_ context: inout PageContext) throws -> Response {
        let activity = try context.database.completeActivity(id: context.request.uuidParameter(), by: context.actor)
        return context.redirect(to: Paths.activities.record(activity.id),
                                flash: "“\(activity.name)” marked complete (ended \(activity.endDate?.display ?? "today")).")
    }

    /// Nothing refuses deleting an activity: its assignments and venue records go with it, which the page says.
    static func deletePage(_ context: inout PageContext, record activity: Activity, status: HTTPStatus) throws -> Response {
        let assignments = try context.database.assignments(ofActivity: activity.id).count
        let periods = try context.database.venueHistory(ofActivity: activity.id).count
        return context.page("activities/delete", title: Message("Delete “{name}”", ["name": .text(activity.name)]), section: .activities, view: [
            "activity": activityView(activity),
            "consequence": Message("Its {assignments} and {venue_records} are deleted with it.", [
                "assignments": .message(Message("{count} assignment", plural: "{count} assignments", count: assignments)),
                "venue_records": .message(Message("{count} venue record", plural: "{count} venue records", count: periods)),
            ]),
        ], status: status)
    }

    private static let fields: [FormField<Activity>] = [
        FormField(\.name),
        FormField(\.description, hint: Message("Up to {max} characters", ["max": .digits(ActivityInput.Rules.description.maxLength ?? 0)])),
        FormField(\.startDate, type: "date", hint: Message("Can be in the past, for an activity already under way")),
        FormField(\.endDate, label: Message("End date (finite activities only)"), type: "date", hint: Message("Must be after the start date")),
    ]

    /// A new activity starts today, planned, finite; a stored one shows the venues it is held at now; a submission
    /// keeps the picker's search.
    static func form(_ context: inout PageContext, record activity: Activity?, _ values: FormValues<Activity, ActivityInput>,
                     errors: ValidationError, status: HTTPStatus) throws -> Response {
        let declaration = Activity.declaration
        let starting = [declaration.column(\.startDate): CalendarDate.today().description, declaration.column(\.status): ActivityStatus.planned.rawValue]
        let texts = values.texts(declaration) { starting[$0] ?? "" }
        let (input, search): (ActivityInput, String) = switch values {
        case .blank: (ActivityInput(texts, duration: "finite", venueIds: []), "")
        case .stored(let stored):
            (ActivityInput(texts, duration: stored.isOngoing ? "ongoing" : "finite",
                           venueIds: try context.database.venueHistory(ofActivity: stored.id).filter { $0.effectiveTo == nil }.map(\.venueId.lowercasedString)), "")
        case .submitted(let submission): (submission.input, context.request.field(picker.searchField))
        }
        return try form(&context, activity: activity, texts: texts, values: input, search: search, errors: errors, status: status)
    }

    /// `texts`: what was typed for the activity's own fields; `values`: the input they make with the form's own fields.
    private static func form(_ context: inout PageContext, activity: Activity?, texts: FieldTexts<Activity>, values: ActivityInput, search: String,
                             errors: ValidationError, status: HTTPStatus) throws -> Response {
        var form = FormView(errors: errors)
        form.anchors["duration"] = "duration-finite"
        form.inputs(fields, of: Activity.declaration, typed: texts)
        form.select(FormField(\.typeId), of: Activity.declaration, typed: texts,
                    options: [("", Message("Choose…"))] + (try context.database.categories(.activityType)).map { ($0.id.lowercasedString, .verbatim($0.name)) })
        form.select(FormField(\.status), of: Activity.declaration, typed: texts, options: ActivityStatus.allCases.map { ($0.rawValue, $0.message) })
        form.input("venues_from", label: Message("Venue changes apply from"), value: values.venuesFrom, type: "date",
                   hint: Message("Leave empty: a new activity's venues apply from its start date, later changes from today"))
        var view = form.view
        view["duration_finite"] = values.duration == "finite"
        view["duration_ongoing"] = values.duration == "ongoing"
        if let message = errors.text(for: "duration") { view["duration_error"] = message }
        let chosen = values.venueIds.compactMap(UUID.init(uuidString:))
        view["picker"] = picker.view(search: search, chosen: VenueChoices.chosen(context.database, chosen),
                                     matches: try VenueChoices.matches(context.database, search), error: errors.text(for: picker.field))
        let heading = activity.map { Message("Edit “{name}”", ["name": .text($0.name)]) } ?? Message("New activity")
        view["heading"] = heading
        view["action"] = activity.map { Paths.activities.edit($0.id) } ?? Paths.activities.new()
        view["back"] = activity.map { Paths.activities.record($0.id) } ?? context.web.listViews.address(of: .activities, for: context.user?.id)
        if let activity { view["version"] = activity.version }
        return context.page("activities/form", title: heading, section: .activities, view: view,
                            status: status, hasErrors: form.hasErrors)
    }

    /// A venue's "activities held here" link narrows the list to that venue: said above the list, with a way back to
    /// all venues, and kept by the filter form.
    private static func venueFilterView(_ query: ActivityQuery, _ context: PageContext) -> TemplateView {
        guard let id = query.venueId, let venue = try? context.database.venue(id: id) else { return [:] }
        return ["venue_filter": ["id": id.lowercasedString, "name": venue.name, "path": Paths.venues.record(id),
                                 "without": context.request.link(setting: ListParameter.venueId.name, to: nil)]]
    }

    /// What one row of the list shows: none of the record page's links and dates.
    private static func rowView(_ item: ActivityListRow) -> TemplateFields {
        let idText = item.id.lowercaseText
        return TemplateFields { name in
            switch name {
            case "name": .text(item.name)
            case "dates": .text(Activity.dateText(start: item.startDate, end: item.endDate))
            case "ongoing": .flag(item.endDate == nil)
            case "status": .message(item.status.message)
            case "type": .text(item.typeName)
            case "venues": .text(item.venueNames.joined(separator: ", "))
            default: Paths.activities.link(name, idText: idText).map(TemplateValue.text)
            }
        }
    }

    static func activityView(_ activity: Activity) -> TemplateView {
        var view: TemplateView = [
            "name": activity.name, "dates": activity.dateText,
            "completion_path": Paths.activityCompletion(activity.id), "assignments_path": Paths.assignments(activity.id),
            "new_assignment_path": Paths.newAssignment(activity.id), "copy_assignments_path": Paths.copyAssignments(activity.id),
            "remove_assignments_path": Paths.removeAssignments(activity.id),
            "ongoing": activity.isOngoing, "status": activity.status.message, "start": activity.startDate.display,
            "created": DateText.format(activity.createdAt), "updated": DateText.format(activity.updatedAt),
        ]
        view.merge(Paths.activities.links(activity.id))
        if let description = activity.description { view["description"] = description }
        return view
    }
}
