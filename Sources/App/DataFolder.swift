import Domain
import Foundation
import Storage
import Sync

/// The database of a configured data folder, for the commands that work on it without serving (create-user,
/// backup, demo-data, link). Each task returns the line the command prints, and throws InvalidInput for an argument
/// the person must change, Refusal for what the folder or the hub does not allow; other errors are failures of the
/// machine (a disk, a file).
public final class DataFolder {
    private let database: AppDatabase

    private init(_ configuration: AppConfiguration) throws {
        database = try openDatabase(configuration)
    }

    /// Opens the folder's database (creating folder and file only where `use` allows), runs `task` on it, and closes
    /// it (checkpointing the WAL) once the task succeeded; after a failure the pool's deinitialisation closes it.
    public static func open<Result>(_ configuration: AppConfiguration, _ use: DataFolderUse,
                                    for task: (DataFolder) throws -> Result) throws -> Result {
        try configuration.checkDataFolder(for: use)
        let folder = try DataFolder(configuration)
        let result = try task(folder)
        try folder.database.close()
        return result
    }

    /// Adds an account; with no name, the person is called by the part of the email before @.
    public func createUser(email: String, role: String, name: String?, password: String) throws -> String {
        let input = NewUserInput(name: name ?? String(email.split(separator: "@").first ?? ""), email: email, role: role,
                                 password: password, passwordConfirmation: password)
        do {
            let user = try database.createUser(input, by: .system("command-line"))
            return "Created \(user.role.label.lowercased()) \(user.email) (\(user.id.uuidString.lowercased()))."
        } catch let errors as ValidationError {
            throw InvalidInput(errors.fieldErrors.map { "\($0.field): \($0.message)" }.joined(separator: "\n"))
        }
    }

    /// Writes a consistent copy of the database to `file` (replaced if it exists), also while a server uses it.
    /// Photos are files beside the database: those the copy shows go to `FILE.photos` (see `backupPhotoFiles`).
    public func backup(to file: String) throws -> String {
        try database.backup(to: file)
        let photos = file + ".photos"
        let summary = try database.backupPhotoFiles(shownBy: file, to: photos)
        var line = "Backed up \(database.path) to \(file)"
        if summary.copied + summary.alreadyThere + summary.missing > 0 {
            line += ", and its photo files to \(photos) (\(summary.copied) copied, \(summary.alreadyThere) there already"
                + (summary.missing > 0 ? ", \(summary.missing) deleted here since the copy began" : "") + ")"
        }
        return line + "."
    }

    /// Puts the backup `file` back into the configured data folder, refused while anything serves it; the database
    /// that was there is kept aside. Opening the restored database afterwards brings a backup made by an older
    /// Fieldbook up to date and tightens its access, so the next `serve` starts as from any other.
    public static func restore(_ configuration: AppConfiguration, from file: String, force: Bool = false) throws -> String {
        let outcome: RestoreOutcome
        let lock: ServingLock
        do {
            try BackupRestore.checkReadable(file)
            lock = try ServingLock.restoring(configuration.dataDirectory)
            outcome = try BackupRestore.restore(file, intoDatabase: configuration.databasePath, force: force)
        } catch let refusal as BackupRefusal {
            throw Refusal(refusal.description)
        }
        try openDatabase(configuration).close()
        withExtendedLifetime(lock) {}
        let aside = outcome.keptAside.map { " The database that was there is kept as \($0)." } ?? ""
        let authority = outcome.authorityRestored ? " Its HTTPS certificate authority is restored: devices that trusted it open this one." : ""
        let authorityAside = outcome.authorityKeptAside.map { " The certificate authority that was here is kept as \($0)." } ?? ""
        return "Restored \(file) into \(configuration.databasePath), with \(outcome.photosRestored) photo files.\(aside)\(authority)\(authorityAside)"
    }

    /// Fills an empty database with a generated community; the same seed gives the same community.
    public func importDemoCommunity(venues: Int, participants: Int, activities: Int, seed: UInt64) throws -> String {
        let started = Date()
        do {
            let summary = try database.importDemoCommunity(
                size: DemoCommunity.Size(venues: venues, participants: participants, activities: activities), seed: seed)
            return """
                Created \(summary.areas) areas, \(summary.venues) venues, \(summary.participants) participants \
                (\(summary.addressPeriods) address periods), \(summary.activities) activities (\(summary.venuePeriods) venue periods) \
                and \(summary.assignments) assignments in \(String(format: "%.1f", Date().timeIntervalSince(started))) s.
                """
        } catch let error as DomainError {
            throw Refusal(error.userMessage)
        }
    }

    /// Links this node to a hub, signing in once with an administrator account of the hub.
    public func linkHub(upstream: URL, email: String, password: String) throws -> String {
        let authority: AuthorityCertificate?
        do {
            authority = try HubLinker.link(database, upstream: upstream, email: email, password: password)
        } catch let failure as HubLinker.Failure {
            throw Refusal(failure.description)
        }
        let linked = "Linked to \(upstream.absoluteString) as \(email). `fieldbook serve` syncs with it in the background."
        return authority.map { linked + "\n" + HubLinker.trustNotice($0) } ?? linked
    }
}
