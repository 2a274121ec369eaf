import Domain
import Foundation
import GRDB

/// Field visits: lists of stops, built from a filter or by picking, and append-only contact logs.
extension AppDatabase {
    public func visitList(id: UUID) throws -> VisitList {
        try read { db in try VisitList.find(db, id: id) }
    }

    /// The list as `seen` allows its viewer to see it (`StopLine`): pass the viewer's visibility, or `.everything` for
    /// work that shows no one the stops.
    public func visitSheet(id: UUID, seen: ParticipantVisibility) throws -> VisitSheet {
        try read { db in try Self.sheet(db, list: try VisitList.find(db, id: id), seen: seen) }
    }

    /// Every list, latest day first, with progress; `assignee` narrows to one organizer's, `from` to days on or after it.
    public func visitLists(assignee: UUID? = nil, from day: CalendarDate? = nil, page: PageRequest = PageRequest()) throws
        -> ListPage<VisitListSummary> {
        try read { db in
            var query = ListQuery("visit_lists l")
            if let assignee { query.add("l.assigned_user_id = ?", assignee.databaseText) }
            if let day { query.add("l.visit_date >= ?", day.description) }
            let order = day == nil ? "l.visit_date DESC, l.name, l.id" : "l.visit_date, l.name, l.id"
            let lists = try query.page(db, order: order, select: "l.*, u.name AS assignee_name",
                                       rowJoins: "LEFT JOIN users u ON u.id = l.assigned_user_id", request: page, anchors: pageAnchors) {
                (VisitList(row: $0), $0["assignee_name"] as String? ?? "Unknown user")
            }
            let marks = Array(repeating: "?", count: lists.items.count).joined(separator: ",")
            let progress = try Self.progress(db, of: "l.id IN (\(marks))", lists.items.map(\.0.id.databaseText), by: "l.id")
            let summaries = lists.items.map { list, name in
                VisitListSummary(list: list, assigneeName: name, progress: progress[list.id.databaseText] ?? VisitProgress())
            }
            return ListPage(items: summaries, total: lists.total, request: lists.request)
        }
    }

    /// Each organizer with lists: how many lists, stops visited of all stops, and stops by latest result.
    public func organizerProgress() throws -> [OrganizerProgress] {
        try read { db in
            let owners = try Row.fetchAll(db, sql: """
                SELECT u.id, u.name, COUNT(*) AS lists FROM visit_lists l JOIN users u ON u.id = l.assigned_user_id
                GROUP BY u.id ORDER BY u.name COLLATE NOCASE
                """)
            let progress = try Self.progress(db, of: "1", [], by: "l.assigned_user_id")
            return owners.map { owner in
                OrganizerProgress(userId: owner.uuid("id"), name: owner["name"], lists: owner["lists"],
                                  progress: progress[owner["id"] as String] ?? VisitProgress())
            }
        }
    }

    /// Users who may be given a list: editors and administrators whose accounts are enabled, by name.
    public func organizers() throws -> [User] {
        try users().filter { $0.role.canEditRecords && !$0.isDisabled }.sorted { $0.name.localizedCompare($1.name) == .orderedAscending }
    }

    /// The people or places a list built from `filter` would visit, in a stable order.
    public func stopTargets(matching filter: StopFilter) throws -> [StopTarget] {
        try read { db in try Self.targets(db, filter) }
    }

    /// Lists on days after `list`'s, where a stop needing a follow-up can go.
    public func laterVisitLists(than list: VisitList) throws -> [VisitList] {
        try read { db in
            try VisitList.fetchAll(db, sql: "SELECT * FROM visit_lists WHERE visit_date > ? AND status <> 'DONE' ORDER BY visit_date, name",
                                   arguments: [list.visitDate.description])
        }
    }

    @discardableResult
    public func createVisitList(_ input: VisitListInput, stops: StopSelection, by actor: Actor) throws -> VisitList {
        var errors = ValidationError()
        let valid: VisitListInput.Valid?
        do { valid = try input.validated() } catch let invalid as ValidationError { (valid, errors) = (nil, invalid) }
        var targets: [StopTarget] = []
        switch stops {
        case .filter(let filter):
            do { targets = try stopTargets(matching: try filter.validated()) } catch let invalid as ValidationError {
                invalid.fieldErrors.forEach { errors.add($0.field, $0.message) }
            }
        case .picked(let tokens):
            targets = tokens.compactMap(StopTarget.init(token:))
            if targets.count != tokens.count { errors.add("stops", "Some picked stops were not understood; pick them again") }
        }
        try errors.throwIfAny()
        return try transaction(by: actor) { transaction in
            let list = try transaction.create(VisitList.self, valid!)
            for target in Set(targets).sorted() { try transaction.addStop(target, to: list.id) }
            return list
        }
    }

    @discardableResult public func updateVisitList(id: UUID, _ input: VisitListInput, expectedVersion: Int?, by actor: Actor) throws -> VisitList {
        try update(id: id, input.validated(), expectedVersion: expectedVersion, by: actor)
    }
    /// Deletes a list and its stops, refused once anything was logged at them (logs are never lost).
    public func deleteVisitList(id: UUID, by actor: Actor) throws { try remove(VisitList.self, id: id, by: actor) }

    /// Adds one stop to a list (the API's way of picking).
    @discardableResult
    public func addStop(venue: String, participant: String, toList listId: UUID, by actor: Actor) throws -> VisitStop {
        let target = try Self.stopTarget(venue: venue, participant: participant)
        return try transaction(by: actor) { transaction in
            _ = try transaction.fetch(VisitList.self, id: listId)
            return try transaction.addStop(target, to: listId)
        }
    }

    /// Adds a stop at each venue the list does not visit yet, all in one transaction: a venue that no longer exists
    /// adds none of them (an error on `venue_id`). Answers how many were added.
    @discardableResult
    public func addStops(venues: [String], toList listId: UUID, by actor: Actor) throws -> Int {
        try addStops(try venues.map { try Self.stopTarget(venue: $0, participant: "") }, toList: listId, by: actor)
    }

    /// Adds every stop `filter` selects that the list does not hold yet; answers how many were added.
    @discardableResult
    public func addStops(matching filter: StopFilterInput, toList listId: UUID, by actor: Actor) throws -> Int {
        try addStops(try stopTargets(matching: try filter.validated()), toList: listId, by: actor)
    }

    private func addStops(_ targets: [StopTarget], toList listId: UUID, by actor: Actor) throws -> Int {
        try transaction(by: actor) { transaction in
            _ = try transaction.fetch(VisitList.self, id: listId)
            let before = try transaction.stopCount(listId)
            for target in targets { try transaction.addStop(target, to: listId) }
            return try transaction.stopCount(listId) - before
        }
    }

    private static func stopTarget(venue: String, participant: String) throws -> StopTarget {
        var errors = ValidationError()
        let venueId = VisitStopRules.venueId.check(venue, field: "venue_id", into: &errors)
        let participantId = VisitStopRules.participantId.check(participant, field: "participant_id", into: &errors)
        try errors.throwIfAny()
        return StopTarget(venueId: venueId!, participantId: participantId)
    }

    /// Removes a stop nothing was logged at, from a list whose walk has not started (`VisitList.allowsRemovingStops`).
    public func removeStop(_ stopId: UUID, fromList listId: UUID, by actor: Actor) throws {
        try transaction(by: actor) { transaction in
            let stop = try transaction.stop(stopId, onList: listId)
            guard try transaction.fetch(VisitList.self, id: listId).allowsRemovingStops else {
                throw DomainError.stillReferenced(message: VisitList.stopsStayOnceStarted.english, references: [])
            }
            try transaction.remove(stop)
        }
    }

    /// Logs a visit at a stop. Only the list's organizer (or an administrator) logs; the first log starts the list.
    /// A log whose id (made by the page) is already stored at this stop was sent before: it is answered, not added again.
    /// It is logged at the time the device gave, or else at `time` (now).
    @discardableResult
    public func logContact(_ input: ContactLogInput, atStop stopId: UUID, onList listId: UUID, by user: User, at time: Date = Date())
        throws -> ContactLog {
        let valid = try input.validated(now: time)
        return try transaction(by: .user(user.id)) { transaction in
            let stop = try transaction.stop(stopId, onList: listId)
            let list = try transaction.fetch(VisitList.self, id: listId)
            guard user.role.canEditRecords, list.assigneeId == user.id || user.role.canAdminister else {
                throw DomainError.protected(message: "Only the organizer this list is assigned to (or an administrator) logs visits on it.")
            }
            if let id = valid.id, try transaction.exists(id, in: ContactLog.databaseTableName) {
                let sent = try transaction.fetch(ContactLog.self, id: id)
                guard sent.stopId == stop.id else {
                    throw ValidationError.clash("log_id", "This visit's id belongs to a visit at another stop; reload the page and log the visit again")
                }
                return sent
            }
            let log = ContactLog(id: valid.id ?? UUID(), stopId: stop.id, result: valid.result, note: valid.note, loggedAt: valid.loggedAt ?? time,
                                 loggedBy: user.id, location: valid.location)
            try transaction.insert(log)
            try transaction.startWalk(list)
            return log
        }
    }

    /// Taking a planned list onto a phone that may log on it starts its walk, as a first log does: the phone may then
    /// hold visits the server cannot see yet, so the list's stops stay (`VisitList.allowsRemovingStops`).
    public func startWalk(ofList listId: UUID, by actor: Actor) throws {
        try transaction(by: actor) { transaction in try transaction.startWalk(try transaction.fetch(VisitList.self, id: listId)) }
    }

    /// Puts a stop's target on a later list ("follow-up needed"); answers the new stop.
    @discardableResult
    public func followUp(stop stopId: UUID, onList listId: UUID, onto laterId: UUID, by actor: Actor) throws -> VisitStop {
        try transaction(by: actor) { transaction in
            let stop = try transaction.stop(stopId, onList: listId)
            let (list, later) = (try transaction.fetch(VisitList.self, id: listId), try transaction.fetch(VisitList.self, id: laterId))
            guard later.visitDate > list.visitDate else {
                throw ValidationError.clash("later_list_id", "Choose a list on a later day than \(list.visitDate.display)")
            }
            return try transaction.addStop(stop.target, to: later.id, followUpOf: stop.id)
        }
    }

    /// How each target is named where stops are picked: "Ada Lovelace, 1 River Road" or "Community hall, 2 Lake Street".
    public func stopTargetNames(_ targets: [StopTarget]) throws -> [StopTarget: String] {
        try read { db in
            var names: [StopTarget: String] = [:]
            for target in targets {
                let venue = try Row.fetchOne(db, sql: "SELECT name, address FROM venues WHERE id = ?", arguments: [target.venueId.databaseText])
                let person = try target.participantId.flatMap {
                    try String.fetchOne(db, sql: "SELECT name FROM participants WHERE id = ?", arguments: [$0.databaseText])
                }
                let address: String = venue?["address"] ?? "unknown venue"
                names[target] = person.map { "\($0), \(address)" } ?? "\(venue?["name"] as String? ?? "Unknown venue"), \(address)"
            }
            return names
        }
    }

    /// Venues a walk can start from: those with coordinates, public buildings first, then by name (at most `limit`).
    public func startingVenues(limit: Int) throws -> [NamedReference] {
        try read { db in
            try Row.fetchAll(db, sql: """
                SELECT id, name FROM venues WHERE latitude IS NOT NULL AND longitude IS NOT NULL
                ORDER BY venue_type IS NOT 'PUBLIC_BUILDING', name COLLATE NOCASE, id LIMIT ?
                """, arguments: [limit]).map { NamedReference(id: $0.uuid("id"), name: $0["name"]) }
        }
    }
}

extension RecordTransaction {
    /// A planned list becomes in progress; a list already started or done stays as it is.
    fileprivate func startWalk(_ list: VisitList) throws {
        guard list.status == .planned else { return }
        var started = list
        started.status = .inProgress
        try save(started, over: list)
    }
}
