import Domain
import Foundation
@testable import Storage
import TestSupport
import Testing

/// The export runner writes the archive its encoder makes into the job's file: it knows no archive format itself.
@Suite struct ExportRunnerTests {
    /// Writes each member as its name on a line, then its bytes.
    struct NamedParts: ArchiveEncoder {
        mutating func beginMember(_ name: String) throws -> [UInt8] { Array("\n== \(name)\n".utf8) }
        mutating func write(_ bytes: [UInt8]) throws -> [UInt8] { bytes }
        mutating func finish() throws -> [UInt8] { Array("\n== end\n".utf8) }
    }

    @Test func aQueuedExportIsWrittenByTheGivenEncoderIntoItsFile() throws {
        let given = try TestDatabase()
        let actor = Actor.system("test")
        let user = try given.database.createUser(.forTests("ed@example.org", .editor), by: actor)
        try given.database.createParticipant(ParticipantInput(name: "Ann Example", email: "ann@example.org"), by: actor)
        let job = try given.database.queueExport(.everything, as: .json, by: user.id)

        let runner = ExportRunner(database: given.database, logger: .init(label: "test"), newArchive: { NamedParts() })
        #expect(runner.runOnce() == 1)

        let file = try String(contentsOfFile: given.database.exportFile(job.id), encoding: .utf8)
        #expect(file.contains("\n== participants.json\n") && file.contains("Ann Example") && file.hasSuffix("\n== end\n"))
        let done = try given.database.exportJob(id: job.id)
        #expect(done.state == .done && done.fileBytes == file.utf8.count)
    }
}
