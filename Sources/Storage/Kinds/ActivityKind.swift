import Domain
import Foundation
import GRDB

/// Activities as GRDB reads and encodes them; written through `RecordTransaction`.
extension Activity: StoredRecord {
    public enum Columns {
        public static let name = Column("name"), description = Column("description"), typeId = Column("activity_type_id")
        public static let startDate = Column("start_date"), endDate = Column("end_date"), status = Column("status")
    }

    public static let databaseTableName = "activities"

    static let kind = RecordKind(
        entity: "activity", table: databaseTableName,
        columns: ["name", "description", "activity_type_id", "start_date", "end_date", "status"], metaColumns: RecordKind.timestamps,
        searchColumns: ["name"], label: ("activity", "activities"), listPath: "/activities",
        references: [Reference("activity_type_id", "activity_type")], optional: ["description", "end_date"]
    ) { _, _, fields in
        let end = fields.text("end_date")
        _ = try ActivityInput(name: fields.text("name"), description: fields.text("description"), typeId: fields.text("activity_type_id"),
                              startDate: fields.text("start_date"), duration: end.isEmpty ? "ongoing" : "finite", endDate: end,
                              status: fields.text("status")).validated()
    }

    public init(row: Row) {
        let schedule = Self.schedule(row)
        self.init(id: row.uuid("id"), name: row[Columns.name], description: row[Columns.description], typeId: row.uuid("activity_type_id"),
                  startDate: schedule.start, endDate: schedule.end, status: schedule.status, version: row["version"],
                  createdAt: row.storedDate("created_at"), updatedAt: row.storedDate("updated_at"))
    }

    /// A row's dates and status, as the record and the list's lighter row (`ActivityListRow`) both read them.
    static func schedule(_ row: Row) -> (start: CalendarDate, end: CalendarDate?, status: ActivityStatus) {
        schedule(start: row[Columns.startDate], end: row[Columns.endDate], status: row[Columns.status])
    }

    /// The dates and status from their stored text.
    static func schedule(start: String, end: String?, status: String) -> (start: CalendarDate, end: CalendarDate?, status: ActivityStatus) {
        (CalendarDate(start) ?? CalendarDate("2000-01-01")!, end.flatMap(CalendarDate.init), ActivityStatus(rawValue: status) ?? .active)
    }

    public func encode(to container: inout PersistenceContainer) {
        container["id"] = id.databaseText
        container[Columns.name] = name
        container[Columns.description] = description
        container[Columns.typeId] = typeId.databaseText
        container[Columns.startDate] = startDate.description
        container[Columns.endDate] = endDate?.description
        container[Columns.status] = status.rawValue
        container.encodeVersionAndTimes(version, createdAt, updatedAt)
    }

    mutating func stamp(editedAt date: Date) { updatedAt = date }
}
