import Foundation
import Translations

/// Rules about two fields together, stated once: a form's `validated()` and the hub's check of a pushed record both
/// apply them, so the two say the same thing. Each adds its problem only when neither field is wrong on its own.
public enum PairedFieldRules {
    /// A location is both coordinates or neither: the message goes on the one missing.
    public static func bothCoordinatesOrNeither(latitudeGiven: Bool, longitudeGiven: Bool, message: Message,
                                                into errors: inout ValidationError) {
        guard errors.message(for: "latitude") == nil, errors.message(for: "longitude") == nil,
              latitudeGiven != longitudeGiven else { return }
        errors.add(latitudeGiven ? "longitude" : "latitude", message)
    }

    /// An end date comes after the start date.
    public static func endAfterStart(start: CalendarDate?, end: CalendarDate?, into errors: inout ValidationError) {
        guard errors.message(for: "start_date") == nil, errors.message(for: "end_date") == nil,
              let start, let end, end <= start else { return }
        errors.add("end_date", Message("The end date must be after the start date ({start})", ["start": .text(start.display)]))
    }

    /// A contact whose result is "Other" says in its note what happened.
    public static func otherResultHasANote(result: ContactResult?, note: String, into errors: inout ValidationError) {
        guard result == .other, note.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty,
              errors.message(for: "note") == nil else { return }
        errors.add("note", Message("Say in the note what happened"))
    }
}
