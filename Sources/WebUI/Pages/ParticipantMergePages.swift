import Domain
import Foundation
import HTTPServer
import Storage
import Surface
import Translations

/// Possible duplicates (issue 14): pairs of participants that may be one person, and merging a pair field by field.
enum ParticipantMergePages {
    static func duplicates(_ context: inout PageContext) throws -> Response {
        let page = try context.database.duplicateGroups(page: LenientListReader(context.request).page())
        let arrivals = try context.database.syncedDuplicates(page: PageRequest(page: 1, perPage: shownArrivals))
        var view: TemplateView = [
            "groups": page.items.enumerated().map { index, group -> TemplateView in
                let oldest = group.members[0]
                var view: TemplateView = [
                    "index": index + 1,
                    "title": group.reason == .sameEmail ? "\(group.count) participants with the email address \(oldest.email)"
                        : "\(group.count) participants named \(oldest.name)",
                    "members": group.members.map { member -> TemplateView in
                        var row: TemplateView = ["name": member.name, "email": member.email, "path": Paths.participants.record(member.id)]
                        if member.id != oldest.id { row["merge_path"] = mergePath(kept: oldest.id, removed: member.id) }
                        return row
                    },
                ]
                let more = group.count - group.members.count
                if more > 0 { view["more_text"] = Message("And {count} more, listed here as these are merged.", plural: "And {count} more, listed here as these are merged.", count: more) }
                return view
            },
            "is_empty": page.total == 0,
            "pagination": Pagination.view(page, request: context.request, noun: .duplicateGroups, formats: context.translator.formats),
        ]
        view["arrivals"] = arrivals.items.enumerated().map { index, pair -> TemplateView in
            ["index": index + 1, "name": pair.arrived.name, "email": pair.arrived.email, "path": Paths.participants.record(pair.arrived.id),
             "match_name": pair.match.name, "match_email": pair.match.email, "match_path": Paths.participants.record(pair.match.id),
             "reason": ParticipantPages.reasonText(pair.match.reason), "merge_path": mergePath(kept: pair.match.id, removed: pair.arrived.id),
             "participant_id": pair.arrived.id.lowercaseText, "match_id": pair.match.id.lowercaseText, "found": DateText.format(pair.foundAt)]
        }
        view["has_arrivals"] = !arrivals.items.isEmpty
        view["is_empty"] = page.total == 0 && arrivals.total == 0
        view["arrivals_title"] = Message("{count} participant brought in by a sync may already be here",
                                         plural: "{count} participants brought in by a sync may already be here", count: arrivals.total)
        if arrivals.total > arrivals.items.count { view["arrivals_more"] = Message("The {count} newest are shown; the others appear as these are merged or set aside.",
                                                                                           plural: "The {count} newest are shown; the others appear as these are merged or set aside.", count: shownArrivals) }
        view["dismiss_action"] = Paths.dismissSyncedDuplicate()
        return context.page("participants/duplicates", title: Message("Possible duplicates"), section: .participants, view: view)
    }

    private static let shownArrivals = 50

    /// POST /participants/duplicates/dismiss: "Not the same person".
    static func dismiss(_ context: inout PageContext) throws -> Response {
        guard let participant = UUID(uuidString: context.request.field("participant_id")),
              let match = UUID(uuidString: context.request.field("match_id")) else { throw HTTPError.notFound(context.request.path) }
        try context.database.dismissSyncedDuplicate(participant, match: match)
        return context.redirect(to: Paths.participantDuplicates(), flash: Message("Set aside as two different people."))
    }

    /// The pair is offered the way round the merge will keep it (`ParticipantMergeInput.survivor`), whichever record the
    /// address names first.
    static func form(_ context: inout PageContext) throws -> Response {
        let first = try context.database.participant(id: context.request.uuidParameter())
        let second = try other(context)
        let (kept, removed) = ParticipantMergeInput.survivor(of: first.id, second.id) == first.id ? (first, second) : (second, first)
        return try show(&context, kept: kept, removed: removed, fromRemoved: [], errors: ValidationError())
    }

    static func merge(_ context: inout PageContext) throws -> Response {
        let kept = try context.database.participant(id: context.request.uuidParameter())
        let removed = try other(context)
        let chosen = Set(ParticipantMerge.Field.allCases.filter { context.request.field($0.rawValue) == "removed" })
        let merge = ParticipantMerge(kept: kept.id, removed: removed.id, fromRemoved: chosen,
                                     keptVersion: Int(context.request.field("kept_version")), removedVersion: Int(context.request.field("removed_version")))
        do {
            let merged = try context.database.mergeParticipants(merge, by: context.actor)
            let (stayed, went) = merged.id == kept.id ? (kept, removed) : (removed, kept)
            return context.redirect(to: Paths.participants.record(merged.id),
                                    flash: "\(went.name) merged into \(stayed.name): \(stayed.name)'s record stayed and holds what both records had.")
        } catch let errors as ValidationError {
            return try show(&context, kept: kept, removed: removed, fromRemoved: chosen, errors: errors, status: .unprocessableContent)
        } catch DomainError.staleVersion {
            let errors = ValidationError([FieldError(field: "name", message: "Someone changed one of these participants while you compared them. Check the values again, then merge")])
            return try show(&context, kept: context.database.participant(id: kept.id), removed: context.database.participant(id: removed.id),
                            fromRemoved: chosen, errors: errors, status: .conflict)
        }
    }

    /// `/participants/{kept}/merge?with={removed}`
    static func mergePath(kept: UUID, removed: UUID) -> String {
        Paths.mergeParticipants(kept) + "?with=" + removed.lowercaseText
    }

    /// The participant named by `with` (the query string, or the form).
    private static func other(_ context: PageContext) throws -> Participant {
        let text = context.request.query["with"] ?? context.request.field("with")
        guard let id = UUID(uuidString: text) else { throw HTTPError.notFound(context.request.path) }
        return try context.database.participant(id: id)
    }

    private static func show(_ context: inout PageContext, kept: Participant, removed: Participant, fromRemoved: Set<ParticipantMerge.Field>,
                             errors: ValidationError, status: HTTPStatus = .ok) throws -> Response {
        func venue(_ id: UUID?) throws -> String { try id.map { try context.database.venue(id: $0).name } ?? "No home venue" }
        let values: [(ParticipantMerge.Field, Message, String, String)] = [
            (.name, Message("Name"), kept.name, removed.name), (.email, Message("Email address"), kept.email, removed.email),
            (.phone, Message("Phone"), kept.phone ?? "None", removed.phone ?? "None"), (.notes, Message("Notes"), kept.notes ?? "None", removed.notes ?? "None"),
            (.home, Message("Home venue"), try venue(kept.homeVenueId), try venue(removed.homeVenueId)),
        ]
        let moving = try context.database.assignments(of: removed.id).count
        var view: TemplateView = [
            "kept_name": kept.name, "removed_name": removed.name, "removed_id": removed.id.lowercaseText,
            "kept_version": kept.version, "removed_version": removed.version,
            "action": Paths.mergeParticipants(kept.id),
            "back": Paths.participantDuplicates(),
            "moves_text": Message("{removed}'s {count} assignment, visit stops and address history move to {kept}.",
                                  plural: "{removed}'s {count} assignments, visit stops and address history move to {kept}.", count: moving,
                                  ["removed": .text(removed.name), "kept": .text(kept.name)]),
            "fields": values.map { field, label, keptValue, removedValue -> TemplateView in
                ["name": field.rawValue, "label": label, "kept_value": keptValue, "removed_value": removedValue,
                 "same": keptValue == removedValue && (field != .home || kept.homeVenueId == removed.homeVenueId),
                 "from_removed": fromRemoved.contains(field)]
            },
        ]
        if !errors.isEmpty {
            let fields = Set(ParticipantMerge.Field.allCases.map(\.rawValue))
            view["errors"] = errors.fieldErrors.map { ["anchor": fields.contains($0.field) ? $0.field : "main", "message": $0.message] }
            view["has_errors"] = true
        }
        return context.page("participants/merge", title: Message("Merge {removed} into {kept}", ["removed": .text(removed.name), "kept": .text(kept.name)]), section: .participants,
                            view: view, status: status, hasErrors: !errors.isEmpty)
    }
}
