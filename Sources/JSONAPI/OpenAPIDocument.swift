import Domain
import Foundation
import Records
import Storage
import HTTPServer
import Surface

/// The OpenAPI 3 description of exactly what /api/v1 serves, built from the route table and the same field
/// values the server checks bodies against.
enum OpenAPIDocument {
    static let operation = APIOperation(id: "getOpenAPIDocument", summary: "This document", success: .json("OpenAPIDocument"))

    static func json(version: String, routes: [APIRoute]) -> Data {
        let document: [String: Any] = [
            "openapi": "3.0.3",
            "info": ["title": "Fieldbook API", "version": version, "description": description],
            "security": [["bearerAuth": [String]()]],
            "paths": paths(routes),
            "components": [
                "securitySchemes": [
                    "bearerAuth": ["type": "http", "scheme": "bearer", "description": "An access token from POST /api/v1/auth/login"],
                    "sessionCookie": ["type": "apiKey", "in": "cookie", "name": CookieName.session,
                                      "description": "The pages' signed-in session, for reads from the same origin (page scripts); __Host-\(CookieName.session) over HTTPS"],
                ],
                "schemas": schemas(routes),
            ],
        ]
        return (try? JSONSerialization.data(withJSONObject: document, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
    }

    static let description = """
        JSON API of a Fieldbook node. Sign in with POST /api/v1/auth/login and send the access token as \
        `Authorization: Bearer <token>`; it lasts 15 minutes, and POST /api/v1/auth/refresh exchanges the refresh token \
        (30 days, single use) for a new pair. Read-only users read, editors also change community records, administrators \
        also manage users. Errors use one envelope: {"error": {"code", "message", "fields"}}. A body that is not JSON is \
        400 malformed_json; a field that breaks its rule is 422 validation_failed with `fields`; a change the current \
        records refuse (stale version, a referenced record that does not exist, a name in use, a record still in use) is 409.
        """

    // MARK: - Paths

    private static func paths(_ routes: [APIRoute]) -> [String: Any] {
        var paths: [String: [String: Any]] = [:]
        for route in routes {
            paths[route.path, default: [:]][route.method.rawValue.lowercased()] = operation(route, routes: routes)
        }
        return paths
    }

    private static func operation(_ route: APIRoute, routes: [APIRoute]) -> [String: Any] {
        let op = route.operation
        var result: [String: Any] = [
            "operationId": op.id, "summary": op.summary, "tags": [tag(route.path)],
            "description": "For \(route.access.label).",
            "responses": responses(route, routes: routes),
        ]
        let parameters = pathParameters(route.path) + op.query.map(queryParameter)
        if !parameters.isEmpty { result["parameters"] = parameters }
        if let body = op.body {
            result["requestBody"] = ["required": true, "content": ["application/json": ["schema": ref(body)]]]
        }
        if let form = op.formBody {
            result["requestBody"] = ["required": true, "content": ["multipart/form-data": ["schema": ref(form)]]]
        }
        if let type = op.fileBody {
            result["requestBody"] = ["required": true, "content": [type: ["schema": ["type": "string", "format": "binary"]]]]
        }
        if route.access == .anyone { result["security"] = [Any]() }
        if route.readsWithSession { result["security"] = [["bearerAuth": [String]()], ["sessionCookie": [String]()]] }
        return result
    }

    private static func tag(_ path: String) -> String {
        path.dropFirst(JSONRoutes.prefix.count + 1).split(separator: "/").first.map(String.init) ?? "api"
    }

    private static func pathParameters(_ path: String) -> [[String: Any]] {
        parameterNames(path).map { name -> [String: Any] in
            let schema: [String: Any] = name == "sha256" ? contentAddress : ["type": "string", "format": "uuid"]
            return ["name": name, "in": "path", "required": true, "schema": schema]
        }
    }

    /// A photo file's name: the SHA-256 of its bytes (`PhotoImage.isContentAddress`).
    private static var contentAddress: [String: Any] { ["type": "string", "pattern": "^[0-9a-f]{64}$", "minLength": 64, "maxLength": 64] }

    private static func queryParameter(_ field: Field) -> [String: Any] {
        var parameter: [String: Any] = ["name": field.name, "in": "query", "required": field.required, "schema": property(field, inQuery: true)]
        if let summary = field.summary { parameter["description"] = summary }
        return parameter
    }

    private static func responses(_ route: APIRoute, routes: [APIRoute]) -> [String: Any] {
        let op = route.operation
        var responses: [String: Any] = [:]
        switch op.success {
        case .json(let schema): responses["200"] = json("OK", ref(schema))
        case .page(let schema): responses["200"] = json("One page of the list", ref(schema + "Page"))
        case .created(let schema):
            var created = json("Created; Location says where to read it", ref(schema))
            created["headers"] = ["Location": ["required": true, "schema": ["type": "string"]]]
            let links = links(from: route, to: routes)
            if !links.isEmpty { created["links"] = links }
            responses["201"] = created
        case .noContent: responses["204"] = ["description": "Done"]
        case .geoJSON(let schema): responses["200"] = ["description": "GeoJSON (RFC 7946)", "content": ["application/geo+json": ["schema": ref(schema)]]]
        case .download(let schema, _):
            responses["200"] = ["description": "The whole list as a file (Content-Disposition: attachment)", "content": [
                "application/json": ["schema": ["type": "array", "items": ref(schema + "Export")]],
                "text/csv": ["schema": ["type": "string", "description": "RFC 4180 with a header row of the same columns"]],
            ]]
        case .archive(let description): responses["200"] = file("application/zip", description)
        case .file(let type, let description): responses["200"] = file(type, description)
        }
        if op.mayBeBusy { responses["503"] = json("Too much of this work is running; try again shortly", ref("Error")) }
        if op.mayBePreparing {
            var preparing = json("The figures are still being counted; ask again after Retry-After seconds", ref("Error"))
            preparing["headers"] = ["Retry-After": ["required": true, "schema": ["type": "integer"]]]
            responses["503"] = preparing
        }
        if op.mayBeUnavailable, case .json(let schema) = op.success { responses["503"] = json("The database does not answer", ref(schema)) }
        for (status, text) in errorStatuses(route) {
            var response = json(text, ref("Error"))
            if status == 401 { response["headers"] = ["WWW-Authenticate": ["required": true, "schema": ["type": "string"]]] }
            if status == 429 { response["headers"] = ["Retry-After": ["required": true, "schema": ["type": "integer"]]] }
            responses[String(status)] = response
        }
        return responses
    }

    /// Links from a create to the operations on what it created (`{path}/{id}...`), so stateful tests use real ids.
    private static func links(from create: APIRoute, to routes: [APIRoute]) -> [String: Any] {
        let known = parameterNames(create.path)
        var links: [String: Any] = [:]
        for target in routes where target.path.hasPrefix(create.path + "/{") {
            let fresh = parameterNames(target.path).filter { !known.contains($0) }
            guard fresh.count == 1 else { continue }
            var parameters = [fresh[0]: "$response.body#/id"]
            for name in known { parameters[name] = "$request.path.\(name)" }
            let id = target.operation.id
            links[id.prefix(1).uppercased() + id.dropFirst()] = ["operationId": id, "parameters": parameters]
        }
        return links
    }

    private static func parameterNames(_ path: String) -> [String] {
        path.split(separator: "/").filter { $0.hasPrefix("{") }.map { String($0.dropFirst().dropLast()) }
    }

    /// The error statuses a route can answer, each with why.
    private static func errorStatuses(_ route: APIRoute) -> [(Int, String)] {
        let op = route.operation
        var statuses: [(Int, String)] = []
        if op.body != nil || op.formBody != nil || !op.query.isEmpty { statuses.append((400, "The body is not a JSON object (malformed_json), or a query parameter is out of range")) }
        if route.access != .anyone || op.refusesCredentials { statuses.append((401, "No valid token (or credentials)")) }
        if route.access == .editor || route.access == .administrator || op.protected {
            statuses.append((403, "Your role does not allow this, or the record is protected"))
        }
        if route.path.contains("{") || op.namesRecordInQuery { statuses.append((404, "No such record")) }
        if op.conflict { statuses.append((409, "The current records refuse this change")) }
        if op.body != nil || op.formBody != nil { statuses.append((422, "Some fields break their rules; see fields")) }
        if op.fileBody != nil {
            statuses.append((409, "The bytes are not the file the address names (cut short or changed on the way), or not a photo as Fieldbook keeps them"))
            statuses.append((503, "Photos cannot be checked on the hub now (libvips missing there): nothing was kept; send the file again later"))
        }
        if op.throttled { statuses.append((429, "Too many failed sign-ins; wait Retry-After seconds")) }
        if route.method != .get { statuses.append((507, "The server's disk is full and nothing was saved (disk_full); send it again once space is freed")) }
        return statuses
    }

    private static func file(_ contentType: String, _ description: String) -> [String: Any] {
        ["description": description, "content": [contentType: ["schema": ["type": "string", "format": "binary"]]]]
    }

    private static func json(_ description: String, _ schema: [String: Any]) -> [String: Any] {
        ["description": description, "content": ["application/json": ["schema": schema]]]
    }

    private static var scalar: [String: Any] {
        allowingNull(["anyOf": [["type": "string"], ["type": "number"], ["type": "boolean"]]])
    }

    /// The schema with null allowed too. OpenAPI 3.0.3 reads `nullable` only beside a `type` in the same schema, so a
    /// schema without one (a reference, a choice between types) takes null as one more choice.
    private static func allowingNull(_ schema: [String: Any]) -> [String: Any] {
        var schema = schema
        if schema["type"] != nil {
            schema["nullable"] = true
            if let options = schema["enum"] as? [Any] { schema["enum"] = options + [NSNull()] }
            return schema
        }
        if let choices = schema["anyOf"] as? [Any] {
            schema["anyOf"] = choices + [onlyNull]
            return schema
        }
        return ["anyOf": [schema, onlyNull]]
    }

    /// The value null alone, as 3.0.3 can say it (it has no null type).
    private static var onlyNull: [String: Any] { ["type": "string", "nullable": true, "enum": [NSNull()]] }

    private static func ref(_ name: String) -> [String: Any] { ["$ref": "#/components/schemas/" + name] }

    // MARK: - Schemas

    /// Request bodies and the schemas they hold (a push's operations): open, because the server ignores properties
    /// it does not know; response schemas are closed, because it never sends any.
    private static func requestSchemas(_ routes: [APIRoute]) -> Set<String> {
        var names = Set(routes.compactMap(\.operation.body))
        for name in names {
            for field in JSONRoutes.components[name] ?? [] {
                if case .list(let inner) = field.kind { names.insert(inner) }
                if case .reference(let inner) = field.kind { names.insert(inner) }
            }
        }
        return names
    }

    private static func schemas(_ routes: [APIRoute]) -> [String: Any] {
        let bodies = requestSchemas(routes)
        var schemas: [String: Any] = [
            "Error": errorSchema,
            "OpenAPIDocument": ["type": "object", "description": "An OpenAPI 3.0.3 document"],
        ]
        for (name, fields) in JSONRoutes.components {
            schemas[name] = object(fields, closed: !bodies.contains(name))
            if name.hasSuffix("Write") {
                schemas[name.dropLast("Write".count) + "Patch"] = object(fields.map { field in
                    var optional = field
                    optional.required = false
                    return optional
                }, closed: false)
            }
        }
        for route in routes {
            if case .page(let item) = route.operation.success { schemas[item + "Page"] = page(of: item) }
            if case .download(let item, let entity) = route.operation.success {
                let fields = (JSONRoutes.components[item] ?? []) + (JSONRoutes.components[item + "Write"] ?? [])
                schemas[item + "Export"] = exportRow(fields, entity: entity)
            }
        }
        return schemas
    }

    private static func object(_ fields: [Field], closed: Bool) -> [String: Any] {
        var schema: [String: Any] = ["type": "object", "properties": Dictionary(uniqueKeysWithValues: fields.map { ($0.name, property($0)) })]
        let required = fields.filter(\.required).map(\.name)
        if !required.isEmpty { schema["required"] = required }
        if closed { schema["additionalProperties"] = false }
        return schema
    }

    private static func property(_ field: Field, inQuery: Bool = false) -> [String: Any] {
        var schema = baseSchema(field.kind)
        switch field.rule {
        case .text(let rule)?:
            schema.merge(textLimits(rule, inQuery: inQuery)) { $1 }
        case .number(let rule)?:
            schema["minimum"] = number(rule.range.lowerBound)
            schema["maximum"] = number(rule.range.upperBound)
        default:
            // Text without a rule (a response's) holds no U+0000 either: nothing with one is ever stored.
            if case .text = field.kind, !inQuery { schema["pattern"] = String.noNULPattern }
        }
        if let summary = field.summary { schema["description"] = summary }
        return field.nullable ? allowingNull(schema) : schema
    }

    /// What a Domain text rule says, as JSON Schema. A query value is never refused for holding U+0000 (libmicrohttpd
    /// hands it over cut short at the NUL), so a query states no pattern.
    private static func textLimits(_ rule: TextRule, inQuery: Bool) -> [String: Any] {
        var limits: [String: Any] = [:]
        if rule.isEmail { limits["format"] = "email" }
        if let value = rule.documentMinLength { limits["minLength"] = value }
        if let value = rule.maxLength { limits["maxLength"] = value }
        if !inQuery { limits["pattern"] = rule.documentPattern }
        return limits
    }

    private static func number(_ value: Double) -> Any { value.rounded() == value ? Int(value) as Any : value }

    private static func baseSchema(_ kind: Field.Kind) -> [String: Any] {
        switch kind {
        case .text: ["type": "string"]
        case .uuid: ["type": "string", "format": "uuid"]
        case .date: ["type": "string", "format": "date"]
        case .dateTime: ["type": "string", "format": "date-time"]
        case .integer: ["type": "integer"]
        case .number: ["type": "number"]
        case .boolean: ["type": "boolean"]
        case .choice(let options): ["type": "string", "enum": options]
        case .uuidList: ["type": "array", "items": ["type": "string", "format": "uuid"]]
        case .object(let fields): object(fields, closed: false)
        case .reference(let name): ref(name)
        case .list(let name): ["type": "array", "items": ref(name)]
        case .anyValue: scalar
        case .anyObject: ["type": "object", "additionalProperties": scalar]
        case .position: ["type": "array", "items": ["type": "number"], "minItems": 2, "maxItems": 2]
        case .textList: ["type": "array", "items": ["type": "string"]]
        case .choiceList(let options): ["type": "array", "items": ["type": "string", "enum": options]]
        case .contentAddressList(let most): ["type": "array", "items": contentAddress, "maxItems": most]
        case .file: ["type": "string", "format": "binary"]
        }
    }

    /// One exported row: the kind's exported columns, each typed as the resource's schema (or, for a column only its
    /// write body has, such as a venue's latitude, as that body) types it. None is required, since columns the caller
    /// may not see are left out; no other is ever sent.
    static func exportRow(_ fields: [Field], entity: String) -> [String: Any] {
        // A column the API nests (a venue's latitude in `coordinates`) is a column of its own in an export, null when
        // the nesting object would be.
        let lifted = fields.flatMap { field -> [Field] in
            guard case .object(let inner) = field.kind else { return [] }
            return inner.map { var column = $0; column.nullable = column.nullable || field.nullable; return column }
        }
        let exported = (RecordKind.named(entity)?.exportColumns ?? []).compactMap { column in
            (fields + lifted).first { $0.name == column }.map { field in
                var optional = field
                optional.required = false
                return optional
            }
        }
        return object(exported, closed: true)
    }

    private static func page(of item: String) -> [String: Any] {
        ["type": "object", "required": ["items", "page", "per_page", "total"], "additionalProperties": false,
         "properties": [
            "items": ["type": "array", "items": ref(item)],
            "page": ["type": "integer", "minimum": 1],
            "per_page": ["type": "integer", "minimum": 1, "maximum": 500],
            "total": ["type": "integer", "minimum": 0],
         ]]
    }

    private static var errorSchema: [String: Any] { [
        "type": "object", "required": ["error"], "additionalProperties": false,
        "properties": ["error": [
            "type": "object", "required": ["code", "message"], "additionalProperties": false,
            "properties": [
                "code": ["type": "string"],
                "message": ["type": "string"],
                "fields": ["type": "array", "items": [
                    "type": "object", "required": ["field", "message"], "additionalProperties": false,
                    "properties": ["field": ["type": "string"], "message": ["type": "string"]],
                ]],
            ],
        ]],
    ] }
}
