import Domain
import Foundation
import HTTPServer
import Records
import Storage
import Surface
import Translations

/// /sync/conflicts: edits made here that lost at the hub, each with both values and a way to apply ours again.
enum ConflictPages {
    static func list(_ context: inout PageContext) throws -> Response {
        let showAll = context.request.query["show"] == "all"
        let text = ConflictValueText(database: context.database, seen: try context.participantVisibility)
        let linksUsers = context.user?.role.canAdminister ?? false
        let conflicts = try context.database.conflicts(includeResolved: showAll).map { conflictView($0, text, linksUsers: linksUsers) }
        return context.page("sync/conflicts", title: Message("Conflicts"), section: .sync,
                            view: ["conflicts": conflicts, "has_conflicts": !conflicts.isEmpty, "show_all": showAll])
    }

    static func reapply(_ context: inout PageContext) throws -> Response {
        let id = try context.request.uuidParameter()
        do {
            try context.database.reapplyConflict(id: id, by: context.actor)
        } catch let errors as ValidationError {
            let reasons = errors.fieldErrors.map(\.message).joined(separator: "; ")
            return context.redirect(to: Paths.conflicts(), flash: Message("Your values cannot be applied as they are: {reasons}. Edit the record instead.", ["reasons": .text(reasons)]))
        }
        context.web.syncEngine?.wake(reason: "conflict re-applied")
        return context.redirect(to: Paths.conflicts(), flash: Message("Your values are applied again here and go to the hub with the next sync."))
    }

    static func dismiss(_ context: inout PageContext) throws -> Response {
        try context.database.dismissConflict(id: try context.request.uuidParameter())
        return context.redirect(to: Paths.conflicts(), flash: Message("Conflict dismissed; the values that won stay."))
    }

    private static func conflictView(_ conflict: SyncConflict, _ text: ConflictValueText, linksUsers: Bool) -> TemplateView {
        var view = RecordText.view(entity: conflict.entity, id: conflict.entityId, label: conflict.recordLabel, linksUsers: linksUsers)
        view["id"] = conflict.id.lowercasedString
        view["reapply_path"] = Paths.reapplyConflict(conflict.id)
        view["dismiss_path"] = Paths.dismissConflict(conflict.id)
        view["what"] = switch conflict.kind {
        case .edit: Message("Your edit lost to an edit that reached the hub first.")
        case .delete: Message("Your delete was not applied: someone changed this record before your delete reached the hub.")
        case .deleted: Message("Your edit was not applied: this record was deleted before your edit reached the hub.")
        }
        view["fields"] = conflict.fields.map {
            ["name": ConflictValueText.fieldName($0.name), "mine": text.value($0.mine, field: $0.name, of: conflict.entity),
             "theirs": text.value($0.theirs, field: $0.name, of: conflict.entity)]
        }
        view["has_fields"] = !conflict.fields.isEmpty
        view["edited"] = DateText.format(conflict.editedAt)
        view["detected"] = DateText.format(conflict.detectedAt)
        view["open"] = conflict.resolution == nil
        view["can_reapply"] = conflict.resolution == nil && conflict.kind != .deleted
        view["resolution"] = conflict.resolution == "reapplied" ? Message("Re-applied") : Message("Dismissed")
        view["reapply_label"] = conflict.kind == .delete ? Message("Delete again") : Message("Re-apply my values")
        return view
    }
}

/// Field names and values of a conflict in words: referenced records by name, password hashes never (the conflicts page
/// is open to every signed-in person, and a hash is a secret).
struct ConflictValueText {
    let database: AppDatabase
    /// What the viewer may see of participants: hidden fields read "(hidden)" here as everywhere (the privacy setting).
    var seen: ParticipantVisibility = .everything

    /// The entity of the record `field` of `entity`'s kind names, as the kind declares it; nil for a field naming none.
    private static func referenced(by field: String, of entity: String) -> String? {
        RecordKind.named(entity)?.references.first { $0.column == field }?.entity
    }

    static func fieldName(_ field: String) -> String {
        switch field {
        case "password_hash": "Password"
        case "is_disabled": "Disabled"
        case "parent_id": "Parent area"
        default: HistoryView.columnWords(field).capitalizedFirst
        }
    }

    private func isHidden(_ field: String, of entity: String) -> Bool {
        RecordKind.named(entity).map { seen.hiddenColumns(of: $0).contains(field) } ?? false
    }

    func value(_ value: JSONValue, field: String, of entity: String) -> String {
        if field == "password_hash" || isHidden(field, of: entity) { return value == .null ? "(empty)" : "(hidden)" }
        switch value {
        case .null: return "(empty)"
        case .bool(let flag): return flag ? "Yes" : "No"
        case .int(let number): return field == "is_disabled" ? (number == 0 ? "No" : "Yes") : String(number)
        case .double(let number): return String(number)
        case .string(let text):
            guard !text.isEmpty else { return "(empty)" }
            if let named = Self.referenced(by: field, of: entity), let id = UUID(uuidString: text),
               let label = try? database.recordLabel(entity: named, id: id), !label.isEmpty {
                return label
            }
            return text
        }
    }
}
