import Foundation
import Records
import GRDB

/// The tables of field visits: lists, their stops and the contact logs made at them, with their change-log
/// triggers (a new kind's triggers come with its own migration; v4 made those of the kinds before it).
enum VisitSchema {
    static func create(_ db: Database) throws {
        try db.execute(sql: tables)
        for kind in RecordKind.visitKinds { try SyncSchema.createChangeLogTriggers(db, kind) }
        try createProgressCounts(db)
    }

    private static let tables = """
            CREATE TABLE visit_lists (
                id TEXT PRIMARY KEY NOT NULL,
                name TEXT NOT NULL,
                visit_date TEXT NOT NULL,
                purpose TEXT NOT NULL DEFAULT '',
                script TEXT NOT NULL DEFAULT '',
                assigned_user_id TEXT NOT NULL REFERENCES users(id) ON DELETE RESTRICT,
                status TEXT NOT NULL CHECK (status IN ('PLANNED','IN_PROGRESS','DONE')),
                version INTEGER NOT NULL DEFAULT 1,
                created_at TEXT NOT NULL,
                updated_at TEXT NOT NULL
            );
            CREATE INDEX visit_lists_assignee_date ON visit_lists(assigned_user_id, visit_date, id);
            CREATE INDEX visit_lists_date ON visit_lists(visit_date DESC, id);

            -- Removing a list removes its stops, unless a stop has logs (RESTRICT below): logs are never lost.
            CREATE TABLE visit_stops (
                id TEXT PRIMARY KEY NOT NULL,
                visit_list_id TEXT NOT NULL REFERENCES visit_lists(id) ON DELETE CASCADE,
                venue_id TEXT NOT NULL REFERENCES venues(id) ON DELETE RESTRICT,
                participant_id TEXT REFERENCES participants(id) ON DELETE SET NULL,
                follow_up_of TEXT,
                added_at TEXT NOT NULL,
                version INTEGER NOT NULL DEFAULT 1
            );
            CREATE INDEX visit_stops_list ON visit_stops(visit_list_id);
            CREATE INDEX visit_stops_target ON visit_stops(venue_id, participant_id);
            CREATE INDEX visit_stops_participant ON visit_stops(participant_id);

            -- Append-only. logged_by names a user without a foreign key: a log is kept even if its author's account
            -- has not reached this node yet.
            CREATE TABLE contact_logs (
                id TEXT PRIMARY KEY NOT NULL,
                visit_stop_id TEXT NOT NULL REFERENCES visit_stops(id) ON DELETE RESTRICT,
                result TEXT NOT NULL CHECK (result IN ('MET','NOT_HOME','REFUSED','MOVED_AWAY','WRONG_ADDRESS','FOLLOW_UP','OTHER')),
                note TEXT NOT NULL DEFAULT '',
                logged_at TEXT NOT NULL,
                logged_by TEXT NOT NULL,
                latitude REAL CHECK (latitude IS NULL OR latitude BETWEEN -90 AND 90),
                longitude REAL CHECK (longitude IS NULL OR longitude BETWEEN -180 AND 180),
                accuracy_m REAL,
                version INTEGER NOT NULL DEFAULT 1
            );
            CREATE INDEX contact_logs_stop ON contact_logs(visit_stop_id, logged_at);
            CREATE INDEX contact_logs_author ON contact_logs(logged_by, logged_at);
            """

    /// Node-local counts kept by triggers, so progress pages read a few rows per list instead of every stop and log:
    /// each stop's number of logs and latest result, and per list and latest result the stops, visited stops and logs.
    /// Triggers, not the writer, keep them: rows pulled from a hub and rows removed by a cascade count too.
    private static func createProgressCounts(_ db: Database) throws {
        let latest = "(SELECT c.result FROM contact_logs c WHERE c.visit_stop_id = %@ ORDER BY c.logged_at DESC, c.id DESC LIMIT 1)"
        let count = "(SELECT COUNT(*) FROM contact_logs c WHERE c.visit_stop_id = %@)"
        func refresh(_ stop: String) -> String {
            "UPDATE visit_stop_counts SET logs = \(count.replacingOccurrences(of: "%@", with: stop)), last_result = COALESCE(\(latest.replacingOccurrences(of: "%@", with: stop)), '') WHERE stop_id = \(stop);"
        }
        func addStop(_ row: String) -> String {
            """
            INSERT INTO visit_stop_counts (stop_id, list_id, logs, last_result) VALUES (\(row).id, \(row).visit_list_id,
                \(count.replacingOccurrences(of: "%@", with: "\(row).id")), COALESCE(\(latest.replacingOccurrences(of: "%@", with: "\(row).id")), ''));
            """
        }
        func tally(_ row: String, _ sign: String) -> String {
            """
            INSERT INTO visit_list_counts (list_id, last_result, stops, visited, logs) VALUES (\(row).list_id, \(row).last_result, 0, 0, 0)
                ON CONFLICT(list_id, last_result) DO NOTHING;
            UPDATE visit_list_counts SET stops = stops \(sign) 1, visited = visited \(sign) (\(row).logs > 0), logs = logs \(sign) \(row).logs
                WHERE list_id = \(row).list_id AND last_result = \(row).last_result;
            """
        }
        try db.execute(sql: """
            CREATE TABLE visit_stop_counts (
                stop_id TEXT PRIMARY KEY NOT NULL,
                list_id TEXT NOT NULL,
                logs INTEGER NOT NULL,
                last_result TEXT NOT NULL
            );
            CREATE TABLE visit_list_counts (
                list_id TEXT NOT NULL,
                last_result TEXT NOT NULL,
                stops INTEGER NOT NULL,
                visited INTEGER NOT NULL,
                logs INTEGER NOT NULL,
                PRIMARY KEY (list_id, last_result)
            );
            CREATE TRIGGER visit_stop_counts_tally_insert AFTER INSERT ON visit_stop_counts BEGIN \(tally("NEW", "+")) END;
            CREATE TRIGGER visit_stop_counts_tally_delete AFTER DELETE ON visit_stop_counts BEGIN \(tally("OLD", "-")) END;
            CREATE TRIGGER visit_stop_counts_tally_update AFTER UPDATE ON visit_stop_counts BEGIN \(tally("OLD", "-")) \(tally("NEW", "+")) END;

            CREATE TRIGGER visit_stops_count_insert AFTER INSERT ON visit_stops BEGIN \(addStop("NEW")) END;
            CREATE TRIGGER visit_stops_count_update AFTER UPDATE ON visit_stops BEGIN
                DELETE FROM visit_stop_counts WHERE stop_id = OLD.id; \(addStop("NEW"))
            END;
            CREATE TRIGGER visit_stops_count_delete AFTER DELETE ON visit_stops BEGIN DELETE FROM visit_stop_counts WHERE stop_id = OLD.id; END;
            CREATE TRIGGER contact_logs_count_insert AFTER INSERT ON contact_logs BEGIN \(refresh("NEW.visit_stop_id")) END;
            CREATE TRIGGER contact_logs_count_update AFTER UPDATE ON contact_logs BEGIN
                \(refresh("OLD.visit_stop_id")) \(refresh("NEW.visit_stop_id"))
            END;
            CREATE TRIGGER contact_logs_count_delete AFTER DELETE ON contact_logs BEGIN \(refresh("OLD.visit_stop_id")) END;
            """)
    }
}
