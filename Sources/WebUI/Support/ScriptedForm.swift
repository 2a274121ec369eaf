import Foundation
import Domain
import HTTPServer

/// A form a page's script sends on its own, with no one looking at the answer (a phone sending the visits it kept),
/// says so with this header. Its answers are statuses the script can trust rather than pages for a person: an ended
/// session (or a form token from another session) is 401, not the sign-in page at the form's address (which reads as a
/// success), so 403 means only that this person may not do this; and a stored visit log is 201 naming the log's id, so
/// the script forgets its copy only once the server has said that log is stored, and the time it was logged at, which
/// is the server's own when the device's time was set aside.
enum ScriptedForm {
    static let header = "Fieldbook-Sent-By-Script"
    static let logIdHeader = "Fieldbook-Log-Id"
    static let loggedAtHeader = "Fieldbook-Logged-At"

    static func isScripted(_ request: Request) -> Bool { request.header(header) == "1" }

    static func sessionEnded() -> HTTPError {
        HTTPError(.unauthorized, LoginPages.signInAgainNotice)
    }

    /// The answer to a scripted visit log: stored (or found stored under the same id).
    static func logged(_ log: ContactLog) -> Response {
        var response = Response.text("Logged.", status: .created)
        response.setHeader(logIdHeader, log.id.uuidString.lowercased())
        response.setHeader(loggedAtHeader, log.loggedAt.ISO8601Format())
        return response
    }
}
