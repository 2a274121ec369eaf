import Foundation

/// Files from Public/ (and other mounted folders), found and fingerprinted once at start-up. Small ones are kept in
/// memory; larger ones are sent from disk when asked for. `url(for:)` gives a fingerprinted address
/// (`/static/<hash>/css/app.css`) that browsers may cache for a year.
public struct StaticFiles: Sendable {
    private struct Asset: Sendable {
        let path: String
        let version: FileVersion?
        /// The file's bytes when it is no larger than `keptBytes`.
        let kept: [UInt8]?
        let contentType: String
        let fingerprint: String
    }

    public static let urlPrefix = "/static/"
    /// The largest file kept in memory: every page asks for the app's own style sheet and script, while the Leaflet
    /// folder mounted beside them holds megabytes (scripts in several builds, source maps) that are mostly never asked
    /// for, and that an idle server should not hold.
    static let keptBytes = 32 * 1024
    private let assets: [String: Asset]

    /// Finds every file below each directory; `mounts` maps a name prefix ("" or "leaflet/") to a folder.
    public init(mounts: [(prefix: String, directory: String)]) throws {
        var assets: [String: Asset] = [:]
        for (prefix, directory) in mounts {
            let root = URL(fileURLWithPath: directory, isDirectory: true).standardizedFileURL
            guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey]) else { continue }
            for case let file as URL in walker {
                guard (try? file.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else { continue }
                let relative = String(file.standardizedFileURL.path.dropFirst(root.path.count + 1))
                assets[prefix + relative] = try Self.asset(at: file.standardizedFileURL.path, named: relative)
            }
        }
        self.assets = assets
    }

    /// Reads the file once, a piece at a time, for its fingerprint; keeps its bytes when it is small.
    private static func asset(at path: String, named name: String) throws -> Asset {
        let reader = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
        defer { try? reader.close() }
        let version = FileVersion(descriptor: reader.fileDescriptor)
        var fingerprint = Fingerprint(), kept: [UInt8]? = [], size = 0
        while let piece = try reader.read(upToCount: 64 * 1024), !piece.isEmpty {
            fingerprint.add(piece)
            size += piece.count
            kept = size <= keptBytes ? kept.map { $0 + piece } : nil
        }
        return Asset(path: path, version: version, kept: kept, contentType: contentType(for: name), fingerprint: fingerprint.text)
    }

    /// The cache-busting address of an asset, e.g. `css/app.css`.
    public func url(for name: String) -> String {
        guard let asset = assets[name] else { return Self.urlPrefix + name }
        return Self.urlPrefix + asset.fingerprint + "/" + name
    }

    public func contains(_ name: String) -> Bool { assets[name] != nil }

    /// The asset's fingerprint, which changes with its bytes; nil for an unknown name.
    public func fingerprint(of name: String) -> String? { assets[name]?.fingerprint }

    /// The bytes of a small asset (one kept in memory); nil for an unknown or larger one.
    public func contents(of name: String) -> [UInt8]? { assets[name]?.kept }

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

    private func response(_ asset: Asset, cache: String) -> Response? {
        if let kept = asset.kept {
            return Response(status: .ok, headers: [("Content-Type", asset.contentType), ("Cache-Control", cache)], body: kept)
        }
        guard let file = OpenFile(path: asset.path) else { return nil }
        // A file replaced since start-up (a Leaflet upgrade) no longer matches its fingerprint: not to be kept a year.
        // (Until a restart, the small files kept in memory stay as they were read.)
        let unchanged = file.version == asset.version
        return .file(file, contentType: asset.contentType, headers: [("Cache-Control", unchanged ? cache : "no-cache")])
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

    /// FNV-1a over a file's bytes, a piece at a time: enough to tell versions of a file apart in a URL.
    private struct Fingerprint {
        private var hash: UInt64 = 0xcbf2_9ce4_8422_2325

        mutating func add(_ piece: Data) {
            piece.withUnsafeBytes { bytes in
                for byte in bytes {
                    hash ^= UInt64(byte)
                    hash = hash &* 0x0000_0100_0000_01b3
                }
            }
        }

        var text: String { String(hash, radix: 16) }
    }
}
