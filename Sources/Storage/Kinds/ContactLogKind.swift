import Domain
import Foundation
import GRDB

/// Contact logs as GRDB reads and encodes them. Append-only: the hub refuses any change or deletion of one, so logs
/// made on two nodes never conflict.
extension ContactLog: StoredRecord {
    public static let databaseTableName = "contact_logs"

    static let kind = RecordKind(
        entity: "contact_log", table: databaseTableName,
        columns: ["visit_stop_id", "result", "note", "logged_at", "logged_by", "latitude", "longitude", "accuracy_m"],
        label: ("contact log", "contact logs"), appendOnly: true, instants: ["logged_at"],
        references: [Reference("visit_stop_id", "visit_stop")], optional: ["latitude", "longitude", "accuracy_m"]
    ) { _, _, fields in
        _ = try ContactLogInput(result: fields.text("result"), note: fields.text("note"), latitude: fields.text("latitude"),
                                longitude: fields.text("longitude"), accuracy: fields.text("accuracy_m")).validated()
    }

    public init(row: Row) {
        let latitude: Double? = row["latitude"], longitude: Double? = row["longitude"]
        let location = latitude.flatMap { lat in
            longitude.map { LoggedLocation(coordinate: Coordinate(latitude: lat, longitude: $0), accuracy: row["accuracy_m"]) }
        }
        self.init(id: row.uuid("id"), stopId: row.uuid("visit_stop_id"), result: ContactResult(rawValue: row["result"]) ?? .other,
                  note: row["note"], loggedAt: row.storedDate("logged_at"), loggedBy: row.uuid("logged_by"), location: location,
                  version: row["version"])
    }

    public func encode(to container: inout PersistenceContainer) {
        container["id"] = id.databaseText
        container["visit_stop_id"] = stopId.databaseText
        container["result"] = result.rawValue
        container["note"] = note
        container["logged_at"] = loggedAt.storedText
        container["logged_by"] = loggedBy.databaseText
        container["latitude"] = location?.coordinate.latitude
        container["longitude"] = location?.coordinate.longitude
        container["accuracy_m"] = location?.accuracy
        container["version"] = version
    }
}
