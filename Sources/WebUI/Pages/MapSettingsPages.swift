import Domain
import Foundation
import HTTPServer
import Storage
import Surface
import Translations

/// /settings/map, for administrators: the participant-homes privacy setting, the online base layer, and the MBTiles
/// files the map's tiles come from (list and upload).
enum MapSettingsPages {
    static func show(_ context: inout PageContext) throws -> Response {
        let settings = try context.database.mapSettings()
        return page(&context, settings: settings, tileURL: settings.onlineTileURL, errors: ValidationError())
    }

    static func save(_ context: inout PageContext) throws -> Response {
        let request = context.request
        var settings = try context.database.mapSettings()
        settings.homesLayer = MapSettings.HomesLayer(rawValue: request.field("homes_layer")) ?? .off
        settings.onlineLayer = request.field("online_layer") == "on"
        let attribution = request.field("online_attribution").trimmingCharacters(in: .whitespaces)
        settings.onlineAttribution = attribution.isEmpty ? MapSettings.openStreetMapAttribution : String(attribution.prefix(300))
        do {
            settings.onlineTileURL = try MapSettings.checkedTileURL(request.field("online_tile_url"))
        } catch let errors as ValidationError {
            return page(&context, settings: settings, tileURL: request.field("online_tile_url"), errors: errors, status: .unprocessableContent)
        }
        try context.database.saveMapSettings(settings)
        return context.redirect(to: Paths.mapSettings(), flash: Message("Map settings saved."))
    }

    /// Takes an uploaded MBTiles file: checked by its content (SQLite, a tiles table, PNG tiles), then served.
    static func upload(_ context: inout PageContext) throws -> Response {
        let settings = try context.database.mapSettings()
        guard let file = context.request.files.first(where: { $0.fieldName == "tiles_file" }), !file.isEmpty else {
            return page(&context, settings: settings, tileURL: settings.onlineTileURL,
                        errors: ValidationError([FieldError(field: "tiles_file", message: "Choose an MBTiles file to upload")]),
                        status: .unprocessableContent)
        }
        guard let tiles = context.web.tiles else { throw HTTPError(.serviceUnavailable, "Map tiles are not set up on this Fieldbook.") }
        do {
            let set = try tiles.importFile(at: file.path, suggestedName: file.filename)
            return context.redirect(to: Paths.mapSettings(),
                                    flash: Message("Added “{name}”: zoom {min_zoom} to {max_zoom}, {count} tile.",
                                                   plural: "Added “{name}”: zoom {min_zoom} to {max_zoom}, {count} tiles.", count: set.tileCount,
                                                   ["name": .text(set.name), "min_zoom": .text(String(set.minZoom)), "max_zoom": .text(String(set.maxZoom)), "count": .text(String(set.tileCount))]))
        } catch let refusal as TileSetRefusal {
            let message = refusal.message.replacingOccurrences(of: (file.path as NSString).lastPathComponent, with: file.filename)
            return page(&context, settings: settings, tileURL: settings.onlineTileURL,
                        errors: ValidationError([FieldError(field: "tiles_file", message: message)]), status: .unprocessableContent)
        }
    }

    private static func page(_ context: inout PageContext, settings: MapSettings, tileURL: String, errors: ValidationError,
                             status: HTTPStatus = .ok) -> Response {
        var form = FormView(errors: errors)
        form.input("online_tile_url", label: "Online tile address", value: tileURL,
                   hint: "OpenStreetMap's, or your organization's own tile server; it must contain {z}, {x} and {y}")
        form.input("online_attribution", label: "Attribution of the online tiles", value: settings.onlineAttribution)
        var view = form.view
        if let message = errors.message(for: "tiles_file") { view["tiles_file_error"] = message }
        view["homes_options"] = MapSettings.HomesLayer.allCases.map { option -> TemplateView in
            ["value": option.rawValue, "label": homesLabel(option), "checked": option == settings.homesLayer, "id": "homes_layer-\(option.rawValue)"]
        }
        view["homes_for_read_only"] = settings.homesForReadOnly
        view["privacy_path"] = Paths.privacySettings()
        view["online_layer"] = settings.onlineLayer
        view["tile_sets"] = (context.web.tiles?.tileSets ?? []).map { set -> TemplateView in
            ["name": set.name, "zooms": "\(set.minZoom)–\(set.maxZoom)", "tiles": set.tileCount,
             "bounds": String(format: "%.2f, %.2f to %.2f, %.2f", set.bounds.west, set.bounds.south, set.bounds.east, set.bounds.north),
             "size": ByteCountFormatter.string(fromByteCount: set.byteSize, countStyle: .file),
             "attribution": set.attribution.map(Message.verbatim) ?? Message("Not given")]
        }
        view["has_tile_sets"] = !(context.web.tiles?.tileSets.isEmpty ?? true)
        view["import_command"] = importCommand(context.web.tiles)
        return context.page("settings/map", title: Message("Map settings"), section: .map, view: view, status: status, hasErrors: form.hasErrors)
    }

    /// The exact `fieldbook tiles import` for this Fieldbook: imported files go in its data folder's tiles/.
    static func importCommand(_ tiles: TileLibrary?) -> String {
        let dataFolder = tiles.map { ($0.importDirectory as NSString).deletingLastPathComponent } ?? "DATA_FOLDER"
        return "fieldbook tiles import --data \(shellQuoted(dataFolder)) region.mbtiles"
    }

    private static func shellQuoted(_ text: String) -> String {
        let plain = text.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "/._-+:@".unicodeScalars.contains($0)) }
        return plain ? text : "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    private static func homesLabel(_ option: MapSettings.HomesLayer) -> Message {
        switch option {
        case .off: Message("Off: the map never shows where participants live")
        case .counts: Message("How many participants live at each venue, without names")
        case .names: Message("How many, and their names")
        }
    }
}
