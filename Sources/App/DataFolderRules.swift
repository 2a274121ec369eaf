import Foundation

/// What a one-shot command may find in its data folder. None creates a database where another folder's was meant:
/// a wrong or missing `--data` names a folder that does not hold one.
public enum DataFolderUse: Sendable {
    /// The command reads or copies the database that is there (backup, check, tiles).
    case existingDatabase
    /// The command may also start a new Fieldbook in a folder that does not exist yet or is empty (create-user's
    /// first account, link's new node, demo-data), but never in a folder holding other files and no database.
    case existingDatabaseOrNewFolder
}

extension AppConfiguration {
    /// Refuses the data folder unless it suits `use`; creates nothing.
    public func checkDataFolder(for use: DataFolderUse) throws {
        try DataFolderRules.check(dataDirectory, for: use, chosenBy: "--\(Setting<String>.data.name) (or \(Setting<String>.data.variable))")
    }
}

enum DataFolderRules {
    static func check(_ folder: String, for use: DataFolderUse, chosenBy setting: String) throws {
        var isFolder: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder)
        if exists, isFolder.boolValue, FileManager.default.fileExists(atPath: AppConfiguration.databasePath(in: folder)) {
            return
        }
        let isNewOrEmpty = !exists || (isFolder.boolValue && holdsNoOnesFiles(folder))
        if use == .existingDatabaseOrNewFolder, isNewOrEmpty { return }
        let place = absolute(folder)
        let found = !exists ? "does not exist" : !isFolder.boolValue ? "is not a folder" : "holds no Fieldbook database (no \(AppConfiguration.databaseFileName))"
        throw Refusal("""
            \(place) \(found). Give the data folder Fieldbook serves with \(setting); nothing was created or changed.
            """)
    }

    /// Whether a folder is empty but for what no person put there: the lost+found of a file system mounted there,
    /// and the hidden dot-files a desktop leaves in any folder it shows (.DS_Store, .directory).
    private static func holdsNoOnesFiles(_ folder: String) -> Bool {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return false }
        return entries.allSatisfy { $0 == "lost+found" || $0.hasPrefix(".") }
    }

    static func absolute(_ path: String) -> String {
        let url = URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true))
        return url.standardizedFileURL.path
    }
}

/// The data folder holds people's records, addresses, photos and sign-ins, so only the user Fieldbook runs as may
/// reach it. A folder Fieldbook creates is made 700; one made otherwise (by mkdir, a restore, an older Fieldbook)
/// is tightened to 700 each time it is opened, and the database files to 600, when this user owns them. With the
/// folder closed to others, what else it holds (photos, tiles, uploads, prepared exports) is out of their reach
/// too. When this user cannot tighten it, the folder is refused with the command that can.
enum OwnerOnlyAccess {
    static func tighten(folder: String, database: String) throws {
        try tighten(folder)
        for path in [database, database + "-wal", database + "-shm"] { try tighten(path) }
    }

    /// Takes every permission from group and others; a path that is not there is left alone.
    private static func tighten(_ path: String) throws {
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & 0o077 != 0 else { return }
        guard chmod(path, status.st_mode & 0o7700) != 0 else { return }
        let mode = String(status.st_mode & 0o777, radix: 8)
        throw Refusal("""
            \(DataFolderRules.absolute(path)) can be read by other users of this machine (mode \(mode)), and Fieldbook, \
            running as \(userName(getuid())), cannot change that: it belongs to \(userName(status.st_uid)). Run \
            `chmod go-rwx \(DataFolderRules.absolute(path))` as \(userName(status.st_uid)), or \
            `chown -R \(userName(getuid())) \(DataFolderRules.absolute(path))` as root, then start Fieldbook again.
            """)
    }

    private static func userName(_ id: uid_t) -> String {
        guard let entry = getpwuid(id), let name = entry.pointee.pw_name else { return "user \(id)" }
        return "user " + String(cString: name)
    }
}
