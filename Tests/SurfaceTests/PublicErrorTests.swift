import Domain
import HTTPServer
import Surface
import Testing

/// The one error mapping both surfaces render: statuses and codes API clients rely on.
@Suite struct PublicErrorTests {
    @Test func valuesThatBreakARuleAreUnprocessableAndClashesWithCurrentRecordsAreConflicts() {
        let input = PublicError(ValidationError([FieldError(field: "name", message: "Enter a name")]))
        #expect(input.status == .unprocessableContent)
        #expect(input.code == "validation_failed")
        #expect(input.fields == [FieldError(field: "name", message: "Enter a name")])

        let clash = PublicError(ValidationError.clash("name", "The name is taken"))
        #expect(clash.status == .conflict)
        #expect(clash.code == "conflict")
        #expect(clash.fields == [FieldError(field: "name", message: "The name is taken")])
    }

    @Test func domainErrorsKeepTheirStatusesAndCodes() {
        let cases: [(DomainError, HTTPStatus, String)] = [
            (.notFound(entity: "venue"), .notFound, "not_found"),
            (.protected(message: "Predefined"), .forbidden, "protected"),
            (.stillReferenced(message: "In use", references: []), .conflict, "still_referenced"),
            (.staleVersion(entity: "venue"), .conflict, "stale_version"),
        ]
        for (error, status, code) in cases {
            let described = PublicError(error)
            #expect(described.status == status)
            #expect(described.code == code)
            #expect(described.message == error.userMessage)
        }
    }

    @Test func httpErrorsAreCodedFromTheirStatusAndKeepTheAllowedMethods() {
        let described = PublicError(HTTPError(.methodNotAllowed, "Not here", allowedMethods: [.get, .head]))
        #expect(described.status == .methodNotAllowed)
        #expect(described.code == "method_not_allowed")
        #expect(described.allowedMethods == [.get, .head])
    }

    @Test func aThrottledSignInSaysHowLongToWait() {
        let described = PublicError(TooManySignIns(seconds: 30))
        #expect(described.status == .tooManyRequests)
        #expect(described.code == "too_many_attempts")
        #expect(described.retryAfter == 30)
    }

    @Test func anyOtherErrorIsTheServersFaultAndSaysNothingOfItself() {
        struct Secret: Error {}
        let described = PublicError(Secret())
        #expect(described.isServerFault)
        #expect(described.code == "internal_error")
        #expect(described.message == PublicError.internalMessage)
    }
}
