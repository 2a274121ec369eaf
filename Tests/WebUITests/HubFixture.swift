import Domain
import Foundation
import Storage

/// A hub's database beside a page test's node database. Operations and changes move between them the way the sync
/// engine moves them (minus HTTP), so conflicts and failed operations arise through the real Storage paths.
final class HubDatabase {
    let directory: URL
    let database: AppDatabase
    let actor = Actor.system("hub")

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("fieldbook-hub-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        database = try AppDatabase(path: directory.appendingPathComponent("fieldbook.sqlite").path, passwordCost: .test)
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    /// Pushes the node's whole pending queue, as a sync session does.
    func push(from node: AppDatabase) throws {
        let nodeId = try node.nodeId()
        while case let entries = try node.pendingOperations(limit: 100), !entries.isEmpty {
            let response = try database.applyPush(PushRequest(nodeId: nodeId, operations: entries.map(\.syncOperation)))
            try node.settlePush(entries, results: response.results)
        }
    }

    /// Pulls every change after the node's cursor, page by page.
    func pull(into node: AppDatabase) throws {
        while true {
            let page = try database.changes(after: node.pullCursor(), limit: 50)
            try node.applyPulledPage(page)
            if !page.hasMore { return }
        }
    }

    /// A participant made on the hub and pulled by the node.
    func sharedParticipant(_ name: String, on node: AppDatabase) throws -> Participant {
        let email = name.lowercased().replacingOccurrences(of: " ", with: ".") + "@example.org"
        let participant = try database.createParticipant(ParticipantInput(name: name, email: email), by: actor)
        try push(from: node)
        try pull(into: node)
        return participant
    }

    /// The node's `author` renames a shared participant after the hub already renamed it: the node's edit loses.
    @discardableResult
    func editConflict(on node: AppDatabase, by author: Actor, hubName: String, nodeName: String) throws -> Participant {
        let participant = try sharedParticipant("Ann Okafor", on: node)
        try rename(participant.id, to: hubName, in: database, by: actor)
        try rename(participant.id, to: nodeName, in: node, by: author)
        try push(from: node)
        return participant
    }

    private func rename(_ id: UUID, to name: String, in database: AppDatabase, by actor: Actor) throws {
        let current = try database.participant(id: id)
        try database.updateParticipant(id: id, ParticipantInput(name: name, email: current.email), expectedVersion: nil, by: actor)
    }
}
