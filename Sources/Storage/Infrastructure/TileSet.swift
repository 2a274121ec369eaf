import Domain
import Foundation
import GRDB

/// Why a file cannot be used as a tile set; the message says what is wrong and what to do.
public struct TileSetRefusal: Error, Sendable, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}

/// One MBTiles file (SQLite; `tiles` rows in TMS order, so a row counts up from the south): its description and its tiles.
public final class TileSet: Sendable {
    public let path: String
    public let name: String
    public let attribution: String?
    public let minZoom: Int
    public let maxZoom: Int
    /// West, south, east, north in degrees.
    public let bounds: (west: Double, south: Double, east: Double, north: Double)
    public let tileCount: Int
    public let byteSize: Int64
    private let queue: DatabaseQueue

    /// Opens and checks a file; refuses one that is not SQLite, has no `tiles` table, holds no tiles or holds tiles that
    /// are not PNG images (the map asks for .png raster tiles).
    public init(path: String) throws {
        let fileName = (path as NSString).lastPathComponent
        self.path = path
        var configuration = Configuration()
        configuration.readonly = true
        let queue: DatabaseQueue
        do {
            queue = try DatabaseQueue(path: path, configuration: configuration)
            _ = try queue.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM sqlite_master") }
        } catch {
            throw TileSetRefusal(message: "\(fileName) is not an MBTiles file: it is not an SQLite database. Export the map area as MBTiles (PNG) and try again.")
        }
        self.queue = queue
        let summary = try queue.read { db -> (metadata: [String: String], zooms: (Int, Int)?, count: Int, first: Data?) in
            guard try db.tableExists("tiles") || db.viewExists("tiles"),
                  try Set(db.columns(in: "tiles").map(\.name)).isSuperset(of: ["zoom_level", "tile_column", "tile_row", "tile_data"]) else {
                throw TileSetRefusal(message: "\(fileName) is an SQLite database but not MBTiles: it has no tiles table with zoom_level, tile_column, tile_row and tile_data.")
            }
            var metadata: [String: String] = [:]
            if try db.tableExists("metadata") || db.viewExists("metadata") {
                for row in try Row.fetchAll(db, sql: "SELECT name, value FROM metadata") {
                    if let name = row["name"] as String?, let value = row["value"] as String? { metadata[name.lowercased()] = value }
                }
            }
            let zooms = try Row.fetchOne(db, sql: "SELECT MIN(zoom_level) AS low, MAX(zoom_level) AS high FROM tiles")
                .flatMap { row -> (Int, Int)? in
                    guard let low = row["low"] as Int?, let high = row["high"] as Int? else { return nil }
                    return (low, high)
                }
            let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM tiles") ?? 0
            let first = try Data.fetchOne(db, sql: "SELECT tile_data FROM tiles LIMIT 1")
            return (metadata, zooms, count, first)
        }
        guard summary.count > 0, let zooms = summary.zooms else {
            throw TileSetRefusal(message: "\(fileName) has no tiles. Export the map area again with at least one zoom level.")
        }
        let format = summary.metadata["format"]?.lowercased() ?? "png"
        guard format == "png", let first = summary.first, first.starts(with: TileSet.pngSignature) else {
            throw TileSetRefusal(message: "\(fileName) holds \(format == "png" ? "tiles that are not PNG images" : "\(format) tiles"); Fieldbook serves PNG raster tiles. Export the tiles as PNG and try again.")
        }
        name = summary.metadata["name"].flatMap { $0.isEmpty ? nil : $0 } ?? (fileName as NSString).deletingPathExtension
        attribution = summary.metadata["attribution"]
        minZoom = Int(summary.metadata["minzoom"] ?? "") ?? zooms.0
        maxZoom = Int(summary.metadata["maxzoom"] ?? "") ?? zooms.1
        bounds = Self.parseBounds(summary.metadata["bounds"]) ?? (-180, -85.0511, 180, 85.0511)
        tileCount = summary.count
        byteSize = ((try? FileManager.default.attributesOfItem(atPath: path)[.size]) as? NSNumber)?.int64Value ?? 0
    }

    static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// The PNG of tile z/x/y in the map's (XYZ) numbering, nil when this file does not hold it.
    public func tile(z: Int, x: Int, y: Int) throws -> Data? {
        guard covers(z: z, x: x, y: y) else { return nil }
        let row = (1 << z) - 1 - y  // TMS rows count from the south
        return try queue.read { db in
            try Data.fetchOne(db, sql: "SELECT tile_data FROM tiles WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?",
                              arguments: [z, x, row])
        }
    }

    /// Whether the tile lies within this file's zooms and overlaps its bounds.
    func covers(z: Int, x: Int, y: Int) -> Bool {
        guard (minZoom...maxZoom).contains(z) else { return false }
        let box = TileCoordinates.bounds(z: z, x: x, y: y)
        return box.west < bounds.east && box.east > bounds.west && box.south < bounds.north && box.north > bounds.south
    }

    private static func parseBounds(_ text: String?) -> (west: Double, south: Double, east: Double, north: Double)? {
        let numbers = (text ?? "").split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard numbers.count == 4, numbers[0] < numbers[2], numbers[1] < numbers[3] else { return nil }
        return (numbers[0], numbers[1], numbers[2], numbers[3])
    }
}

/// Web Mercator tile arithmetic.
public enum TileCoordinates {
    /// Whether z/x/y names a tile (zoom 0–22, x and y within 0..<2^z).
    public static func isValid(z: Int, x: Int, y: Int) -> Bool {
        (0...22).contains(z) && (0..<(1 << z)).contains(x) && (0..<(1 << z)).contains(y)
    }

    /// The x and y of the tile at zoom `z` that holds the point.
    public static func tile(containing point: Coordinate, z: Int) -> (x: Int, y: Int) {
        let count = Double(1 << z), latitude = point.latitude * Double.pi / 180
        let x = Int(((point.longitude + 180) / 360 * count).rounded(.down))
        let y = Int(((1 - log(tan(latitude) + 1 / cos(latitude)) / Double.pi) / 2 * count).rounded(.down))
        return (min(max(x, 0), (1 << z) - 1), min(max(y, 0), (1 << z) - 1))
    }

    /// The tile's box in degrees.
    public static func bounds(z: Int, x: Int, y: Int) -> (west: Double, south: Double, east: Double, north: Double) {
        let count = Double(1 << z)
        func longitude(_ x: Int) -> Double { Double(x) / count * 360 - 180 }
        func latitude(_ y: Int) -> Double { atan(sinh(Double.pi * (1 - 2 * Double(y) / count))) * 180 / Double.pi }
        return (longitude(x), latitude(y + 1), longitude(x + 1), latitude(y))
    }
}
