import Domain
import Translations

extension ContactResult {
    /// The result's name, translated where it is shown.
    var message: Message {
        switch self {
        case .met: Message("Met", context: "a visit's result")
        case .notHome: Message("Not home")
        case .refused: Message("Refused")
        case .movedAway: Message("Moved away")
        case .wrongAddress: Message("Wrong address")
        case .followUp: Message("Follow-up needed")
        case .other: Message("Other (see note)")
        }
    }
}

extension VisitStatus {
    var message: Message {
        switch self {
        case .planned: Message("Planned", context: "a visit list's status")
        case .inProgress: Message("In progress")
        case .done: Message("Done", context: "a visit list's status")
        }
    }
}

extension StopSource {
    var message: Message {
        switch self {
        case .participants: Message("Participants at their homes")
        case .venues: Message("Venues")
        }
    }
}
