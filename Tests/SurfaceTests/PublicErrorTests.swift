import Foundation
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

/// A full disk is 507 with its own code on both surfaces, and the log hears of it once a minute, not once per request.
@Suite struct DiskFullErrorTests {
    @Test func noSpaceLeftIsInsufficientStorageWithTheDiskFullCode() {
        for error: Error in [POSIXError(.ENOSPC), NSError(domain: NSPOSIXErrorDomain, code: Int(ENOSPC)), CocoaError(.fileWriteOutOfSpace)] {
            let failure = PublicError(error)
            #expect(failure.status == .insufficientStorage)
            #expect(failure.code == "disk_full")
            #expect(failure.message.contains("disk is full"))
            #expect(!failure.isServerFault)
        }
        #expect(PublicError(POSIXError(.EIO)).status == .internalServerError)
    }

    @Test func aFullDiskIsLoggedAtMostOnceAMinute() {
        let failure = PublicError(POSIXError(.ENOSPC))
        let start = Date(timeIntervalSinceNow: 3600) // later than any earlier test's entry
        #expect(failure.logLine(at: start) != nil)
        #expect(failure.logLine(at: start.addingTimeInterval(30)) == nil)
        #expect(failure.logLine(at: start.addingTimeInterval(61)) != nil)
        #expect(PublicError(POSIXError(.EIO)).logLine(at: start.addingTimeInterval(62)) == "unhandled error")
    }
}
