import Domain
import Foundation
import Records
import GRDB

/// What an archive export holds: every community record, or the records of one area or one activity.
public enum ExportScope: Sendable, Equatable {
    case everything
    /// An area with the areas inside it, their venues, who lives there (now or before), what was held there (with its
    /// assignments and everyone assigned) and the visits made there. Records elsewhere that these name (a participant's
    /// other homes, an activity's other venues) are not included.
    case area(UUID)
    /// An activity with its venues, its assignments and the participants assigned.
    case activity(UUID)

    /// The rows of `kind` in the scope, as a list query over its table (aliased `t`); nil leaves the kind out.
    /// A kind the scope says nothing about holds the rows referring to a record in the scope (`referringRows`).
    func rows(of kind: RecordKind) -> ListQuery? {
        var list = ListQuery("\(kind.table) t")
        let named: Bool?
        switch self {
        case .everything: return list
        case .area(let id): named = Self.inArea(&list, kind, id.databaseText)
        case .activity(let id): named = Self.ofActivity(&list, kind, id.databaseText)
        }
        guard let named else { return referringRows(list, kind) }
        return named ? list : nil
    }

    /// The rows of a kind the scope does not name that refer, by any declared reference, to a record of a kind the scope
    /// narrows (a note about a participant of the area); all its rows when it refers to no such kind (activity types
    /// and roles, which the records refer to), so a kind added later cannot leak the whole community into a scope.
    private func referringRows(_ list: ListQuery, _ kind: RecordKind) -> ListQuery {
        var list = list
        var conditions: [String] = []
        var arguments: StatementArguments = []
        for reference in kind.references where reference.entity != kind.entity {
            guard let named = RecordKind.all.first(where: { $0.entity == reference.entity }), let rows = rows(of: named),
                  !rows.whereClause.isEmpty else { continue }
            conditions.append("t.\(reference.column) IN (SELECT t.id FROM \(named.table) t \(rows.whereClause))")
            arguments += rows.arguments
        }
        if !conditions.isEmpty { list.add("(" + conditions.joined(separator: " OR ") + ")", arguments: arguments) }
        return list
    }

    /// The file name's part saying what the archive holds: "fieldbook-" and the title in ASCII letters, digits and
    /// dashes ("Émile's Zone" gives "fieldbook-emile-s-zone"), safe in a Content-Disposition header on any browser.
    func name(_ title: String?) -> String {
        guard case .everything = self else {
            let folded = SearchText.fold(title ?? "").unicodeScalars.map { $0.isASCII && CharacterSet.alphanumerics.contains($0) ? Character($0) : "-" }
            let words = String(folded).split(separator: "-", omittingEmptySubsequences: true)
            return "fieldbook-" + (words.isEmpty ? "records" : words.joined(separator: "-"))
        }
        return "fieldbook"
    }

    private static let areaTree = AppDatabase.areaTreeSQL
    private static let venuesInArea = "SELECT id FROM venues WHERE geographic_area_id IN (\(areaTree))"
    private static let activitiesInArea = "SELECT activity_id FROM activity_venue_history WHERE venue_id IN (\(venuesInArea))"
    private static let stopsInArea = "SELECT id FROM visit_stops WHERE venue_id IN (\(venuesInArea))"

    /// Whether the area's archive holds `kind`, narrowing `list` to the rows it holds; nil for a kind it does not name.
    private static func inArea(_ list: inout ListQuery, _ kind: RecordKind, _ area: String) -> Bool? {
        switch kind.table {
        case GeographicArea.databaseTableName: list.add("t.id IN (\(areaTree))", area)
        case Venue.databaseTableName: list.add("t.geographic_area_id IN (\(areaTree))", area)
        case Participant.databaseTableName:
            // Who lives or lived there, and everyone the archive's assignments and visit stops name.
            list.add("""
                (t.id IN (SELECT participant_id FROM participant_address_history WHERE venue_id IN (\(venuesInArea)))
                 OR t.id IN (SELECT participant_id FROM assignments WHERE activity_id IN (\(activitiesInArea)))
                 OR t.id IN (SELECT participant_id FROM visit_stops WHERE venue_id IN (\(venuesInArea))))
                """, area, area, area)
        case PeriodRow.addressKind.table: list.add("t.venue_id IN (\(venuesInArea))", area)
        case Activity.databaseTableName: list.add("t.id IN (\(activitiesInArea))", area)
        case PeriodRow.activityVenueKind.table: list.add("t.venue_id IN (\(venuesInArea))", area)
        case AssignmentRow.databaseTableName: list.add("t.activity_id IN (\(activitiesInArea))", area)
        case VisitList.databaseTableName: list.add("t.id IN (SELECT visit_list_id FROM visit_stops WHERE venue_id IN (\(venuesInArea)))", area)
        case VisitStop.databaseTableName: list.add("t.venue_id IN (\(venuesInArea))", area)
        case ContactLog.databaseTableName: list.add("t.visit_stop_id IN (\(stopsInArea))", area)
        case Photo.databaseTableName:
            // The photos of the venues, activities and participants the archive holds.
            list.add("""
                (t.venue_id IN (\(venuesInArea)) OR t.activity_id IN (\(activitiesInArea))
                 OR t.participant_id IN (SELECT participant_id FROM participant_address_history WHERE venue_id IN (\(venuesInArea)))
                 OR t.participant_id IN (SELECT participant_id FROM assignments WHERE activity_id IN (\(activitiesInArea)))
                 OR t.participant_id IN (SELECT participant_id FROM visit_stops WHERE venue_id IN (\(venuesInArea)))
                 OR t.contact_log_id IN (SELECT id FROM contact_logs WHERE visit_stop_id IN (\(stopsInArea))))
                """, area, area, area, area, area, area)
        default: return nil
        }
        return true
    }

    /// Whether the activity's archive holds `kind`, narrowing `list` to the rows it holds; nil for a kind it does not name.
    private static func ofActivity(_ list: inout ListQuery, _ kind: RecordKind, _ activity: String) -> Bool? {
        switch kind.table {
        case Activity.databaseTableName: list.add("t.id = ?", activity)
        case PeriodRow.activityVenueKind.table, AssignmentRow.databaseTableName: list.add("t.activity_id = ?", activity)
        case Venue.databaseTableName: list.add("t.id IN (SELECT venue_id FROM activity_venue_history WHERE activity_id = ?)", activity)
        case Participant.databaseTableName: list.add("t.id IN (SELECT participant_id FROM assignments WHERE activity_id = ?)", activity)
        case Photo.databaseTableName:
            list.add("""
                (t.activity_id = ? OR t.venue_id IN (SELECT venue_id FROM activity_venue_history WHERE activity_id = ?)
                 OR t.participant_id IN (SELECT participant_id FROM assignments WHERE activity_id = ?))
                """, activity, activity, activity)
        case GeographicArea.databaseTableName, PeriodRow.addressKind.table, VisitList.databaseTableName, VisitStop.databaseTableName,
             ContactLog.databaseTableName:
            return false
        default: return nil
        }
        return true
    }
}
