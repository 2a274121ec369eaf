import Domain
import Foundation
import HTTPServer
import Storage
import Surface

/// Analytics (Requirement 7): engagement and growth, for a date range and an area, as charts with their data tables,
/// each table also as CSV. Every choice is in the query string, so a view is bookmarkable and Back restores it.
enum AnalyticsPages {
    static func engagement(_ context: inout PageContext) throws -> Response {
        let selection = try AnalyticsSelection(context.request.query, database: context.database, strict: false)
        var view = try filterView(context, selection, .engagement)
        var preparing: AnalyticsPreparing?
        if selection.problems.isEmpty, let figures = try counted(&view, &preparing, selection, .engagement, { try engagementFigures(context, selection) }) {
            view["figures"] = figures.figures.map { $0.view(csvPath: csvPath(selection, $0.table.name)) }
            view["tiles"] = EngagementFigures.figureRows(figures.report).map { ["label": $0.label, "value": DataTable.grouped($0.value)] }
            view["summary_csv_path"] = csvPath(selection, figures.summary.name)
        }
        return page(context, "analytics/engagement", "Engagement", selection, view, preparing: preparing)
    }

    static func growth(_ context: inout PageContext) throws -> Response {
        let selection = try AnalyticsSelection(context.request.query, database: context.database, strict: false)
        var view = try filterView(context, selection, .growth)
        var preparing: AnalyticsPreparing?
        if selection.problems.isEmpty, let figures = try counted(&view, &preparing, selection, .growth, { try growthFigures(context, selection) }) {
            view["figures"] = figures.figures.map { $0.view(csvPath: csvPath(selection, $0.table.name)) }
            view["range_text"] = "\(figures.report.from.display) to \(figures.report.to.display)"
            if let requested = figures.report.requestedPeriod {
                view["period_notice"] = "This range has more than \(GrowthReport.maxPeriods) \(requested.plural), so it is shown by "
                    + "\(figures.report.period.rawValue). Choose a shorter range to see \(requested.plural)."
            }
        }
        return page(context, "analytics/growth", "Growth", selection, view, preparing: preparing)
    }

    /// `?table=<name>` and the view's choices: that table as a CSV file.
    static func csv(_ context: inout PageContext) throws -> Response {
        let selection = try AnalyticsSelection(context.request.query, database: context.database, strict: false)
        guard selection.problems.isEmpty else {
            throw HTTPError(.badRequest, selection.problems.fieldErrors.map(\.message).joined(separator: ". "))
        }
        let name = context.request.query[CSVParameter.table] ?? ""
        let growthTables = ["new-per-period", "cumulative"]
        let tables = growthTables.contains(name) ? try growthFigures(context, selection).tables : try engagementFigures(context, selection).tables
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

    private static func place(_ selection: AnalyticsSelection) -> String {
        selection.area.map { "in \($0.name)" } ?? "in all areas"
    }

    private static func engagementFigures(_ context: PageContext, _ selection: AnalyticsSelection) throws -> EngagementFigures {
        let report = try context.database.engagement(selection.scope)
        return EngagementFigures(report: report, place: place(selection)) { row in
            guard row.isChildArea, let id = UUID(uuidString: row.areaId) else { return nil }
            return AnalyticsView.engagement.address(AnalyticsView.engagement.page, selection.choices.inArea(id))
        }
    }

    private static func growthFigures(_ context: PageContext, _ selection: AnalyticsSelection) throws -> GrowthFigures {
        GrowthFigures(report: try context.database.growth(selection.scope, period: selection.choices.period), place: place(selection))
    }

    /// The filter form, the views' tabs, the area's breadcrumbs and the JSON twin's address.
    private static func filterView(_ context: PageContext, _ selection: AnalyticsSelection, _ current: AnalyticsView) throws -> TemplateView {
        let choices = selection.choices
        var form = FormView(errors: selection.problems)
        form.input(AnalyticsParameter.from.name, label: "First day", value: choices.fromText, type: "date")
        form.input(AnalyticsParameter.to.name, label: "Last day", value: choices.toText, type: "date")
        form.select(AnalyticsParameter.areaId.name, label: "Area", value: choices.areaId?.lowercasedString ?? "",
                    options: [("", "All areas")] + (try context.database.areaTree()).map { ($0.area.id.lowercasedString, AreaPages.indented($0)) },
                    hint: "Counts the area and every area inside it")
        form.select(AnalyticsParameter.period.name, label: "Count by", value: choices.period.rawValue,
                    options: GrowthPeriod.allCases.map { ($0.rawValue, $0.label) })
        form.anchors[AnalyticsParameter.areaId.name] = AnalyticsParameter.areaId.name
        var view = form.view
        view["action"] = current.page()
        view["show_period"] = current == .growth
        if current != .growth && choices.period != AnalyticsChoices.defaultPeriod { view["kept_period"] = choices.period.rawValue }
        view["presets"] = DateRangePreset.allCases.map { preset -> TemplateView in
            var item: TemplateView = ["value": preset.rawValue, "label": preset.label, "checked": preset == choices.preset]
            if let range = preset.range(today: .today()), range != .allTime { item["dates"] = range.text }
            return item
        }
        view["tabs"] = AnalyticsView.allCases.map { view -> TemplateView in
            ["label": view == .engagement ? "Engagement" : "Growth", "path": view.address(view.page, choices), "current": view == current]
        }
        view["json_path"] = current.address(current.twin, choices)
        view["range_text"] = selection.range.text
        if let area = selection.area {
            view["area_name"] = area.name
            let trail = try context.database.ancestors(of: area.id)
            view["breadcrumbs"] = [["name": "All areas", "path": current.address(current.page, choices.inArea(nil))]]
                + trail.map { ["name": $0.name, "path": current.address(current.page, choices.inArea($0.id))] }
            view["has_breadcrumbs"] = true
            view["area_path"] = Paths.areas.record(area.id)
        }
        return view
    }

    private static func page(_ context: PageContext, _ template: String, _ title: String, _ selection: AnalyticsSelection,
                             _ view: TemplateView, preparing: AnalyticsPreparing?) -> Response {
        let heading = "\(title)" + (selection.area.map { " in \($0.name)" } ?? "")
        var view = view
        view["heading"] = heading
        let status: HTTPStatus = !selection.problems.isEmpty ? .badRequest : preparing == nil ? .ok : .serviceUnavailable
        var response = context.page(template, title: "Analytics: \(heading)", section: .analytics, view: view,
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
            view["preparing"] = AnalyticsPreparing.explanation + " Reload this page in \(refusal.retryAfter) seconds."
            view["reload_path"] = current.address(current.page, selection.choices)
            return nil
        }
    }
}
