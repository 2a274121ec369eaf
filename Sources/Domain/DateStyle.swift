import Foundation

/// The order a reader writes dates in, taken from their browser's Accept-Language, so pages read dates as the browser's
/// own date inputs show them ("Nov 23, 2026" beside mm/dd/yyyy, "23 Nov 2026" beside dd/mm/yyyy). The words stay
/// English, as the rest of the page. Set for the length of one page request (`DateStyle.$current`).
public enum DateStyle: Sendable, Equatable {
    case dayFirst, monthFirst, yearFirst

    @TaskLocal public static var current: DateStyle = .dayFirst

    private static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    /// Language tags (lower case) that write the month first, and languages or tags that write the year first.
    private static let monthFirstTags: Set<String> = ["en-us", "en-ph", "en-as", "en-gu", "en-mp", "en-pr", "en-um", "en-vi", "es-us"]
    private static let yearFirstLanguages: Set<String> = ["ja", "zh", "ko", "hu", "lt", "mn", "sv"]
    private static let yearFirstTags: Set<String> = ["en-ca", "fr-ca"]

    /// The style of the language the reader prefers most (highest q, first on a tie); day first when none is given.
    public static func preferred(byAcceptLanguage header: String?) -> DateStyle {
        guard let header else { return .dayFirst }
        var best: (tag: String, quality: Double)?
        for part in header.split(separator: ",") {
            let pieces = part.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let tag = pieces.first?.lowercased(), !tag.isEmpty, tag != "*" else { continue }
            let quality = pieces.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            if quality > 0, quality > (best?.quality ?? 0) { best = (tag, quality) }
        }
        guard let tag = best?.tag else { return .dayFirst }
        let language = String(tag.split(separator: "-").first ?? "")
        if monthFirstTags.contains(tag) { return .monthFirst }
        if yearFirstTags.contains(tag) || yearFirstLanguages.contains(language) { return .yearFirst }
        return .dayFirst
    }

    /// "23 Nov 2026", "Nov 23, 2026" or "2026-11-23".
    public func text(year: Int, month: Int, day: Int) -> String {
        switch self {
        case .dayFirst: "\(day) \(Self.monthNames[month - 1]) \(year)"
        case .monthFirst: "\(Self.monthNames[month - 1]) \(day), \(year)"
        case .yearFirst: String(format: "%04d-%02d-%02d", year, month, day)
        }
    }

    /// A month without its day: "Nov 2026", or "2026-11" where the year comes first.
    public func text(year: Int, month: Int) -> String {
        self == .yearFirst ? String(format: "%04d-%02d", year, month) : "\(Self.monthNames[month - 1]) \(year)"
    }

    /// A moment, in this machine's time zone: "23 Nov 2026, 15:04", "Nov 23, 2026, 3:04 PM" or "2026-11-23 15:04".
    public func text(_ moment: Date, calendar: Calendar = .current) -> String {
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: moment)
        let (hour, minute) = (parts.hour ?? 0, parts.minute ?? 0)
        let date = text(year: parts.year ?? 1970, month: parts.month ?? 1, day: parts.day ?? 1)
        switch self {
        case .monthFirst: return "\(date), \(hour % 12 == 0 ? 12 : hour % 12):\(String(format: "%02d", minute)) \(hour < 12 ? "AM" : "PM")"
        case .dayFirst: return "\(date), " + String(format: "%02d:%02d", hour, minute)
        case .yearFirst: return "\(date) " + String(format: "%02d:%02d", hour, minute)
        }
    }
}
