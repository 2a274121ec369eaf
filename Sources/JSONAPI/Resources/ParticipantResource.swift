import Domain
import Foundation
import HTTPServer
import Records
import Storage
import Surface

/// Participants: search and filters as on the participant list, and where each has lived.
enum ParticipantResource {
    /// The body, schema and write fields derived from the declared fields; the privacy setting may hide some (`hidden`).
    static let shape = APIRecordShape(
        Participant.declaration, id: { $0.id }, version: { $0.version },
        write: [.init(.input("moved_on", .date(ParticipantInput.Rules.movedOn), "From when a new home venue applies (address history); today when absent"))],
        shown: [.of("email", .text, required: true, nullable: true, "null for read-only callers when the privacy setting hides contact details")],
        summaries: ["phone": "Digits, spaces, dashes, dots and brackets, optionally starting with +; 7 to 15 digits",
                    "home_venue_id": "Where the participant lives; null for no home venue"])

    /// The participant as the API writes it: what `seen` hides (the privacy setting, for read-only callers) is null.
    static func body(_ participant: Participant, seen: ParticipantVisibility) -> RecordBody {
        shape.body(participant, hiding: seen.hiddenColumns(of: Participant.kind))
    }

    struct Period: Encodable, Sendable {
        let id: String
        let venueId: String
        let venueName: String
        let effectiveFrom: String
        @Null var effectiveTo: String?

        init(_ period: VenuePeriod) {
            (id, venueId, venueName) = (period.id.text, period.venueId.text, period.venueName)
            (effectiveFrom, effectiveTo) = (period.effectiveFrom.description, period.effectiveTo?.description)
        }
    }

    static let resource = RecordResource(
        kind: Participant.kind, routes: APIPaths.participants, docs: docs, shape: shape, list: list,
        input: { body, keep, _, _ in ParticipantInput(shape.texts(body, keep: keep), movedOn: body.text("moved_on")) },
        body: { participant, context in body(participant, seen: try visibility(context)) })

    static let components: [String: [Field]] = [
        "ParticipantMergeWrite": mergeFields,
        "PossibleDuplicate": [
            .of("id", .uuid, required: true), .of("name", .text, required: true), .of("email", .text, required: true),
            .of("reason", .choice(PossibleDuplicate.Reason.allCases.map(\.rawValue)), required: true),
        ],
        "AddressPeriod": [
            .of("id", .uuid, required: true), .of("venue_id", .uuid, required: true), .of("venue_name", .text, required: true),
            .of("effective_from", .date, required: true), .of("effective_to", .date, required: true, nullable: true, "null while current"),
        ],
    ]

    static let docs = ResourceDocs(schema: "Participant", plural: "Participants", listQuery: [
        .of(ListParameter.text.name, .text, "Name or email contains (accents and case ignored)"),
        .of(ListParameter.areaId.name, .uuid, "Participants whose home venue is in this area or an area inside it"),
        .of(ListParameter.home.name, .choice(ParticipantQuery.HomeFilter.allCases.map(\.rawValue)), "with or without a home venue (default any)"),
        .of(ListParameter.sort.name, .choice(ParticipantQuery.Sort.allCases.map(\.rawValue)), "Default name"),
        .of(ListParameter.order.name, .choice(SortOrder.allCases.map(\.rawValue)), "Default asc"),
    ])
    /// One participant who may be the person described, and why (the page form's duplicate check).
    struct Duplicate: Encodable, Sendable {
        let id: String
        let name: String
        let email: String
        let reason: String

        init(_ match: PossibleDuplicate) {
            (id, name, email) = (match.id.text, match.name, match.email)
            reason = match.reason.rawValue
        }
    }

    static let mergeFields: [Field] = [
        .input("with", .id(ParticipantMergeInput.Rules.with), "The other record of the same person; of the two, the one whose id comes first stays and the other is deleted"),
        .input("from_removed", .choiceList(ParticipantMergeInput.Rules.fromRemoved),
               "The details taken from the `with` record; the others keep this record's values"),
        Field(name: "kept_version", kind: .integer, rule: .number(RecordVersion.rule), summary: "This record's version as you read it (409 stale_version when no longer current)"),
        Field(name: "removed_version", kind: .integer, rule: .number(RecordVersion.rule), summary: "The removed record's version as you read it"),
    ]

    static let mergeDoc = APIOperation(
        id: "mergeParticipants",
        summary: "Merge two records of the same person, in one change. Of the two, the record whose id comes first stays (so that the same "
            + "merge made on two Fieldbooks keeps the same one) and is answered: it takes the chosen details, the other's assignments "
            + "(one it has in the same role is dropped), visit stops, photos and address history days it does not cover move to it, "
            + "then the other is deleted and its address leads to it",
        body: "ParticipantMergeWrite", success: .json("Participant"), conflict: true)

    @Sendable static func merge(_ context: APIContext) throws -> Response {
        let kept = try context.id()
        let body = try context.body(mergeFields, mode: .full)
        let valid = try ParticipantMergeInput(with: body.text("with"), fromRemoved: body.strings("from_removed") ?? []).validated()
        let merged = try context.database.mergeParticipants(ParticipantMerge(
            kept: kept, removed: valid.removed, fromRemoved: valid.fromRemoved,
            keptVersion: body.integer("kept_version"), removedVersion: body.integer("removed_version")), by: context.actor)
        return APIResponse.ok(Self.body(merged, seen: .everything))
    }

    static let duplicatesDoc = APIOperation(
        id: "listPossibleParticipantDuplicates",
        summary: "Participants who may be the person a name and email describe, as the participant form checks before it saves: "
            + "the same email (case ignored) first, then the same name (accents and case ignored); at most 5. "
            + "exclude_id leaves out the participant being edited",
        query: APIOperation.paging + [
            .of("name", .text, "The name as it would be entered"), .of("email", .text, "The email address as it would be entered"),
            .of("exclude_id", .uuid, "A participant never to list (the one being edited)"),
        ],
        success: .page("PossibleDuplicate"))

    @Sendable static func duplicates(_ context: APIContext) throws -> Response {
        let input = ParticipantInput(name: context.request.query["name"] ?? "", email: context.request.query["email"] ?? "")
        let matches = try context.database.possibleDuplicates(of: input, excluding: try context.uuid("exclude_id"))
        return APIResponse.ok(ListEnvelope(all: matches.map(Duplicate.init), page: try context.pageRequest()))
    }

    static let historyDoc = APIOperation(id: "listParticipantAddressHistory",
                                         summary: "Where a participant has lived, newest first. 403 for read-only callers while the privacy setting hides homes",
                                         query: APIOperation.paging, success: .page("AddressPeriod"), protected: true)

    @Sendable static func list(_ context: APIContext) throws -> Response {
        let (query, seen) = try visibleQuery(context)
        return APIResponse.ok(ListEnvelope(try context.database.participants(query)) { body($0.participant, seen: seen) })
    }

    /// The list's filters as the caller may use them (the list and its export): a filter on what they may not see is refused.
    static func visibleQuery(_ context: APIContext) throws -> (ParticipantQuery, ParticipantVisibility) {
        var query = try ParticipantQuery(reading: context)
        let seen = try visibility(context)
        query.searchOnlyWhatIsSeen(seen)
        // An order by hidden addresses would tell them: such callers get the list by name, as the page gives it.
        if !seen.contacts, query.sort == .email { query.sort = .name }
        if !seen.homes, query.areaId != nil || query.home != .any { throw homesHidden }
        return (query, seen)
    }

    @Sendable static func history(_ context: APIContext) throws -> Response {
        let id = try context.existingId(context.database.participant(id:))
        guard try visibility(context).homes else { throw homesHidden }
        return APIResponse.ok(ListEnvelope(all: try context.database.addressHistory(of: id).map(Period.init), page: try context.pageRequest()))
    }

    /// What the caller may see of participants: everything for editors and administrators, the privacy setting's
    /// choice for read-only users.
    static func visibility(_ context: APIContext) throws -> ParticipantVisibility {
        guard let role = context.caller?.user.role else { return .everything }
        return try context.database.privacySettings().visibility(for: role)
    }

    static let homesHidden = HTTPError(.forbidden, "Where participants live is hidden from read-only users by the administrators' privacy setting.")
}
