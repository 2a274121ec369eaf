import Domain
import Foundation
import HTTPServer
import Storage
import Surface
import Translations

/// Analytics (Requirement 7): engagement and growth, for a date range and an area, as charts with their data tables,
/// each table also as CSV. Every choice is in the query string, so a view is bookmarkable and Back restores it.
enum AnalyticsPages {
    static func engagement(_ context: inout PageContext) throws -> Response {
        let selection = try AnalyticsSelection(context.request.query, database: context.database, strict: false)
        var view = try filterView(context, selection, .engagement)
        var preparing: AnalyticsPreparing?
        if selection.problems.isEmpty, let figures = try counted(&view, &preparing, selection, .engagement, { try engagementFigures(context, selection) }) {
            view["figures"] = figures.figures.map { $0.view(csvPath: csvPath(selection, $0.table.name), formats: context.translator.formats) }
            view["tiles"] = EngagementFigures.figureRows(figures.report).map {
                ["label": $0.label, "value": context.translator.formats.number($0.value)] as TemplateView
            }
            view["summary_csv_path"] = csvPath(selection, figures.summary.name)
        }
        let heading = selection.area.map { Message("Engagement in {area}", ["area": .text($0.name)]) } ?? Message("Engagement")
        return page(context, "analytics/engagement", heading, selection, view, preparing: preparing)
    }

    static func growth(_ context: inout PageContext) throws -> Response {
        let selection = try AnalyticsSelection(context.request.query, database: context.database, strict: false)
        var view = try filterView(context, selection, .growth)
        var preparing: AnalyticsPreparing?
        if selection.problems.isEmpty, let figures = try counted(&view, &preparing, selection, .growth, { try growthFigures(context, selection) }) {
            view["figures"] = figures.figures.map { $0.view(csvPath: csvPath(selection, $0.table.name), formats: context.translator.formats) }
            view["range_text"] = context.translator.range(DateRange(from: figures.report.from, to: figures.report.to))
            if let requested = figures.report.requestedPeriod {
                view["period_notice"] = GrowthFigures.longerPeriodNotice(asked: requested, shown: figures.report.period)
            }
        }
        let heading = selection.area.map { Message("Growth in {area}", ["area": .text($0.name)]) } ?? Message("Growth")
        return page(context, "analytics/growth", heading, selection, view, preparing: preparing)
    }

    /// `?table=<name>` and the view's choices: that table as a CSV file.
    static func csv(_ context: inout PageContext) throws -> Response {
        let selection = try AnalyticsSelection(context.request.query, database: context.database, strict: false)
        guard selection.problems.isEmpty else {
            throw HTTPError(.badRequest, selection.problems.fieldErrors.map(\.message).joined(separator: ". "))
        }
        let name = context.request.query[CSVParameter.table] ?? ""
        let growthTables = ["new-per-period", "cumulative"]
        // CSV is in English whatever the reader's language: programs read it.
        let tables = growthTables.contains(name) ? try growthFigures(context, selection, in: .english).tables
            : try engagementFigures(context, selection, in: .english).tables
        guard let table = tables.first(where: { $0.name == name }) else {
            throw HTTPError(.notFound, "There is no analytics table called “\(name)”. Use a “Download CSV” link on an analytics page.")
        }
        let range = selection.range.from.map { "-\($0)" } ?? ""
        return Response(headers: [("Content-Type", "text/csv; charset=utf-8"),
                                  ("Content-Disposition", "attachment; filename=\"fieldbook-\(table.name)\(range).csv\"")],
                        body: Array(table.csv.utf8))
    }

    enum CSVParameter { static let table = "table" }

    private static func csvPath(_ selection: AnalyticsSelection, _ table: String) -> String {
        var query = selection.choices.query
        query.append(CSVParameter.table, table)
        return Paths.analyticsTable() + "?" + QueryString.encode(query)
    }

    private static func engagementFigures(_ context: PageContext, _ selection: AnalyticsSelection,
                                          in translator: Translator? = nil) throws -> EngagementFigures {
        let report = try context.database.engagement(selection.scope)
        return EngagementFigures(report: report, place: AnalyticsNames.place(selection.area), translator: translator ?? context.translator) { row in
            guard row.isChildArea, let id = UUID(uuidString: row.areaId) else { return nil }
            return AnalyticsView.engagement.address(AnalyticsView.engagement.page, selection.choices.inArea(id))
        }
    }

    private static func growthFigures(_ context: PageContext, _ selection: AnalyticsSelection, in translator: Translator? = nil) throws -> GrowthFigures {
        GrowthFigures(report: try context.database.growth(selection.scope, period: selection.choices.period),
                      place: AnalyticsNames.place(selection.area), translator: translator ?? context.translator)
    }

    /// The filter form, the views' tabs, the area's breadcrumbs and the JSON twin's address.
    private static func filterView(_ context: PageContext, _ selection: AnalyticsSelection, _ current: AnalyticsView) throws -> TemplateView {
        let choices = selection.choices
        var form = FormView(errors: selection.problems)
        form.input(AnalyticsParameter.from.name, label: Message("First day"), value: choices.fromText, type: "date")
        form.input(AnalyticsParameter.to.name, label: Message("Last day"), value: choices.toText, type: "date")
        form.select(AnalyticsParameter.areaId.name, label: Message("Area"), value: choices.areaId?.lowercasedString ?? "",
                    options: [("", Message("All areas"))]
                        + (try context.database.areaTree()).map { ($0.area.id.lowercasedString, Message.verbatim(AreaPages.indented($0))) },
                    hint: Message("Counts the area and every area inside it"))
        form.select(AnalyticsParameter.period.name, label: Message("Count by"), value: choices.period.rawValue,
                    options: GrowthPeriod.allCases.map { ($0.rawValue, GrowthFigures.periodLabel($0)) })
        form.anchors[AnalyticsParameter.areaId.name] = AnalyticsParameter.areaId.name
        var view = form.view
        view["action"] = current.page()
        view["show_period"] = current == .growth
        if current != .growth && choices.period != AnalyticsChoices.defaultPeriod { view["kept_period"] = choices.period.rawValue }
        view["presets"] = DateRangePreset.allCases.map { preset -> TemplateView in
            var item: TemplateView = ["value": preset.rawValue, "label": presetLabel(preset), "checked": preset == choices.preset]
            if let range = preset.range(today: .today()), range != .allTime { item["dates"] = context.translator.range(range) }
            return item
        }
        view["tabs"] = AnalyticsView.allCases.map { view -> TemplateView in
            ["label": view == .engagement ? Message("Engagement") : Message("Growth"), "path": view.address(view.page, choices),
             "current": view == current]
        }
        view["json_path"] = current.address(current.twin, choices)
        view["range_text"] = context.translator.range(selection.range)
        if let area = selection.area {
            view["area_name"] = area.name
            let trail = try context.database.ancestors(of: area.id)
            view["breadcrumbs"] = [["name": Message("All areas"), "path": current.address(current.page, choices.inArea(nil))] as TemplateView]
                + trail.map { ["name": $0.name, "path": current.address(current.page, choices.inArea($0.id))] as TemplateView }
            view["has_breadcrumbs"] = true
            view["area_path"] = Paths.areas.record(area.id)
        }
        return view
    }

    private static func presetLabel(_ preset: DateRangePreset) -> Message {
        switch preset {
        case .last30Days: Message("Last 30 days")
        case .thisQuarter: Message("This quarter")
        case .last12Months: Message("Last 12 months")
        case .allTime: Message("All time")
        case .custom: Message("Dates I choose")
        }
    }

    private static func page(_ context: PageContext, _ template: String, _ heading: Message, _ selection: AnalyticsSelection,
                             _ view: TemplateView, preparing: AnalyticsPreparing?) -> Response {
        var view = view
        view["heading"] = heading
        let status: HTTPStatus = !selection.problems.isEmpty ? .badRequest : preparing == nil ? .ok : .serviceUnavailable
        var response = context.page(template, title: Message("Analytics: {heading}", ["heading": .message(heading)]), section: .analytics, view: view,
                                    status: status, hasErrors: !selection.problems.isEmpty)
        if let preparing { response.setHeader("Retry-After", String(preparing.retryAfter)) }
        return response
    }

    /// The figures, or nil with a notice in the view while they are still being counted (a large community just after
    /// start or a large import): the page keeps its filters and offers a reload rather than becoming the error page.
    private static func counted<Figures>(_ view: inout TemplateView, _ preparing: inout AnalyticsPreparing?, _ selection: AnalyticsSelection,
                                         _ current: AnalyticsView, _ count: () throws -> Figures) throws -> Figures? {
        do {
            return try count()
        } catch let refusal as AnalyticsPreparing {
            preparing = refusal
            view["preparing"] = Message(
                "The analytics are being prepared: Fieldbook counts every record once after it starts, and again after a large import or sync. Reload this page in {count} second.",
                plural: "The analytics are being prepared: Fieldbook counts every record once after it starts, and again after a large import or sync. Reload this page in {count} seconds.",
                count: refusal.retryAfter)
            view["reload_path"] = current.address(current.page, selection.choices)
            return nil
        }
    }
}
