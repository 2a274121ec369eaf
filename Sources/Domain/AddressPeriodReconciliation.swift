import Foundation

/// What makes a participant's open address periods agree with their home venue again, after pushes from several nodes
/// met at a hub: two nodes moving the same person offline each opened a period, and only one move won the
/// participant's home. The open period at the home with the latest start stays; other open ones that began before it
/// end where it begins; the rest (the losing move's) are removed. Without a home, none stays open. Both kinds of hub
/// take these steps.
public enum AddressPeriodReconciliation {
    public struct OpenPeriod: Sendable {
        public let id: UUID
        public let venueId: UUID
        public let from: CalendarDate

        public init(id: UUID, venueId: UUID, from: CalendarDate) {
            (self.id, self.venueId, self.from) = (id, venueId, from)
        }
    }

    public enum Step: Sendable, Equatable {
        case close(UUID, on: CalendarDate)
        case remove(UUID)
    }

    public static func steps(open: [OpenPeriod], home: UUID?) -> [Step] {
        let keeper = open.filter { $0.venueId == home }.max { ($0.from, $0.id.uuidString) < ($1.from, $1.id.uuidString) }
        return open.filter { $0.id != keeper?.id }.map { period in
            if let keeper, period.from < keeper.from { .close(period.id, on: keeper.from) } else { .remove(period.id) }
        }
    }
}
