import Domain
import Foundation
import Storage
import Surface

/// One chart with its title, its one-sentence summary and its data table (which is also its CSV download).
struct AnalyticsFigure {
    let title: String
    let summary: String
    /// nil when there is nothing to draw; the table still says so.
    let chart: ((_ labelledBy: String) -> String)?
    let table: DataTable

    func view(csvPath: String) -> TemplateView {
        var view: TemplateView = ["id": table.name, "title": title, "summary": summary, "table": table.view, "csv_path": csvPath]
        if let chart { view["svg"] = chart("\(table.name)-title \(table.name)-summary") }
        return view
    }
}

/// The names of what the engagement report counts, the same on every tile, chart, table, sentence and CSV. An activity
/// counts when its dates overlap the range, whatever its status, so "active" (a status of its own) is not its name.
enum AnalyticsNames {
    static let inRange = "Activities in the range"
    static let openEnded = "Activities in the range with no end date"
}

/// The engagement report as figures: what the page shows and the CSV downloads serve.
struct EngagementFigures {
    let report: EngagementReport
    /// The area the report counts in, for sentences ("in Westside").
    let place: String
    let drillDown: (AreaEngagement) -> String?

    var tables: [DataTable] { [summary] + figures.map(\.table) }

    var summary: DataTable {
        DataTable(name: "summary", caption: "Engagement \(place)", columns: ["Figure", "Count"], rows: Self.figureRows(report).map {
            [.text($0.label), .number($0.value)]
        })
    }

    static func figureRows(_ report: EngagementReport) -> [(label: String, value: Int)] {
        [("Participants", report.totalParticipants), ("Activities", report.totalActivities),
         (AnalyticsNames.inRange, report.activitiesInRange), (AnalyticsNames.openEnded, report.openEndedActivitiesInRange),
         ("Participants taking part", report.participation), ("New participants", report.newParticipants),
         ("New activities", report.newActivities)]
    }

    var figures: [AnalyticsFigure] {
        [groups(report.activitiesByType, name: "activities-by-type", title: AnalyticsNames.inRange + ", by type",
                column: "Activity type", noun: "activities"),
         groups(report.activitiesByStatus, name: "activities-by-status", title: AnalyticsNames.inRange + ", by status",
                column: "Status", noun: "activities"),
         groups(report.participantsByRole, name: "participants-by-role", title: "Participants taking part, by role", column: "Role",
                noun: "participants taking part (one person can hold several roles)"),
         breakdown]
    }

    private func groups(_ counts: [GroupCount], name: String, title: String, column: String, noun: String) -> AnalyticsFigure {
        let total = counts.reduce(0) { $0 + $1.count }
        let table = DataTable(name: name, caption: title, columns: [column, "Count"], rows: counts.map { [.text($0.label), .number($0.count)] })
        guard total > 0, let top = counts.max(by: { $0.count < $1.count }), let bottom = counts.min(by: { $0.count < $1.count }) else {
            return AnalyticsFigure(title: title, summary: "There are no \(noun) \(place) in this range.", chart: nil, table: table)
        }
        let summary = "Of \(DataTable.grouped(total)) \(noun) \(place) in this range, \(top.label) has the most (\(DataTable.grouped(top.count)))"
            + (counts.count > 1 ? " and \(bottom.label) the fewest (\(DataTable.grouped(bottom.count)))." : ".")
        let chart = BarChart(id: name, categories: counts.map(\.label), series: [ChartSeries(label: "Count", values: counts.map(\.count))])
        return AnalyticsFigure(title: title, summary: summary, chart: chart.svg, table: table)
    }

    private var breakdown: AnalyticsFigure {
        let rows = report.breakdown
        let title = "Engagement by area"
        let table = DataTable(name: "by-area", caption: title, columns: ["Area", "Participants", AnalyticsNames.inRange, "Participants taking part"],
                              rows: rows.map { [.text($0.isChildArea ? $0.name : "\($0.name) itself (not in an area inside)", link: drillDown($0)),
                                                .number($0.participants), .number($0.activitiesInRange), .number($0.participation)] })
        let mostPeople = rows.max { $0.participants < $1.participants }, mostInRange = rows.max { $0.activitiesInRange < $1.activitiesInRange }
        guard let mostPeople, let mostInRange, mostPeople.participants + mostInRange.activitiesInRange > 0 else {
            let summary = rows.isEmpty ? "There are no areas inside to compare." : "No participants or activities in these areas in this range."
            return AnalyticsFigure(title: title, summary: summary, chart: nil, table: table)
        }
        let summary = "Of \(rows.count) \(rows.count == 1 ? "area" : "areas"), \(mostPeople.name) has the most participants "
            + "(\(DataTable.grouped(mostPeople.participants))) and \(mostInRange.name) the most activities in the range "
            + "(\(DataTable.grouped(mostInRange.activitiesInRange)))."
        let chart = BarChart(id: "by-area", categories: rows.map(\.name), series: [
            ChartSeries(label: "Participants", values: rows.map(\.participants)),
            ChartSeries(label: AnalyticsNames.inRange, values: rows.map(\.activitiesInRange)),
            ChartSeries(label: "Taking part", values: rows.map(\.participation)),
        ])
        return AnalyticsFigure(title: title, summary: summary, chart: chart.svg, table: table)
    }
}

/// The growth report as figures.
struct GrowthFigures {
    let report: GrowthReport
    let place: String

    var tables: [DataTable] { figures.map(\.table) }

    var figures: [AnalyticsFigure] { [newPerPeriod, cumulative] }

    private var periods: [GrowthPoint] { report.series.first?.points ?? [] }

    private func periodCell(_ point: GrowthPoint) -> DataTable.Cell { .generated(point.label + (point.partial ? " (part)" : "")) }

    private var newPerPeriod: AnalyticsFigure {
        let title = "New per \(report.period.rawValue)"
        let columns = ["Period"] + report.series.flatMap { [$0.label, "Change in \($0.measure.rawValue)"] }
        let rows = periods.indices.map { index in
            [periodCell(periods[index])] + report.series.flatMap { series -> [DataTable.Cell] in
                [.number(series.points[index].count), .generated(series.points[index].change.text)]
            }
        }
        let totals = report.series.map { "\(DataTable.grouped($0.points.reduce(0) { $0 + $1.count })) \($0.measure.rawValue)" }
        var summary = "From \(report.from.display) to \(report.to.display), \(Self.list(totals)) were new \(place)"
        if let people = report.series.first, let busiest = people.points.max(by: { $0.count < $1.count }), busiest.count > 0 {
            summary += "; most participants were new in \(busiest.label) (\(DataTable.grouped(busiest.count)))"
        }
        return AnalyticsFigure(title: title, summary: summary + ".", chart: chart(name: "new-per-period", \.count),
                               table: DataTable(name: "new-per-period", caption: title, columns: columns, rows: rows))
    }

    private var cumulative: AnalyticsFigure {
        let title = "Cumulative totals"
        let rows = periods.indices.map { index in
            [periodCell(periods[index])] + report.series.map { DataTable.Cell.number($0.points[index].cumulative) }
        }
        let totals = report.series.map { "\(DataTable.grouped($0.points.last?.cumulative ?? $0.before)) \($0.measure.rawValue)" }
        let summary = "By \(report.to.display) there were \(Self.list(totals)) \(place) in all, counting those from before the range."
        return AnalyticsFigure(title: title, summary: summary, chart: chart(name: "cumulative", \.cumulative),
                               table: DataTable(name: "cumulative", caption: title,
                                                columns: ["Period"] + report.series.map { "All \($0.measure.rawValue)" }, rows: rows))
    }

    private func chart(name: String, _ value: KeyPath<GrowthPoint, Int>) -> ((String) -> String)? {
        guard !periods.isEmpty else { return nil }
        return LineChart(id: name, periods: periods.map(\.label), series: report.series.map {
            ChartSeries(label: $0.measure.rawValue.prefix(1).uppercased() + $0.measure.rawValue.dropFirst(), values: $0.points.map { $0[keyPath: value] })
        }).svg
    }

    /// "a, b and c".
    static func list(_ items: [String]) -> String {
        items.count <= 1 ? items.joined() : items.dropLast().joined(separator: ", ") + " and " + items.last!
    }
}
