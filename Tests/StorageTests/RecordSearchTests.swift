import Domain
import Foundation
@testable import Storage
import Testing

/// The search of every kind (issue 41 item 5), below the pages: each kind as its own list finds it.
@Suite struct RecordSearchTests {
    let actor = Actor.system("test")

    @Test func areasAreFoundByAnyPartOfTheirNameWithAccentsAndCaseIgnoredByNameThenCounted() throws {
        let given = try TestDatabase()
        for name in ["Île-de-France", "Nord Île", "Isle of Man", "Paris"] {
            try given.database.createArea(AreaInput(name: name, areaType: AreaType.province.rawValue, parentId: ""), by: actor)
        }
        let found = try given.database.areaMatches(" ILE ", page: PageRequest(perPage: 1))
        #expect(found.items.map(\.name) == ["Île-de-France"] && found.total == 2)
        let terms = try SearchTerms.check("ile").get()
        #expect(try given.database.search(terms, seen: .everything, page: PageRequest(perPage: 5)).areas.items.map(\.name) == ["Île-de-France", "Nord Île"])
    }
}
