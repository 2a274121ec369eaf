import Domain
import Foundation
@testable import Storage
import Testing

/// Spreadsheets fill an empty Fieldbook (issue 41): each kind's own CSV export re-imports, in dependency order, with the
/// same records; rows name the records they refer to by path, name, address or email.
@Suite struct SpreadsheetRoundTripTests {
    let actor = Actor.system("test")

    /// The files "export everything" writes as CSV, by the import that reads each.
    static func exported(_ given: TestDatabase) throws -> [ImportTarget: [UInt8]] {
        var archive = ExportEverythingTests.CollectedArchive()
        try given.database.exportArchive(.everything, as: .csv, into: &archive)
        var files: [ImportTarget: [UInt8]] = [:]
        for target in ImportTarget.dependencyOrder {
            files[target] = archive.files.first { $0.name == target.kind.table + ".csv" }?.bytes
        }
        return files
    }

    /// A file's rows by id, each a dictionary of its cells, without the timestamps a new record gets anew.
    static func records(_ bytes: [UInt8]) -> [String: [String: String]] {
        let lines = CSVReader.rows(String(decoding: bytes.starts(with: CSV.byteOrderMark) ? Array(bytes.dropFirst(3)) : bytes, as: UTF8.self)) ?? []
        guard let header = lines.first else { return [:] }
        var byId: [String: [String: String]] = [:]
        for cells in lines.dropFirst() {
            var record = Dictionary(uniqueKeysWithValues: zip(header, cells))
            record["created_at"] = nil
            record["updated_at"] = nil
            byId[record["id"] ?? ""] = record
        }
        return byId
    }

    static func source() throws -> TestDatabase {
        let given = try TestDatabase()
        _ = try given.database.importDemoCommunity(size: DemoCommunity.Size(venues: 6, participants: 30, activities: 6), seed: 41)
        return given
    }

    func imported(_ given: TestDatabase, _ bytes: [UInt8], _ target: ImportTarget) throws -> ImportJob {
        let path = given.directory.appendingPathComponent(UUID().uuidString + ".csv").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return try given.database.createImport(fromFile: path, named: "\(target.rawValue).csv", holding: target, by: UUID())
    }

    /// Imports a file, expecting every row to be added.
    @discardableResult
    func filled(_ given: TestDatabase, _ bytes: [UInt8], _ target: ImportTarget) throws -> ImportJob {
        let job = try imported(given, bytes, target)
        let problems = try given.database.importRows(of: job.id, .problems, page: PageRequest(page: 1, perPage: 50)).items
        #expect(problems.isEmpty, "\(target): \(problems.map { "row \($0.line): \($0.errors.map(\.message))" })")
        try given.database.queueImport(job.id)
        #expect(ImportRunner(database: given.database, logger: .init(label: "test")).runOnce() == 1)
        let done = try given.database.importJob(id: job.id)
        #expect(done.failure == nil)
        #expect((done.state, done.created, done.merged, done.skipped) == (.done, job.rowCount, 0, 0), "\(target)")
        return done
    }

    @Test(arguments: ImportTarget.dependencyOrder)
    func eachKindsExportReimportsWithTheSameRecords(_ kind: ImportTarget) throws {
        let source = try Self.source()
        let files = try Self.exported(source)
        let empty = try TestDatabase()
        // The kinds its rows name first, from their own exports.
        for target in ImportTarget.dependencyOrder.prefix(while: { $0 != kind }) where kind.dependsOn(target) {
            try filled(empty, files[target]!, target)
        }
        try filled(empty, files[kind]!, kind)
        let again = try Self.exported(empty)
        #expect(Self.records(again[kind]!) == Self.records(files[kind]!))
        #expect(!Self.records(files[kind]!).isEmpty)
    }

    @Test func everythingReimportsIntoAnEmptyFieldbookInDependencyOrder() throws {
        let source = try Self.source()
        let files = try Self.exported(source)
        let empty = try TestDatabase()
        for target in ImportTarget.dependencyOrder { try filled(empty, files[target]!, target) }
        let again = try Self.exported(empty)
        for target in ImportTarget.dependencyOrder {
            #expect(Self.records(again[target]!) == Self.records(files[target]!), "\(target)")
        }
        // Every write was recorded for sync.
        #expect(try empty.outboxCount() >= ImportTarget.dependencyOrder.reduce(0) { $0 + Self.records(files[$1]!).count })
    }

    @Test func areasNameTheirParentByPathAndMayComeBeforeIt() throws {
        let given = try TestDatabase()
        let world = try given.database.createArea(AreaInput(name: "World", areaType: "WORLD", parentId: ""), by: actor)
        _ = try given.database.createArea(AreaInput(name: "Springfield", areaType: "CITY", parentId: world.id.uuidString), by: actor)
        let job = try imported(given, Array("""
            Name,Type,Parent
            Nairobi,City,World / Kenya
            Kenya,Country,world
            Westlands,Neighbourhood,World/Kenya/Nairobi
            Springfield,City,Atlantis
            """.utf8), .areas)
        #expect(job.mapping.fields == [.name, .areaType, .parent])
        let rows = try given.database.importRows(of: job.id, .all, page: PageRequest(page: 1, perPage: 50)).items
        #expect(rows.map(\.errors.isEmpty) == [true, true, true, false])
        #expect(rows[3].errors.first?.message == "No area is named “Atlantis”: add it first, or write its name as Fieldbook shows it")
        try given.database.queueImport(job.id)
        #expect(ImportRunner(database: given.database, logger: .init(label: "test")).runOnce() == 1)
        let done = try given.database.importJob(id: job.id)
        #expect((done.state, done.created, done.skipped) == (.done, 3, 1))
        let areas = try given.database.pool.read { db in
            try AreaTree(db)
        }
        let westlands = areas.named.resolve("World / Kenya / Nairobi / Westlands")
        #expect(westlands.problem == nil)
        #expect(areas.path(of: westlands.id) == "World / Kenya / Nairobi / Westlands")

        // Venues name their area by path; a name two areas share asks for the path.
        _ = try given.database.createArea(AreaInput(name: "Nairobi", areaType: "CITY", parentId: world.id.uuidString), by: actor)
        let venues = try imported(given, Array("""
            Name,Address,Area
            Hall,1 Road,world / kenya / nairobi
            Barn,2 Lane,Nairobi
            """.utf8), .venues)
        let venueRows = try given.database.importRows(of: venues.id, .all, page: PageRequest(page: 1, perPage: 50)).items
        #expect(venueRows[0].errors.isEmpty)
        #expect(venueRows[1].errors.first?.message == "“Nairobi” matches 2 areas: give its path from the top, such as “World / Kenya / Nairobi”")
    }

    @Test func participantsNameTheirHomeVenueByNameAndAddress() throws {
        let given = try TestDatabase()
        let area = try given.database.createArea(AreaInput(name: "City", areaType: "CITY", parentId: ""), by: actor)
        _ = try given.database.createVenue(VenueInput(name: "Hall", address: "1 Road", areaId: area.id.uuidString), by: actor)
        let east = try given.database.createVenue(VenueInput(name: "Hall", address: "9 Lane", areaId: area.id.uuidString), by: actor)
        let job = try imported(given, Array("""
            Name,Email,Home venue,Home venue address
            Ada,ada@example.org,hall,9 lane
            Bea,bea@example.org,Hall,
            Cy,cy@example.org,Hall,5 Street
            """.utf8), .participants)
        #expect(job.mapping.fields == [.name, .email, .homeVenue, .homeVenueAddress])
        let rows = try given.database.importRows(of: job.id, .all, page: PageRequest(page: 1, perPage: 50)).items
        #expect(rows[0].errors.isEmpty)
        #expect(rows[1].errors.map(\.message) == ["“Hall” matches 2 venues: give its address"])
        #expect(rows[2].errors.map(\.message) == ["No venue named “Hall” has the address “5 Street”: write the address as Fieldbook shows it"])
        try given.database.queueImport(job.id)
        _ = ImportRunner(database: given.database, logger: .init(label: "test")).runOnce()
        let ada = try given.database.pool.read { try String.fetchOne($0, sql: "SELECT home_venue_id FROM participants WHERE email = 'ada@example.org'") }
        #expect(ada == east.id.databaseText)
    }

    @Test func assignmentsNameTheirParticipantByEmailOrNameAndTheirRoleByName() throws {
        let given = try TestDatabase()
        let type = try given.database.categories(.activityType).first { $0.name == "Study Circle" }!
        let role = try given.database.categories(.participantRole).first!
        let activity = try given.insertActivity(named: "Choir", typeId: type.id)
        let ada = try given.insertParticipant(named: "Ada Lovelace", homeVenue: nil)
        _ = try given.insertParticipant(named: "Bea", homeVenue: nil)
        _ = try given.insertParticipant(named: "Bea", homeVenue: nil)
        let job = try imported(given, Array("""
            Activity,Participant,Role
            choir,ada lovelace,\(role.name.uppercased())
            Choir,Bea,\(role.name)
            Choir,Ada Lovelace,\(role.name)
            """.utf8), .assignments)
        #expect(job.mapping.fields == [.activity, .participant, .role])
        let rows = try given.database.importRows(of: job.id, .all, page: PageRequest(page: 1, perPage: 50)).items
        #expect(rows[0].errors.isEmpty)
        #expect(rows[1].errors.map(\.message) == ["“Bea” matches 2 participants: give their email address"])
        #expect(rows[2].matchReason == .keyOfRow && rows[2].decision == .merge)
        try given.database.queueImport(job.id)
        _ = ImportRunner(database: given.database, logger: .init(label: "test")).runOnce()
        let done = try given.database.importJob(id: job.id)
        #expect((done.state, done.created, done.merged, done.skipped) == (.done, 1, 1, 1))
        #expect(try given.database.assignments(ofActivity: activity).map(\.participantId) == [ada])
    }
}

extension ImportTarget {
    /// Whether rows of this kind name records of `other`.
    func dependsOn(_ other: ImportTarget) -> Bool {
        switch self {
        case .areas: false
        case .venues: other == .areas
        case .participants: other == .areas || other == .venues
        case .activities: other == .areas || other == .venues
        case .assignments: other != .assignments
        }
    }
}

/// Files a spreadsheet program wrote: each kind's export opened by LibreOffice (headless, installed by
/// scripts/install-test-tools.sh), saved as XLSX and as ODS, and each saved again as CSV with semicolons, as a person
/// would save the sheet after working in it.
@Suite struct SpreadsheetProgramImportTests {
    /// LibreOffice's CSV filter options: separator, quote, UTF-8 (76), from line 1; on saving, cells as stored
    /// (not as shown), so a long number keeps its digits.
    static let readCSV = "CSV:44,34,76,1"
    static let writeCSV = "csv:Text - txt - csv (StarCalc):59,34,76,1,,0,false,true,false,false,false,-1"

    /// Runs LibreOffice headless on `files` in `folder`, in a profile of its own (so runs side by side do not share one).
    static func soffice(_ folder: URL, _ arguments: [String]) throws {
        let program = ["/usr/bin/soffice", "/usr/local/bin/soffice"].first { FileManager.default.isExecutableFile(atPath: $0) }
        let found = try #require(program, "LibreOffice is missing: run scripts/install-test-tools.sh")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: found)
        process.arguments = ["-env:UserInstallation=file://" + folder.appendingPathComponent("profile").path, "--headless", "--norestore"]
            + arguments + ["--outdir", folder.path]
        process.currentDirectoryURL = folder
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }

    /// Each kind's export as a spreadsheet program saves it again after going through `format`.
    static func resaved(_ files: [ImportTarget: [UInt8]], through format: String, in folder: URL) throws -> [ImportTarget: [UInt8]] {
        let work = folder.appendingPathComponent(format)
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        for (target, bytes) in files { try Data(bytes).write(to: work.appendingPathComponent(target.rawValue + ".csv")) }
        let csvs = files.keys.map { $0.rawValue + ".csv" }
        try soffice(work, ["--infilter=" + readCSV, "--convert-to", format] + csvs)
        for name in csvs { try FileManager.default.removeItem(at: work.appendingPathComponent(name)) }
        try soffice(work, ["--convert-to", writeCSV] + files.keys.map { $0.rawValue + "." + format })
        var saved: [ImportTarget: [UInt8]] = [:]
        for target in files.keys {
            // A sheet saved as CSV is named after the file and the sheet.
            let sheet = try FileManager.default.contentsOfDirectory(atPath: work.path).first { $0.hasPrefix(target.rawValue) && $0.hasSuffix(".csv") }
            saved[target] = Array(try Data(contentsOf: work.appendingPathComponent(try #require(sheet))))
        }
        return saved
    }

    @Test(arguments: ["xlsx", "ods"])
    func exportsSavedByASpreadsheetProgramFillAnEmptyFieldbook(_ format: String) throws {
        let source = try SpreadsheetRoundTripTests.source()
        let files = try SpreadsheetRoundTripTests.exported(source)
        let empty = try TestDatabase()
        let saved = try Self.resaved(files, through: format, in: empty.directory)
        #expect(saved[.participants].map { String(decoding: $0, as: UTF8.self).contains(";") } == true)
        for target in ImportTarget.dependencyOrder {
            let job = try SpreadsheetRoundTripTests().filled(empty, saved[target]!, target)
            #expect(job.separator == .semicolon)
        }
        let again = try SpreadsheetRoundTripTests.exported(empty)
        for target in ImportTarget.dependencyOrder {
            #expect(Self.roundingCoordinates(again[target]!) == Self.roundingCoordinates(files[target]!), "\(target)")
        }
    }

    /// A spreadsheet keeps 15 significant digits: coordinates are compared to a millionth of a metre's worth of degrees.
    static func roundingCoordinates(_ bytes: [UInt8]) -> [String: [String: String]] {
        SpreadsheetRoundTripTests.records(bytes).mapValues { record in
            record.mapValues { $0 }.merging(["latitude", "longitude"].compactMap { column in
                record[column].flatMap(Double.init).map { (column, String(format: "%.9f", $0)) }
            }) { $1 }
        }
    }
}
