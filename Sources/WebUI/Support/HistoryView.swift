import Domain
import Foundation
import Records
import Storage
import Translations

/// A record page's "History" section and its "Last changed … by …" line, from the changes the write path recorded.
enum HistoryView {
    /// `updatedAt`: the record's last change; the author is named only when the history holds that change (a change
    /// pulled from the hub is not in this node's history, and its author is not known here).
    static func view(_ database: AppDatabase, _ kind: RecordKind, id: UUID, updatedAt: Date) throws -> TemplateView {
        let entries = try database.history(of: kind, id: id)
        var view: TemplateView = ["changes": entries.map(entryView), "has_changes": !entries.isEmpty]
        if let latest = entries.first, latest.at.timeIntervalSince(updatedAt) > -1 { view["last_changed_by"] = latest.authorName }
        return view
    }

    private static func entryView(_ entry: RecordHistoryEntry) -> TemplateView {
        let what = switch entry.operation {
        case .create: Message("Created")
        case .delete: Message("Deleted")
        case .update: entry.fields.isEmpty ? Message("Changed")
            : Message("Changed {fields}", ["fields": .text(entry.fields.map(fieldName).joined(separator: ", "))])
        }
        return ["when": DateText.format(entry.at), "who": entry.authorName, "what": what]
    }

    /// "activity_type_id" → "activity type", "geographic_area_id" → "area".
    static func fieldName(_ column: String) -> String {
        let words = columnWords(column)
        return words == "geographic area" ? "area" : words
    }

    /// A column's name in words, a reference without its `_id`: "activity_type_id" → "activity type".
    static func columnWords(_ column: String) -> String {
        (column.hasSuffix("_id") ? String(column.dropLast(3)) : column).replacingOccurrences(of: "_", with: " ")
    }
}
