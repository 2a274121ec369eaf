import Domain
import Foundation
import HTTPServer
import Storage

/// The query parameters of the analytics views, named once: the pages' filter form and the API's twins read the same
/// names, so a page's address and its JSON twin's differ only in the path.
public enum AnalyticsParameter: String, Sendable, CaseIterable {
    /// A preset (`DateRangePreset`), or `custom` for the dates in `from` and `to`.
    case range
    case from
    case to
    case areaId = "area_id"
    /// `GrowthPeriod`, on the growth view.
    case period

    public var name: String { rawValue }
}

/// Every choice of an analytics view, as the query string holds it, so a view is bookmarkable and Back restores it.
public struct AnalyticsChoices: Sendable, Equatable {
    public static let defaultPreset = DateRangePreset.last12Months
    public static let defaultPeriod = GrowthPeriod.month

    public var preset: DateRangePreset
    /// The custom dates as typed (kept when wrong, so nothing typed is lost).
    public var fromText: String
    public var toText: String
    public var areaId: UUID?
    public var period: GrowthPeriod

    public init(preset: DateRangePreset = defaultPreset, fromText: String = "", toText: String = "", areaId: UUID? = nil,
                period: GrowthPeriod = defaultPeriod) {
        (self.preset, self.fromText, self.toText, self.areaId, self.period) = (preset, fromText, toText, areaId, period)
    }

    /// The query string of these choices; defaults are left out, so addresses stay short. The period goes with every
    /// view, so going from growth to engagement and back keeps it.
    public var query: Parameters {
        var parameters = Parameters()
        if preset != Self.defaultPreset { parameters.append(AnalyticsParameter.range.name, preset.rawValue) }
        if preset == .custom {
            if !fromText.isEmpty { parameters.append(AnalyticsParameter.from.name, fromText) }
            if !toText.isEmpty { parameters.append(AnalyticsParameter.to.name, toText) }
        }
        if let areaId { parameters.append(AnalyticsParameter.areaId.name, areaId.uuidString.lowercased()) }
        if period != Self.defaultPeriod { parameters.append(AnalyticsParameter.period.name, period.rawValue) }
        return parameters
    }

    /// The same choices in another area (nil: everywhere).
    public func inArea(_ id: UUID?) -> AnalyticsChoices {
        var copy = self
        copy.areaId = id
        return copy
    }
}

/// Choices read from a request, with the scope they resolve to, or the problems that keep them from resolving.
public struct AnalyticsSelection: Sendable {
    public let choices: AnalyticsChoices
    public let range: DateRange
    public let area: GeographicArea?
    /// Problems by parameter name, worded for the person who typed them.
    public let problems: ValidationError
    /// The area id is well formed but names no area (the API answers 404 for it).
    public let areaIsMissing: Bool

    public var scope: AnalyticsScope { AnalyticsScope(range: range, areaId: area?.id) }

    /// Reads the choices. `strict` (the API) refuses a preset or period it does not know; pages treat one as absent.
    /// Dates that do not parse, a start after the end and an area that does not exist are problems on both surfaces.
    public init(_ query: Parameters, database: AppDatabase, today: CalendarDate = .today(), strict: Bool) throws {
        var problems = ValidationError()
        func choice<Value: RawRepresentable>(_ parameter: AnalyticsParameter, _ type: Value.Type, options: [String]) -> Value?
            where Value.RawValue == String {
            guard let text = query[parameter.name], !(text.isEmpty && !strict) else { return nil }
            if let value = Value(rawValue: text) { return value }
            if strict { problems.add(parameter.name, "must be one of " + options.joined(separator: ", ")) }
            return nil
        }
        let fromText = query[AnalyticsParameter.from.name] ?? "", toText = query[AnalyticsParameter.to.name] ?? ""
        let preset = choice(.range, DateRangePreset.self, options: DateRangePreset.allCases.map(\.rawValue))
            ?? (fromText.isEmpty && toText.isEmpty ? AnalyticsChoices.defaultPreset : .custom)
        let period = choice(.period, GrowthPeriod.self, options: GrowthPeriod.allCases.map(\.rawValue)) ?? AnalyticsChoices.defaultPeriod
        var range = preset.range(today: today) ?? .allTime
        if preset == .custom {
            let from = Self.date(fromText, .from, "Enter the first day as a date, like 2025-03-01", &problems)
            let to = Self.date(toText, .to, "Enter the last day as a date, like 2025-03-31", &problems)
            // A page says so; the API counts the empty range, as its document allows any two dates.
            if let from, let to, to < from, !strict { problems.add(AnalyticsParameter.to.name, "The last day must be on or after the first day") }
            range = DateRange(from: from, to: to)
        }
        if strict {
            for parameter in [AnalyticsParameter.from, .to] where query[parameter.name].map({ CalendarDate($0) == nil }) ?? false {
                problems.add(parameter.name, "must be a date like 2025-03-01")
            }
            if let text = query[AnalyticsParameter.areaId.name], UUID(uuidString: text) == nil {
                problems.add(AnalyticsParameter.areaId.name, "must be an area's id")
            }
        }
        var area: GeographicArea?, areaIsMissing = false
        if let text = query[AnalyticsParameter.areaId.name], !text.isEmpty, !strict || UUID(uuidString: text) != nil {
            do {
                guard let id = UUID(uuidString: text) else { throw DomainError.notFound(entity: "area") }
                area = try database.area(id: id)
            } catch DomainError.notFound {
                areaIsMissing = UUID(uuidString: text) != nil
                problems.add(AnalyticsParameter.areaId.name, "That area does not exist (it may have been deleted); choose another area")
            }
        }
        choices = AnalyticsChoices(preset: preset, fromText: fromText, toText: toText, areaId: area?.id, period: period)
        (self.range, self.area, self.problems, self.areaIsMissing) = (range, area, problems, areaIsMissing)
    }

    private static func date(_ text: String, _ parameter: AnalyticsParameter, _ message: String, _ problems: inout ValidationError) -> CalendarDate? {
        guard !text.isEmpty else { return nil }
        guard let date = CalendarDate(text) else { problems.add(parameter.name, message); return nil }
        return date
    }
}

/// The analytics views, named once: the pages at `/analytics` and `/analytics/growth`, their JSON twins at
/// `/api/v1/analytics/engagement` and `/api/v1/analytics/growth`.
public enum AnalyticsView: String, Sendable, CaseIterable {
    case engagement, growth

    public static let pages = RoutePattern("/analytics")
    public static let api = RoutePattern.apiRoot / "analytics"

    /// The page (engagement is the section's front page).
    public var page: RoutePattern { self == .engagement ? Self.pages : Self.pages / rawValue }
    public var twin: RoutePattern { Self.api / rawValue }

    /// The view's address with `choices` in its query string.
    public func address(_ pattern: RoutePattern, _ choices: AnalyticsChoices) -> String {
        let query = QueryString.encode(choices.query)
        return pattern() + (query.isEmpty ? "" : "?" + query)
    }
}

extension RoutePattern {
    /// The JSON API's root.
    public static let apiRoot = RoutePattern("/api/v1")
}
