import Foundation
import HTTPServer
import Logging

// Every setting of README's Configuration table, each declared once with its flag and its environment variable.
// FIELDBOOK_PASSWORD_COST has no flag and is read by ConfigurationDraft.

extension Setting where Value == String {
    public static var data: Setting {
        Setting(name: "data", variable: "FIELDBOOK_DATA", about: "Folder holding the database",
                defaultNote: "default \(AppConfiguration().dataDirectory)") { $1.configuration.dataDirectory = $0 }
    }

    public static var resources: Setting {
        Setting(name: "resources", variable: "FIELDBOOK_RESOURCES", about: "Folder holding templates/, Public/ and tiles/",
                defaultNote: "default PREFIX/share/fieldbook beside an installed program, else the checkout it was built in, else the current folder; here \(AppConfiguration().resourcesDirectory)") {
            $1.configuration.resourcesDirectory = $0
        }
    }

    /// An unknown level logs at info rather than refusing to start.
    public static var logLevel: Setting {
        Setting(name: "log-level", variable: "FIELDBOOK_LOG_LEVEL", about: "Log level: trace, debug, info, notice, warning, error",
                defaultNote: "default \(AppConfiguration().logLevel.rawValue)") {
            $1.configuration.logLevel = Logger.Level(rawValue: $0) ?? AppConfiguration().logLevel
        }
    }

    public static var host: Setting {
        Setting(name: "host", variable: "FIELDBOOK_HOST", about: "Address to listen on; 0.0.0.0 serves the LAN",
                defaultNote: "default \(ServerConfiguration().host)") { $1.configuration.server.host = $0 }
    }

    /// A PostgreSQL connection URL, which may hold a password: it is never printed or logged.
    public static var databaseURL: Setting {
        Setting(name: "database-url", variable: "FIELDBOOK_DATABASE_URL",
                about: "PostgreSQL database of a hub, like postgresql://fieldbook@db.example.org:5432/fieldbook") { text, draft in
            guard text.hasPrefix("postgresql://") || text.hasPrefix("postgres://") else {
                throw InvalidInput("--database-url must start with postgresql://, like postgresql://fieldbook@localhost:5432/fieldbook")
            }
            draft.configuration.databaseURL = text
        }
    }

    public static var upstream: Setting {
        Setting(name: "upstream", variable: "FIELDBOOK_UPSTREAM",
                about: "Use this URL for the linked hub instead of the one saved by `fieldbook link`") { text, draft in
            guard let url = URL(string: text), ["http", "https"].contains(url.scheme ?? "") else {
                throw InvalidInput("--upstream must be an http:// or https:// URL, got '\(text)'")
            }
            draft.configuration.upstream = url
        }
    }

    /// A folder that is not there is not refused: it may be a USB stick plugged in later (Home warns meanwhile).
    public static var backupDirectory: Setting {
        Setting(name: "backup-dir", variable: "FIELDBOOK_BACKUP_DIR", about: "Folder backups are kept in (may be a USB stick)",
                defaultNote: "default DATA/backups") { $1.configuration.backupDirectory = $0 }
    }

    public static var tlsCertificate: Setting {
        Setting(name: "tls-cert", variable: "FIELDBOOK_TLS_CERT", about: "PEM certificate file: serve HTTPS") {
            $1.tlsCertificateFile = $0
        }
    }

    public static var tlsKey: Setting {
        Setting(name: "tls-key", variable: "FIELDBOOK_TLS_KEY", about: "PEM private key file for --tls-cert") { $1.tlsKeyFile = $0 }
    }
}

extension Setting where Value == UInt16 {
    public static var port: Setting {
        Setting(name: "port", variable: "FIELDBOOK_PORT", about: "Port; 0 picks a free one",
                defaultNote: "default \(ServerConfiguration().port)") { $1.configuration.server.port = $0 }
    }

    public static var httpPort: Setting {
        Setting(name: "http-port", variable: "FIELDBOOK_HTTP_PORT",
                about: "Port whose plain HTTP shows devices the HTTPS address, when serving the LAN with Fieldbook's own certificate",
                defaultNote: "default the port after --port") { $1.configuration.ownTLS.plainPort = $0 }
    }
}

extension Setting where Value == Bool {
    /// A flag: given, or the variable set to true.
    public static var noTLS: Setting {
        Setting(name: "no-tls", variable: "FIELDBOOK_NO_TLS", about: "Serve plain HTTP beyond loopback too, without Fieldbook's own certificate",
                unreadable: { variable, _ in "\(variable) must be true or false" }) { $1.configuration.ownTLS.turnedOff = $0 }
    }
}

extension Setting where Value == Int {
    public static var syncInterval: Setting {
        interval(name: "sync-interval", variable: "FIELDBOOK_SYNC_INTERVAL", about: "Seconds between automatic syncs with the hub",
                 defaultNote: "default: the settings page's, 300") { $1.configuration.syncInterval = $0 }
    }

    public static var backupInterval: Setting {
        interval(name: "backup-interval", variable: "FIELDBOOK_BACKUP_INTERVAL", about: "Seconds between automatic backups",
                 defaultNote: "default \(Int(AppConfiguration().backupInterval)), a day") { $1.configuration.backupInterval = $0 }
    }

    /// A number of seconds, at least one.
    private static func interval(name: String, variable: String, about: String, defaultNote: String,
                                 apply: @escaping @Sendable (TimeInterval, inout ConfigurationDraft) -> Void) -> Setting {
        Setting(name: name, variable: variable, about: about, defaultNote: defaultNote,
                unreadable: { variable, _ in "\(variable) must be a number of seconds" }) { seconds, draft in
            guard seconds >= 1 else { throw InvalidInput("--\(name) must be at least 1 second") }
            apply(TimeInterval(seconds), &draft)
        }
    }

    /// The server's own default (8) suits tests; a served node gets a few times the core count (README): each request
    /// waiting for the writer or for PostgreSQL holds one.
    public static var threads: Setting {
        Setting(name: "threads", variable: "FIELDBOOK_THREADS", about: "Threads for requests that may wait (forms, sign-in, sync)", defaultNote: "default 4 per core, at least 8",
                fallback: max(8, 4 * ProcessInfo.processInfo.activeProcessorCount)) { $1.configuration.server.threadCount = $0 }
    }

    public static var maxBody: Setting {
        Setting(name: "max-body", variable: "FIELDBOOK_MAX_BODY", about: "Largest request body accepted, in bytes",
                defaultNote: "default \(ServerConfiguration().maxBodyBytes)") { $1.configuration.server.maxBodyBytes = $0 }
    }

    public static var connectionsPerAddress: Setting {
        Setting(name: "connections-per-address", variable: "FIELDBOOK_CONNECTIONS_PER_ADDRESS",
                about: "Connections one client address may hold at once",
                defaultNote: "default \(ServerConfiguration().connectionsPerAddress)") { count, draft in
            guard count >= 1 else { throw InvalidInput("--connections-per-address must be at least 1") }
            draft.configuration.server.connectionsPerAddress = count
        }
    }

    public static var headerTimeout: Setting {
        Setting(name: "header-timeout", variable: "FIELDBOOK_HEADER_TIMEOUT",
                about: "Seconds a request's headers may take in total before the connection is closed",
                defaultNote: "default \(ServerConfiguration().headerTimeoutSeconds)") { seconds, draft in
            guard seconds >= 1 else { throw InvalidInput("--header-timeout must be at least 1 second") }
            draft.configuration.server.headerTimeoutSeconds = seconds
        }
    }
}
