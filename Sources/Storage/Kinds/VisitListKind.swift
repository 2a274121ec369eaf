import Domain
import Foundation
import GRDB

/// Visit lists as GRDB reads and encodes them; written through `RecordTransaction`.
extension VisitList: StoredRecord {
    public static let databaseTableName = "visit_lists"

    static let kind = RecordKind(
        entity: "visit_list", table: databaseTableName,
        columns: ["name", "visit_date", "purpose", "script", "assigned_user_id", "status"], metaColumns: RecordKind.timestamps,
        label: ("visit list", "visit lists"), listPath: "/visit-lists", references: [Reference("assigned_user_id", "user")]
    ) { _, _, fields in
        _ = try VisitListInput(name: fields.text("name"), visitDate: fields.text("visit_date"), purpose: fields.text("purpose"),
                               script: fields.text("script"), assigneeId: fields.text("assigned_user_id"), status: fields.text("status"))
            .validated()
    }

    public init(row: Row) {
        self.init(id: row.uuid("id"), name: row["name"], visitDate: CalendarDate(row["visit_date"]) ?? CalendarDate("2000-01-01")!,
                  purpose: row["purpose"], script: row["script"], assigneeId: row.uuid("assigned_user_id"),
                  status: VisitStatus(rawValue: row["status"]) ?? .planned, version: row["version"],
                  createdAt: row.storedDate("created_at"), updatedAt: row.storedDate("updated_at"))
    }

    public func encode(to container: inout PersistenceContainer) {
        container["id"] = id.databaseText
        container["name"] = name
        container["visit_date"] = visitDate.description
        container["purpose"] = purpose
        container["script"] = script
        container["assigned_user_id"] = assigneeId.databaseText
        container["status"] = status.rawValue
        container.encodeVersionAndTimes(version, createdAt, updatedAt)
    }

    mutating func stamp(editedAt date: Date) { updatedAt = date }
}
