import Foundation
import Records
import Storage
import HTTPServer
import Surface

/// What the OpenAPI document says about one route; the route table holds it next to the handler.
struct APIOperation: Sendable {
    /// The answer when everything goes well.
    enum Success: Sendable {
        /// 200 with a component schema.
        case json(String)
        /// 200 with one page of a component schema.
        case page(String)
        /// 201 with a component schema and a Location header.
        case created(String)
        case noContent
        /// 200 with a component schema as GeoJSON (application/geo+json).
        case geoJSON(String)
        /// 200 with a whole list as a download: JSON (an array of the kind's exported columns, typed as the component
        /// schema types them) or CSV.
        case download(schema: String, entity: String)
        /// 200 with a ZIP archive (application/zip).
        case archive(String)
        /// 200 with a file of this content type, described.
        case file(contentType: String, description: String)
    }

    let id: String
    let summary: String
    var query: [Field] = []
    /// The request body's component schema name and an example of it.
    var body: String?
    /// The content type of a request body that is a file (a photo's bytes), not JSON.
    var fileBody: String?
    /// The component schema of a request body that is a multipart form (a file with fields about it).
    var formBody: String?
    var success: Success
    /// 409: the current records refuse the change (stale version, missing reference, still used, taken name).
    var conflict = false
    /// 403 for a reason other than the caller's role (predefined entries, the last administrator, not started yet).
    var protected = false
    /// 429: too many failed sign-ins.
    var throttled = false
    /// 401 on routes open to anyone (a refresh token that does not work).
    var refusesCredentials = false
    /// 503 with the success schema (health, when the database does not answer).
    var mayBeUnavailable = false
    /// 404: a query parameter names a record that is not there (an area to count in).
    var namesRecordInQuery = false
    /// 503: too much of the same work is running (downloads being written); try again shortly.
    var mayBeBusy = false
    /// 503 with Retry-After: the figures asked for are still being counted (analytics after start or a large import).
    var mayBePreparing = false

    static let paging: [Field] = [
        Field.of(ListParameter.page.name, .integer, "1-based page number").ranged(1...Double(1_000_000)),
        Field.of(ListParameter.perPage.name, .integer, "Rows per page, 50 unless given").ranged(1...500),
    ]
}

/// One route: address, who may call it, what the document says, and the handler.
struct APIRoute: Sendable {
    let method: HTTPMethod
    let path: String
    let access: Access
    let operation: APIOperation
    let handler: APIHandler

    /// Reads open to any signed-in user also accept the pages' session cookie, so page scripts can read the API;
    /// every write needs a bearer token, which a browser never sends by itself.
    var readsWithSession: Bool { method == .get && access == .signedIn }
}

/// The standard operations of a record resource, named after it (e.g. listVenues, getVenue, createVenue).
struct ResourceDocs: Sendable {
    /// Component schema name, e.g. "Venue".
    let schema: String
    /// Plural for operation ids, e.g. "Venues".
    let plural: String
    let listQuery: [Field]
    var conflictsOnCreate = true
    /// Predefined or protected records refuse changes with 403.
    var protected = false
    /// The singular in operation ids when several resources share a schema (ActivityType and Role share Category).
    var operationSuffix: String?
    /// The create body when it differs from the change body (users are created with a password).
    var createBody: String?

    private var name: String { operationSuffix ?? schema }
    /// The schema's name in words ("ActivityType": "activity type"). Split by hand: a regular expression here would
    /// start ICU's regex engine in every server as the routes are registered.
    private var noun: String {
        var words = ""
        var previous: Character?
        for letter in name {
            if letter.isUppercase, previous?.isLowercase == true { words.append(" ") }
            words.append(letter)
            previous = letter
        }
        return words.lowercased()
    }

    var list: APIOperation {
        APIOperation(id: "list\(plural)", summary: "List \(noun) records, one page at a time", query: APIOperation.paging + listQuery,
                     success: .page(schema))
    }
    var get: APIOperation { APIOperation(id: "get\(name)", summary: "Read one \(noun)", success: .json(schema)) }

    /// The whole list, with the list's filters and order, as one file (`entity`: the record kind exported).
    func export(entity: String) -> APIOperation {
        APIOperation(id: "export\(plural)",
                     summary: "Download every \(noun) of the list (its filters and order, no paging) as JSON or CSV, written while it downloads. "
                        + "Columns the caller may not see are left out. 503 while two downloads are being written",
                     query: [Field.of("format", .choice(ExportFormat.allCases.map(\.rawValue)), "json (default) or csv")] + listQuery,
                     success: .download(schema: schema, entity: entity), mayBeBusy: true)
    }
    var create: APIOperation {
        APIOperation(id: "create\(name)", summary: "Create a \(noun)", body: createBody ?? schema + "Write", success: .created(schema),
                     conflict: conflictsOnCreate)
    }
    var replace: APIOperation {
        APIOperation(id: "replace\(name)", summary: "Change a \(noun): send every field; absent optional fields are cleared",
                     body: schema + "Write", success: .json(schema), conflict: true, protected: protected)
    }
    var patch: APIOperation {
        APIOperation(id: "update\(name)", summary: "Change some fields of a \(noun); absent fields keep their values", body: schema + "Patch",
                     success: .json(schema), conflict: true, protected: protected)
    }
    var delete: APIOperation {
        APIOperation(id: "delete\(name)", summary: "Delete a \(noun)", success: .noContent, conflict: true, protected: protected)
    }
}

extension ResourceDocs {
    /// A kind's operations named after it: the schema from its entity ("visit_list": VisitList), the plural from its
    /// label ("visit lists": VisitLists).
    init(_ kind: RecordKind) {
        func name(_ words: String) -> String {
            words.split { $0 == " " || $0 == "_" }.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
        }
        self.init(schema: name(kind.entity), plural: name(kind.label.many), listQuery: [])
    }
}
