import Domain
import Foundation
import HTTPServer
import Storage
import Surface
import Translations

/// Assigning participants to an activity in a role (Requirement 6), and removing them.
enum AssignmentPages {
    static let picker = SearchPicker(field: "participant_id", legend: Message("Participants"), multiple: true, noneLabel: nil,
                                     searchField: "participant_search", searchLabel: Message("Search participants by name or email, then tick everyone to assign"),
                                     findButton: "find_participants", buttonLabel: Message("Find participants"))

    static func newForm(_ context: inout PageContext) throws -> Response {
        let activity = try context.database.activity(id: context.request.uuidParameter())
        return try form(&context, activity: activity, participants: [], role: "", search: "", errors: ValidationError())
    }

    /// `POST /activities/{id}/assignments`: assigns, or searches participants when the find button was used.
    static func create(_ context: inout PageContext) throws -> Response {
        let activity = try context.database.activity(id: context.request.uuidParameter())
        let request = context.request
        let (participants, role, search) = (request.form.all("participant_id"), request.field("role_id"), request.field("participant_search"))
        if request.form[picker.findButton] != nil || request.form["find_activities"] != nil {
            return try form(&context, activity: activity, participants: participants, role: role, search: search, errors: ValidationError())
        }
        do {
            let result = try context.database.assign(participants: participants, role: role, toActivity: activity.id, by: context.actor)
            let roleName = try context.database.categories(.participantRole).first { $0.id.lowercasedString == role.lowercased() }?.name ?? "the role"
            if result.assigned.isEmpty {
                let names = result.alreadyAssigned.joined(separator: ", ")
                throw ValidationError.clash("participant_id", "\(names) \(result.alreadyAssigned.count == 1 ? "is" : "are") already assigned to this activity as \(roleName); choose another role or participant")
            }
            return context.redirect(to: Paths.activities.record(activity.id), flash: summary(result, as: roleName, in: context.translator))
        } catch let errors as ValidationError {
            return try form(&context, activity: activity, participants: participants, role: role, search: search, errors: errors,
                            status: .unprocessableContent)
        }
    }

    /// `POST …/assignments/copy`: everyone assigned to another activity, each in their role there.
    static func copy(_ context: inout PageContext) throws -> Response {
        let activity = try context.database.activity(id: context.request.uuidParameter())
        guard let source = UUID(uuidString: context.request.field("from_activity_id")), source != activity.id else {
            throw HTTPError(.badRequest, "Choose another activity to add its participants from.")
        }
        let result = try context.database.assignEveryone(from: source, toActivity: activity.id, by: context.actor)
        return context.redirect(to: Paths.activities.record(activity.id), flash: summary(result, as: nil, in: context.translator))
    }

    /// `POST …/assignments/remove`: the chosen assignments listed for confirmation, then (with `confirmed`) removed.
    static func removeSeveral(_ context: inout PageContext) throws -> Response {
        let activity = try context.database.activity(id: context.request.uuidParameter())
        let chosen = try context.request.form.all("assignment_id").compactMap(UUID.init(uuidString:)).map { try context.database.assignment(id: $0) }
            .filter { $0.activityId == activity.id }
        guard !chosen.isEmpty else {
            return context.redirect(to: Paths.activities.record(activity.id), flash: Message("Nobody was removed: tick the people to remove first."))
        }
        if context.request.field("confirmed") == "yes" {
            try context.database.unassign(chosen.map(\.id), fromActivity: activity.id, by: context.actor)
            return context.redirect(to: Paths.activities.record(activity.id),
                                    flash: Message("{count} person is no longer assigned.", plural: "{count} people are no longer assigned.", count: chosen.count))
        }
        return context.page("assignments/remove", title: Message("Remove {count} from “{name}”", plural: "Remove {count} from “{name}”", count: chosen.count, ["name": .text(activity.name)]), section: .activities, view: [
            "activity": ActivityPages.activityView(activity), "count": chosen.count, "action": Paths.removeAssignments(activity.id),
            "chosen": chosen.map { ["id": $0.id.lowercasedString, "participant": $0.participantName, "role": $0.roleName] },
        ])
    }

    /// "Assigned 3 as Teacher: Ann, Ben and Chen. Already assigned, left as they were: Dana."
    /// In `translator`'s language: the flash is a run of whole sentences, each translated on its own.
    static func summary(_ result: BulkAssignment, as role: String?, in translator: Translator) -> String {
        var parts: [Message] = []
        if !result.assigned.isEmpty {
            let names: MessageArgument = .text(result.assigned.joined(separator: ", "))
            parts.append(role.map { role in
                Message("Assigned {count} as {role}: {names}.", plural: "Assigned {count} as {role}: {names}.", count: result.assigned.count,
                        ["role": .text(role), "names": names])
            } ?? Message("Assigned {count}, each in their role there: {names}.", plural: "Assigned {count}, each in their role there: {names}.",
                         count: result.assigned.count, ["names": names]))
        }
        if !result.alreadyAssigned.isEmpty {
            parts.append(Message("Already assigned, left as they were: {names}.", ["names": .text(result.alreadyAssigned.joined(separator: ", "))]))
        }
        if parts.isEmpty { parts.append(Message("Nobody to add: that activity has no participants.")) }
        return parts.map { translator.text($0) }.joined(separator: " ")
    }

    static func deleteConfirmation(_ context: inout PageContext) throws -> Response {
        let (activity, assignment) = try load(context)
        return context.page("assignments/delete", title: Message("Remove {name}", ["name": .text(assignment.participantName)]), section: .activities, view: [
            "activity": ActivityPages.activityView(activity), "participant": assignment.participantName, "role": assignment.roleName,
            "action": context.request.path,
        ])
    }

    static func delete(_ context: inout PageContext) throws -> Response {
        let (activity, assignment) = try load(context)
        try context.database.unassign(assignment.id, by: context.actor)
        return context.redirect(to: Paths.activities.record(activity.id),
                                flash: "\(assignment.participantName) is no longer assigned as \(assignment.roleName).")
    }

    private static func load(_ context: PageContext) throws -> (Activity, Assignment) {
        let activity = try context.database.activity(id: context.request.uuidParameter())
        let assignment = try context.database.assignment(id: context.request.uuidParameter("assignmentId"))
        guard assignment.activityId == activity.id else { throw DomainError.notFound(entity: "assignment") }
        return (activity, assignment)
    }

    private static func form(_ context: inout PageContext, activity: Activity, participants: [String], role: String, search: String,
                             errors: ValidationError, status: HTTPStatus = .ok) throws -> Response {
        var form = FormView(errors: errors)
        form.select("role_id", label: Message("Role"), value: role,
                    options: [("", Message("Choose…"))] + (try context.database.categories(.participantRole)).map { ($0.id.lowercasedString, .verbatim($0.name)) })
        var view = form.view
        let chosen = participants.compactMap(UUID.init(uuidString:)).compactMap { id in
            (try? context.database.participant(id: id)).map { (id: id, label: "\($0.name) (\($0.email))") }
        }
        let matches = search.trimmingCharacters(in: .whitespaces).isEmpty ? PickerMatches.none
            : PickerMatches(try context.database.participantMatches(search)) { ($0.participant.id, "\($0.participant.name) (\($0.participant.email))") }
        view["copy"] = try copySources(context, excluding: activity.id)
        view["picker"] = picker.view(search: search, chosen: chosen, matches: matches,
                                     error: errors.text(for: "participant_id"))
        view["activity"] = ActivityPages.activityView(activity)
        return context.page("assignments/new", title: Message("Assign a participant to “{name}”", ["name": .text(activity.name)]), section: .activities, view: view,
                            status: status, hasErrors: form.hasErrors)
    }

    /// Activities matching `from_search` (a GET on the form page) whose participants can be added at once, with counts.
    private static func copySources(_ context: PageContext, excluding id: UUID) throws -> TemplateView {
        let text = context.request.query["from_search"] ?? context.request.field("from_search")
        var view: TemplateView = ["search": text]
        guard !text.trimmingCharacters(in: .whitespaces).isEmpty else { return view }
        var query = ActivityQuery.unfiltered
        query.text = text
        query.page = PageRequest(page: 1, perPage: 20)
        let found = try context.database.activityRows(query)
        let sources = try found.items.filter { $0.id != id }.map { item -> TemplateView in
            let count = try context.database.assignments(ofActivity: item.id).count
            return ["id": item.id.lowercasedString, "name": item.name, "dates": Activity.dateText(start: item.startDate, end: item.endDate), "count": count,
                    "count_text": Message("{count} participant", plural: "{count} participants", count: count), "has_people": count > 0]
        }
        view["sources"] = sources
        view["has_sources"] = !sources.isEmpty
        view["none_found"] = sources.isEmpty
        if found.total > found.items.count { view["more_text"] = Message("Showing the first {shown} of {count}. Type more of the name to narrow the search.",
                                                                          plural: "Showing the first {shown} of {count}. Type more of the name to narrow the search.",
                                                                          count: found.total, ["shown": .number(found.items.count)]) }
        return view
    }
}
