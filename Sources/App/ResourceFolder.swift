import Foundation

/// Where Fieldbook finds its templates/, Public/ and tiles/ when `--resources` does not say: so the program runs from
/// any folder, installed (`make install`) or straight from the checkout it was built in.
public enum ResourceFolder {
    /// The first of: `PREFIX/share/fieldbook` beside an installed `PREFIX/bin/fieldbook`; the nearest folder above the
    /// program holding templates/ (a checkout's .build/release/fieldbook); the current folder.
    public static let located: String = locate(executable: executablePath(), currentDirectory: FileManager.default.currentDirectoryPath)

    static func locate(executable: String?, currentDirectory: String) -> String {
        guard let executable else { return "." }
        let programFolder = URL(fileURLWithPath: executable).resolvingSymlinksInPath().deletingLastPathComponent()
        let installed = programFolder.deletingLastPathComponent().appendingPathComponent("share/fieldbook")
        if holdsResources(installed.path) { return installed.path }
        var folder = programFolder
        while folder.path != "/" {
            if holdsResources(folder.path) { return folder.path }
            folder = folder.deletingLastPathComponent()
        }
        return holdsResources(currentDirectory) ? currentDirectory : "."
    }

    /// Refuses a folder without the templates and static files, saying how to point Fieldbook at the right one.
    public static func check(_ folder: String) throws {
        guard !holdsResources(folder) else { return }
        throw Refusal("""
            \(DataFolderRules.absolute(folder)) holds no Fieldbook templates (templates/layout.mustache) and static files \
            (Public/). Give the folder that holds them with --\(Setting<String>.resources.name) FOLDER or \
            \(Setting<String>.resources.variable)=FOLDER: an installed Fieldbook keeps them in PREFIX/share/fieldbook \
            (/usr/share/fieldbook from the Debian package), a checkout at its top.
            """)
    }

    /// A folder with the layout template and the static files.
    static func holdsResources(_ folder: String) -> Bool {
        FileManager.default.fileExists(atPath: (folder as NSString).appendingPathComponent("templates/layout.mustache"))
            && FileManager.default.fileExists(atPath: (folder as NSString).appendingPathComponent("Public"))
    }

    /// This program's file, as the kernel knows it (argv[0] may be a bare name found on PATH).
    private static func executablePath() -> String? {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments.first
    }
}
