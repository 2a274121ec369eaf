import Archives
import Foundation
import Testing

/// Reading back what the streaming writer writes (issue 14's restore of an export), a part at a time, and refusing
/// archives that are damaged or not archives at all.
@Suite struct ZipArchiveReaderTests {
    func archive(_ members: [(String, [UInt8])]) throws -> String {
        var writer = ZipArchiveWriter()
        var bytes: [UInt8] = []
        for (name, content) in members {
            bytes += try writer.beginMember(name)
            var start = 0
            while start < content.count {
                bytes += try writer.write(Array(content[start..<min(start + 70_000, content.count)]))
                start += 70_000
            }
        }
        bytes += try writer.finish()
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("fieldbook-zip-\(UUID().uuidString).zip").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    func contents(_ reader: ZipArchiveReader, _ name: String) throws -> (bytes: [UInt8], parts: Int) {
        var bytes: [UInt8] = [], parts = 0
        try reader.read(name) { bytes += $0; parts += 1 }
        return (bytes, parts)
    }

    @Test func membersReadBackWholeAPartAtATime() throws {
        var generator = SystemRandomNumberGenerator()
        let large = (0..<3_000_000).map { _ in UInt8(truncatingIfNeeded: generator.next() % 16 + 65) }
        let path = try archive([("participants.json", Array("[{\"name\":\"Émile\"}]".utf8)), ("empty.json", []), ("large.csv", large)])
        defer { try? FileManager.default.removeItem(atPath: path) }
        let reader = try ZipArchiveReader(path: path)
        #expect(reader.members.map(\.name) == ["participants.json", "empty.json", "large.csv"])
        #expect(try contents(reader, "participants.json").bytes == Array("[{\"name\":\"Émile\"}]".utf8))
        #expect(try contents(reader, "empty.json").bytes.isEmpty)
        let read = try contents(reader, "large.csv")
        #expect(read.bytes == large)
        #expect(read.parts > 1, "a large member arrives in parts")
        #expect(throws: ZipArchiveReader.Failure.noSuchMember("venues.json")) { try reader.read("venues.json") { _ in } }
    }

    @Test func aDamagedMemberOrAFileThatIsNoArchiveIsRefused() throws {
        let path = try archive([("notes.txt", Array(String(repeating: "Fieldbook ", count: 5000).utf8))])
        defer { try? FileManager.default.removeItem(atPath: path) }
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        bytes[60] ^= 0xFF
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        #expect(throws: ZipArchiveReader.Failure.corrupt("notes.txt")) { try ZipArchiveReader(path: path).read("notes.txt") { _ in } }
        try Data("name,email\nAda,ada@example.org\n".utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: ZipArchiveReader.Failure.notAnArchive) { try ZipArchiveReader(path: path) }
    }
}
