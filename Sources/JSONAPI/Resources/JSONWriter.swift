import Foundation

/// Appends JSON to a byte buffer: objects and arrays are written by closures, so nesting follows the code's nesting.
struct JSONWriter {
    private(set) var bytes: [UInt8] = []
    private var needsComma = false

    /// `continuing`: the writer carries on a list another writer began, so its first element is preceded by a comma.
    init(capacity: Int = 1 << 16, continuing: Bool = false) {
        bytes.reserveCapacity(capacity)
        needsComma = continuing
    }

    mutating func raw(_ text: String) {
        bytes.append(contentsOf: text.utf8)
        needsComma = true
    }

    mutating func key(_ name: String) {
        string(name)
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    mutating func field(_ name: String, _ value: String?) {
        key(name)
        if let value { string(value) } else { raw("null") }
    }

    mutating func object(_ body: (inout JSONWriter) -> Void) {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
        bytes.append(UInt8(ascii: "{"))
        needsComma = false
        body(&self)
        bytes.append(UInt8(ascii: "}"))
        needsComma = true
    }

    mutating func array<Element>(_ elements: [Element], _ body: (inout JSONWriter, Element) -> Void) {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
        bytes.append(UInt8(ascii: "["))
        needsComma = false
        for element in elements { body(&self, element) }
        bytes.append(UInt8(ascii: "]"))
        needsComma = true
    }

    /// A GeoJSON FeatureCollection of `elements`, with a `links` member (RFC 7946 allows foreign members) when given.
    mutating func collection<Element>(_ elements: [Element], links: [(String, String)] = [], _ feature: (inout JSONWriter, Element) -> Void) {
        openCollection(links: links)
        for element in elements { feature(&self, element) }
        closeCollection()
    }

    /// A collection's start, up to its features' opening bracket; features then follow, and `closeCollection` ends it.
    mutating func openCollection(links: [(String, String)]) {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
        bytes.append(UInt8(ascii: "{"))
        needsComma = false
        field("type", "FeatureCollection")
        if !links.isEmpty {
            key("links")
            object { json in
                for (name, template) in links { json.field(name, template) }
            }
        }
        key("features")
        bytes.append(UInt8(ascii: "["))
        needsComma = false
    }

    mutating func closeCollection() {
        bytes.append(contentsOf: [UInt8(ascii: "]"), UInt8(ascii: "}")])
        needsComma = true
    }

    /// A Point feature whose `properties` object `body` fills.
    mutating func feature(id: String, longitude: Double, latitude: Double, _ body: (inout JSONWriter) -> Void) {
        object { json in
            json.field("type", "Feature")
            json.field("id", id)
            json.key("geometry")
            json.object { json in
                json.field("type", "Point")
                json.key("coordinates")
                json.raw("[\(longitude),\(latitude)]")
            }
            json.key("properties")
            json.object(body)
        }
    }

    /// A JSON string: quotes, backslashes and control characters escaped; everything else as UTF-8.
    mutating func string(_ text: String) {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
        bytes.append(UInt8(ascii: "\""))
        // Most texts need no escaping: copied whole, not byte by byte.
        if !text.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            bytes.append(contentsOf: text.utf8)
            bytes.append(UInt8(ascii: "\""))
            needsComma = true
            return
        }
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0..<0x20: bytes.append(contentsOf: Array(String(format: "\\u%04x", byte).utf8))
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
        needsComma = true
    }
}

/// Work split across threads, each part's result kept in order.
enum Parallel {
    static func map<Result>(_ range: Range<Int>, _ body: @Sendable (Int) -> Result) -> [Result] {
        guard range.count > 1 else { return range.map(body) }
        var results = [Result?](repeating: nil, count: range.count)
        results.withUnsafeMutableBufferPointer { slots in
            // Each thread writes only its own slot.
            nonisolated(unsafe) let slots = slots
            DispatchQueue.concurrentPerform(iterations: range.count) { index in slots[index] = body(range.lowerBound + index) }
        }
        return results.map { $0! }
    }
}
