import Archives
import Foundation
import TestSupport
import Testing

/// ZIP archives written a part at a time must read back, member by member, in another implementation.
@Suite struct ZipArchiveWriterTests {
    @Test func membersWrittenInPartsReadBackWithTheirChecksums() throws {
        var writer = ZipArchiveWriter(modified: Date(timeIntervalSince1970: 1_764_000_000))
        var archive: [UInt8] = []
        var expected: [(String, [UInt8])] = []
        var generator = SystemRandomNumberGenerator()
        for (index, name) in ["participants.json", "Émile's notes.json", "empty.json", "random.bin"].enumerated() {
            archive += try writer.beginMember(name)
            var contents: [UInt8] = []
            if index == 0 {
                for number in 0..<20_000 { contents += Array("{\"id\":\(number),\"name\":\"Person \(number)\"},\n".utf8) }
            } else if index == 1 {
                contents = Array("Notes, with accents: é ü ß\n".utf8)
            } else if index == 3 {
                contents = (0..<300_000).map { _ in UInt8.random(in: 0...255, using: &generator) }  // does not compress
            }
            var offset = 0
            while offset < contents.count {
                let part = Array(contents[offset..<min(contents.count, offset + 7_777)])
                archive += try writer.write(part)
                offset += part.count
            }
            if index != 3 { archive += try writer.endMember() }  // the last is ended by finish
            expected.append((name, contents))
        }
        archive += try writer.finish()
        let read = try unzip(archive)
        #expect(read.map(\.name) == expected.map(\.0))
        for (member, (_, contents)) in zip(read, expected) { #expect(member.contents == contents, "\(member.name)") }
        #expect(archive.count < 300_000 + 1_000_000 / 4)  // the JSON member compressed
    }

    @Test func anArchiveWithNoMembersIsStillAnArchive() throws {
        var writer = ZipArchiveWriter()
        #expect(try unzip(try writer.finish()).isEmpty)
    }

    /// Past what a ZIP without ZIP64 holds, the writer throws (a backup inside serve must fail, not trap).
    @Test func anArchivePastItsLimitsIsRefusedWithAnErrorNotATrap() throws {
        var fewMembers = ZipArchiveWriter(limits: .init(members: 2))
        _ = try fewMembers.beginMember("a")
        _ = try fewMembers.beginMember("b")
        #expect(throws: ZipArchiveWriter.Failure.tooLarge("more than 2 files")) { try fewMembers.beginMember("c") }

        var fewBytes = ZipArchiveWriter(limits: .init(bytes: 1_000))
        _ = try fewBytes.beginMember("random.bin")
        let random = (0..<2_000).map { _ in UInt8.random(in: 0...255) }
        #expect(throws: ZipArchiveWriter.Failure.self) { _ = try fewBytes.write(random); _ = try fewBytes.finish() }

        var longName = ZipArchiveWriter()
        let name = String(repeating: "n", count: 70_000)
        #expect(throws: ZipArchiveWriter.Failure.tooLarge("a file name of 70000 bytes")) { try longName.beginMember(name) }
    }

    @Test func aClockPast2107StillGetsAnArchive() throws {
        var writer = ZipArchiveWriter(modified: Date(timeIntervalSince1970: 5_000_000_000))  // the year 2128
        let archive = try writer.beginMember("a") + writer.finish()
        #expect(try unzip(archive).map(\.name) == ["a"])
    }
}
