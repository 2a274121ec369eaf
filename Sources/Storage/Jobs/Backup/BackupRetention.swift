import Foundation

/// Which backup a retention slot keeps it for: the newest of one of the last 7 days that have one, or the newest of
/// one of the last 4 weeks that have one (a backup may be both; it is then called daily).
public enum BackupKind: String, Sendable {
    case daily, weekly
}

/// Keeps 7 daily and 4 weekly backups, as restic's `--keep-daily 7 --keep-weekly 4` does: the newest backup of each
/// of the 7 most recent days (UTC) that have one, and the newest of each of the 4 most recent ISO weeks that have one.
/// Counting days that have a backup, rather than calendar days, keeps a laptop that was off for a month from losing
/// every backup it had at its first one back.
public enum BackupRetention {
    public static let days = 7
    public static let weeks = 4

    /// Each backup time kept, with its kind; the times not in it are to be removed.
    public static func kept(_ times: [Date]) -> [Date: BackupKind] {
        let newestFirst = times.sorted(by: >)
        var kept: [Date: BackupKind] = [:]
        for time in newest(of: newestFirst, per: day, count: days) { kept[time] = .daily }
        for time in newest(of: newestFirst, per: week, count: weeks) where kept[time] == nil { kept[time] = .weekly }
        return kept
    }

    /// The first (newest) time of each of the first `count` distinct periods.
    private static func newest(of newestFirst: [Date], per period: (Date) -> DateComponents, count: Int) -> [Date] {
        var periods: [DateComponents] = []
        var chosen: [Date] = []
        for time in newestFirst where !periods.contains(period(time)) {
            guard periods.count < count else { break }
            periods.append(period(time))
            chosen.append(time)
        }
        return chosen
    }

    private static let utc: Calendar = {
        var calendar = Calendar(identifier: .iso8601)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()

    private static func day(_ time: Date) -> DateComponents { utc.dateComponents([.year, .month, .day], from: time) }
    private static func week(_ time: Date) -> DateComponents { utc.dateComponents([.yearForWeekOfYear, .weekOfYear], from: time) }
}
