import Domain
import Foundation
import HTTPServer
import Storage
import Surface

/// Who takes part in an activity and in which role; the same participant in the same role twice is refused (409).
enum AssignmentResource {
    struct Body: Encodable, Sendable {
        let id: String
        let activityId: String
        let participantId: String
        let participantName: String
        let roleId: String
        let roleName: String
        let assignedAt: Date

        init(_ assignment: Assignment) {
            (id, activityId, participantId) = (assignment.id.text, assignment.activityId.text, assignment.participantId.text)
            (participantName, roleId, roleName) = (assignment.participantName, assignment.roleId.text, assignment.roleName)
            assignedAt = assignment.assignedAt
        }
    }

    static let writeFields: [Field] = [
        .input("participant_id", .id(AssignmentRules.participantId)), .input("role_id", .id(AssignmentRules.roleId)),
    ]

    static let components: [String: [Field]] = [
        "Assignment": [
            .of("id", .uuid, required: true), .of("activity_id", .uuid, required: true), .of("participant_id", .uuid, required: true),
            .of("participant_name", .text, required: true), .of("role_id", .uuid, required: true), .of("role_name", .text, required: true),
            .of("assigned_at", .dateTime, required: true),
        ],
        "AssignmentWrite": writeFields,
    ]

    static let listDoc = APIOperation(id: "listAssignments", summary: "Who takes part in an activity, by name", query: APIOperation.paging,
                                      success: .page("Assignment"))
    static let getDoc = APIOperation(id: "getAssignment", summary: "Read one assignment", success: .json("Assignment"))
    static let createDoc = APIOperation(id: "createAssignment", summary: "Assign a participant to the activity in a role",
                                        body: "AssignmentWrite", success: .created("Assignment"), conflict: true)
    static let deleteDoc = APIOperation(id: "deleteAssignment", summary: "Remove an assignment", success: .noContent)

    @Sendable static func list(_ context: APIContext) throws -> Response {
        let id = try context.existingId(context.database.activity(id:))
        return APIResponse.ok(ListEnvelope(all: try context.database.assignments(ofActivity: id).map(Body.init), page: try context.pageRequest()))
    }

    @Sendable static func get(_ context: APIContext) throws -> Response {
        APIResponse.ok(Body(try assignment(context)))
    }

    @Sendable static func create(_ context: APIContext) throws -> Response {
        let activity = try context.id()
        let body = try context.body(writeFields, mode: .full)
        let assignment = try context.database.assign(participant: body.text("participant_id"), role: body.text("role_id"),
                                                     toActivity: activity, by: context.actor)
        return APIResponse.created(Body(assignment), at: APIPaths.assignment(activity, assignment.id))
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
