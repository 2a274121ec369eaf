import Domain
import Foundation
import GRDB

/// What an administrator decides about the map: whether participants' homes are shown (6C.8) and to whom, and the
/// online base layer. Node-local: each Fieldbook decides for the people who use it.
public struct MapSettings: Sendable, Equatable {
    /// How much of where participants live the homes layer tells.
    public enum HomesLayer: String, Sendable, CaseIterable {
        /// No homes layer at all (the default: homes are private).
        case off
        /// How many participants live at each venue, no names.
        case counts
        /// Counts and the participants' names.
        case names
    }

    public static let openStreetMapTiles = "https://tile.openstreetmap.org/{z}/{x}/{y}.png"
    public static let openStreetMapAttribution = "© OpenStreetMap contributors"

    public var homesLayer = HomesLayer.off
    /// Read-only users see the homes layer only when this is on: the privacy setting's "homes" (`PrivacySettings`).
    public var homesForReadOnly = false
    /// The browser loads a second base layer from `onlineTileURL` while this is on.
    public var onlineLayer = true
    /// A tile URL template with {z}, {x} and {y}: OpenStreetMap's, or an organization's own tile server.
    public var onlineTileURL = MapSettings.openStreetMapTiles
    public var onlineAttribution = MapSettings.openStreetMapAttribution

    public init() {}

    /// Whether a user with `role` may see the homes layer.
    public func showsHomes(to role: UserRole) -> Bool {
        homesLayer != .off && (role != .readOnly || homesForReadOnly)
    }

    /// The scheme and host the browser fetches online tiles from (for the Content-Security-Policy), nil while off.
    public var onlineTileOrigin: String? {
        guard onlineLayer, let url = URL(string: onlineTileURL.replacingOccurrences(of: "{", with: "").replacingOccurrences(of: "}", with: "")),
              let scheme = url.scheme, let host = url.host else { return nil }
        return "\(scheme)://\(host)" + (url.port.map { ":\($0)" } ?? "")
    }

    /// Checks an administrator's form: the URL must be http(s) and name {z}, {x} and {y}.
    public static func checkedTileURL(_ text: String) throws -> String {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        var errors = ValidationError()
        let probe = URL(string: trimmed.replacingOccurrences(of: "{", with: "").replacingOccurrences(of: "}", with: ""))
        if !["http", "https"].contains(probe?.scheme ?? "") || probe?.host == nil
            || !["{z}", "{x}", "{y}"].allSatisfy(trimmed.contains) {
            errors.add("online_tile_url", "Enter a tile address starting with https:// that contains {z}, {x} and {y}, like \(openStreetMapTiles)")
        }
        try errors.throwIfAny()
        return trimmed
    }
}

extension AppDatabase {
    public func mapSettings() throws -> MapSettings {
        let stored = try settings(prefix: "map.")
        var settings = MapSettings()
        settings.homesLayer = stored["map.homes_layer"].flatMap(MapSettings.HomesLayer.init) ?? settings.homesLayer
        settings.homesForReadOnly = try privacySettings().readOnlySeesHomes
        settings.onlineLayer = stored["map.online_layer"].map { $0 == "1" } ?? settings.onlineLayer
        settings.onlineTileURL = stored["map.online_tile_url"] ?? settings.onlineTileURL
        settings.onlineAttribution = stored["map.online_attribution"] ?? settings.onlineAttribution
        return settings
    }

    public func saveMapSettings(_ settings: MapSettings) throws {
        try writeLocal { db in
            try Self.putSettings(db, [
                "map.homes_layer": settings.homesLayer.rawValue,
                "map.online_layer": settings.onlineLayer ? "1" : "0", "map.online_tile_url": settings.onlineTileURL,
                "map.online_attribution": settings.onlineAttribution,
            ])
        }
    }
}
