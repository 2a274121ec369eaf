import Foundation
import Storage

/// What the OpenAPI document says about the sync endpoints and their bodies.
extension SyncEndpoints {
    static let pushDoc = APIOperation(id: "pushOperations", summary: "Hub: apply a node's outbox operations in order, once each",
                                      body: "SyncPush", success: .json("SyncPushResult"))
    static let changesDoc = APIOperation(
        id: "listChanges", summary: "Hub: every record changed after a cursor, with its state now, in the hub's order",
        query: [Field.of("after", .integer, "The cursor (next_cursor of the previous page; 0 for a first sync)").ranged(0...9e15),
                Field.of("limit", .integer, "Changes per page, 500 unless given").ranged(1...Double(maxPage)),
                Field.of("wait", .integer, "Long poll: when nothing changed after the cursor, hold the answer up to this many seconds "
                         + "until something does (0, the default, answers at once)").ranged(0...Double(maxWait))],
        success: .json("ChangePage"))
    static let statusDoc = APIOperation(id: "getSyncStatus", summary: "This node's hub state, queue and last sync", success: .json("SyncStatus"))
    static let runDoc = APIOperation(id: "runSync", summary: "Sync now (409 when no hub is linked)", success: .json("SyncRun"), conflict: true)
    static let conflictsDoc = APIOperation(
        id: "listSyncConflicts", summary: "Edits of this node that lost at the hub, with both values",
        query: [Field.of("show", .choice(["open", "all"]), "open (default) or all, resolved included")], success: .json("SyncConflictList"))

    static var components: [String: [Field]] {
        [
            "SyncPush": [
                .of("node_id", .uuid, required: true),
                .of("operations", .list("SyncOperation"), required: true),
            ],
            "SyncOperation": [
                .of("operation_id", .uuid, required: true), .of("operation", .choice(["create", "update", "delete"]), required: true),
                .of("entity", .choice(AppDatabase.syncedEntities), required: true), .of("entity_id", .uuid, required: true),
                .of("fields", .anyObject, required: true), .of("before", .anyObject, required: true),
                Field(name: "base_version", kind: .integer, required: true, rule: .number(baseVersionRule)),
                Field(name: "author", kind: .text, required: true, rule: .text(authorRule)),
                .of("created_at", .dateTime, required: true),
            ],
            "SyncPushResult": [.of("results", .list("SyncResult"), required: true)],
            "SyncResult": [
                .of("operation_id", .uuid, required: true), .of("outcome", .choice(["applied", "merged", "conflict", "rejected"]), required: true),
                .of("reason", .text), .of("losing_fields", .list("LosingField"), required: true),
                .of("current", .reference("RecordState"), required: true),
            ],
            "LosingField": [.of("name", .text, required: true), .of("mine", .anyValue, required: true), .of("theirs", .anyValue, required: true)],
            "RecordState": [
                .of("entity", .text, required: true), .of("entity_id", .uuid, required: true), .of("deleted", .boolean, required: true),
                .of("version", .integer, required: true), .of("fields", .anyObject, required: true),
            ],
            "ChangePage": [
                .of("changes", .list("ChangeLogEntry"), required: true), .of("next_cursor", .integer, required: true),
                .of("has_more", .boolean, required: true), .of("remaining", .integer, required: true),
            ],
            "ChangeLogEntry": [.of("seq", .integer, required: true), .of("state", .reference("RecordState"), required: true)],
            "SyncStatus": [
                .of("hub", .choice(["standalone", "checking", "online", "offline", "refused"]), required: true),
                .of("pending_operations", .integer, required: true), .of("failed_operations", .integer, required: true),
                .of("conflicts", .integer, required: true), .of("last_successful_sync", .dateTime, required: true, nullable: true),
                .of("syncing", .boolean, required: true), .of("paused", .boolean, required: true),
                .of("last_error", .text, required: true, nullable: true),
            ],
            "SyncRun": [.of("status", .text, required: true)],
            "SyncConflictList": [.of("items", .list("SyncConflict"), required: true)],
            "SyncConflict": [
                .of("id", .uuid, required: true), .of("entity", .text, required: true), .of("entity_id", .uuid, required: true),
                .of("kind", .choice(["edit", "delete", "deleted"]), required: true), .of("record_label", .text),
                .of("fields", .list("LosingField"), required: true), .of("detected_at", .dateTime, required: true),
                .of("resolution", .choice(["reapplied", "dismissed"])),
            ],
        ]
    }
}
