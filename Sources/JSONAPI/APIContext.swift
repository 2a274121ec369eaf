import Credentials
import Domain
import Foundation
import HTTPServer
import Hub
import Storage
import Surface

/// What an API handler works with: the request, who sent it, and the database.
struct APIContext {
    let request: Request
    /// nil on routes open to anyone.
    let caller: APICaller?
    let authenticator: APIAuthenticator

    /// Where sync and sign-in go: this Fieldbook's database, or a PostgreSQL hub.
    var hub: any SyncHub { authenticator.accounts }

    /// This Fieldbook's own database, or nil on a hub that only syncs.
    var node: AppDatabase? { authenticator.node }

    /// This Fieldbook's own database. A hub that only syncs registers no route that reads it; should one, the
    /// request is answered 404 rather than served from the wrong store.
    var database: AppDatabase {
        get throws {
            guard let node = authenticator.node else { throw HTTPError.notFound(request.path) }
            return node
        }
    }

    /// The bearer token's sign-in; nil on routes open to anyone and for reads signed in by the session cookie.
    var bearer: APIBearer? { caller?.bearer }

    var actor: Actor { caller.map { .user($0.user.id) } ?? .system("api") }

    /// The caller, on routes that need one (every route but those open to anyone).
    var signedInUser: User {
        get throws {
            guard let caller else { throw HTTPError(.unauthorized, "Sign in first: send Authorization: Bearer with an access token.") }
            return caller.user
        }
    }

    /// The `{name}` path segment as an id; a segment that is not an id names no record (404).
    func id(_ name: String = "id") throws -> UUID {
        guard let id = request.pathParameter(name).flatMap(UUID.strict) else {
            throw HTTPError(.notFound, "There is no record at \(request.path): ids look like 0d2f3a10-0000-4000-8000-000000000001.")
        }
        return id
    }

    /// The `{id}` of a record that exists: `load` throws 404 for one that does not (for sub-lists of a record).
    func existingId(_ load: (UUID) throws -> some Any) throws -> UUID {
        let id = try id()
        _ = try load(id)
        return id
    }

    /// The JSON body checked against `fields`.
    func body(_ fields: [Field], mode: WriteMode) throws -> APIBody {
        try APIBody(request, fields: fields, mode: mode, example: Field.example(fields))
    }

    /// `?page=&per_page=`, refusing values outside what the document allows (400).
    func pageRequest() throws -> PageRequest {
        let page = try integer(ListParameter.page.name, in: 1...PageRequest.maxPage) ?? 1
        let perPage = try integer(ListParameter.perPage.name, in: 1...500) ?? PageRequest.defaultPerPage
        return PageRequest(page: page, perPage: perPage)
    }

    func integer(_ name: String, in range: ClosedRange<Int>) throws -> Int? {
        guard let text = request.query[name] else { return nil }
        guard !text.isEmpty, text.utf8.allSatisfy({ (48...57).contains($0) }), let value = Int(text), range.contains(value) else {
            throw APIBadParameter(name: name, expected: "a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }

    /// A query parameter that must be one of `options` (nil when absent).
    func choice<T: RawRepresentable>(_ name: String, _ type: T.Type = T.self) throws -> T? where T.RawValue == String, T: CaseIterable {
        guard let text = request.query[name] else { return nil }
        guard let value = T(rawValue: text) else {
            throw APIBadParameter(name: name, expected: "one of " + T.allCases.map(\.rawValue).joined(separator: ", "))
        }
        return value
    }

    func uuid(_ name: String) throws -> UUID? {
        guard let text = request.query[name] else { return nil }
        guard let id = UUID.strict(text) else { throw APIBadParameter(name: name, expected: "an id like 0d2f3a10-0000-4000-8000-000000000001") }
        return id
    }
}

/// The API reads list parameters strictly: a value the document does not allow is a 400.
extension APIContext: ListParameterReader {
    func text(_ parameter: ListParameter) -> String { request.query(parameter) ?? "" }
    func uuid(_ parameter: ListParameter) throws -> UUID? { try uuid(parameter.name) }
    func choice<Value: RawRepresentable & CaseIterable>(_ parameter: ListParameter, as type: Value.Type) throws -> Value?
        where Value.RawValue == String {
        try choice(parameter.name, type)
    }
    func page() throws -> PageRequest { try pageRequest() }
    func date(_ parameter: ListParameter) throws -> CalendarDate? {
        guard let text = request.query(parameter) else { return nil }
        guard let date = CalendarDate(text) else { throw APIBadParameter(name: parameter.name, expected: "a day like 2025-03-12") }
        return date
    }
}

/// A query parameter with a value the document does not allow: 400.
struct APIBadParameter: HTTPResponseError {
    let name: String
    let expected: String
    var status: HTTPStatus { .badRequest }
    var publicMessage: String { "The query parameter \(name) must be \(expected)." }
}

extension APIContext {
    /// POST of a record: reads the body (400/422), builds the form input and saves it. The store checks the input
    /// itself (Domain's `validated()`); its refusals are answered by `PublicError`: 422 for the values on their own,
    /// 409 for a clash with current records.
    func create<Input, Saved>(_ fields: [Field], input: (APIBody) throws -> Input, save: (Input) throws -> Saved) throws -> Saved {
        try save(input(body(fields, mode: .full)))
    }

    /// PUT and PATCH of a record: loads it (404), reads the body (400/422), builds the form input (`keep` is the
    /// current record for PATCH, whose absent fields keep their values; nil for PUT) and saves it with the version the
    /// body names, if any.
    func update<Current, Input, Saved>(_ fields: [Field], mode: WriteMode, load: (UUID) throws -> Current,
                                       input: (APIBody, _ keep: Current?, _ current: Current) throws -> Input,
                                       save: (_ id: UUID, Input, _ version: Int?) throws -> Saved) throws -> Saved {
        let id = try id()
        let current = try load(id)
        let body = try body(fields, mode: mode)
        let value = try input(body, mode == .partial ? current : nil, current)
        return try save(id, value, body.integer("version"))
    }
}

extension ValidationError {
    /// The same problems, with the fields Domain names by another name in the API's body (`coordinates.latitude`).
    func renamingFields(_ names: [String: String]) -> ValidationError {
        ValidationError(fieldErrors.map { FieldError(field: names[$0.field] ?? $0.field, message: $0.message) }, cause: cause)
    }
}

/// A JSON API handler.
typealias APIHandler = @Sendable (APIContext) throws -> Response
