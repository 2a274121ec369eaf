import Domain
import Foundation
import HTTPServer
import Storage
import Surface

/// Assigning participants to an activity in a role (Requirement 6), and removing them.
enum AssignmentPages {
    static let picker = SearchPicker(field: "participant_id", legend: "Participant", multiple: false, noneLabel: nil,
                                     searchField: "participant_search", searchLabel: "Search participants by name or email",
                                     findButton: "find_participants", buttonLabel: "Find participants")

    static func newForm(_ context: inout PageContext) throws -> Response {
        let activity = try context.database.activity(id: context.request.uuidParameter())
        return try form(&context, activity: activity, participant: "", role: "", search: "", errors: ValidationError())
    }

    /// `POST /activities/{id}/assignments`: assigns, or searches participants when the find button was used.
    static func create(_ context: inout PageContext) throws -> Response {
        let activity = try context.database.activity(id: context.request.uuidParameter())
        let request = context.request
        let (participant, role, search) = (request.field("participant_id"), request.field("role_id"), request.field("participant_search"))
        if request.form[picker.findButton] != nil {
            return try form(&context, activity: activity, participant: participant, role: role, search: search, errors: ValidationError())
        }
        do {
            let assignment = try context.database.assign(participant: participant, role: role, toActivity: activity.id, by: context.actor)
            return context.redirect(to: Paths.activities.record(activity.id),
                                    flash: "\(assignment.participantName) assigned as \(assignment.roleName).")
        } catch let errors as ValidationError {
            return try form(&context, activity: activity, participant: participant, role: role, search: search, errors: errors,
                            status: .unprocessableContent)
        }
    }

    static func deleteConfirmation(_ context: inout PageContext) throws -> Response {
        let (activity, assignment) = try load(context)
        return context.page("assignments/delete", title: "Remove \(assignment.participantName)", section: .activities, view: [
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

    private static func form(_ context: inout PageContext, activity: Activity, participant: String, role: String, search: String,
                             errors: ValidationError, status: HTTPStatus = .ok) throws -> Response {
        var form = FormView(errors: errors)
        form.select("role_id", label: "Role", value: role,
                    options: [("", "Choose…")] + (try context.database.categories(.participantRole)).map { ($0.id.lowercasedString, $0.name) })
        var view = form.view
        let chosen = UUID(uuidString: participant).flatMap { id in (try? context.database.participant(id: id)).map { (id, "\($0.name) (\($0.email))") } }
        let matches = search.trimmingCharacters(in: .whitespaces).isEmpty ? PickerMatches.none
            : PickerMatches(try context.database.participantMatches(search)) { ($0.participant.id, "\($0.participant.name) (\($0.participant.email))") }
        view["picker"] = picker.view(search: search, chosen: chosen.map { [$0] } ?? [], matches: matches,
                                     error: errors.message(for: "participant_id"))
        view["activity"] = ActivityPages.activityView(activity)
        return context.page("assignments/new", title: "Assign a participant to “\(activity.name)”", section: .activities, view: view,
                            status: status, hasErrors: form.hasErrors)
    }
}
