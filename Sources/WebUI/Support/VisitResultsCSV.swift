import Domain
import Foundation
import Storage

/// A visit list's results as CSV (RFC 4180): one row per log, and one row with an empty result per stop not visited.
/// The sheet is read for the viewer (`visitSheet(id:seen:)`), so a stop whose person is hidden has no name, place or ids here either.
enum VisitResultsCSV {
    static let header = ["list", "day", "organizer", "stop", "venue", "address", "participant_id", "venue_id", "result", "note",
                         "logged_at", "logged_by", "latitude", "longitude", "accuracy_m"]

    static func text(_ sheet: VisitSheet, authors: [UUID: String]) -> String {
        var lines = [header]
        let list = sheet.list
        for line in sheet.stops {
            let stop = [list.name, list.visitDate.description, sheet.assigneeName, line.name, line.venueName, line.address,
                        line.participantId?.uuidString.lowercased() ?? "", line.venueId?.uuidString.lowercased() ?? ""]
            if line.logs.isEmpty { lines.append(stop + Array(repeating: "", count: 7)) }
            for log in line.logs {
                lines.append(stop + [log.result.rawValue, log.note, log.loggedAt.ISO8601Format(), authors[log.loggedBy] ?? log.loggedBy.uuidString.lowercased(),
                                     log.location.map { "\($0.coordinate.latitude)" } ?? "", log.location.map { "\($0.coordinate.longitude)" } ?? "",
                                     log.location?.accuracy.map { "\($0)" } ?? ""])
            }
        }
        return lines.map { CSV.line($0.map(CSV.defused)) }.joined()
    }
}
