import Domain
import Foundation
import HTTPServer
import Storage

/// /sync/conflicts: edits made here that lost at the hub, each with both values and a way to apply ours again.
enum ConflictPages {
    static func list(_ context: inout PageContext) throws -> Response {
        let showAll = context.request.query["show"] == "all"
        let conflicts = try context.database.conflicts(includeResolved: showAll).map(conflictView)
        return context.page("sync/conflicts", title: "Conflicts", section: .sync,
                            view: ["conflicts": conflicts, "has_conflicts": !conflicts.isEmpty, "show_all": showAll])
    }

    static func reapply(_ context: inout PageContext) throws -> Response {
        let id = try context.request.uuidParameter()
        do {
            try context.database.reapplyConflict(id: id, by: context.actor)
        } catch let errors as ValidationError {
            let reasons = errors.fieldErrors.map(\.message).joined(separator: "; ")
            return context.redirect(to: "/sync/conflicts", flash: "Your values cannot be applied as they are: \(reasons). Edit the record instead.")
        }
        context.web.syncEngine?.wake(reason: "conflict re-applied")
        return context.redirect(to: "/sync/conflicts", flash: "Your values are applied again here and go to the hub with the next sync.")
    }

    static func dismiss(_ context: inout PageContext) throws -> Response {
        try context.database.dismissConflict(id: try context.request.uuidParameter())
        return context.redirect(to: "/sync/conflicts", flash: "Conflict dismissed; the values that won stay.")
    }

    private static func conflictView(_ conflict: SyncConflict) -> [String: Any] {
        var view = RecordText.view(entity: conflict.entity, id: conflict.entityId, label: conflict.recordLabel)
        view["id"] = conflict.id.lowercasedString
        view["what"] = switch conflict.kind {
        case .edit: "Your edit lost to an edit that reached the hub first."
        case .delete: "Your delete was not applied: someone changed this record before your delete reached the hub."
        case .deleted: "Your edit was not applied: this record was deleted before your edit reached the hub."
        }
        view["fields"] = conflict.fields.map { ["name": $0.name.replacingOccurrences(of: "_", with: " ").capitalizedFirst,
                                                "mine": display($0.mine), "theirs": display($0.theirs)] }
        view["has_fields"] = !conflict.fields.isEmpty
        view["edited"] = DateText.format(conflict.editedAt)
        view["detected"] = DateText.format(conflict.detectedAt)
        view["open"] = conflict.resolution == nil
        view["can_reapply"] = conflict.resolution == nil && conflict.kind != .deleted
        view["resolution"] = conflict.resolution == "reapplied" ? "Re-applied" : "Dismissed"
        view["reapply_label"] = conflict.kind == .delete ? "Delete again" : "Re-apply my values"
        return view
    }

    private static func display(_ value: JSONValue) -> String {
        switch value {
        case .null: "(empty)"
        case .bool(let flag): flag ? "Yes" : "No"
        case .int(let number): String(number)
        case .double(let number): String(number)
        case .string(let text): text.isEmpty ? "(empty)" : text
        }
    }
}
