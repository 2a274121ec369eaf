import Foundation
import GRDB
@testable import Storage
import Testing

/// MBTiles files are read as they are: real SQLite files with a tiles table in TMS row order.
@Suite struct TileSetTests {
    /// A PNG signature followed by a marker, so each tile's bytes tell which row they were stored in.
    static func png(_ marker: String) -> Data { Data(TileSet.pngSignature + Array(marker.utf8)) }

    /// Writes an MBTiles file: `tiles` are (zoom, column, TMS row, data); `metadata` goes in the metadata table.
    static func mbtiles(in folder: URL, name: String = "region.mbtiles", metadata: [String: String] = ["format": "png", "name": "Region"],
                        tiles: [(Int, Int, Int, Data)]) throws -> String {
        let path = folder.appendingPathComponent(name).path
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE metadata (name TEXT, value TEXT)")
            try db.execute(sql: "CREATE TABLE tiles (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB)")
            for (name, value) in metadata { try db.execute(sql: "INSERT INTO metadata VALUES (?, ?)", arguments: [name, value]) }
            for tile in tiles { try db.execute(sql: "INSERT INTO tiles VALUES (?, ?, ?, ?)", arguments: [tile.0, tile.1, tile.2, tile.3]) }
        }
        try queue.close()
        return path
    }

    static func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fieldbook-tiles-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    // The map asks for XYZ tiles (y from the north); MBTiles rows count from the south: row = 2^z - 1 - y.
    @Test func servesTheTileStoredInTheFlippedRow() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try Self.mbtiles(in: folder, tiles: [(2, 1, 2, Self.png("row 2")), (2, 1, 1, Self.png("row 1"))])
        let set = try TileSet(path: path)
        #expect(try set.tile(z: 2, x: 1, y: 1) == Self.png("row 2"))
        #expect(try set.tile(z: 2, x: 1, y: 2) == Self.png("row 1"))
        #expect(try set.tile(z: 2, x: 0, y: 1) == nil)
        #expect(set.name == "Region" && set.minZoom == 2 && set.maxZoom == 2 && set.tileCount == 2)
    }

    // An imported regional file answers before the bundled world map, and only where it has tiles.
    @Test func importedFilesLayerOverTheBundledOne() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let bundled = folder.appendingPathComponent("bundled")
        try FileManager.default.createDirectory(at: bundled, withIntermediateDirectories: true)
        _ = try Self.mbtiles(in: bundled, name: "basemap.mbtiles", tiles: [(1, 0, 1, Self.png("world")), (1, 1, 1, Self.png("world east"))])
        let region = try Self.mbtiles(in: folder, metadata: ["format": "png", "bounds": "-180,0,0,85"], tiles: [(1, 0, 1, Self.png("region"))])
        let library = TileLibrary(bundledDirectory: bundled.path, importDirectory: folder.appendingPathComponent("imported").path)
        #expect(library.tile(z: 1, x: 0, y: 0) == Self.png("world"))
        try library.importFile(at: region)
        #expect(library.tile(z: 1, x: 0, y: 0) == Self.png("region"))
        #expect(library.tile(z: 1, x: 1, y: 0) == Self.png("world east"))
        #expect(library.tile(z: 1, x: 2, y: 0) == nil)
        #expect(library.tileSets.count == 2)
    }

    // `fieldbook tiles import` runs in its own process beside the server: the server's library sees the file within a second.
    @Test func aFileImportedByAnotherProcessIsServedWithoutARestart() async throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let imports = folder.appendingPathComponent("imported")
        try FileManager.default.createDirectory(at: imports, withIntermediateDirectories: true)
        let serving = TileLibrary(bundledDirectory: folder.appendingPathComponent("none").path, importDirectory: imports.path)
        #expect(serving.tile(z: 1, x: 0, y: 0) == nil)
        let region = try Self.mbtiles(in: folder, tiles: [(1, 0, 1, Self.png("region"))])
        try TileLibrary(bundledDirectory: folder.appendingPathComponent("none").path, importDirectory: imports.path).importFile(at: region)
        try await Task.sleep(for: .milliseconds(1_100))
        #expect(serving.tile(z: 1, x: 0, y: 0) == Self.png("region"))
    }

    @Test func refusesAFileThatIsNotSQLite() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("photo.mbtiles").path
        try Data("just some text, not a database".utf8).write(to: URL(fileURLWithPath: path))
        let refusal = #expect(throws: TileSetRefusal.self) { try TileSet(path: path) }
        #expect(refusal?.message.contains("not an SQLite database") == true)
    }

    @Test func refusesSQLiteWithoutATilesTable() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("other.mbtiles").path
        let queue = try DatabaseQueue(path: path)
        try queue.write { try $0.execute(sql: "CREATE TABLE notes (text TEXT)") }
        try queue.close()
        let refusal = #expect(throws: TileSetRefusal.self) { try TileSet(path: path) }
        #expect(refusal?.message.contains("no tiles table") == true)
    }

    @Test func refusesAFileWithNoTiles() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try Self.mbtiles(in: folder, tiles: [])
        let refusal = #expect(throws: TileSetRefusal.self) { try TileSet(path: path) }
        #expect(refusal?.message.contains("has no tiles") == true)
    }

    @Test func refusesTilesThatAreNotPNG() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let vector = try Self.mbtiles(in: folder, name: "vector.mbtiles", metadata: ["format": "pbf"], tiles: [(0, 0, 0, Data([0x1A, 0x00]))])
        let vectorRefusal = #expect(throws: TileSetRefusal.self) { try TileSet(path: vector) }
        #expect(vectorRefusal?.message.contains("pbf tiles") == true)
        let lying = try Self.mbtiles(in: folder, name: "lying.mbtiles", tiles: [(0, 0, 0, Data([0xFF, 0xD8, 0xFF, 0xE0]))])
        let lyingRefusal = #expect(throws: TileSetRefusal.self) { try TileSet(path: lying) }
        #expect(lyingRefusal?.message.contains("not PNG images") == true)
    }

    // A refused import leaves nothing in the import folder.
    @Test func aRefusedImportAddsNothing() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let empty = try Self.mbtiles(in: folder, name: "empty.mbtiles", tiles: [])
        let library = TileLibrary(bundledDirectory: folder.appendingPathComponent("none").path,
                                  importDirectory: folder.appendingPathComponent("imported").path)
        #expect(throws: TileSetRefusal.self) { try library.importFile(at: empty) }
        #expect(library.tileSets.isEmpty)
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: library.importDirectory)) ?? []).isEmpty)
    }
}
