import Domain
import Foundation
import HTTPServer
import Storage
import Translations

/// /settings/linked-nodes, for administrators of a Fieldbook that nodes link to: each node's own sign-in here (made
/// when it was linked), when it was last seen, and revoking it.
enum LinkedNodePages {
    static func list(_ context: inout PageContext) throws -> Response {
        let rows: [TemplateView] = try context.database.nodeCredentials().map { node in
            ["name": node.name, "linked_by": node.linkedBy, "linked": DateText.format(node.createdAt),
             "last_seen": DateText.format(node.lastSeenAt), "revoked": node.revokedAt.map(DateText.format) ?? "",
             "is_revoked": node.revokedAt != nil, "revoke_path": Paths.revokeLinkedNode(node.id)]
        }
        return context.page("settings/linked_nodes", title: Message("Linked nodes"), section: .sync,
                            view: ["rows": rows, "has_rows": !rows.isEmpty])
    }

    static func revoke(_ context: inout PageContext) throws -> Response {
        try context.database.revokeNodeCredential(try context.request.uuidParameter())
        return context.redirect(to: Paths.linkedNodes(), flash: Message("Revoked. That node syncs again once an administrator signs it in anew on its sync settings page."))
    }
}
