import Domain
import Records
import Foundation
import Testing

/// The document's limits for every body field of every write operation are Domain's rules: this fails when a Domain
/// limit changes and the document does not follow (or a resource states a limit of its own).
@Suite struct DocumentRulesTests {
    /// Domain's rules for each body a write operation takes. Categories have one schema for both kinds; their limits are
    /// the same and only the message for a blank name differs.
    static let domainRules: [String: [String: FieldRule]] = [
        "AreaWrite": GeographicArea.declaration.rules,
        "VenueWrite": Venue.declaration.rules,
        "ParticipantWrite": Participant.declaration.rules.merging(["moved_on": .date(ParticipantInput.Rules.movedOn)]) { $1 },
        "ParticipantMergeWrite": ParticipantMergeInput.rules,
        "ActivityWrite": Activity.declaration.rules.merging(["venue_ids": .idList(ActivityInput.Rules.venueIds),
                                                             "venues_from": .date(ActivityInput.Rules.venuesFrom)]) { $1 },
        "CategoryWrite": Domain.Category.declaration(.participantRole).rules,
        "AssignmentWrite": AssignmentRules.rules,
        "VisitListWrite": VisitList.declaration.rules,
        "VisitStopWrite": VisitStopRules.rules,
        "ContactLogWrite": ContactLog.declaration.rules.merging(["id": .id(ContactLogInput.Rules.id),
                                                                 "logged_at": .instant(ContactLogInput.Rules.loggedAt)]) { $1 },
        "StopFilterWrite": StopFilterInput.rules,
        "UserCreate": AccountRules.newUserRules,
        "UserWrite": AccountRules.newUserRules.filter { ["name", "role"].contains($0.key) },
        "PasswordReset": AccountRules.newUserRules.filter { $0.key == "password" },
        "NotificationPreferencesWrite": NotificationPreferencesInput.rules,
        "NoteWrite": Note.declaration.rules,
        "PhotoWrite": ["caption": .text(PhotoInput.Rules.caption), "taken_on": .date(PhotoInput.Rules.takenOn)],
    ]
    /// Bodies that are not a record's input: signing in, a node's outbox (checked by the sync protocol), and which photo files a hub lacks.
    static let notInputs: Set<String> = ["Login", "Refresh", "SyncPush", "PhotoFileQuery"]
    /// Domain fields the API does not take as such: it derives an activity's duration from end_date, and a password
    /// is typed once.
    static let derived: Set<String> = ["duration", "password_confirmation"]

    @Test func everyWriteBodyFieldStatesDomainsRule() throws {
        let document = try OpenAPIDocumentTests().document()
        let schemas = try #require((document["components"] as? [String: Any])?["schemas"] as? [String: [String: Any]])
        let paths = try #require(document["paths"] as? [String: [String: [String: Any]]])
        var checked = Set<String>()
        for (path, operations) in paths {
            for (method, operation) in operations where ["post", "put", "patch"].contains(method) {
                guard let name = Self.bodySchema(operation) else { continue }
                if Self.notInputs.contains(name) { continue }
                let input = name.hasSuffix("Patch") ? String(name.dropLast("Patch".count)) + "Write" : name
                let rules = try #require(Self.domainRules[input], "\(method) \(path) takes \(name), which no Domain input describes")
                let schema = try #require(schemas[name], "\(name)")
                try expect(schema, statesEvery: rules, partial: name.hasSuffix("Patch"), in: name)
                checked.insert(input)
            }
        }
        #expect(checked == Set(Self.domainRules.keys))
    }

    private static func bodySchema(_ operation: [String: Any]) -> String? {
        let body = operation["requestBody"] as? [String: Any]
        let schema = ((body?["content"] as? [String: Any])?["application/json"] as? [String: Any])?["schema"] as? [String: Any]
        return (schema?["$ref"] as? String)?.components(separatedBy: "/").last
    }

    private func expect(_ schema: [String: Any], statesEvery rules: [String: FieldRule], partial: Bool, in name: String) throws {
        var properties = try #require(schema["properties"] as? [String: [String: Any]], "\(name)")
        let required = Set(schema["required"] as? [String] ?? [])
        // A venue's coordinates are one object holding Domain's latitude and longitude, both required in it.
        if let coordinates = properties.removeValue(forKey: "coordinates") {
            #expect(coordinates["nullable"] as? Bool == true && !required.contains("coordinates"), "\(name).coordinates")
            let inner = try #require(coordinates["properties"] as? [String: [String: Any]])
            #expect(Set(coordinates["required"] as? [String] ?? []) == Set(inner.keys), "\(name).coordinates")
            for (field, property) in inner { properties[field] = property }
        }
        // A version (a merge sends two: kept_version, removed_version) is the record version's rule, never required.
        for field in properties.keys where field == "version" || field.hasSuffix("_version") {
            expect(properties.removeValue(forKey: field)!, states: .number(RecordVersion.rule), at: "\(name).\(field)")
            #expect(!required.contains(field), "\(name).\(field)")
        }
        for flag in ["is_disabled", "follow_up_only", "system_notifications"] {
            if let property = properties.removeValue(forKey: flag) {
                #expect(property["type"] as? String == "boolean" && !required.contains(flag), "\(name).\(flag)")
            }
        }
        #expect(Set(properties.keys) == Set(rules.keys).subtracting(Self.derived), "\(name): fields without a Domain rule, or rules without a field")
        for (field, property) in properties {
            let rule = try #require(rules[field], "\(name).\(field)")
            expect(property, states: rule, at: "\(name).\(field)")
            if !coordinatesField(field) { #expect(required.contains(field) == (rule.isRequired && !partial), "\(name).\(field) required") }
        }
    }

    /// Fields inside a `coordinates` object (a venue's; a contact log's also holds the accuracy), required within it.
    private func coordinatesField(_ field: String) -> Bool { ["latitude", "longitude", "accuracy_m"].contains(field) }

    /// The property's type, format and limits are what `rule` says, and it is nullable exactly when a value may be left out.
    private func expect(_ property: [String: Any], states rule: FieldRule, at place: String) {
        let limits = ["maxLength", "minLength", "pattern", "format", "enum", "minimum", "maximum"]
        var expected: [String: Any] = [:]
        var nullable = !rule.isRequired
        switch rule {
        case .text(let text):
            expected["maxLength"] = text.maxLength
            expected["minLength"] = text.minLength ?? (text.missing != nil ? 1 : nil)
            expected["pattern"] = text.documentPattern
            expected["format"] = text.isEmail ? "email" : nil
        case .choice(let choice):
            expected["enum"] = choice.options.map { $0 as Any } + (nullable ? [NSNull()] : [])
        case .number(let number):
            (expected["minimum"], expected["maximum"]) = (number.range.lowerBound, number.range.upperBound)
        case .id: expected["format"] = "uuid"
        case .date: expected["format"] = "date"
        case .instant: expected["format"] = "date-time"
        case .idList: nullable = false
        case .choiceList(let choice):
            nullable = false
            let items = property["items"] as? [String: Any]
            #expect(property["type"] as? String == "array" && items?["enum"] as? [String] == choice.options, "\(place): items are Domain's choices")
        }
        for limit in limits {
            #expect(Self.same(property[limit], expected[limit]), "\(place): \(limit) is \(property[limit] ?? "absent"), Domain says \(expected[limit] ?? "none")")
        }
        #expect((property["nullable"] as? Bool ?? false) == nullable, "\(place) nullable")
    }

    private static func same(_ stated: Any?, _ expected: Any?) -> Bool {
        switch (stated, expected) {
        case (nil, nil): true
        case (let stated as NSNumber, let expected as Double): stated.doubleValue == expected
        case (let stated as NSNumber, let expected as Int): stated.intValue == expected
        case (let stated as String, let expected as String): stated == expected
        case (let stated as [Any], let expected as [Any]): stated.map { "\($0)" } == expected.map { "\($0)" }
        default: false
        }
    }
}
