import Domain
import Foundation
import HTTPServer
import Records
import Storage
import Surface
import Translations

/// Geographic areas (Requirement 6B): the hierarchy as nested lists, detail with statistics, forms, deletion rules.
enum AreaPages: FormRecordPages {
    static func list(_ context: inout PageContext) throws -> Response {
        let tree = try context.database.areaTree()
        return context.page("areas/list", title: Message("Geographic areas"), section: .areas,
                            view: ["children": nest(tree), "has_areas": !tree.isEmpty, "count": tree.count])
    }

    static func detail(_ context: inout PageContext) throws -> Response {
        let area = try context.database.area(id: context.request.uuidParameter())
        let statistics = try context.database.areaStatistics(id: area.id)
        let venues = try context.database.venues(inArea: area.id, page: PageRequest(page: 1, perPage: 20))
        let children = try context.database.childAreas(of: area.id)
        var view: TemplateView = [
            "area": areaView(area),
            "ancestors": try context.database.ancestors(of: area.id).map(areaView),
            "children": children.map(areaView), "has_children": !children.isEmpty,
            "venues": venues.items.map { ["name": $0.venue.name, "path": Paths.venues.record($0.venue.id), "area": $0.areaName] },
            "new_child_path": Paths.areas.new() + "?parent=" + area.id.lowercasedString,
            "all_venues_path": Paths.venues.list.filtered(by: .areaId, area.id.lowercasedString),
            "map_path": Paths.map.filtered(by: .areaId, area.id.lowercasedString),
            "analytics_path": AnalyticsView.engagement.address(Paths.analytics, AnalyticsChoices(areaId: area.id)),
            "has_venues": venues.total > 0, "venue_total": venues.total, "venues_more": venues.total > venues.items.count,
            "statistics": [
                ["label": Message("Activities"), "value": statistics.totalActivities],
                ["label": Message("Active activities"), "value": statistics.activeActivities],
                ["label": Message("Ongoing activities"), "value": statistics.ongoingActivities],
                ["label": Message("Participants living here"), "value": statistics.totalParticipants],
            ] as [TemplateView],
        ]
        view.merge(try HistoryView.view(context.database, GeographicArea.kind, id: area.id, updatedAt: area.updatedAt))
        view["archive"] = ExportPages.archiveLinks(Paths.areaExport(area.id))
            .merging(["text": Message("This area's records, with the areas inside it, their venues, who lives there and what is held there")])
        return context.page("areas/detail", title: area.name, section: .areas, view: view)
    }

    static let forms = RecordForm<GeographicArea>(routes: Paths.areas, noun: "Area")

    static func insert(_ input: AreaInput, _ context: PageContext) throws -> GeographicArea { try context.database.createArea(input, by: context.actor) }

    static func change(_ area: GeographicArea, _ input: AreaInput, expectedVersion: Int?, _ context: PageContext) throws -> GeographicArea {
        try context.database.updateArea(id: area.id, input, expectedVersion: expectedVersion, by: context.actor)
    }

    static func remove(_ area: GeographicArea, _ context: PageContext) throws { try context.database.deleteArea(id: area.id, by: context.actor) }

    static func deletePage(_ context: inout PageContext, record area: GeographicArea, status: HTTPStatus) throws -> Response {
        let references = try context.database.areaReferences(id: area.id)
        var view: TemplateView = ["area": areaView(area)]
        if references.isEmpty {
            view["can_delete"] = true
        } else {
            view["refusal"] = AreaReferences.refusal(name: area.name, references)
            view["children"] = references.children.map { ["name": $0.name, "path": Paths.areas.record($0.id)] }
            view["venues"] = references.venues.map { ["name": $0.name, "path": Paths.venues.record($0.id)] }
            view["has_children"] = !references.children.isEmpty
            view["has_venues"] = !references.venues.isEmpty
        }
        let title = references.isEmpty ? Message("Delete area “{name}”", ["name": .text(area.name)])
            : Message("“{name}” cannot be deleted", ["name": .text(area.name)])
        return context.page("areas/delete", title: title, section: .areas, view: view, status: status)
    }

    /// A new area's form starts inside the area whose page offered it (`?parent=`).
    static func form(_ context: inout PageContext, record area: GeographicArea?, _ values: FormValues<GeographicArea, AreaInput>,
                     errors: ValidationError, status: HTTPStatus) throws -> Response {
        let parent = context.request.query["parent"] ?? ""
        let texts = values.texts(GeographicArea.declaration) { $0 == GeographicArea.declaration.column(\.parentId) ? parent : "" }
        let excluded = try area.map { try context.database.areaTree(below: $0.id) } ?? []
        let parents = try context.database.areaTree().filter { !excluded.contains($0.area.id) }
        var form = FormView(errors: errors)
        form.inputs([FormField(\.name)], of: GeographicArea.declaration, typed: texts)
        form.select(FormField(\.areaType, label: Message("Kind of area")), of: GeographicArea.declaration, typed: texts,
                    options: [("", Message("Choose…"))] + AreaType.allCases.map { ($0.rawValue, $0.message) })
        // Leaving it empty is the top level, which the options say.
        form.select(FormField(\.parentId, label: Message("Parent area"), hint: Message("The larger area this one is part of")), of: GeographicArea.declaration,
                    typed: texts, options: [("", Message("None (top level)"))] + parents.map { ($0.area.id.lowercasedString, indentedOption($0)) })
        var view = form.view
        let heading = area.map { Message("Edit “{name}”", ["name": .text($0.name)]) } ?? Message("New area")
        view["heading"] = heading
        view["action"] = area.map { Paths.areas.edit($0.id) } ?? Paths.areas.new()
        view["back"] = area.map { Paths.areas.record($0.id) } ?? Paths.areas.list()
        if let area { view["version"] = area.version }
        return context.page("areas/form", title: heading, section: .areas, view: view,
                            status: status, hasErrors: form.hasErrors)
    }

    /// Builds nested `children` lists from tree-ordered entries.
    static func nest(_ entries: [AreaTreeEntry]) -> [TemplateView] {
        var index = 0
        func level(_ depth: Int) -> [TemplateView] {
            var nodes: [TemplateView] = []
            while index < entries.count, entries[index].depth == depth {
                var node = areaView(entries[index].area)
                index += 1
                let children = index < entries.count && entries[index].depth > depth ? level(depth + 1) : []
                node["children"] = children
                node["has_children"] = !children.isEmpty
                node["child_count"] = children.count
                nodes.append(node)
            }
            return nodes
        }
        return level(0)
    }

    static func indented(_ entry: AreaTreeEntry) -> String {
        String(repeating: "— ", count: entry.depth) + entry.area.name + " (\(entry.area.areaType.label))"
    }

    /// `indented` as a translated option: the kind of area in the reader's language.
    static func indentedOption(_ entry: AreaTreeEntry) -> Message {
        Message("{area} ({kind})", ["area": .text(String(repeating: "— ", count: entry.depth) + entry.area.name), "kind": .message(entry.area.areaType.message)])
    }

    static func areaView(_ area: GeographicArea) -> TemplateView {
        let view: TemplateView = ["id": area.id.lowercasedString, "name": area.name, "type_label": area.areaType.message,
                                  "created": DateText.format(area.createdAt), "updated": DateText.format(area.updatedAt)]
        return view.merging(Paths.areas.links(area.id))
    }
}
