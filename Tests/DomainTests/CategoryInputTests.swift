import Domain
import PropertyBased
import Testing

@Suite struct CategoryInputTests {
    @Test func trimsAndAcceptsAName() throws {
        let valid = try CategoryInput(name: "  Reading Group \n").validated(kind: .activityType)
        #expect(valid.name == "Reading Group")
    }

    @Test func blankNameIsRejectedWithAMessageForTheField() {
        #expect(throws: ValidationError([FieldError(field: "name", message: "Enter a name for the role")])) {
            try CategoryInput(name: "   ").validated(kind: .participantRole)
        }
    }

    // Feature: fieldbook, Property 6: Input Validation Rejection
    @Test func property6_inputValidationRejection() async {
        await propertyCheck(count: 200, input: Gen.int(in: 0...80), Gen.int(in: 0...3)) { length, padding in
            let name = String(repeating: " ", count: padding) + String(repeating: "x", count: length) + String(repeating: " ", count: padding)
            let result = Result { try CategoryInput(name: name).validated(kind: .activityType) }
            switch result {
            case .success(let valid):
                #expect((1...50).contains(length))
                #expect(valid.name.count == length)
            case .failure(let error):
                #expect(!(1...50).contains(length))
                #expect((error as? ValidationError)?.message(for: "name") != nil)
            }
        }
    }
}

@Suite struct AccountRulesTests {
    @Test(arguments: ["ada@example.org", "a.b+c@sub.example.co.uk", "x@y.io"])
    func acceptsEmailAddresses(_ email: String) { #expect(EmailAddress.isValid(email)) }

    @Test(arguments: ["", "ada", "ada@", "@example.org", "ada@example", "a b@example.org", "ada@@example.org", "ada@-x.org"])
    func rejectsMalformedEmailAddresses(_ email: String) { #expect(!EmailAddress.isValid(email)) }

    @Test func newUserCollectsEveryProblemAtOnce() {
        let input = NewUserInput(name: "", email: "nope", role: "boss", password: "short", passwordConfirmation: "short")
        do {
            _ = try input.validated()
            Issue.record("expected validation to fail")
        } catch let error as ValidationError {
            #expect(error.fieldErrors.map(\.field) == ["name", "email", "role", "password"])
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }

    @Test func mismatchedConfirmationIsReportedOnTheConfirmationField() {
        let input = NewUserInput(name: "Ada", email: "ada@example.org", role: "editor",
                                 password: "long enough password", passwordConfirmation: "long enough passwore")
        #expect(throws: ValidationError.self) { try input.validated() }
        #expect((try? input.validated()) == nil)
    }

    // Feature: fieldbook, Property 11: Role-Based Feature Authorization
    @Test func property11_roleBasedFeatureAuthorization() {
        for role in UserRole.allCases {
            #expect(role.canEditRecords == (role != .readOnly))
            #expect(role.canAdminister == (role == .administrator))
        }
    }
}
