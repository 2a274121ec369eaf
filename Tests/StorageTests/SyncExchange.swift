import Domain
import Foundation
import Hub
import Records
import GRDB
@testable import Storage

/// Moves operations and changes between a node's database and a hub's database the way the sync engine does,
/// minus HTTP (the end-to-end tests cover the wire with real processes).
enum SyncExchange {
    /// Pushes the whole pending queue in batches; returns the summed tally.
    @discardableResult
    static func push(_ node: AppDatabase, to hub: AppDatabase, batch: Int = 100, from pusher: Pusher = .hubItself) throws -> PushTally {
        var total = PushTally()
        let nodeId = try node.nodeId()
        while case let entries = try node.pendingOperations(limit: batch), !entries.isEmpty {
            let response = try hub.applyPush(PushRequest(nodeId: nodeId, operations: entries.map(\.syncOperation)), from: pusher)
            let tally = try node.settlePush(entries, results: response.results)
            total.applied += tally.applied
            total.merged += tally.merged
            total.conflicts += tally.conflicts
            total.rejected += tally.rejected
        }
        return total
    }

    /// Pulls every change after the node's cursor, page by page.
    @discardableResult
    static func pull(_ node: AppDatabase, from hub: AppDatabase, page: Int = 50) throws -> Int {
        var pulled = 0
        while true {
            let changes = try hub.changes(after: node.pullCursor(), limit: page)
            try node.applyPulledPage(changes)
            pulled += changes.changes.count
            if !changes.hasMore { return pulled }
        }
    }

    /// Push then pull, as one sync session does.
    static func sync(_ node: AppDatabase, with hub: AppDatabase) throws {
        try push(node, to: hub)
        try pull(node, from: hub)
    }

    /// Every synced table's rows as the wire sees them, for comparing nodes.
    static func snapshot(_ database: AppDatabase) throws -> [String: [String: [String: JSONValue]]] {
        try database.read { db in
            var result: [String: [String: [String: JSONValue]]] = [:]
            for table in RecordKind.all {
                // Predefined categories are made by each node's migrations (same ids, own timestamps); they never sync.
                let custom = table.metaColumns.contains("is_predefined") ? "WHERE is_predefined = 0" : ""
                let ids = try String.fetchAll(db, sql: "SELECT id FROM \(table.table) \(custom)").compactMap(UUID.init(uuidString:))
                let states = try RecordStates.read(db, table, ids: ids)
                result[table.table] = Dictionary(uniqueKeysWithValues: states.map { id, state in
                    (id.uuidString, state.fields.merging(["version": .int(state.version)]) { $1 })
                })
            }
            return result
        }
    }
}


