import Domain
import Foundation
import HTTPServer
import Records
import Storage
import Surface

/// Who takes part in an activity and in which role; the same participant in the same role twice is refused (409).
enum AssignmentResource {
    /// The body, schema and write fields derived from the declared fields, with the names of the participant and the role.
    static let shape = APIRecordShape(
        AssignmentRow.declaration, id: { $0.id }, version: nil,
        read: [.init(.of("participant_name", .text, required: true), after: "participant_id"),
               .init(.of("role_name", .text, required: true), after: "role_id")])
    static let writeFields = shape.writeFields

    static let components: [String: [Field]] = ["Assignment": shape.schema, "AssignmentWrite": writeFields]

    static func body(_ assignment: Assignment) -> RecordBody {
        var row = AssignmentRow(activityId: assignment.activityId, participantId: assignment.participantId, roleId: assignment.roleId,
                                assignedAt: assignment.assignedAt)
        row.id = assignment.id
        return shape.body(row, extras: ["participant_name": assignment.participantName, "role_name": assignment.roleName])
    }

    static let listDoc = APIOperation(id: "listAssignments", summary: "Who takes part in an activity, by name", query: APIOperation.paging,
                                      success: .page("Assignment"))
    static let getDoc = APIOperation(id: "getAssignment", summary: "Read one assignment", success: .json("Assignment"))
    static let createDoc = APIOperation(id: "createAssignment", summary: "Assign a participant to the activity in a role",
                                        body: "AssignmentWrite", success: .created("Assignment"), conflict: true)
    static let deleteDoc = APIOperation(id: "deleteAssignment", summary: "Remove an assignment", success: .noContent)

    @Sendable static func list(_ context: APIContext) throws -> Response {
        let id = try context.existingId(context.database.activity(id:))
        return APIResponse.ok(ListEnvelope(all: try context.database.assignments(ofActivity: id).map(body), page: try context.pageRequest()))
    }

    @Sendable static func get(_ context: APIContext) throws -> Response {
        APIResponse.ok(body(try assignment(context)))
    }

    @Sendable static func create(_ context: APIContext) throws -> Response {
        let activity = try context.id()
        let body = try context.body(writeFields, mode: .full)
        let assignment = try context.database.assign(participant: body.text("participant_id"), role: body.text("role_id"),
                                                     toActivity: activity, by: context.actor)
        return APIResponse.created(Self.body(assignment), at: APIPaths.assignment(activity, assignment.id))
    }

    @Sendable static func delete(_ context: APIContext) throws -> Response {
        try context.database.unassign(try assignment(context).id, by: context.actor)
        return APIResponse.noContent
    }

    /// The addressed assignment, which must belong to the addressed activity.
    private static func assignment(_ context: APIContext) throws -> Assignment {
        let assignment = try context.database.assignment(id: try context.id("assignmentId"))
        guard assignment.activityId == (try context.id()) else { throw DomainError.notFound(entity: "assignment") }
        return assignment
    }
}
