import Domain
import Foundation
import Records
import HTTPServer
@testable import JSONAPI
import Storage
import Surface
import Testing
import TestSupport

/// The list exports' API twins (issue 14): the same rows as the API's list, every page, typed as the document says.
@Suite struct ExportAPITests {
    func drained(_ answer: APIHarness.Answer) throws -> String {
        let stream = try #require(answer.response.stream)
        let read = try #require(stream.readToEnd(), "the download did not end")
        #expect(!read.failed)
        return String(decoding: read.bytes, as: UTF8.self)
    }

    func community(_ given: APIHarness, _ count: Int) throws {
        for index in 0..<count {
            try given.database.createParticipant(ParticipantInput(name: "Person \(index)", email: "p\(index)@example.org",
                                                                  notes: "note \(index)"), by: .system("test"))
        }
    }

    @Test func aJSONExportIsEveryPageOfTheAPIsListWithTheSameValues() throws {
        let given = try APIHarness()
        let token = try given.token(.editor)
        try community(given, 120)
        var listed: [[String: Any]] = []
        for page in 1...3 { listed += given.send(.get, "/api/v1/participants?q=person&sort=email&order=desc&page=\(page)", token: token).items }
        let answer = given.send(.get, "/api/v1/participants/export?q=person&sort=email&order=desc", token: token)
        #expect(answer.status == 200 && answer.response.header("Content-Type") == "application/json")
        let exported = try #require(try JSONSerialization.jsonObject(with: Data(drained(answer).utf8)) as? [[String: Any]])
        #expect(exported.count == 120)
        #expect(exported.map { $0["id"] as? String } == listed.map { $0["id"] as? String })
        for (row, item) in zip(exported, listed) {
            for key in ["name", "email", "notes"] { #expect(row[key] as? String == item[key] as? String, "\(key)") }
            // The export keeps the stored milliseconds (the API's records give whole seconds).
            for key in ["created_at", "updated_at"] {
                #expect((row[key] as? String)?.prefix(19) == (item[key] as? String)?.prefix(19) && (row[key] as? String)?.count == 24, "\(key)")
            }
        }
    }

    @Test func aCSVExportHasAHeaderAndARowPerRecord() throws {
        let given = try APIHarness()
        let token = try given.token(.readOnly)
        try community(given, 5)
        let answer = given.send(.get, "/api/v1/participants/export?format=csv", token: token)
        #expect(answer.response.header("Content-Type") == "text/csv; charset=utf-8")
        let text = try drained(answer)
        // Read-only callers, hidden contacts by default: the columns are left out, not blanked.
        #expect(text.hasPrefix("\u{FEFF}id,name,created_at,updated_at\r\n") && text.split(separator: "\r\n").count == 6)
        #expect(given.send(.get, "/api/v1/participants/export?home=with", token: token).status == 403)
        // An order by the hidden addresses would tell them: it is the order by name (these sort the other way by email).
        for (name, email) in [("Ann", "z@example.org"), ("Bo", "y@example.org"), ("Cy", "x@example.org")] {
            try given.database.createParticipant(ParticipantInput(name: name, email: email), by: .system("test"))
        }
        let byEmail = try drained(given.send(.get, "/api/v1/participants/export?format=csv&sort=email&order=desc", token: token))
        let byName = try drained(given.send(.get, "/api/v1/participants/export?format=csv&sort=name&order=desc", token: token))
        #expect(byEmail == byName)
    }

    @Test func badParametersAndNoCredentialsAreRefusedBeforeAnyDownload() throws {
        let given = try APIHarness()
        let token = try given.token(.editor)
        let unknownFormat = given.send(.get, "/api/v1/venues/export?format=xlsx", token: token)
        #expect(unknownFormat.status == 400 && unknownFormat.response.stream == nil)
        #expect(given.send(.get, "/api/v1/activities/export?status=SOMETIMES", token: token).status == 400)
        #expect(given.send(.get, "/api/v1/activities/export").status == 401)
    }

    @Test func theDocumentTypesExportedRowsFromTheComponentsWithExactlyTheExportedColumns() throws {
        let given = try APIHarness()
        let document = try #require(try JSONSerialization.jsonObject(with: Data(given.send(.get, "/api/v1/openapi.json").response.body)) as? [String: Any])
        let schemas = try #require((document["components"] as? [String: Any])?["schemas"] as? [String: Any])
        for (schema, entity) in [("Participant", "participant"), ("Venue", "venue"), ("Activity", "activity")] {
            let row = try #require(schemas[schema + "Export"] as? [String: Any], "\(schema)")
            let properties = Set((row["properties"] as? [String: Any] ?? [:]).keys)
            // Every exported column is typed: one missing from the component schema would be a drift between the two.
            #expect(properties == Set(try #require(RecordKind.named(entity)).exportColumns), "\(schema)")
            #expect(row["additionalProperties"] as? Bool == false)
        }
        let paths = try #require(document["paths"] as? [String: Any])
        let operation = try #require((paths["/api/v1/participants/export"] as? [String: Any])?["get"] as? [String: Any])
        let content = try #require(((operation["responses"] as? [String: Any])?["200"] as? [String: Any])?["content"] as? [String: Any])
        #expect(Set(content.keys) == ["application/json", "text/csv"])
    }

    @Test func everythingIsAZipForEditorsOnly() throws {
        let given = try APIHarness()
        try community(given, 4)
        #expect(given.send(.get, "/api/v1/export", token: try given.token(.readOnly)).status == 403)
        let answer = given.send(.get, "/api/v1/export", token: try given.token(.editor))
        #expect(answer.status == 200 && answer.response.header("Content-Type") == "application/zip")
        let stream = try #require(answer.response.stream)
        let bytes = try #require(stream.readToEnd()).bytes
        let members = try unzip(bytes)
        #expect(members.contains { $0.name == "participants.json" } && members.last?.name == "fieldbook-export.json")
    }

    @Test func anAreasArchiveIsRefusedForAnAreaThatIsNotThere() throws {
        let given = try APIHarness()
        let token = try given.token(.editor)
        #expect(given.send(.get, "/api/v1/areas/\(UUID().uuidString.lowercased())/export", token: token).status == 404)
        let area = try given.database.createArea(AreaInput(name: "Kibera", areaType: "NEIGHBOURHOOD", parentId: ""), by: .system("test"))
        let answer = given.send(.get, "/api/v1/areas/\(area.id.lowercaseText)/export?format=csv", token: token)
        #expect(answer.status == 200)
        let stream = try #require(answer.response.stream)
        let members = try unzip(try #require(stream.readToEnd()).bytes)
        #expect(members.contains { $0.name == "geographic_areas.csv" })
    }
}
