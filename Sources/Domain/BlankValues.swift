import Foundation

// A blank record (`blank(id:version:)`) holds these until its declaration's decoding reads its fields; they are also
// what an unreadable stored value reads as.

extension UUID {
    package static let zero = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
}

extension CalendarDate {
    public static let unreadable = CalendarDate("2000-01-01")!
}

extension Date {
    /// As GRDB's readers here fall back to: no clock is read for a row.
    public static let unreadable = Date(timeIntervalSince1970: 0)
}
