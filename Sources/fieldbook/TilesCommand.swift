import App
import ArgumentParser

/// `fieldbook tiles`: the MBTiles files the map's tiles come from.
struct Tiles: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Manage the map's offline tiles (MBTiles files).", subcommands: [TilesImport.self, TilesList.self])
}

/// `fieldbook tiles import FILE.mbtiles`: add regional detail to the offline map.
struct TilesImport: FieldbookCommand {
    static let configuration = CommandConfiguration(
        commandName: "import", abstract: "Check an MBTiles file (PNG tiles) and add it to the map's tiles in the data folder.")

    @OptionGroup var common: CommonOptions

    @Argument(help: "The .mbtiles file to add.")
    var file: String

    func perform() async throws {
        announce(try TileFiles.importFile(file, configuration: AppConfiguration(common.given)))
    }
}

/// `fieldbook tiles list`: what is installed.
struct TilesList: FieldbookCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List the installed tile files: name, zooms, bounds, tiles, size and path.")

    @OptionGroup var common: CommonOptions

    func perform() async throws {
        announce(try TileFiles.list(configuration: AppConfiguration(common.given)))
    }
}
