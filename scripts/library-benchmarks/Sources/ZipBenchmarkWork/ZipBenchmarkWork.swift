import BenchmarkTiming
import Foundation

/// The work both ZIP contenders do, each in its own program (Fieldbook's zlib module and ZIPFoundation's are both named
/// CZlib, so one program cannot link both): an export-like archive of JSON members written to a file in 64 KiB parts,
/// then every member read back a part at a time, its checksum checked.
public enum ZipBenchmarkWork {
    public static let part = 64 * 1024

    /// The same members in every program: JSON rows of participants, venues, activities and assignments.
    public static let members: [(name: String, contents: [UInt8])] = {
        var random = UInt64(42)
        func hex() -> String {
            random = random &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return String(random, radix: 16)
        }
        return ["participants", "venues", "activities", "assignments"].enumerated().map { index, kind in
            var json = Array("[\n".utf8)
            for number in 0..<(40_000 / (index + 1)) {
                json += Array(#"{"id":"\#(hex())\#(hex())","name":"\#(kind) \#(number)","email":"person\#(number)@example.org","created_at":"2026-11-20T10:\#(number % 60):00.000Z"},"#.utf8)
                json.append(UInt8(ascii: "\n"))
            }
            return ("\(kind).json", json + Array("]\n".utf8))
        }
    }()

    public static func parts(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        stride(from: 0, to: bytes.count, by: part).map { bytes[$0..<min($0 + part, bytes.count)] }
    }

    /// `write PATH REPETITIONS`, `read PATH REPETITIONS` (prints the time of one) or `sizes PATH` (each member's size
    /// as read, one "name size" a line).
    public static func main(write: (String) throws -> Void, read: (String) throws -> [String: Int]) throws {
        let arguments = Array(CommandLine.arguments.dropFirst())
        guard arguments.count >= 2 else { throw BenchmarkFailure(message: "usage: write|read|sizes PATH [REPETITIONS]") }
        let path = arguments[1], repetitions = arguments.count > 2 ? Int(arguments[2]) ?? 1 : 1
        _ = members.count  // made before any timing
        switch arguments[0] {
        case "write": print(try SideBySide.Timing.of(repetitions: repetitions) { try write(path) })
        case "read": print(try SideBySide.Timing.of(repetitions: repetitions) { _ = try read(path) })
        default: for (name, size) in try read(path).sorted(by: { $0.key < $1.key }) { print(name, size) }
        }
    }
}
