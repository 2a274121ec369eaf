import Foundation
import Records
import GRDB

/// The tables of notifications: the synced notifications and preferences with their change-log triggers,
/// the node-local notices sync leaves for the notifier, the hub's list of linked nodes, and the notifier's cursors.
enum NotificationSchema {
    static func create(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE notifications (
                id TEXT PRIMARY KEY NOT NULL,
                user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                kind TEXT NOT NULL,
                text TEXT NOT NULL,
                subject_entity TEXT NOT NULL,
                subject_id TEXT,
                created_at TEXT NOT NULL,
                is_read INTEGER NOT NULL DEFAULT 0,
                version INTEGER NOT NULL DEFAULT 1
            );
            CREATE INDEX notifications_user_created ON notifications(user_id, created_at DESC, id);
            CREATE INDEX notifications_user_kind_created ON notifications(user_id, kind, created_at DESC, id);
            -- Every page shows the unread count: this index holds only unread rows.
            CREATE INDEX notifications_user_unread ON notifications(user_id) WHERE is_read = 0;

            CREATE TABLE notification_preferences (
                id TEXT PRIMARY KEY NOT NULL,
                user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                muted_kinds TEXT NOT NULL DEFAULT '',
                system_notifications INTEGER NOT NULL DEFAULT 1,
                version INTEGER NOT NULL DEFAULT 1
            );

            -- What sync did that people are told about (an edit lost a conflict, changes set aside, a node linked),
            -- written in the transaction that did it and read once by the notifier, in order.
            CREATE TABLE sync_notices (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                kind TEXT NOT NULL,
                entity TEXT NOT NULL DEFAULT '',
                entity_id TEXT,
                author TEXT NOT NULL DEFAULT '',
                detail TEXT NOT NULL DEFAULT '',
                noticed_at TEXT NOT NULL
            );

            -- Hub side: each sign-in (token family) that has pulled the change log from its start, that is each node
            -- linked here.
            CREATE TABLE linked_nodes (
                family_id TEXT PRIMARY KEY NOT NULL,
                user_id TEXT NOT NULL,
                address TEXT NOT NULL DEFAULT '',
                first_pull_at TEXT NOT NULL
            );
            """)
        for kind in RecordKind.notificationKinds { try SyncSchema.createChangeLogTriggers(db, kind) }
        try RecordHistory.addOriginAndSubject(db)
        // Changes made before notifications existed are not news: the notifier starts from here.
        try db.execute(sql: """
            INSERT INTO settings (key, value) SELECT 'notifications.history_cursor', COALESCE(MAX(id), 0) FROM record_history;
            INSERT INTO settings (key, value) VALUES ('notifications.notice_cursor', '0');
            """)
    }
}
