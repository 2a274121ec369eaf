import Domain
import Foundation
import PropertyBased
@testable import Storage
import Testing

@Suite struct CategoryStoreTests {
    let actor = Actor.system("test")

    @Test func startsWithThePredefinedEntriesAndNoOutboxEntries() throws {
        let given = try TestDatabase()
        let types = try given.database.categories(.activityType)
        #expect(types.count == CategoryKind.activityType.predefined.count)
        #expect(types.allSatisfy { $0.isPredefined })
        #expect(try given.database.categories(.participantRole).count == CategoryKind.participantRole.predefined.count)
        #expect(try given.outboxCount() == 0)
    }

    @Test func createEditDeleteEachRecordExactlyOneOutboxEntry() throws {
        let given = try TestDatabase()
        let created = try given.database.createCategory(.activityType, CategoryInput(name: "Reading Group"), by: actor)
        #expect(try given.outboxCount() == 1)
        let renamed = try given.database.updateCategory(.activityType, id: created.id, CategoryInput(name: "Book Club"),
                                                        expectedVersion: created.version, by: actor)
        #expect(renamed.version == 2)
        try given.database.deleteCategory(.activityType, id: created.id, by: actor)
        let entries = try given.database.outboxEntries()
        #expect(entries.map(\.change.operation) == [.create, .update, .delete])
        #expect(entries.allSatisfy { $0.change.entityId == created.id && $0.author == "system:test" })
        #expect(entries[1].change.fields == ["name": .string("Book Club")])
        #expect(entries[1].change.baseVersion == 1)
        #expect(entries[2].change.baseVersion == 2)
    }

    @Test func namesAreUniqueIgnoringCase() throws {
        let given = try TestDatabase()
        #expect(throws: ValidationError.self) {
            try given.database.createCategory(.activityType, CategoryInput(name: "workshop"), by: actor)
        }
        #expect(try given.outboxCount() == 0)
    }

    @Test func predefinedEntriesCannotBeRenamedOrDeleted() throws {
        let given = try TestDatabase()
        let workshop = try #require(try given.database.categories(.activityType).first { $0.name == "Workshop" })
        #expect(throws: DomainError.self) {
            try given.database.updateCategory(.activityType, id: workshop.id, CategoryInput(name: "Talk"), expectedVersion: nil, by: actor)
        }
        #expect(throws: DomainError.self) { try given.database.deleteCategory(.activityType, id: workshop.id, by: actor) }
        #expect(try given.database.category(.activityType, id: workshop.id).name == "Workshop")
        #expect(try given.outboxCount() == 0)
    }

    @Test func aStaleEditIsRefused() throws {
        let given = try TestDatabase()
        let created = try given.database.createCategory(.participantRole, CategoryInput(name: "Driver"), by: actor)
        try given.database.updateCategory(.participantRole, id: created.id, CategoryInput(name: "Chauffeur"), expectedVersion: 1, by: actor)
        #expect(throws: DomainError.staleVersion(entity: "role")) {
            try given.database.updateCategory(.participantRole, id: created.id, CategoryInput(name: "Pilot"), expectedVersion: 1, by: actor)
        }
    }

    // Feature: fieldbook, Property 2: Reference Constraint Enforcement
    @Test func property2_referenceConstraintEnforcement() async throws {
        await propertyCheck(count: 20, input: Gen.int(in: 0...4)) { activityCount in
            let given = try TestDatabase()
            let type = try given.database.createCategory(.activityType, CategoryInput(name: "Clean-up"), by: actor)
            for index in 0..<activityCount { _ = try given.insertActivity(named: "Clean-up \(index)", typeId: type.id) }
            let outboxBefore = try given.outboxCount()
            do {
                try given.database.deleteCategory(.activityType, id: type.id, by: actor)
                #expect(activityCount == 0)
                #expect(throws: DomainError.notFound(entity: "activity type")) { try given.database.category(.activityType, id: type.id) }
            } catch DomainError.stillReferenced(let message, let references) {
                #expect(activityCount > 0)
                #expect(message.contains("\(activityCount) activit"))
                #expect(references.count == activityCount)
                #expect(try given.database.category(.activityType, id: type.id).name == "Clean-up")
                #expect(try given.outboxCount() == outboxBefore)
            }
        }
    }

    // Each accepted write leaves exactly one outbox entry; each refused write leaves none.
    @Test func everyWriteRecordsExactlyOneChange() async throws {
        await propertyCheck(count: 30, input: Gen.int(in: 0...2).array(of: 1...12), Gen.int(in: 0...7).array(of: 12)) { operations, picks in
            let given = try TestDatabase()
            var accepted = 0
            for (step, operation) in operations.enumerated() {
                let custom = try given.database.categories(.participantRole).filter { !$0.isPredefined }
                let target = custom.isEmpty ? nil : custom[picks[step] % custom.count]
                do {
                    switch (operation, target) {
                    case (0, _), (_, nil):
                        try given.database.createCategory(.participantRole, CategoryInput(name: "Role \(picks[step])"), by: actor)
                    case (1, let target?):
                        try given.database.updateCategory(.participantRole, id: target.id, CategoryInput(name: "Renamed \(step)"),
                                                          expectedVersion: target.version, by: actor)
                    case (_, let target?):
                        try given.database.deleteCategory(.participantRole, id: target.id, by: actor)
                    }
                    accepted += 1
                } catch is ValidationError {
                    // a duplicate name: refused, and must leave no entry
                }
                #expect(try given.outboxCount() == accepted)
            }
        }
    }
}
