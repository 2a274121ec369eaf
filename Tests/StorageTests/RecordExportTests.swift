import Domain
import Foundation
import Records
import Imaging
@testable import Storage
import TestSupport
import Testing

/// Lists exported whole: every page of the list in its order, each value as stored, in CSV that a spreadsheet reads
/// back and JSON that parses, without what the reader may not see.
@Suite struct RecordExportTests {
    let actor = Actor.system("test")
    /// Names a CSV writer must quote or defuse: a comma, quotes, a line break, a formula, accents.
    static let names = ["Ann, the elder", "Bongani \"Bo\" Okafor", "Chen\nLi", "=HYPERLINK(\"x\")", "Émile Dubois", "+Farah", "Goran"]

    func community(_ count: Int) throws -> (TestDatabase, [Participant]) {
        let given = try TestDatabase()
        let area = try given.database.createArea(AreaInput(name: "City", areaType: "CITY", parentId: ""), by: actor)
        let venue = try given.database.createVenue(VenueInput(name: "Hall", address: "1 Road", areaId: area.id.uuidString), by: actor)
        let people = try (0..<count).map { index in
            try given.database.createParticipant(ParticipantInput(
                name: "\(Self.names[index % Self.names.count]) \(index)", email: "p\(index)@example.org",
                phone: index % 2 == 0 ? "+44 20 7946 \(1000 + index)" : "", notes: index % 5 == 0 ? "Met at the \"fair\", 2025" : "",
                homeVenueId: index % 3 == 0 ? venue.id.uuidString : ""), by: actor)
        }
        return (given, people)
    }

    func exported(_ database: AppDatabase, _ query: ParticipantQuery, seen: ParticipantVisibility = .everything,
                  _ format: ExportFormat) throws -> (bytes: [UInt8], rows: Int, parts: Int) {
        var bytes: [UInt8] = []
        var parts = 0
        let rows = try database.exportParticipants(query, seen: seen, as: format) { part in
            bytes += part
            parts += 1
            return true
        }
        return (bytes, rows, parts)
    }

    /// The ids of every page of the list, in order, as the list page shows them.
    func listed(_ database: AppDatabase, _ query: ParticipantQuery) throws -> [UUID] {
        var query = query
        var ids: [UUID] = []
        for page in 1... {
            query.page = PageRequest(page: page)
            let items = try database.participantRows(query).items
            if items.isEmpty { return ids }
            ids += items.map(\.id)
        }
        return ids
    }

    @Test func aCSVExportIsEveryPageOfTheListInItsOrderWithEachValueAsStored() throws {
        let (given, people) = try community(260)
        let byId = Dictionary(uniqueKeysWithValues: people.map { ($0.id, $0) })
        for query in [ParticipantQuery(), ParticipantQuery(text: "an", sort: .email, descending: true),
                      ParticipantQuery(home: .withHome, sort: .created)] {
            let (bytes, rows, parts) = try exported(given.database, query, .csv)
            let table = try #require(CSVReader.rows(String(decoding: bytes, as: UTF8.self)))
            #expect(table.first == ["\u{FEFF}id", "name", "email", "phone", "notes", "home_venue_id", "created_at", "updated_at"])
            let ids = table.dropFirst().map { UUID(uuidString: $0[0]) }
            #expect(ids == (try listed(given.database, query)), "\(query)")
            #expect(rows == ids.count && parts >= 1)
            for line in table.dropFirst() {
                let person = try #require(byId[UUID(uuidString: line[0])!])
                #expect(line[1] == CSV.defused(person.name))
                #expect(line[2] == person.email && line[3] == CSV.defused(person.phone ?? "") && line[4] == (person.notes ?? ""))
                #expect(line[5] == (person.homeVenueId?.lowercaseText ?? ""))
                #expect(SyncDateFormat.date(from: line[6]).map { abs($0.timeIntervalSince(person.createdAt)) < 0.001 } == true)
            }
        }
    }

    @Test func aJSONExportParsesToTheSameRows() throws {
        let (given, people) = try community(150)
        let (bytes, rows, parts) = try exported(given.database, ParticipantQuery(), .json)
        #expect(rows == 150 && parts >= 1)
        let objects = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [[String: Any]])
        #expect(objects.map { $0["id"] as? String } == (try listed(given.database, ParticipantQuery())).map(\.lowercaseText))
        for object in objects {
            let person = try #require(people.first(where: { $0.id.lowercaseText == object["id"] as? String }))
            #expect(object["name"] as? String == person.name)
            #expect(object["phone"] as? String == person.phone)
            #expect((object["notes"] is NSNull) == (person.notes == nil))
            #expect(object["home_venue_id"] as? String == person.homeVenueId?.lowercaseText)
        }
    }

    @Test func anEmptyListExportsAHeaderOrAnEmptyArray() throws {
        let (given, _) = try community(3)
        let csv = try exported(given.database, ParticipantQuery(text: "nobody is called this"), .csv)
        #expect(String(decoding: csv.bytes, as: UTF8.self) == "\u{FEFF}id,name,email,phone,notes,home_venue_id,created_at,updated_at\r\n")
        let json = try exported(given.database, ParticipantQuery(text: "nobody is called this"), .json)
        #expect((try JSONSerialization.jsonObject(with: Data(json.bytes)) as? [Any])?.isEmpty == true)
    }

    @Test func whatTheReaderMayNotSeeIsLeftOut() throws {
        let (given, _) = try community(20)
        let seen = ParticipantVisibility(contacts: false, notes: false, homes: false)
        let csv = try exported(given.database, ParticipantQuery(), seen: seen, .csv)
        let header = try #require(CSVReader.rows(String(decoding: csv.bytes, as: UTF8.self))?.first)
        #expect(header == ["\u{FEFF}id", "name", "created_at", "updated_at"])
        let json = try exported(given.database, ParticipantQuery(), seen: seen, .json)
        let objects = try #require(try JSONSerialization.jsonObject(with: Data(json.bytes)) as? [[String: Any]])
        #expect(objects.allSatisfy { Set($0.keys) == ["id", "name", "created_at", "updated_at"] })
        #expect(!String(decoding: json.bytes, as: UTF8.self).contains("example.org"))
    }

    @Test func aReaderThatLeavesStopsTheExport() throws {
        let (given, _) = try community(600)
        var parts = 0
        let rows = try given.database.exportParticipants(ParticipantQuery(), seen: .everything, as: .json) { _ in
            parts += 1
            return false
        }
        #expect(parts == 1)
        #expect(rows > 0 && rows < 600)
    }

    @Test func venuesAndActivitiesExportTheirListsToo() throws {
        let (given, _) = try community(1)
        let venues = try given.database.exportVenues(VenueQuery(), as: .csv) { _ in true }
        #expect(venues == 1)
        let type = try given.database.categories(.activityType).first!
        _ = try given.insertActivity(named: "Choir, Tuesdays", typeId: type.id)
        _ = try given.insertActivity(named: "Reading", typeId: type.id, status: "PLANNED")
        var bytes: [UInt8] = []
        let activities = try given.database.exportActivities(ActivityQuery(status: .active), as: .csv) { bytes += $0; return true }
        #expect(activities == 1)
        let table = try #require(CSVReader.rows(String(decoding: bytes, as: UTF8.self)))
        #expect(table.count == 2 && table[1][1] == "Choir, Tuesdays" && table[1][6] == "ACTIVE")
    }
}

/// Reads RFC 4180 CSV back into rows, as a spreadsheet would: nil when a quote is left open.
enum CSVReader {
    static func rows(_ text: String) -> [[String]]? {
        var rows: [[String]] = []
        var row: [String] = []
        var cell = ""
        var quoted = false
        var characters = Array(text)[...]
        while let character = characters.popFirst() {
            if quoted {
                if character == "\"" {
                    if characters.first == "\"" { cell.append("\""); characters.removeFirst() } else { quoted = false }
                } else { cell.append(character) }
            } else if character == "\"" {
                quoted = true
            } else if character == "," {
                row.append(cell)
                cell = ""
            } else if character == "\r\n" || character == "\n" {
                row.append(cell)
                rows.append(row)
                (row, cell) = ([], "")
            } else {
                cell.append(character)
            }
        }
        guard !quoted else { return nil }
        if !row.isEmpty || !cell.isEmpty { rows.append(row + [cell]) }
        return rows
    }
}

/// "Export everything": a JSON file per kind of community record, from one moment, and a manifest of them.
@Suite struct ExportEverythingTests {
    /// Collects an export's files in memory; `leaveAfter` parts, it says the reader has gone.
    struct CollectedArchive: ExportArchive {
        var files: [(name: String, bytes: [UInt8])] = []
        var finished = false
        var parts = 0
        var leaveAfter = Int.max

        mutating func begin(file name: String) throws -> Bool {
            files.append((name, []))
            return true
        }

        mutating func write(_ bytes: [UInt8]) throws -> Bool {
            files[files.count - 1].bytes += bytes
            parts += 1
            return parts < leaveAfter
        }

        mutating func finish() throws { finished = true }

        func json(_ name: String) throws -> Any? {
            try files.first { $0.name == name }.map { try JSONSerialization.jsonObject(with: Data($0.bytes)) }
        }
    }

    @Test func everyCommunityKindIsAFileOfItsRowsAndTheManifestCountsThem() throws {
        let given = try TestDatabase()
        let actor = Actor.system("test")
        try given.database.createUser(NewUserInput(name: "Ada", email: "ada@example.org", role: "administrator",
                                                   password: "correct horse battery staple", passwordConfirmation: "correct horse battery staple"), by: actor)
        let area = try given.database.createArea(AreaInput(name: "City", areaType: "CITY", parentId: ""), by: actor)
        let venue = try given.database.createVenue(VenueInput(name: "Hall", address: "1 Road", areaId: area.id.uuidString), by: actor)
        for index in 0..<40 {
            try given.database.createParticipant(ParticipantInput(name: "Person \(index)", email: "p\(index)@example.org",
                                                                  homeVenueId: index % 2 == 0 ? venue.id.uuidString : ""), by: actor)
        }
        var archive = CollectedArchive()
        try given.database.exportArchive(.everything, as: .json, into: &archive)
        #expect(archive.finished)
        let kinds = RecordKind.all.filter(\.inFullExport)
        #expect(archive.files.map(\.name) == kinds.map { $0.table + ".json" } + ["fieldbook-export.json"], "no photos, so no photo files")
        #expect(!kinds.contains { $0.entity == "user" || $0.entity == "notification" })
        for kind in kinds {
            let rows = try #require(try archive.json(kind.table + ".json") as? [[String: Any]], "\(kind.table)")
            #expect(rows.count == (try given.database.pool.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM \(kind.table)") }), "\(kind.table)")
            #expect(rows.allSatisfy { Set($0.keys) == Set(kind.exportColumns) }, "\(kind.table)")
        }
        #expect((try archive.json("participant_address_history.json") as? [Any])?.count == 20)
        let manifest = try #require(try archive.json("fieldbook-export.json") as? [String: Any])
        #expect(manifest["format"] as? String == "fieldbook-export" && manifest["version"] as? Int == 1)
        let listed = try #require(manifest["files"] as? [[String: Any]])
        #expect(listed.first { $0["file"] as? String == "participants.json" }?["count"] as? Int == 40)
        // Accounts are not community records: no password hash, not even the user's address, is in any file.
        #expect(!archive.files.contains { String(decoding: $0.bytes, as: UTF8.self).contains("ada@example.org") })
    }

    @Test func aReaderThatLeavesStopsTheExportUnfinished() throws {
        let given = try TestDatabase()
        let area = try given.database.createArea(AreaInput(name: "City", areaType: "CITY", parentId: ""), by: .system("test"))
        _ = area
        var archive = CollectedArchive(leaveAfter: 2)
        try given.database.exportArchive(.everything, as: .json, into: &archive)
        #expect(!archive.finished && archive.files.count == 2)
    }

    /// Two cities, each with a venue, a resident and an activity held there with its resident assigned.
    struct TwoCities {
        let given: TestDatabase
        let city: GeographicArea, district: GeographicArea, elsewhere: GeographicArea
        let activity: Activity, otherActivity: Activity
        let resident: Participant, visitor: Participant, stranger: Participant
    }

    func twoCities() throws -> TwoCities {
        let given = try TestDatabase()
        let actor = Actor.system("test")
        let db = given.database
        let city = try db.createArea(AreaInput(name: "City", areaType: "CITY", parentId: ""), by: actor)
        let district = try db.createArea(AreaInput(name: "District", areaType: "NEIGHBOURHOOD", parentId: city.id.uuidString), by: actor)
        let elsewhere = try db.createArea(AreaInput(name: "Elsewhere", areaType: "CITY", parentId: ""), by: actor)
        let hall = try db.createVenue(VenueInput(name: "Hall", address: "1 Road", areaId: district.id.uuidString), by: actor)
        let barn = try db.createVenue(VenueInput(name: "Barn", address: "9 Lane", areaId: elsewhere.id.uuidString), by: actor)
        let resident = try db.createParticipant(ParticipantInput(name: "Resident", email: "r@example.org", homeVenueId: hall.id.uuidString), by: actor)
        let visitor = try db.createParticipant(ParticipantInput(name: "Visitor", email: "v@example.org", homeVenueId: barn.id.uuidString), by: actor)
        let stranger = try db.createParticipant(ParticipantInput(name: "Stranger", email: "s@example.org"), by: actor)
        let type = try db.categories(.activityType).first!
        let role = try db.categories(.participantRole).first!
        func activity(_ name: String, at venue: Venue) throws -> Activity {
            try db.createActivity(ActivityInput(name: name, typeId: type.id.uuidString, startDate: "2025-01-01", duration: "ongoing",
                                                status: "ACTIVE", venueIds: [venue.id.uuidString]), by: actor)
        }
        let choir = try activity("Choir", at: hall), market = try activity("Market", at: barn)
        try db.assign(participant: resident.id.uuidString, role: role.id.uuidString, toActivity: choir.id, by: actor)
        try db.assign(participant: visitor.id.uuidString, role: role.id.uuidString, toActivity: choir.id, by: actor)
        try db.assign(participant: visitor.id.uuidString, role: role.id.uuidString, toActivity: market.id, by: actor)
        return TwoCities(given: given, city: city, district: district, elsewhere: elsewhere, activity: choir, otherActivity: market,
                         resident: resident, visitor: visitor, stranger: stranger)
    }

    func ids(_ archive: CollectedArchive, _ file: String) throws -> Set<String> {
        Set(try #require(try archive.json(file) as? [[String: Any]], "\(file)").compactMap { $0["id"] as? String })
    }

    @Test func anAreasArchiveHoldsWhatIsInsideIt() throws {
        let cities = try twoCities()
        let kept = try cities.given.database.keepUpload(try PhotoProcessor.prepare(path: PhotoFixtures.url(PhotoFixtures.withGPS).path))
        func photo(of subject: PhotoSubject) throws -> Photo {
            try cities.given.database.addPhoto(to: subject, PhotoInput(caption: "Photo"), display: kept.display, thumbnail: kept.thumbnail,
                                               by: .system("test"))
        }
        let residentsPhoto = try photo(of: .participant(cities.resident.id))
        _ = try photo(of: .participant(cities.stranger.id))
        var archive = CollectedArchive()
        try cities.given.database.exportArchive(.area(cities.city.id), as: .json, into: &archive)
        #expect(archive.finished)
        #expect(try ids(archive, "geographic_areas.json") == [cities.city.id.lowercaseText, cities.district.id.lowercaseText])
        #expect(try ids(archive, "venues.json").count == 1)
        #expect(try ids(archive, "activities.json") == [cities.activity.id.lowercaseText])
        // The activity held in the area comes with every assignment, and the visitor assigned, who lives elsewhere.
        #expect(try ids(archive, "assignments.json").count == 2)
        #expect(try ids(archive, "participants.json") == [cities.resident.id.lowercaseText, cities.visitor.id.lowercaseText])
        // The resident's photo, with its files; not the stranger's.
        #expect(try ids(archive, "photos.json") == [residentsPhoto.id.lowercaseText])
        #expect(archive.files.filter { $0.name.hasPrefix("photos/") }.map(\.name).sorted()
                == [kept.display.sha256, kept.thumbnail.sha256].map(PhotoFiles.archiveMember).sorted())
        let assigned = try #require(try archive.json("assignments.json") as? [[String: Any]])
        #expect(assigned.allSatisfy { ($0["assigned_at"] as? String).map { $0.count == 24 && $0.hasSuffix("Z") } == true })
        #expect(try ids(archive, "activity_types.json").count == (try cities.given.database.categories(.activityType).count))
        let manifest = try #require(try archive.json("fieldbook-export.json") as? [String: Any])
        #expect(manifest["area_id"] as? String == cities.city.id.lowercaseText)
        #expect(try cities.given.database.archiveName(.area(cities.city.id)) == "fieldbook-city")
        // Names reach a Content-Disposition header: ASCII letters, digits and dashes only.
        #expect(ExportScope.area(UUID()).name("Émile's \"Zone\"\r\nX: 1") == "fieldbook-emile-s-zone-x-1")
        #expect(ExportScope.activity(UUID()).name("ملعب") == "fieldbook-records")
    }

    /// A kind the scope does not name (notes) holds only its records about a record in the scope, by their references.
    @Test func aScopedArchiveHoldsTheNotesAboutItsRecordsOnly() throws {
        let cities = try twoCities()
        func note(_ text: String, _ column: String, _ id: UUID?) throws -> Note {
            try cities.given.database.create(FieldTexts(Note.declaration) { [
                "noted_on": "2025-03-12", "text": text, column: id?.uuidString ?? "",
            ][$0] ?? "" }, by: .system("test"))
        }
        let aboutResident = try note("Resident", "participant_id", cities.resident.id)
        let aboutChoir = try note("Choir", "activity_id", cities.activity.id)
        _ = try note("Stranger", "participant_id", cities.stranger.id)
        _ = try note("Market", "activity_id", cities.otherActivity.id)
        _ = try note("About nobody", "participant_id", nil)
        var area = CollectedArchive()
        try cities.given.database.exportArchive(.area(cities.city.id), as: .json, into: &area)
        #expect(try ids(area, "notes.json") == [aboutResident.id.lowercaseText, aboutChoir.id.lowercaseText])
        #expect(try cities.given.database.archiveRecordCount(.area(cities.city.id))
                == area.files.filter { !$0.name.hasPrefix("photos/") && $0.name.hasSuffix(".json") && $0.name != "fieldbook-export.json" }
                    .reduce(0) { $0 + ((try? JSONSerialization.jsonObject(with: Data($1.bytes)) as? [Any])?.count ?? 0) })
        var activity = CollectedArchive()
        try cities.given.database.exportArchive(.activity(cities.activity.id), as: .json, into: &activity)
        #expect(try ids(activity, "notes.json") == [aboutResident.id.lowercaseText, aboutChoir.id.lowercaseText])
        var everything = CollectedArchive()
        try cities.given.database.exportArchive(.everything, as: .json, into: &everything)
        #expect(try ids(everything, "notes.json").count == 5)
    }

    @Test func anActivitysArchiveHoldsItsVenuesAssignmentsAndParticipants() throws {
        let cities = try twoCities()
        var archive = CollectedArchive()
        try cities.given.database.exportArchive(.activity(cities.activity.id), as: .csv, into: &archive)
        #expect(archive.finished)
        #expect(!archive.files.contains { $0.name.hasPrefix("geographic_areas") || $0.name.hasPrefix("visit") })
        let participants = try #require(archive.files.first { $0.name == "participants.csv" })
        let table = try #require(CSVReader.rows(String(decoding: participants.bytes, as: UTF8.self)))
        #expect(table.first?.first == "\u{FEFF}id" && Set(table.dropFirst().map { $0[1] }) == ["Resident", "Visitor"])
        let assignments = try #require(archive.files.first { $0.name == "assignments.csv" })
        #expect(String(decoding: assignments.bytes, as: UTF8.self).split(separator: "\r\n").count == 3)
        #expect(!archive.files.contains { String(decoding: $0.bytes, as: UTF8.self).contains("Stranger") })
    }
}
