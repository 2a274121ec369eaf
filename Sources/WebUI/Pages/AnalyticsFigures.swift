import Domain
import Foundation
import Storage
import Surface
import Translations

/// One chart with its title, its one-sentence summary and its data table (which is also its CSV download).
struct AnalyticsFigure {
    let title: Message
    let summary: Message
    /// nil when there is nothing to draw; the table still says so.
    let chart: ((_ labelledBy: String) -> String)?
    let table: DataTable

    func view(csvPath: String, formats: Formats) -> TemplateView {
        var view: TemplateView = ["id": table.name, "title": title, "summary": summary, "table": table.view(formats), "csv_path": csvPath]
        if let chart { view["svg"] = chart("\(table.name)-title \(table.name)-summary") }
        return view
    }
}

/// The names of what the engagement report counts, the same on every tile, chart, table, sentence and CSV. An activity
/// counts when its dates overlap the range, whatever its status, so "active" (a status of its own) is not its name.
enum AnalyticsNames {
    static let inRange = Message("Activities in the range")
    static let openEnded = Message("Activities in the range with no end date")

    /// Where the figures are counted, as the sentences say it.
    static func place(_ area: GeographicArea?) -> Message {
        guard let area else { return Message("in all areas", context: "where analytics count") }
        return Message("in {area}", context: "where analytics count", ["area": .text(area.name)])
    }
}

/// The engagement report as figures: what the page shows and the CSV downloads serve, worded by `translator` (the
/// page's; English for CSV).
struct EngagementFigures {
    let report: EngagementReport
    let place: Message
    let translator: Translator
    let drillDown: (AreaEngagement) -> String?

    var tables: [DataTable] { [summary] + figures.map(\.table) }

    var summary: DataTable {
        DataTable(name: "summary", caption: Message("Engagement {place}", ["place": .message(place)]),
                  columns: [Message("Figure"), Message("Count")],
                  rows: Self.figureRows(report).map { [.generated($0.label), .number($0.value)] })
    }

    static func figureRows(_ report: EngagementReport) -> [(label: Message, value: Int)] {
        [(Message("Participants"), report.totalParticipants), (Message("Activities"), report.totalActivities),
         (AnalyticsNames.inRange, report.activitiesInRange), (AnalyticsNames.openEnded, report.openEndedActivitiesInRange),
         (Message("Participants taking part"), report.participation), (Message("New participants"), report.newParticipants),
         (Message("New activities"), report.newActivities)]
    }

    var figures: [AnalyticsFigure] {
        [groups(report.activitiesByType.map { (Message.verbatim($0.label), $0.count) }, name: "activities-by-type",
                title: Message("Activities in the range, by type"), column: Message("Activity type"), counted: .activities),
         groups(report.activitiesByStatus.map { (Message(domainText: $0.label), $0.count) }, name: "activities-by-status",
                title: Message("Activities in the range, by status"), column: Message("Status"), counted: .activities),
         groups(report.participantsByRole.map { (Message.verbatim($0.label), $0.count) }, name: "participants-by-role",
                title: Message("Participants taking part, by role"), column: Message("Role", context: "participants' roles in activities"),
                counted: .participantsTakingPart),
         breakdown]
    }

    private func groups(_ counts: [(label: Message, count: Int)], name: String, title: Message, column: Message,
                        counted: GroupSentences) -> AnalyticsFigure {
        let total = counts.reduce(0) { $0 + $1.count }
        let table = DataTable(name: name, caption: title, columns: [column, Message("Count")],
                              rows: counts.map { [DataTable.Cell(text: $0.label), .number($0.count)] })
        guard total > 0, let top = counts.max(by: { $0.count < $1.count }), let bottom = counts.min(by: { $0.count < $1.count }) else {
            return AnalyticsFigure(title: title, summary: counted.none(place), chart: nil, table: table)
        }
        let summary = counted.summary(total: total, place: place, top: top, bottom: counts.count > 1 ? bottom : nil)
        let chart = BarChart(id: name, categories: counts.map(\.label), series: [ChartSeries(label: Message("Count"), values: counts.map(\.count))],
                             translator: translator)
        return AnalyticsFigure(title: title, summary: summary, chart: chart.svg, table: table)
    }

    private var breakdown: AnalyticsFigure {
        let rows = report.breakdown
        let title = Message("Engagement by area")
        let table = DataTable(name: "by-area", caption: title,
                              columns: [Message("Area"), Message("Participants"), AnalyticsNames.inRange, Message("Participants taking part")],
                              rows: rows.map { [DataTable.Cell(text: Self.areaLabel($0), link: drillDown($0)),
                                                .number($0.participants), .number($0.activitiesInRange), .number($0.participation)] })
        let mostPeople = rows.max { $0.participants < $1.participants }, mostInRange = rows.max { $0.activitiesInRange < $1.activitiesInRange }
        guard let mostPeople, let mostInRange, mostPeople.participants + mostInRange.activitiesInRange > 0 else {
            let summary = rows.isEmpty ? Message("There are no areas inside to compare.")
                : Message("No participants or activities in these areas in this range.")
            return AnalyticsFigure(title: title, summary: summary, chart: nil, table: table)
        }
        let summary = Message("Of {count} area, {people_area} has the most participants ({participants}) and {activities_area} the most activities in the range ({activities}).",
                              plural: "Of {count} areas, {people_area} has the most participants ({participants}) and {activities_area} the most activities in the range ({activities}).",
                              count: rows.count,
                              ["people_area": .text(mostPeople.name), "participants": .number(mostPeople.participants),
                               "activities_area": .text(mostInRange.name), "activities": .number(mostInRange.activitiesInRange)])
        let chart = BarChart(id: "by-area", categories: rows.map { .verbatim($0.name) }, series: [
            ChartSeries(label: Message("Participants"), values: rows.map(\.participants)) {
                Message("{count} participant", plural: "{count} participants", count: $0, ["count": .text($1)])
            },
            ChartSeries(label: AnalyticsNames.inRange, values: rows.map(\.activitiesInRange)) {
                Message("{count} activity in the range", plural: "{count} activities in the range", count: $0, ["count": .text($1)])
            },
            ChartSeries(label: Message("Taking part"), values: rows.map(\.participation)) {
                Message("{count} taking part", plural: "{count} taking part", count: $0, ["count": .text($1)])
            },
        ], translator: translator)
        return AnalyticsFigure(title: title, summary: summary, chart: chart.svg, table: table)
    }

    /// A child area by its name; the chosen area's own venues as that area "itself".
    private static func areaLabel(_ row: AreaEngagement) -> Message {
        row.isChildArea ? .verbatim(row.name) : Message("{area} itself (not in an area inside)", ["area": .text(row.name)])
    }
}

/// The sentences of a figure of groups (types, statuses, roles), each whole for the thing it counts: a language words
/// "activities" and "participants taking part" each its own way around the counts.
private enum GroupSentences {
    case activities, participantsTakingPart

    func none(_ place: Message) -> Message {
        switch self {
        case .activities: Message("There are no activities {place} in this range.", ["place": .message(place)])
        case .participantsTakingPart:
            Message("There are no participants taking part (one person can hold several roles) {place} in this range.", ["place": .message(place)])
        }
    }

    /// The most and, when there are several groups, the fewest.
    func summary(total: Int, place: Message, top: (label: Message, count: Int), bottom: (label: Message, count: Int)?) -> Message {
        var values: [String: MessageArgument] = ["place": .message(place), "top": .message(top.label), "most": .number(top.count)]
        guard let bottom else {
            switch self {
            case .activities:
                return Message("Of {count} activity {place} in this range, {top} has the most ({most}).",
                               plural: "Of {count} activities {place} in this range, {top} has the most ({most}).", count: total, values)
            case .participantsTakingPart:
                return Message("Of {count} participant taking part (one person can hold several roles) {place} in this range, {top} has the most ({most}).",
                               plural: "Of {count} participants taking part (one person can hold several roles) {place} in this range, {top} has the most ({most}).",
                               count: total, values)
            }
        }
        values["bottom"] = .message(bottom.label)
        values["fewest"] = .number(bottom.count)
        switch self {
        case .activities:
            return Message("Of {count} activity {place} in this range, {top} has the most ({most}) and {bottom} the fewest ({fewest}).",
                           plural: "Of {count} activities {place} in this range, {top} has the most ({most}) and {bottom} the fewest ({fewest}).",
                           count: total, values)
        case .participantsTakingPart:
            return Message("Of {count} participant taking part (one person can hold several roles) {place} in this range, {top} has the most ({most}) and {bottom} the fewest ({fewest}).",
                           plural: "Of {count} participants taking part (one person can hold several roles) {place} in this range, {top} has the most ({most}) and {bottom} the fewest ({fewest}).",
                           count: total, values)
        }
    }
}

/// The growth report as figures, worded by `translator` (the page's; English for CSV).
struct GrowthFigures {
    let report: GrowthReport
    let place: Message
    let translator: Translator

    var tables: [DataTable] { figures.map(\.table) }

    var figures: [AnalyticsFigure] { [newPerPeriod, cumulative] }

    private var periods: [GrowthPoint] { report.series.first?.points ?? [] }

    private var formats: Formats { translator.formats }

    private func periodCell(_ point: GrowthPoint) -> DataTable.Cell {
        .generated(point.partial ? Message("{period} (part)", ["period": .message(periodName(point))]) : periodName(point))
    }

    /// "Week of 3 Mar 2025", "Mar 2025", "Q1 2025", "2025".
    private func periodName(_ point: GrowthPoint) -> Message {
        let start = point.start
        switch report.period {
        case .week: return Message("Week of {day}", ["day": .text(translator.day(start))])
        case .month: return .verbatim(translator.month(start))
        case .quarter:
            return Message("Q{quarter} {year}", context: "a calendar quarter",
                           ["quarter": .text(formats.digits((start.month - 1) / 3 + 1)), "year": .text(formats.digits(start.year))])
        case .year: return .verbatim(formats.digits(start.year))
        }
    }

    /// "+25.0% (up)", "−10.0% (down)", "no change", "not comparable (none the period before)".
    private func changeText(_ change: PeriodChange) -> Message {
        let percent = formats.percentToTenths(abs(change.percent ?? 0) / 100)
        switch change.direction {
        case .up: return Message("+{percent} (up)", context: "a change from the period before", ["percent": .text(percent)])
        case .down: return Message("−{percent} (down)", context: "a change from the period before", ["percent": .text(percent)])
        case .none: return Message("no change", context: "a change from the period before")
        case .notComparable: return Message("not comparable (none the period before)", context: "a change from the period before")
        case .first: return Message("first period shown", context: "a change from the period before")
        }
    }

    private var newPerPeriod: AnalyticsFigure {
        let title = Self.newPer(report.period)
        let columns = [Message("Period")] + report.series.flatMap { [Self.newName($0.measure), Self.changeName($0.measure)] }
        let rows = periods.indices.map { index in
            [periodCell(periods[index])] + report.series.flatMap { series -> [DataTable.Cell] in
                [.number(series.points[index].count), .generated(changeText(series.points[index].change))]
            }
        }
        let totals = Self.list(report.series.map { Self.count($0.measure, $0.points.reduce(0) { $0 + $1.count }) })
        var values: [String: MessageArgument] = ["from": .text(translator.day(report.from)), "to": .text(translator.day(report.to)),
                                                 "totals": .message(totals), "place": .message(place)]
        let summary: Message
        if let people = report.series.first, let busiest = people.points.max(by: { $0.count < $1.count }), busiest.count > 0 {
            values["period"] = .message(periodName(busiest))
            values["busiest"] = .number(busiest.count)
            summary = Message("From {from} to {to}, {totals} were new {place}; most participants were new in {period} ({busiest}).", values)
        } else {
            summary = Message("From {from} to {to}, {totals} were new {place}.", values)
        }
        return AnalyticsFigure(title: title, summary: summary, chart: chart(name: "new-per-period", \.count),
                               table: DataTable(name: "new-per-period", caption: title, columns: columns, rows: rows))
    }

    private var cumulative: AnalyticsFigure {
        let title = Message("Cumulative totals")
        let rows = periods.indices.map { index in
            [periodCell(periods[index])] + report.series.map { DataTable.Cell.number($0.points[index].cumulative) }
        }
        let totals = Self.list(report.series.map { Self.count($0.measure, $0.points.last?.cumulative ?? $0.before) })
        let summary = Message("By {to} there were {totals} {place} in all, counting those from before the range.",
                              ["to": .text(translator.day(report.to)), "totals": .message(totals), "place": .message(place)])
        return AnalyticsFigure(title: title, summary: summary, chart: chart(name: "cumulative", \.cumulative),
                               table: DataTable(name: "cumulative", caption: title,
                                                columns: [Message("Period")] + report.series.map { Self.allName($0.measure) }, rows: rows))
    }

    private func chart(name: String, _ value: KeyPath<GrowthPoint, Int>) -> ((String) -> String)? {
        guard !periods.isEmpty else { return nil }
        return LineChart(id: name, periods: periods.map(periodName), series: report.series.map {
            ChartSeries(label: Self.name($0.measure), values: $0.points.map { $0[keyPath: value] })
        }, translator: translator).svg
    }

    /// The note shown when a range has too many of the periods asked for, so a longer one counts it.
    static func longerPeriodNotice(asked: GrowthPeriod, shown: GrowthPeriod) -> Message {
        let most = GrowthReport.maxPeriods
        switch (asked, shown) {
        case (.week, .month):
            return Message("This range has more than {count} week, so it is shown by month. Choose a shorter range to see weeks.",
                           plural: "This range has more than {count} weeks, so it is shown by month. Choose a shorter range to see weeks.", count: most)
        case (.week, .quarter):
            return Message("This range has more than {count} week, so it is shown by quarter. Choose a shorter range to see weeks.",
                           plural: "This range has more than {count} weeks, so it is shown by quarter. Choose a shorter range to see weeks.", count: most)
        case (.week, _):
            return Message("This range has more than {count} week, so it is shown by year. Choose a shorter range to see weeks.",
                           plural: "This range has more than {count} weeks, so it is shown by year. Choose a shorter range to see weeks.", count: most)
        case (.month, .quarter):
            return Message("This range has more than {count} month, so it is shown by quarter. Choose a shorter range to see months.",
                           plural: "This range has more than {count} months, so it is shown by quarter. Choose a shorter range to see months.", count: most)
        case (.month, _):
            return Message("This range has more than {count} month, so it is shown by year. Choose a shorter range to see months.",
                           plural: "This range has more than {count} months, so it is shown by year. Choose a shorter range to see months.", count: most)
        default:
            return Message("This range has more than {count} quarter, so it is shown by year. Choose a shorter range to see quarters.",
                           plural: "This range has more than {count} quarters, so it is shown by year. Choose a shorter range to see quarters.", count: most)
        }
    }

    private static func newPer(_ period: GrowthPeriod) -> Message {
        switch period {
        case .week: Message("New per week")
        case .month: Message("New per month")
        case .quarter: Message("New per quarter")
        case .year: Message("New per year")
        }
    }

    /// A period's name as the filter offers it.
    static func periodLabel(_ period: GrowthPeriod) -> Message {
        switch period {
        case .week: Message("Week")
        case .month: Message("Month")
        case .quarter: Message("Quarter")
        case .year: Message("Year")
        }
    }

    private static func name(_ measure: GrowthMeasure) -> Message {
        switch measure {
        case .participants: Message("Participants")
        case .activities: Message("Activities")
        case .assignments: Message("Assignments")
        }
    }

    private static func newName(_ measure: GrowthMeasure) -> Message {
        switch measure {
        case .participants: Message("New participants")
        case .activities: Message("New activities")
        case .assignments: Message("New assignments")
        }
    }

    private static func changeName(_ measure: GrowthMeasure) -> Message {
        switch measure {
        case .participants: Message("Change in participants")
        case .activities: Message("Change in activities")
        case .assignments: Message("Change in assignments")
        }
    }

    private static func allName(_ measure: GrowthMeasure) -> Message {
        switch measure {
        case .participants: Message("All participants")
        case .activities: Message("All activities")
        case .assignments: Message("All assignments")
        }
    }

    private static func count(_ measure: GrowthMeasure, _ count: Int) -> Message {
        switch measure {
        case .participants: Message("{count} participant", plural: "{count} participants", count: count)
        case .activities: Message("{count} activity", plural: "{count} activities", count: count)
        case .assignments: Message("{count} assignment", plural: "{count} assignments", count: count)
        }
    }

    /// "a, b and c".
    static func list(_ items: [Message]) -> Message {
        guard let last = items.last, items.count > 1 else { return items.first ?? .verbatim("") }
        let leading = items.dropLast().dropFirst().reduce(items[0]) { list, item in
            Message("{list}, {item}", context: "items of a list before its last two", ["list": .message(list), "item": .message(item)])
        }
        return Message("{kinds} and {last}", context: "the last two items of a list", ["kinds": .message(leading), "last": .message(last)])
    }
}
