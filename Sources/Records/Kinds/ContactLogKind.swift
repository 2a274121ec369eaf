import Domain
import Foundation
import Translations

/// Append-only: the hub refuses any change or deletion of a contact log, so logs made on two nodes never conflict.
extension ContactLog {
    public static let declaration = RecordDeclaration<ContactLog>([
        RecordField(\.stopId, "visit_stop_id", .id, label: Message("Stop"), references: ("visit_stop", .restrict),
                    ifMissing: Message("The chosen stop no longer exists; choose another")),
        RecordField(\.result, "result", .choice(.other), label: Message("Result"), rule: .choice(ContactLogInput.Rules.result)),
        RecordField(\.note, "note", .text, label: Message("Note"), rule: .text(ContactLogInput.Rules.note)),
        RecordField(\.loggedAt, "logged_at", .instant, label: Message("Logged")),
        RecordField(\.loggedBy, "logged_by", .id, label: Message("Logged by")),
        RecordField(\.latitude, "latitude", .optionalReal, label: Message("Latitude"), rule: .number(ContactLogInput.Rules.latitude), example: "-1.2921"),
        RecordField(\.longitude, "longitude", .optionalReal, label: Message("Longitude"), rule: .number(ContactLogInput.Rules.longitude), example: "36.8219"),
        RecordField(\.accuracy, "accuracy_m", .optionalReal, label: Message("Accuracy"), rule: .number(ContactLogInput.Rules.accuracy), example: "15"),
    ]) { id, version in
        ContactLog(id: id, stopId: .zero, result: .other, note: "", loggedAt: .unreadable, loggedBy: .zero, location: nil, version: version)
    }

    public static let kind = RecordKind(entity: "contact_log", table: "contact_logs", declaration, label: ("contact log", "contact logs"),
                                        appendOnly: true) { _, _, fields, errors in
        PairedFieldRules.otherResultHasANote(result: ContactResult(rawValue: fields.text("result")), note: fields.text("note"), into: &errors)
        CoordinatePair.check(fields, message: ContactLogInput.bothCoordinates, into: &errors)
    }

    // The location's parts as columns. A location needs both coordinates: the latitude starts one (its longitude still
    // unknown), the longitude completes it or, missing, drops it, and the accuracy goes with it; so a record is read
    // by setting them in this order, as the declaration lists them.
    var latitude: Double? {
        get { location?.coordinate.latitude }
        set {
            location = newValue.map { LoggedLocation(coordinate: Coordinate(latitude: $0, longitude: location?.coordinate.longitude ?? .nan),
                                                     accuracy: location?.accuracy) }
        }
    }

    var longitude: Double? {
        get { location?.coordinate.longitude }
        set {
            location = location.flatMap { location in
                newValue.map { LoggedLocation(coordinate: Coordinate(latitude: location.coordinate.latitude, longitude: $0), accuracy: location.accuracy) }
            }
        }
    }

    var accuracy: Double? {
        get { location?.accuracy }
        set { location = location.map { LoggedLocation(coordinate: $0.coordinate, accuracy: newValue) } }
    }
}
