import Archives
import Domain
import Foundation
import GRDB
import Imaging
import Logging
@testable import Storage
import Synchronization
import TestSupport
import Testing

/// The backups serve keeps by itself: when one is due, what retention keeps, a backup cut short,
/// the warning, and a restore of what was backed up, photos included.
@Suite struct BackupServiceTests {
    /// A clock the test moves.
    final class TestClock: Sendable {
        private let time: Mutex<Date>
        init(_ start: Date) { time = Mutex(start) }
        var now: Date { time.withLock { $0 } }
        func advance(_ seconds: TimeInterval) { time.withLock { $0 += seconds } }
    }

    static let start = Date(timeIntervalSince1970: 1_800_000_000)  // 2027-01-15T08:00:00Z

    func service(_ given: TestDatabase, clock: TestClock, folder: String? = nil) -> BackupService {
        let path = folder ?? given.directory.appendingPathComponent("backups").path
        return BackupService(database: given.database, folder: BackupFolder(path: path, createsItself: folder == nil), interval: 86_400,
                             logger: Logger(label: "test"), now: { clock.now })
    }

    func files(_ folder: String) throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: folder).sorted() }

    @Test func aBackupIsTakenWhenNoneIsThereAndThenOnceAnInterval() throws {
        let given = try TestDatabase(linked: false)
        let clock = TestClock(Self.start)
        let backups = service(given, clock: clock)
        let first = try #require(backups.runOnce())
        #expect(first.name == "fieldbook-backup-20270115-080000Z.zip")
        clock.advance(23 * 3_600)
        #expect(backups.runOnce() == nil, "not due before a day has passed")
        clock.advance(3_600)
        #expect(backups.runOnce()?.name == "fieldbook-backup-20270116-080000Z.zip")
        backups.backUpSoon()
        clock.advance(60)
        #expect(backups.runOnce() != nil, "Back up now takes one whether or not it is due")
        #expect(backups.runOnce() == nil)
        // The newest of a day is the one kept for it.
        #expect(backups.status().backups.map(\.name) == ["fieldbook-backup-20270116-080100Z.zip", "fieldbook-backup-20270115-080000Z.zip"])
        #expect(try files(backups.folder.path) == ["fieldbook-backup-20270115-080000Z.zip", "fieldbook-backup-20270116-080100Z.zip"],
                "nothing else is left in the folder")
    }

    @Test func retentionKeepsTheNewestOfSevenDaysAndOfFourWeeks() throws {
        // Daily at 02:00 from Monday 2026-01-05 to Friday 2026-02-13.
        let monday = Date(timeIntervalSince1970: 1_767_578_400)
        let times = (0..<40).map { monday.addingTimeInterval(Double($0) * 86_400) }
        let kept = BackupRetention.kept(times)
        let day = { (index: Int) in times[index] }
        #expect(Set(kept.filter { $0.value == .daily }.keys) == Set((33...39).map(day)))
        // Weeks of Feb 9 and Feb 2 are kept by their newest day already; Sundays Feb 1 and Jan 25 end the two before.
        #expect(Set(kept.filter { $0.value == .weekly }.keys) == Set([day(27), day(20)]))
        // A laptop off for weeks keeps the backups it has: days that have one are counted, not calendar days.
        let sparse = [monday, monday.addingTimeInterval(40 * 86_400), monday.addingTimeInterval(80 * 86_400)]
        #expect(BackupRetention.kept(sparse).count == 3)
    }

    @Test func aSuccessPrunesWhatRetentionNoLongerKeeps() throws {
        let given = try TestDatabase(linked: false)
        let clock = TestClock(Self.start)
        let backups = service(given, clock: clock)
        for _ in 0..<40 {
            #expect(backups.runOnce() != nil)
            clock.advance(86_400)
        }
        let kept = backups.status().backups
        let inFolder = try files(backups.folder.path)
        #expect(kept.count == 9 && inFolder.count == 9)
        #expect(kept.filter { $0.kind == .daily }.count == 7 && kept.filter { $0.kind == .weekly }.count == 2)
    }

    @Test func aBackupDatedInTheFutureStopsNeitherSchedulingNorPruningAndIsWarnedOf() throws {
        let given = try TestDatabase(linked: false)
        let clock = TestClock(Self.start)
        let backups = service(given, clock: clock)
        clock.advance(365 * 86_400)  // the clock a year ahead for one backup, then set right
        let ahead = try #require(backups.runOnce())
        clock.advance(-365 * 86_400)
        for _ in 0..<10 {
            #expect(backups.runOnce() != nil, "due: the backup dated ahead is not taken as the newest")
            clock.advance(86_400)
        }
        let status = backups.status()
        #expect(status.backups.count == 7 + 1, "pruned to 7 daily and the weekly of the week before")
        #expect(status.datedAhead.map(\.name) == [ahead.name])
        #expect(try files(backups.folder.path).contains(ahead.name), "left alone")
        #expect(status.clockWarning?.contains("dated after this server's clock") == true)
        #expect(status.warning(now: clock.now) == nil, "the newest backup listed is a day old: no stale warning")
    }

    @Test func aFailureOtherThanABackupFailureIsShownAsWhatToDoNotAsTheRawError() {
        let reason = BackupService.reason(POSIXError(.EIO))
        #expect(!reason.contains("POSIXError") && reason.contains("--backup-dir or FIELDBOOK_BACKUP_DIR"))
        #expect(BackupService.reason(BackupFailure.stopped) == BackupFailure.stopped.description)
    }

    @Test func aBackupCutShortLeavesNothingThatLooksLikeABackupAndTheNextSucceeds() throws {
        let given = try TestDatabase(linked: false)
        try addPhoto(given)
        let clock = TestClock(Self.start)
        let backups = service(given, clock: clock)
        struct Cut: Error {}
        #expect(throws: Cut.self) { try backups.takeBackup(at: clock.now) { throw Cut() } }
        #expect(try files(backups.folder.path).isEmpty)
        #expect(try files(given.directory.path).allSatisfy { !$0.hasPrefix(".fieldbook-backup-") })
        // What a killed process leaves (its temporaries) is cleared when the service starts.
        let stale = backups.folder.path + "/.fieldbook-backup-killed.zip"
        #expect(FileManager.default.createFile(atPath: stale, contents: Data("PK".utf8)))
        backups.start()
        backups.stop()
        #expect(try files(backups.folder.path).isEmpty)
        #expect(backups.runOnce() != nil)
        #expect(try files(backups.folder.path) == ["fieldbook-backup-20270115-080000Z.zip"])
    }

    @Test func aBackupLargerThanAnArchiveHoldsIsRefusedBeforeItIsWritten() throws {
        let given = try TestDatabase(linked: false)
        try addPhoto(given)
        let path = given.directory.appendingPathComponent("large.zip").path
        let scratch = given.directory.appendingPathComponent("scratch.sqlite").path
        for limits in [ZipArchiveWriter.Limits(members: 2), ZipArchiveWriter.Limits(bytes: 10_000)] {
            #expect {
                try given.database.writeBackupArchive(to: path, scratch: scratch, limits: limits)
            } throws: { error in
                guard case .tooLarge = error as? BackupFailure else { return false }
                return "\(error)".contains("copy its whole data folder")
            }
            #expect(!FileManager.default.fileExists(atPath: path) && !FileManager.default.fileExists(atPath: scratch))
        }
    }

    @Test func aMissingFolderIsReportedNotFatalAndHomeIsWarned() throws {
        let given = try TestDatabase(linked: false)
        let clock = TestClock(Self.start)
        let stick = given.directory.appendingPathComponent("usb-stick").path
        let backups = service(given, clock: clock, folder: stick)
        #expect(backups.runOnce() == nil)
        #expect(!FileManager.default.fileExists(atPath: stick), "a chosen folder is never created: it may be an empty mount point")
        let status = backups.status()
        #expect(status.folderProblem?.hasPrefix("The backup folder \(stick) is missing.") == true)
        #expect(status.warning(now: clock.now) == status.folderProblem)
        try FileManager.default.createDirectory(atPath: stick, withIntermediateDirectories: false)
        clock.advance(3_600)
        #expect(backups.runOnce() != nil, "tried again an hour after it failed")
        #expect(backups.status().warning(now: clock.now) == nil)
        #expect(backups.status().warning(now: clock.now.addingTimeInterval(2 * 86_400 + 1))?.contains("more than two days old") == true)
    }

    @Test func aBackupRestoresIntoAnotherFolderWithItsPhotosAndKeepsTheDatabaseThereAside() throws {
        let given = try TestDatabase(linked: false)
        let photo = try addPhoto(given)
        let backup = try #require(service(given, clock: TestClock(Self.start)).runOnce())

        let other = try TestDatabase(linked: false)
        _ = try other.database.createParticipant(ParticipantInput(name: "Someone else", email: "else@example.org"), by: .system("test"))
        try other.database.close()
        let target = other.directory.appendingPathComponent("fieldbook.sqlite").path
        let outcome = try BackupRestore.restore(backup.path, intoDatabase: target, at: Self.start)
        #expect(outcome.photosRestored == 2)
        #expect(outcome.keptAside?.hasPrefix(target + ".before-restore-20270115-080000Z-") == true)
        #expect(try files(other.directory.path).allSatisfy { !$0.hasSuffix("-wal") && !$0.hasPrefix(".fieldbook-") },
                "the database kept aside is one file, and nothing staged is left")
        let restored = try AppDatabase(path: target, passwordCost: .test)
        #expect(try names(restored) == ["Ada"])
        #expect(PhotoFiles(folder: other.directory.appendingPathComponent("photos").path).exists(photo))
        let aside = try AppDatabase(path: try #require(outcome.keptAside), passwordCost: .test)
        #expect(try names(aside) == ["Someone else"])
    }

    @Test func restoreRefusesADamagedOrForeignFileAndChangesNothing() throws {
        let given = try TestDatabase(linked: false)
        let backup = try #require(service(given, clock: TestClock(Self.start)).runOnce())
        let target = try TestDatabase(linked: false)
        let database = target.directory.appendingPathComponent("fieldbook.sqlite").path
        let before = try files(target.directory.path)
        let bytes = try #require(FileManager.default.contents(atPath: backup.path))
        let cut = given.directory.appendingPathComponent("cut.zip").path
        #expect(FileManager.default.createFile(atPath: cut, contents: bytes.prefix(bytes.count / 2)))
        let foreign = given.directory.appendingPathComponent("other.sqlite").path
        try DatabaseQueue(path: foreign).write { try $0.execute(sql: "CREATE TABLE notes (text TEXT)") }
        for file in [cut, foreign, given.directory.appendingPathComponent("absent.zip").path] {
            #expect(throws: BackupRefusal.self) { try BackupRestore.restore(file, intoDatabase: database) }
            #expect(try files(target.directory.path) == before, "\(file)")
        }
    }

    func names(_ database: AppDatabase) throws -> [String] {
        try database.pool.read { try String.fetchAll($0, sql: "SELECT name FROM participants ORDER BY name") }
    }

    @discardableResult
    func addPhoto(_ given: TestDatabase) throws -> String {
        let ada = try given.database.createParticipant(ParticipantInput(name: "Ada", email: "ada@example.org"), by: .system("test"))
        let kept = try given.database.keepUpload(try PhotoProcessor.prepare(path: PhotoFixtures.url(PhotoFixtures.withGPS).path))
        try given.database.addPhoto(to: .participant(ada.id), PhotoInput(caption: "Ada"), display: kept.display, thumbnail: kept.thumbnail,
                                    by: .system("test"))
        return kept.display.sha256
    }
}
