import Foundation
import Storage

/// `fieldbook tiles import` and `tiles list`: the MBTiles files of a configured Fieldbook, without serving. A running
/// server notices an imported file within a second (TileLibrary watches the import folder).
public enum TileFiles {
    /// Checks the file and copies it into the data folder's tiles/; a refusal says what is wrong with the file.
    public static func importFile(_ path: String, configuration: AppConfiguration) throws -> String {
        try configuration.checkDataFolder(for: .existingDatabase)
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw Refusal("\(path) cannot be read: check the path and that this user may read it")
        }
        do {
            let set = try configuration.tileLibrary().importFile(at: path)
            return "Imported \(set.name): zoom \(set.minZoom) to \(set.maxZoom), \(set.tileCount) tiles, into \(set.path). "
                + "A running Fieldbook serves it within a second; reload the map page to see it."
        } catch let refusal as TileSetRefusal {
            throw Refusal(refusal.message)
        }
    }

    /// One line per installed file, in the order they answer: name, zooms, bounds, size, path.
    public static func list(configuration: AppConfiguration) throws -> String {
        try configuration.checkDataFolder(for: .existingDatabase)
        let sets = configuration.tileLibrary().tileSets
        guard !sets.isEmpty else {
            return "No tile files installed. Run scripts/install-basemap.sh for the world map, or `fieldbook tiles import FILE.mbtiles`."
        }
        return sets.map { set in
            let bounds = String(format: "%.4f,%.4f,%.4f,%.4f", set.bounds.west, set.bounds.south, set.bounds.east, set.bounds.north)
            let size = ByteCountFormatter.string(fromByteCount: set.byteSize, countStyle: .file)
            return "\(set.name)\tzoom \(set.minZoom)-\(set.maxZoom)\tbounds \(bounds)\t\(set.tileCount) tiles\t\(size)\t\(set.path)"
        }.joined(separator: "\n")
    }
}
