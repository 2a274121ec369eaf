import Domain
import Foundation
import HTTPServer
import Records
import Storage
import Surface
import Translations

/// Participants (Requirement 4): searchable list, detail with address history and assignments, forms with a venue picker.
enum ParticipantPages: FormRecordPages {
    static let picker = SearchPicker(field: Participant.declaration.column(\.homeVenueId), legend: Message("Home venue"), multiple: false,
                                     noneLabel: Message("No home venue"), searchField: "venue_search",
                                     searchLabel: Message("Search venues by name or address"), findButton: "find_venues",
                                     buttonLabel: Message("Find venues"))

    static func list(_ context: inout PageContext) throws -> Response {
        let seen = try context.participantVisibility
        let query = try listQuery(context.request, seen: seen)
        let page = try context.database.participantRows(query)
        var filters = FormView()
        filters.input(ListParameter.text.name, label: seen.contacts ? Message("Name or email contains") : Message("Name contains"), value: query.text)
        if seen.homes {
            filters.select(ListParameter.areaId.name, label: Message("Living in area"), value: query.areaId?.lowercasedString ?? "",
                           options: [("", Message("Any area"))] + (try context.database.areaTree()).map { ($0.area.id.lowercasedString, AreaPages.indentedOption($0)) })
            filters.select(ListParameter.home.name, label: Message("Home venue"), value: query.home.rawValue,
                           options: [("any", Message("Any")), ("with", Message("Has a home venue")), ("without", Message("No home venue"))])
        }
        filters.select(ListParameter.sort.name, label: Message("Sort by"), value: query.sort.rawValue,
                       options: [("name", Message("Name"))] + (seen.contacts ? [("email", Message("Email"))] : []) + [("created", Message("Date added"))])
        filters.select(ListParameter.order.name, label: Message("Order"), value: query.descending ? "desc" : "asc",
                       options: [("asc", Message("Ascending")), ("desc", Message("Descending"))])
        return context.listPage("participants/list", title: Message("Participants"), section: .participants, filters: filters, page: page,
                                noun: .participants,
                                filtered: query.text != "" || query.areaId != nil || query.home != .any,
                                extra: ["show_contacts": seen.contacts, "show_homes": seen.homes], downloads: Paths.participants) { item in
            rowView(item, seen: seen)
        }
    }

    /// The list's filters and order as the viewer may use them (the page and its export).
    static func listQuery(_ request: Request, seen: ParticipantVisibility) throws -> ParticipantQuery {
        var query = try ParticipantQuery(reading: LenientListReader(request))
        // What the viewer may not see cannot narrow or order the list either: it would tell the hidden detail.
        if !seen.homes { (query.areaId, query.home) = (nil, .any) }
        query.searchOnlyWhatIsSeen(seen)
        if !seen.contacts, query.sort == .email { query.sort = .name }
        return query
    }

    /// What one row of the list shows: no dates or notes, which only the record's page shows.
    static func rowView(_ item: ParticipantListRow, seen: ParticipantVisibility) -> TemplateFields {
        let idText = item.id.lowercaseText
        return TemplateFields { name in
            switch name {
            case "name": .text(item.name)
            case "venue_name": seen.homes ? item.homeVenueName.map(TemplateValue.text) : nil
            default: ((seen.contacts ? contactField(name, email: item.email, phone: item.phone) : nil)
                ?? Paths.participants.link(name, idText: idText)).map(TemplateValue.text)
            }
        }
    }

    static func detail(_ context: inout PageContext) throws -> Response {
        let id = try context.request.uuidParameter()
        let participant: Participant
        do {
            participant = try context.database.participant(id: id)
        } catch let error as DomainError {
            // A record merged away, here or on another Fieldbook: its address leads to the record that stayed.
            guard case .notFound = error, let survivor = try context.database.mergeSurvivor(of: id) else { throw error }
            return context.redirect(to: Paths.participants.record(survivor.id),
                                    flash: Message("That participant record was merged into this one, {name}, which stayed.", ["name": .text(survivor.name)]))
        }
        let seen = try context.participantVisibility
        let history = seen.homes ? try context.database.addressHistory(of: participant.id) : []
        let assignments = try context.database.assignments(of: participant.id)
        var view: TemplateView = [
            "participant": participantView(participant, seen: seen), "homes_hidden": !seen.homes,
            "history": history.map { period -> TemplateView in
                ["venue": period.venueName, "path": Paths.venues.record(period.venueId), "from": period.effectiveFrom.display,
                 "to": period.effectiveTo.map { Message.verbatim($0.display) } ?? Message("now", context: "the end of a period still running"), "current": period.effectiveTo == nil]
            },
            "has_history": !history.isEmpty,
            "assignments": assignments.map {
                ["activity": $0.activityName, "role": $0.roleName, "path": Paths.activities.record($0.activityId), "status": $0.status.message,
                 "dates": Activity.dateText(start: $0.startDate, end: $0.endDate)] as TemplateView
            },
            "has_assignments": !assignments.isEmpty,
        ]
        if seen.homes, let id = participant.homeVenueId {
            let venue = try context.database.venue(id: id)
            view["home"] = ["name": venue.name, "address": venue.address, "path": Paths.venues.record(id)]
        }
        view.merge(try ReferringRecordsView.view(context.database, about: Participant.kind, id: participant.id))
        view.merge(try HistoryView.view(context.database, Participant.kind, id: participant.id, updatedAt: participant.updatedAt))
        view.merge(try PhotoGallery.view(context.database, .participant(participant.id)))
        return context.page("participants/detail", title: participant.name, section: .participants, view: view)
    }

    static let forms = RecordForm<Participant>(routes: Paths.participants, noun: "Participant")

    static func submitted(_ request: Request) -> Submission {
        FormSubmission(request, Participant.declaration, findButton: picker.findButton) { ParticipantInput($0, movedOn: request.field("moved_on")) }
    }

    static func insert(_ input: ParticipantInput, _ context: PageContext) throws -> Participant {
        try context.database.createParticipant(input, by: context.actor)
    }

    static func change(_ participant: Participant, _ input: ParticipantInput, expectedVersion: Int?, _ context: PageContext) throws -> Participant {
        try context.database.updateParticipant(id: participant.id, input, expectedVersion: expectedVersion, by: context.actor)
    }

    static func remove(_ participant: Participant, _ context: PageContext) throws {
        try context.database.deleteParticipant(id: participant.id, by: context.actor)
    }

    static func deleted(_ participant: Participant) -> Message { Message("Participant {name} deleted.", ["name": .text(participant.name)]) }

    /// The button that saves despite the people `beforeSaving` showed.
    static let saveAnyway = "save_anyway"

    /// Before a participant is saved with a new name or email: people already recorded who may be them (the same email,
    /// or the same name with accents and case ignored) are shown above the form, typed values kept (409), until the
    /// person chooses Save anyway. nil: nothing to show, save as usual.
    static func beforeSaving(_ context: inout PageContext, record participant: Participant?, _ submission: Submission) throws -> Response? {
        let request = context.request
        guard submission.intent == .save, request.field(saveAnyway) != "1" else { return nil }
        let input = submission.input
        guard input.problems().isEmpty else { return nil }  // the rules' messages come first
        if let participant, participant.email.caseInsensitiveCompare(input.email.trimmingCharacters(in: .whitespaces)) == .orderedSame,
           participant.name.caseInsensitiveCompare(input.name.trimmingCharacters(in: .whitespaces)) == .orderedSame {
            return nil  // an edit that keeps the name and email: already checked when they were entered
        }
        let matches = try context.database.possibleDuplicates(of: input, excluding: participant?.id)
        guard !matches.isEmpty else { return nil }
        // Save anyway must still refuse to overwrite a change someone else saved meanwhile.
        return try form(&context, participant: participant?.at(submission.version), .submitted(submission), errors: ValidationError(),
                        duplicates: matches, status: .conflict)
    }

    /// Nothing refuses deleting a participant: their assignments go with them, which the page says.
    static func deletePage(_ context: inout PageContext, record participant: Participant, status: HTTPStatus) throws -> Response {
        let count = try context.database.assignments(of: participant.id).count
        return context.page("participants/delete", title: Message("Delete {name}", ["name": .text(participant.name)]), section: .participants, view: [
            "participant": participantView(participant),
            "assignment_text": count == 0 ? Message("They have no assignments.")
                : Message("Their {count} assignment will be removed too.", plural: "Their {count} assignments will be removed too.", count: count),
        ], status: status)
    }

    typealias Submission = FormSubmission<Participant, ParticipantInput>

    /// The inputs of the participant's own fields; the home venue is chosen with `picker`.
    private static let fields: [FormField<Participant>] = [
        FormField(\.name, label: Message("Full name"), autocomplete: "off"),
        FormField(\.email, label: Message("Email address"), type: "email", autocomplete: "off"),
        FormField(\.phone, type: "tel", hint: Message("Use {format}", ["format": .message(ParticipantInput.phoneFormat)]), autocomplete: "off"),
        FormField(\.notes, hint: Message("Up to {max} characters", ["max": .digits(ParticipantInput.maxNotesLength)])),
    ]

    static func form(_ context: inout PageContext, record participant: Participant?, _ values: FormValues<Participant, ParticipantInput>,
                     errors: ValidationError, status: HTTPStatus) throws -> Response {
        try form(&context, participant: participant, values, errors: errors, status: status)
    }

    /// The picker's search and the date a new home applies from are kept from a submission.
    private static func form(_ context: inout PageContext, participant: Participant?, _ values: FormValues<Participant, ParticipantInput>,
                             errors: ValidationError, duplicates: [PossibleDuplicate] = [], status: HTTPStatus) throws -> Response {
        let texts = values.texts(Participant.declaration)
        var (movedOn, search) = ("", "")
        if case .submitted(let submission) = values { (movedOn, search) = (submission.input.movedOn, context.request.field(picker.searchField)) }
        var form = FormView(errors: errors)
        form.inputs(fields, of: Participant.declaration, typed: texts)
        form.input("moved_on", label: Message("Home venue applies from"), value: movedOn, type: "date",
                   hint: Message("Only used when the home venue changes; leave empty for today"))
        var view = form.view
        view["picker"] = picker.view(search: search, chosen: VenueChoices.chosen(context.database, UUID(uuidString: texts[\.homeVenueId]).map { [$0] } ?? []),
                                     matches: try VenueChoices.matches(context.database, search), error: errors.text(for: picker.field))
        let heading = participant.map { Message("Edit {name}", ["name": .text($0.name)]) } ?? Message("New participant")
        view["heading"] = heading
        view["action"] = participant.map { Paths.participants.edit($0.id) } ?? Paths.participants.new()
        view["back"] = participant.map { Paths.participants.record($0.id) } ?? context.web.listViews.address(of: .participants, for: context.user?.id)
        if let participant { view["version"] = participant.version }
        if !duplicates.isEmpty {
            view["duplicates"] = [
                "title": duplicates.count == 1 ? Message("This may be someone already recorded")
                    : Message("This may be one of {count} people already recorded", plural: "This may be one of {count} people already recorded", count: duplicates.count),
                "matches": duplicates.map { match -> TemplateView in
                    ["name": match.name, "email": match.email, "path": Paths.participants.record(match.id),
                     "reason": reasonText(match.reason)]
                },
                "save_anyway": saveAnyway,
            ] as TemplateView
        }
        return context.page("participants/form", title: heading, section: .participants,
                            view: view, status: status, hasErrors: form.hasErrors)
    }

    /// `seen`: what the viewer may see (the privacy setting); what they may not is left out of the view altogether.
    static func participantView(_ participant: Participant, seen: ParticipantVisibility = .everything) -> TemplateView {
        var view: TemplateView = [
            "name": participant.name, "contacts_hidden": !seen.contacts, "notes_hidden": !seen.notes,
            "created": DateText.format(participant.createdAt), "updated": DateText.format(participant.updatedAt),
        ]
        view.merge(Paths.participants.links(participant.id))
        if seen.contacts { addContacts(email: participant.email, phone: participant.phone, to: &view) }
        if seen.notes, let notes = participant.notes { view["notes"] = notes }
        return view
    }

    private static func addContacts(email: String, phone: String?, to view: inout TemplateView) {
        for name in contactNames { view[name] = contactField(name, email: email, phone: phone) }
    }

    private static let contactNames = ["email", "email_uri", "phone", "phone_uri"]

    /// The contact detail named `name` (one of `contactNames`): nil for another name, or for a phone not given.
    private static func contactField(_ name: String, email: String, phone: String?) -> String? {
        switch name {
        case "email": email
        case "email_uri": "mailto:" + email
        case "phone": phone
        case "phone_uri": phone.map(telephoneURI)
        default: nil
        }
    }

    /// A `tel:` address a phone dials from a number as typed ("+44 (0)20 7946-0018" → "tel:+442079460018"): digits and
    /// a leading plus only, and the trunk zero written in brackets after a country code dropped, as diallers expect.
    /// Works on the UTF-8 bytes: a list page writes one for every row.
    static func telephoneURI(_ phone: String) -> String {
        let international = phone.unicodeScalars.drop(while: CharacterSet.whitespaces.contains).first == "+"
        var uri = Array("tel:".utf8)
        if international { uri.append(UInt8(ascii: "+")) }
        let bytes = Array(phone.utf8)
        var index = 0
        while index < bytes.count {
            if international, bytes[index] == UInt8(ascii: "("), index + 2 < bytes.count,
               bytes[index + 1] == UInt8(ascii: "0"), bytes[index + 2] == UInt8(ascii: ")") {
                index += 3
                continue
            }
            if (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { uri.append(bytes[index]) }
            index += 1
        }
        return String(decoding: uri, as: UTF8.self)
    }

    static func reasonText(_ reason: PossibleDuplicate.Reason) -> Message {
        switch reason {
        case .sameEmail: Message("the same email address")
        case .sameName: Message("the same name")
        case .similarName: Message("a similar name")
        }
    }
}
