import Foundation

/// Files from Public/ (and other mounted folders) read once at start-up and served from memory.
/// `url(for:)` gives a fingerprinted address (`/static/<hash>/css/app.css`) that browsers may cache for a year.
public struct StaticFiles: Sendable {
    private struct Asset: Sendable {
        let body: [UInt8]
        let contentType: String
        let fingerprint: String
    }

    public static let urlPrefix = "/static/"
    private let assets: [String: Asset]

    /// Loads every file below each directory; `mounts` maps a name prefix ("" or "leaflet/") to a folder.
    public init(mounts: [(prefix: String, directory: String)]) throws {
        var assets: [String: Asset] = [:]
        for (prefix, directory) in mounts {
            let root = URL(fileURLWithPath: directory, isDirectory: true).standardizedFileURL
            guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey]) else { continue }
            for case let file as URL in walker {
                guard (try? file.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else { continue }
                let relative = String(file.standardizedFileURL.path.dropFirst(root.path.count + 1))
                let body = Array(try Data(contentsOf: file))
                assets[prefix + relative] = Asset(body: body, contentType: Self.contentType(for: relative),
                                                  fingerprint: Self.fingerprint(body))
            }
        }
        self.assets = assets
    }

    /// The cache-busting address of an asset, e.g. `css/app.css`.
    public func url(for name: String) -> String {
        guard let asset = assets[name] else { return Self.urlPrefix + name }
        return Self.urlPrefix + asset.fingerprint + "/" + name
    }

    public func contains(_ name: String) -> Bool { assets[name] != nil }

    /// Answers `/static/...`, or nil when the path is not a known asset.
    public func response(for request: Request) -> Response? {
        guard request.path.hasPrefix(Self.urlPrefix) else { return nil }
        let rest = request.path.dropFirst(Self.urlPrefix.count)
        if let asset = assets[String(rest)] {
            return response(asset, cache: "no-cache")
        }
        let parts = rest.split(separator: "/", maxSplits: 1)
        guard parts.count == 2, let asset = assets[String(parts[1])] else { return nil }
        let cache = asset.fingerprint == parts[0] ? "public, max-age=31536000, immutable" : "no-cache"
        return response(asset, cache: cache)
    }

    private func response(_ asset: Asset, cache: String) -> Response {
        Response(status: .ok, headers: [("Content-Type", asset.contentType), ("Cache-Control", cache)], body: asset.body)
    }

    static func contentType(for name: String) -> String {
        switch (name as NSString).pathExtension.lowercased() {
        case "css": "text/css; charset=utf-8"
        case "js", "mjs": "text/javascript; charset=utf-8"
        case "json", "map": "application/json"
        case "svg": "image/svg+xml"
        case "png": "image/png"
        case "jpg", "jpeg": "image/jpeg"
        case "gif": "image/gif"
        case "webp": "image/webp"
        case "ico": "image/x-icon"
        case "woff2": "font/woff2"
        case "txt": "text/plain; charset=utf-8"
        case "html": "text/html; charset=utf-8"
        default: "application/octet-stream"
        }
    }

    /// FNV-1a over the bytes: enough to tell versions of a file apart in a URL.
    static func fingerprint(_ bytes: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return String(hash, radix: 16)
    }
}
