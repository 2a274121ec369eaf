import Domain
import Records
import Foundation
import PropertyBased
import Testing

/// Each input's `validated()` checks with the rules its kind's declaration states (which the API's document states too), and a
/// pattern's Swift check accepts exactly what its regular expression does.
@Suite struct FieldRuleTests {
    /// An input with valid values, checked with `values` put into the fields they name.
    struct Subject: Sendable, CustomTestStringConvertible {
        let name: String
        let rules: [String: FieldRule]
        let check: @Sendable ([String: String]) throws -> Void
        var testDescription: String { name }

        /// The problem `validated()` reports for `field` when it holds `value`, if any.
        func problem(_ field: String, _ value: String) -> String? {
            do {
                try check([field: value])
                return nil
            } catch let error as ValidationError {
                return error.message(for: field)
            } catch {
                return "\(error)"
            }
        }
    }

    /// The activity form's fields the record does not have.
    static let activityFormRules: [String: FieldRule] = ["venue_ids": .idList(ActivityInput.Rules.venueIds), "venues_from": .date(ActivityInput.Rules.venuesFrom)]

    static let subjects: [Subject] = [
        Subject(name: "participant", rules: Participant.declaration.rules.merging(["moved_on": .date(ParticipantInput.Rules.movedOn)]) { $1 }) { values in
            _ = try ParticipantInput(name: values["name"] ?? "Ada", email: values["email"] ?? "ada@example.org", phone: values["phone"] ?? "",
                                     notes: values["notes"] ?? "", homeVenueId: values["home_venue_id"] ?? "",
                                     movedOn: values["moved_on"] ?? "").validated()
        },
        Subject(name: "venue", rules: Venue.declaration.rules) { values in
            _ = try VenueInput(name: values["name"] ?? "Hall", address: values["address"] ?? "1 Road",
                               areaId: values["geographic_area_id"] ?? UUID().uuidString, latitude: values["latitude"] ?? "1",
                               longitude: values["longitude"] ?? "1", venueType: values["venue_type"] ?? "").validated()
        },
        Subject(name: "area", rules: GeographicArea.declaration.rules) { values in
            _ = try AreaInput(name: values["name"] ?? "Nairobi", areaType: values["area_type"] ?? "CITY",
                              parentId: values["parent_id"] ?? "").validated()
        },
        Subject(name: "activity", rules: Activity.declaration.rules.merging(activityFormRules) { $1 }) { values in
            let end = values["end_date"] ?? ""
            _ = try ActivityInput(name: values["name"] ?? "Circle", description: values["description"] ?? "",
                                  typeId: values["activity_type_id"] ?? UUID().uuidString, startDate: values["start_date"] ?? "2025-01-01",
                                  duration: end.isEmpty ? "ongoing" : "finite", endDate: end, status: values["status"] ?? "ACTIVE",
                                  venueIds: values["venue_ids"].map { [$0] } ?? [], venuesFrom: values["venues_from"] ?? "").validated()
        },
        Subject(name: "category", rules: Domain.Category.declaration(.activityType).rules) { values in
            _ = try CategoryInput(name: values["name"] ?? "Picnic").validated(kind: .activityType)
        },
        Subject(name: "new user", rules: AccountRules.newUserRules) { values in
            let password = values["password"] ?? "long enough password"
            _ = try NewUserInput(name: values["name"] ?? "Ada", email: values["email"] ?? "ada@example.org", role: values["role"] ?? "editor",
                                 password: password, passwordConfirmation: password).validated()
        },
        Subject(name: "contact log", rules: ["logged_at": .instant(ContactLogInput.Rules.loggedAt)]) { values in
            _ = try ContactLogInput(result: "MET", loggedAt: values["logged_at"] ?? "").validated()
        },
        Subject(name: "notification preferences", rules: NotificationPreferencesInput.rules) { values in
            _ = try NotificationPreferencesInput(receivedKinds: values["received_kinds"].map { [$0] } ?? [], systemNotifications: true)
                .validated(for: UUID(), role: .editor)
        },
    ]

    /// Lengths count code points: "e" + U+0301 is one character and two code points.
    @Test(arguments: subjects)
    func textLengthsAreCountedInCodePointsAsTheRuleStates(_ subject: Subject) {
        for (field, rule) in subject.rules {
            guard case .text(let text) = rule, !text.isEmail else { continue }
            if let max = text.maxLength {
                let decomposed = String(repeating: "e\u{301}", count: max / 2) + String(repeating: "x", count: max % 2)
                #expect(subject.problem(field, decomposed) == nil, "\(subject.name).\(field) at \(max) code points")
                #expect(subject.problem(field, decomposed + "x") != nil, "\(subject.name).\(field) at \(max + 1) code points")
            }
            if let min = text.minLength {
                #expect(subject.problem(field, String(repeating: "x", count: min)) == nil, "\(subject.name).\(field) at \(min)")
                #expect(subject.problem(field, String(repeating: "x", count: min - 1)) != nil, "\(subject.name).\(field) at \(min - 1)")
            }
            #expect(subject.problem(field, "a\u{0}b") != nil, "\(subject.name).\(field) with U+0000")
            if text.pattern == nil {
                #expect((subject.problem(field, " \u{3000}\u{FEFF}") != nil) == text.isRequired, "\(subject.name).\(field) blank")
            }
        }
    }

    @Test(arguments: subjects)
    func choicesIdsDatesAndNumbersAreCheckedByTheirRules(_ subject: Subject) {
        for (field, rule) in subject.rules {
            let place = "\(subject.name).\(field)"
            switch rule {
            case .choice(let choice):
                for option in choice.options { #expect(subject.problem(field, option) == nil, "\(place) \(option)") }
                #expect(subject.problem(field, " " + choice.options[0]) != nil, "\(place)")
                #expect((subject.problem(field, "") != nil) == choice.isRequired, "\(place)")
            case .id(let id), .idList(let id):
                #expect(subject.problem(field, UUID().uuidString.lowercased()) == nil, "\(place)")
                #expect(subject.problem(field, " " + UUID().uuidString) != nil, "\(place)")
                if case .id = rule { #expect((subject.problem(field, "") != nil) == id.isRequired, "\(place)") }
            case .date(let date):
                #expect(subject.problem(field, "2099-02-28") == nil, "\(place)")
                #expect(subject.problem(field, "2099-02-30") != nil && subject.problem(field, " 2099-02-28") != nil, "\(place)")
                if field != "end_date" { #expect((subject.problem(field, "") != nil) == date.isRequired, "\(place)") }
            case .number(let number):
                #expect(subject.problem(field, number.range.lowerBound.compact) == nil, "\(place)")
                #expect(subject.problem(field, number.range.upperBound.compact) == nil, "\(place)")
                #expect(subject.problem(field, String(number.range.upperBound + 0.5)) != nil, "\(place)")
                #expect(subject.problem(field, String(number.range.lowerBound - 0.5)) != nil, "\(place)")
            case .choiceList(let choice):
                for option in choice.options { #expect(subject.problem(field, option) == nil, "\(place) \(option)") }
                #expect(subject.problem(field, " " + choice.options[0]) != nil, "\(place)")
            case .instant(let instant):
                let now = Date()
                #expect(subject.problem(field, now.addingTimeInterval(instant.skew - 60).ISO8601Format()) == nil, "\(place) a fast clock")
                // Out of bounds is set aside, never refused: sending the same moment again could not fix it.
                #expect(subject.problem(field, now.addingTimeInterval(instant.skew + 60).ISO8601Format()) == nil, "\(place) the future")
                #expect(subject.problem(field, now.addingTimeInterval(-instant.oldest + 60).ISO8601Format()) == nil, "\(place) the oldest")
                #expect(subject.problem(field, now.addingTimeInterval(-instant.oldest - 60).ISO8601Format()) == nil, "\(place) too old")
                #expect(subject.problem(field, "yesterday") != nil, "\(place)")
                #expect((subject.problem(field, "") != nil) == instant.isRequired, "\(place)")
            case .text: continue
            }
        }
    }

    /// A phone sends the time it kept a visit as `Date.toISOString()` writes it; an offset is the same moment.
    @Test func aMomentIsReadWithOrWithoutFractionsAndWithItsOffset() throws {
        let moment = try #require(InstantRule.parse("2026-11-24T09:30:00.123Z"))
        #expect(abs(moment.timeIntervalSince1970 - 1_795_512_600.123) < 0.0005)
        #expect(InstantRule.parse("2026-11-24T12:30:00+03:00") == InstantRule.parse("2026-11-24T09:30:00Z"))
        #expect(InstantRule.parse("2026-11-24 09:30:00") == nil && InstantRule.parse("2026-11-24") == nil)
        let now = try #require(InstantRule.parse("2026-11-24T12:00:00Z"))
        let valid = try ContactLogInput(result: "MET", loggedAt: "2026-11-24T09:30:00.123Z").validated(now: now)
        #expect(valid.loggedAt == moment)
        #expect(try ContactLogInput(result: "MET").validated(now: now).loggedAt == nil, "absent: the server's time")
        let ahead = try ContactLogInput(result: "MET", loggedAt: "2026-11-24T13:00:00Z").validated(now: now)
        let yearsAgo = try ContactLogInput(result: "MET", loggedAt: "2020-11-24T13:00:00Z").validated(now: now)
        #expect(ahead.loggedAt == nil && yearsAgo.loggedAt == nil, "set aside: the server's time")
    }

    /// The phone check and its regular expression agree on strings of the characters that matter (Python's `$`, which
    /// schemathesis uses, allows one final newline; ICU's would also allow other line ends, so those are left out).
    @Test func thePhonePatternsSwiftCheckAcceptsWhatItsRegexAccepts() async throws {
        let regex = try NSRegularExpression(pattern: TextPattern.phone.regex)
        let alphabet = Array("0123456789 ().-+\n\tx")
        await propertyCheck(count: 500, input: Gen.int(in: 0...(alphabet.count - 1)).array(of: 0...24)) { picks in
            let text = String(picks.map { alphabet[$0] })
            let byRegex = regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
            #expect(TextPattern.phone.matches(text) == byRegex, "\(text.debugDescription)")
        }
    }

    @Test func theNotBlankPatternAcceptsWhatARequiredTextAccepts() async throws {
        let regex = try NSRegularExpression(pattern: String.notBlankPattern)
        let alphabet: [Character] = [" ", "\u{85}", "\u{A0}", "\u{2028}", "\u{3000}", "\u{FEFF}", "\t", "\u{0}", "\u{1F}", "x", "é"]
        await propertyCheck(count: 500, input: Gen.int(in: 0...(alphabet.count - 1)).array(of: 0...8)) { picks in
            let text = String(picks.map { alphabet[$0] })
            let byRegex = regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
            #expect(byRegex == (!text.containsNUL && !text.isBlank), "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
        }
    }
}
