import Domain
import Foundation
import HTTPServer
import Hub
import Storage

/// Hub side, for administrators: the nodes' own sign-ins (`NodeCredential`), and revoking one. Served by every hub,
/// a PostgreSQL one included, which has no pages.
enum LinkedNodeResource {
    struct Body: Encodable, Sendable {
        let id: String
        let name: String
        let linkedBy: String
        let createdAt: Date
        let lastSeenAt: Date
        @Null var revokedAt: Date?

        init(_ credential: NodeCredential) {
            (id, name, linkedBy) = (credential.id.lowercaseText, credential.name, credential.linkedBy)
            (createdAt, lastSeenAt, revokedAt) = (credential.createdAt, credential.lastSeenAt, credential.revokedAt)
        }
    }

    struct ListBody: Encodable, Sendable {
        let items: [Body]
    }

    static let components: [String: [Field]] = [
        "LinkedNode": [
            .of("id", .uuid, required: true, "Revoke the node's sign-in with POST /api/v1/linked-nodes/{id}/revoke"),
            .of("name", .text, required: true), .of("linked_by", .text, required: true, "The email of the account that linked it"),
            .of("created_at", .dateTime, required: true),
            .of("last_seen_at", .dateTime, required: true, "When the node last renewed its sign-in (about every 15 minutes while it syncs)"),
            .of("revoked_at", .dateTime, required: true, nullable: true),
        ],
        "LinkedNodeList": [.of("items", .list("LinkedNode"), required: true)],
    ]

    static let listDoc = APIOperation(id: "listLinkedNodes", summary: "Hub: every node's own sign-in, newest first, revoked ones included",
                                      success: .json("LinkedNodeList"))
    static let revokeDoc = APIOperation(id: "revokeLinkedNode", summary: "Hub: end a node's sign-in; it syncs again once an administrator signs it in anew",
                                        success: .noContent)

    @Sendable static func list(_ context: APIContext) throws -> Response {
        APIResponse.ok(ListBody(items: try context.hub.nodeCredentials().map(Body.init)))
    }

    @Sendable static func revoke(_ context: APIContext) throws -> Response {
        try context.hub.revokeNodeCredential(try context.id(), now: Date())
        return APIResponse.noContent
    }
}
