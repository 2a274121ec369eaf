import Foundation
import Synchronization

/// The MBTiles files Fieldbook serves tiles from: regional files an administrator imported (in the data folder) layered
/// over the bundled world basemap (in the resources folder). For a tile, the newest imported file that covers it
/// answers first, so a detailed region shows over the world map at the zooms it has.
public final class TileLibrary: Sendable {
    /// Where `tiles import` and the upload page put files.
    public let importDirectory: String
    private let bundledDirectory: String
    private let sets = Mutex<[TileSet]>([])
    /// The import folder's change time when it was last read, and when that was last compared with the folder's.
    private let importsSeen = Mutex<(changed: timespec?, checked: ContinuousClock.Instant?)>((nil, nil))

    public init(bundledDirectory: String, importDirectory: String) {
        self.bundledDirectory = bundledDirectory
        self.importDirectory = importDirectory
        reload()
    }

    /// The files in the order they are asked for a tile: imported, newest first, then bundled.
    public var tileSets: [TileSet] {
        reloadIfImportsChanged()
        return sets.withLock { $0 }
    }

    /// `fieldbook tiles import` run beside a running server adds a file to the import folder, which changes the folder's
    /// change time: then the folders are read again. Compared at most once a second, so tile requests cost no `stat`.
    private func reloadIfImportsChanged() {
        let now = ContinuousClock.now
        let due = importsSeen.withLock { seen -> Bool in
            guard let checked = seen.checked, now - checked < .seconds(1) else {
                seen.checked = now
                return true
            }
            return false
        }
        guard due, let changed = Self.changeTime(of: importDirectory) else { return }
        let seenBefore = importsSeen.withLock { $0.changed }
        if let seenBefore, seenBefore.tv_sec == changed.tv_sec, seenBefore.tv_nsec == changed.tv_nsec { return }
        reload()
    }

    private static func changeTime(of directory: String) -> timespec? {
        var info = stat()
        return stat(directory, &info) == 0 ? info.st_mtim : nil
    }

    /// Re-reads both folders; a file that no longer opens is left out (imports were checked when they came in).
    public func reload() {
        let changed = Self.changeTime(of: importDirectory)
        importsSeen.withLock { $0.changed = changed }
        let imported = Self.files(in: importDirectory).sorted { $0.modified > $1.modified }
        let bundled = Self.files(in: bundledDirectory).sorted { $0.path < $1.path }
        let loaded = (imported + bundled).compactMap { try? TileSet(path: $0.path) }
        sets.withLock { $0 = loaded }
    }

    /// Whether some file's zooms and bounds take in tile z/x/y (without reading it).
    public func covers(z: Int, x: Int, y: Int) -> Bool { tileSets.contains { $0.covers(z: z, x: x, y: y) } }

    /// The PNG for z/x/y in the map's numbering from the first file that has it; nil when none has.
    public func tile(z: Int, x: Int, y: Int) -> Data? {
        guard TileCoordinates.isValid(z: z, x: x, y: y) else { return nil }
        for set in tileSets {
            if let data = try? set.tile(z: z, x: x, y: y) { return data }
        }
        return nil
    }

    /// The attributions of every file, each once (the licences require them to stay visible).
    public var attributions: [String] {
        var seen: [String] = []
        for text in tileSets.compactMap(\.attribution) where !text.isEmpty && !seen.contains(text) { seen.append(text) }
        return seen
    }

    /// Checks a file and copies it into the import folder (replacing an earlier import of the same name), then serves it.
    /// `suggestedName` names the copy (an upload's original file name); the source file is left as it was.
    @discardableResult
    public func importFile(at source: String, suggestedName: String? = nil) throws -> TileSet {
        _ = try TileSet(path: source)
        try FileManager.default.createDirectory(atPath: importDirectory, withIntermediateDirectories: true)
        let base = Self.safeFileName((suggestedName ?? (source as NSString).lastPathComponent) as NSString)
        let destination = (importDirectory as NSString).appendingPathComponent(base + ".mbtiles")
        let partial = destination + ".partial"
        try? FileManager.default.removeItem(atPath: partial)
        try FileManager.default.copyItem(atPath: source, toPath: partial)
        if rename(partial, destination) != 0 {
            try? FileManager.default.removeItem(atPath: partial)
            throw TileSetRefusal(message: "The tile file could not be saved in \(importDirectory): \(String(cString: strerror(errno))).")
        }
        reload()
        return try TileSet(path: destination)
    }

    /// Letters, digits, dots, dashes and underscores of the name without its extension; "tiles" when nothing is left.
    private static func safeFileName(_ name: NSString) -> String {
        let kept = String((name.deletingPathExtension as String).unicodeScalars.map { scalar -> Character in
            CharacterSet.alphanumerics.contains(scalar) && scalar.isASCII || "-_.".unicodeScalars.contains(scalar) ? Character(scalar) : "-"
        })
        let trimmed = kept.trimmingCharacters(in: CharacterSet(charactersIn: "-."))
        return trimmed.isEmpty ? "tiles" : String(trimmed.prefix(80))
    }

    private static func files(in directory: String) -> [(path: String, modified: Date)] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.filter { $0.hasSuffix(".mbtiles") || $0.hasSuffix(".db") }.map { name in
            let path = (directory as NSString).appendingPathComponent(name)
            let modified = (try? FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date) ?? .distantPast
            return (path, modified)
        }
    }
}
