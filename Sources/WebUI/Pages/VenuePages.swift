import Domain
import Foundation
import HTTPServer
import Records
import Storage
import Surface
import Translations

/// Venues (Requirement 6A): searchable list, detail with who meets and lives there, forms, deletion rules.
enum VenuePages: FormRecordPages {
    static func list(_ context: inout PageContext) throws -> Response {
        let request = context.request
        let query = try VenueQuery(reading: LenientListReader(request))
        let page = try context.database.venues(query)
        let areas = try context.database.areaTree()
        var filters = FormView()
        filters.input(ListParameter.text.name, label: Message("Name or address contains"), value: query.text)
        filters.select(ListParameter.areaId.name, label: Message("Area (and the areas inside it)"), value: query.areaId?.lowercasedString ?? "",
                       options: [("", Message("Any area"))] + areas.map { ($0.area.id.lowercasedString, AreaPages.indentedOption($0)) })
        filters.select(ListParameter.venueType.name, label: Message("Kind of venue"), value: query.venueType?.rawValue ?? "",
                       options: [("", Message("Any kind"))] + VenueType.allCases.map { ($0.rawValue, $0.message) })
        filters.select(ListParameter.sort.name, label: Message("Sort by"), value: query.sort.rawValue,
                       options: [("name", Message("Name")), ("area", Message("Area")), ("created", Message("Newest first"))])
        return context.listPage("venues/list", title: Message("Venues"), section: .venues, filters: filters, page: page, noun: .venues,
                                filtered: !query.text.isEmpty || query.areaId != nil || query.venueType != nil, extra: ["has_areas": !areas.isEmpty],
                                downloads: Paths.venues, row: rowView)
    }

    static func detail(_ context: inout PageContext) throws -> Response {
        let venue = try context.database.venue(id: context.request.uuidParameter())
        let area = try context.database.area(id: venue.areaId)
        let occupancy = try context.database.venueOccupancy(id: venue.id)
        let homesSeen = try context.participantVisibility.homes
        var view: TemplateView = [
            "venue": venueView(venue), "area": AreaPages.areaView(area),
            "activities": occupancy.activities.map { ["name": $0.name, "path": Paths.activities.record($0.id)] },
            "participants": homesSeen ? occupancy.participants.map { ["name": $0.name, "path": Paths.participants.record($0.id)] } : [],
            "homes_hidden": !homesSeen,
            "has_activities": occupancy.activityTotal > 0, "activity_total": occupancy.activityTotal,
            "activities_here": Paths.activities.list.filtered(by: .venueId, venue.id.lowercasedString),
            "has_participants": homesSeen && occupancy.participantTotal > 0, "participant_total": occupancy.participantTotal,
        ]
        view.merge(try ReferringRecordsView.view(context.database, about: Venue.kind, id: venue.id))
        view.merge(try HistoryView.view(context.database, Venue.kind, id: venue.id, updatedAt: venue.updatedAt))
        view.merge(try PhotoGallery.view(context.database, .venue(venue.id)))
        return context.page("venues/detail", title: venue.name, section: .venues, view: view)
    }

    static let forms = RecordForm<Venue>(routes: Paths.venues, noun: "Venue")

    static func insert(_ input: VenueInput, _ context: PageContext) throws -> Venue { try context.database.createVenue(input, by: context.actor) }

    static func change(_ venue: Venue, _ input: VenueInput, expectedVersion: Int?, _ context: PageContext) throws -> Venue {
        try context.database.updateVenue(id: venue.id, input, expectedVersion: expectedVersion, by: context.actor)
    }

    static func remove(_ venue: Venue, _ context: PageContext) throws { try context.database.deleteVenue(id: venue.id, by: context.actor) }

    static func deletePage(_ context: inout PageContext, record venue: Venue, status: HTTPStatus) throws -> Response {
        let references = try context.database.venueReferenceCounts(id: venue.id)
        var view: TemplateView = ["venue": venueView(venue)]
        if references.total == 0 {
            view["can_delete"] = true
        } else {
            view["refusal"] = references.refusal(name: venue.name)
            let occupancy = try context.database.venueOccupancy(id: venue.id, limit: 10)
            view["participants"] = occupancy.participants.map { ["name": $0.name, "path": Paths.participants.record($0.id)] }
            view["activities"] = occupancy.activities.map { ["name": $0.name, "path": Paths.activities.record($0.id)] }
            view["has_participants"] = !occupancy.participants.isEmpty
            view["has_activities"] = !occupancy.activities.isEmpty
        }
        let title = references.total == 0 ? Message("Delete venue “{name}”", ["name": .text(venue.name)])
            : Message("“{name}” cannot be deleted", ["name": .text(venue.name)])
        return context.page("venues/delete", title: title, section: .venues, view: view, status: status)
    }

    private static let fields: [FormField<Venue>] = [
        FormField(\.name), FormField(\.address),
        FormField(\.latitude, hint: Message("Decimal degrees, −90 to 90, like 51.5072")),
        FormField(\.longitude, hint: Message("Decimal degrees, −180 to 180, like -0.1276")),
    ]

    /// A new venue's form starts in the area whose page offered it (`?area=`).
    static func form(_ context: inout PageContext, record venue: Venue?, _ values: FormValues<Venue, VenueInput>, errors: ValidationError,
                     status: HTTPStatus) throws -> Response {
        let area = context.request.query["area"] ?? ""
        let texts = values.texts(Venue.declaration) { $0 == Venue.declaration.column(\.areaId) ? area : "" }
        let areas = try context.database.areaTree()
        var form = FormView(errors: errors)
        form.inputs(fields, of: Venue.declaration, typed: texts)
        form.select(FormField(\.areaId, hint: areas.isEmpty ? Message("There are no areas yet: add one first (the link above)") : nil), of: Venue.declaration,
                    typed: texts, options: [("", Message("Choose…"))] + areas.map { ($0.area.id.lowercasedString, AreaPages.indentedOption($0)) })
        form.select(FormField(\.venueType, label: Message("Kind of venue")), of: Venue.declaration, typed: texts,
                    options: [("", Message("Not specified"))] + VenueType.allCases.map { ($0.rawValue, $0.message) })
        var view = form.view
        view["no_areas"] = areas.isEmpty
        let heading = venue.map { Message("Edit “{name}”", ["name": .text($0.name)]) } ?? Message("New venue")
        view["heading"] = heading
        view["action"] = venue.map { Paths.venues.edit($0.id) } ?? Paths.venues.new()
        view["back"] = venue.map { Paths.venues.record($0.id) } ?? context.web.listViews.address(of: .venues, for: context.user?.id)
        if let venue { view["version"] = venue.version }
        view.merge(MapPages.pinMapView(context.web.tiles))
        return context.page("venues/form", title: heading, section: .venues, view: view,
                            status: status, hasErrors: form.hasErrors, assets: MapAssets.pinPicker)
    }

    /// What one row of the list shows: no dates or coordinates, which only the record's page shows.
    private static func rowView(_ item: VenueListItem) -> TemplateFields {
        let idText = item.venue.id.lowercaseText
        return TemplateFields { name in
            switch name {
            case "name": .text(item.venue.name)
            case "address": .text(item.venue.address)
            case "type_label": .message(item.venue.venueType?.message ?? Message("Not specified"))
            case "area": .text(item.areaName)
            default: Paths.venues.link(name, idText: idText).map(TemplateValue.text)
            }
        }
    }

    static func venueView(_ venue: Venue) -> TemplateView {
        var view: TemplateView = [
            "name": venue.name, "address": venue.address,
            "type_label": venue.venueType?.message ?? Message("Not specified"),
            "created": DateText.format(venue.createdAt), "updated": DateText.format(venue.updatedAt),
        ]
        view.merge(Paths.venues.links(venue.id))
        if let latitude = venue.latitude, let longitude = venue.longitude {
            view["coordinates"] = String(format: "%.5f, %.5f", latitude, longitude)
            view["map_path"] = MapPages.centred(on: venue.id)
        }
        return view
    }
}
