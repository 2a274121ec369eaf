import Domain
import Foundation
import Records
import GRDB

/// This node's link to its hub, as kept in the settings table. The refresh token is a secret: it is never rendered
/// or logged, and `description` leaves it out.
public struct HubLink: Sendable, Equatable, CustomStringConvertible {
    public var upstream: URL
    public var email: String
    public var refreshToken: String
    public var linkedAt: Date
    /// The hub's own certificate authority (PEM) as fetched when linking, after its fingerprint was shown: the only
    /// one its certificate is checked against. Nil: the hub is reached over http://, or with a certificate the
    /// system trusts.
    public var authority: String?

    public init(upstream: URL, email: String, refreshToken: String, linkedAt: Date, authority: String? = nil) {
        self.upstream = upstream
        self.email = email
        self.refreshToken = refreshToken
        self.linkedAt = linkedAt
        self.authority = authority
    }

    public var description: String { "HubLink(\(upstream.absoluteString), \(email))" }
}

/// Node-local sync settings: node id, hub link, interval, pull cursor.
extension AppDatabase {
    static let defaultSyncInterval = 300

    static func isLinked(_ db: Database) throws -> Bool {
        try Bool.fetchOne(db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM settings WHERE key = 'sync.upstream')")) ?? false
    }

    /// This Fieldbook's id among nodes, made on first use.
    public func nodeId() throws -> UUID {
        if let text = try setting("node_id"), let id = UUID(uuidString: text) { return id }
        let id = UUID()
        try writeLocal { db in
            try db.execute(sql: "INSERT OR IGNORE INTO settings (key, value) VALUES ('node_id', ?)", arguments: [id.databaseText])
        }
        return try UUID(uuidString: setting("node_id") ?? "") ?? id
    }

    /// Whether a hub is linked, without reading the link (every page's status line asks).
    public func isLinkedToHub() throws -> Bool {
        try read(Self.isLinked)
    }

    public func hubLink() throws -> HubLink? {
        let values = try settings(prefix: "sync.")
        guard let text = values["sync.upstream"], let url = URL(string: text) else { return nil }
        return HubLink(upstream: url, email: values["sync.email"] ?? "", refreshToken: values["sync.refresh_token"] ?? "",
                       linkedAt: values["sync.linked_at"].flatMap { Date.fromDatabaseValue($0.databaseValue) } ?? Date(),
                       authority: values[Self.authorityKey])
    }

    /// Links this node to a hub. Records made here before linking are queued for the first push, so nothing made
    /// while standalone stays behind.
    public func linkHub(_ link: HubLink) throws {
        try writeLocal { db in
            let wasLinked = try Self.isLinked(db)
            try Self.putSettings(db, ["sync.upstream": link.upstream.absoluteString, "sync.email": link.email,
                                      "sync.refresh_token": link.refreshToken, "sync.linked_at": link.linkedAt.storedText])
            try db.execute(sql: "DELETE FROM settings WHERE key IN (?, ?)", arguments: [Self.credentialRefusedKey, Self.authorityKey])
            if let authority = link.authority { try Self.putSettings(db, [Self.authorityKey: authority]) }
            if !wasLinked {
                // A node that already holds participants checks those the hub brings from its first pull on.
                if try RowCounts.count(db, table: Participant.databaseTableName) > 0 { try Self.putSettings(db, [Self.copiedHubKey: "1"]) }
                try Self.queueExistingRecords(db)
                // A hub newly linked holds none of this node's photo files until it is asked.
                try db.execute(sql: "UPDATE photo_files SET on_hub = 0")
            }
        }
    }

    /// Keeps the rotated refresh token (the hub invalidates the old one).
    public func storeHubRefreshToken(_ token: String) throws {
        try writeLocal { db in try Self.putSettings(db, ["sync.refresh_token": token]) }
    }

    /// Keeps a new sign-in at the hub, made by an administrator on the settings page: the link, its queue and its
    /// cursor stay as they are.
    public func renewHubCredential(email: String, refreshToken: String) throws {
        try writeLocal { db in
            try Self.putSettings(db, ["sync.email": email, "sync.refresh_token": refreshToken])
            try db.execute(sql: "DELETE FROM settings WHERE key = ?", arguments: [Self.credentialRefusedKey])
        }
    }

    /// Set when the hub refuses this node's sign-in (revoked, or its account disabled), until an administrator signs
    /// the node in again: kept in the database, so every page says so, after a restart too.
    static let credentialRefusedKey = "sync.credential_refused"
    static let authorityKey = "sync.authority"

    /// Notes that the hub refused `refreshToken`, unless a new sign-in replaced it meanwhile (a refresh under way on
    /// another thread while an administrator signed the node in again).
    public func noteHubCredentialRefused(refreshToken: String) throws {
        try writeLocal { db in
            guard try String.fetchOne(db, sql: "SELECT value FROM settings WHERE key = 'sync.refresh_token'") == refreshToken else { return }
            try Self.putSettings(db, [Self.credentialRefusedKey: "1"])
        }
    }

    /// Whether the hub refused this node's sign-in (and nobody signed it in again since).
    public func isHubCredentialRefused() throws -> Bool {
        try setting(Self.credentialRefusedKey) == "1"
    }

    /// Forgets the hub: the node becomes standalone again; queued operations stay for a later link.
    public func unlinkHub() throws {
        try writeLocal { db in
            try db.execute(sql: "DELETE FROM settings WHERE key IN ('sync.upstream','sync.email','sync.refresh_token','sync.linked_at', ?, ?)",
                           arguments: [Self.credentialRefusedKey, Self.authorityKey])
            // A first sync ended part way leaves no indexes missing behind it.
            try DeferredIndexes.restore(db)
        }
    }

    /// Seconds between automatic syncs.
    public func syncInterval() throws -> Int {
        try setting("sync.interval").flatMap(Int.init) ?? Self.defaultSyncInterval
    }

    public func setSyncInterval(_ seconds: Int) throws {
        try writeLocal { db in try Self.putSettings(db, ["sync.interval": String(seconds)]) }
    }

    /// The hub change-log position this node has applied up to.
    public func pullCursor() throws -> Int64 {
        try read(Self.pullCursor)
    }

    /// Set once the node holds the hub's records (its first pull ended), or held participants of its own when linked:
    /// from then on, participants a pull brings are checked for possible duplicates.
    static let copiedHubKey = "sync.copied_hub"

    static func hasCopiedHub(_ db: Database) throws -> Bool {
        try String.fetchOne(db, sql: "SELECT value FROM settings WHERE key = ?", arguments: [copiedHubKey]) == "1"
    }

    static func pullCursor(_ db: Database) throws -> Int64 {
        try String.fetchOne(db, sql: "SELECT value FROM settings WHERE key = 'sync.cursor'").flatMap(Int64.init) ?? 0
    }

    func setting(_ key: String) throws -> String? {
        try read { try String.fetchOne($0.cachedStatement(sql: "SELECT value FROM settings WHERE key = ?"), arguments: [key]) }
    }

    func settings(prefix: String) throws -> [String: String] {
        try read { db in
            // Cached: every page reads the privacy settings and the hub link.
            let rows = try Row.fetchAll(db.cachedStatement(sql: "SELECT key, value FROM settings WHERE key LIKE ?"), arguments: [prefix + "%"])
            return Dictionary(rows.map { ($0["key"] as String, $0["value"] as String) }) { first, _ in first }
        }
    }

    static func putSettings(_ db: Database, _ values: [String: String]) throws {
        for (key, value) in values {
            try db.execute(sql: "INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                           arguments: [key, value])
        }
    }

    /// Queues a create for every record this node holds, parents before children, so a hub receives them in an order
    /// it can check.
    private static func queueExistingRecords(_ db: Database) throws {
        let recorder = ChangeRecorder(db: db, author: Actor.linking.recorded, queuesForHub: true)
        for table in RecordKind.all {
            let custom = table.metaColumns.contains("is_predefined") ? "WHERE is_predefined = 0" : ""
            let sql = table.table == "geographic_areas" ? """
                WITH RECURSIVE depth(id, level) AS (SELECT id, 0 FROM geographic_areas WHERE parent_id IS NULL
                UNION ALL SELECT a.id, level + 1 FROM geographic_areas a JOIN depth d ON a.parent_id = d.id)
                SELECT id FROM depth ORDER BY level
                """ : "SELECT id FROM \(table.table) \(custom)"
            for id in try String.fetchAll(db, sql: sql).compactMap(UUID.init(uuidString:)) {
                let state = try RecordStates.read(db, table, id: id)
                let fields = state.fields.filter { table.columns.contains($0.key) }
                try recorder.record(Change(operation: .create, entity: table.entity, entityId: id, fields: fields, baseVersion: 0))
            }
        }
    }
}
