import Foundation
import Domain
import HTTPServer
@testable import JSONAPI
import Testing

@Suite struct OpenAPIDocumentTests {
    func document() throws -> [String: Any] {
        let given = try APIHarness()
        let answer = given.send(.get, "/api/v1/openapi.json")
        #expect(answer.status == 200)
        return answer.json
    }

    @Test func everyRouteIsDocumentedWithUniqueOperationIds() throws {
        var table = APIRouteTable()
        JSONRoutes.register(in: &table, version: "test")
        let paths = try #require(try document()["paths"] as? [String: [String: Any]])
        var ids: [String] = []
        for route in table.routes {
            let operation = paths[route.path]?[route.method.rawValue.lowercased()] as? [String: Any]
            #expect(operation != nil, "\(route.method.rawValue) \(route.path)")
            ids.append(operation?["operationId"] as? String ?? "")
        }
        #expect(Set(ids).count == ids.count)
        #expect(paths.values.map(\.count).reduce(0, +) == table.routes.count)
    }

    @Test func everyReferenceResolvesAndProtectedRoutesNeedTheBearerScheme() throws {
        let document = try document()
        #expect(document["openapi"] as? String == "3.0.3")
        let components = try #require(document["components"] as? [String: Any])
        let schemas = try #require(components["schemas"] as? [String: Any])
        #expect((components["securitySchemes"] as? [String: Any])?["bearerAuth"] != nil)
        let text = String(decoding: try JSONSerialization.data(withJSONObject: document, options: [.withoutEscapingSlashes]), as: UTF8.self)
        let references = text.components(separatedBy: "#/components/schemas/").dropFirst().map { $0.prefix { $0 != "\"" } }
        #expect(!references.isEmpty)
        for name in references { #expect(schemas[String(name)] != nil, "\(name)") }

        let paths = try #require(document["paths"] as? [String: [String: [String: Any]]])
        let login = try #require(paths["/api/v1/auth/login"]?["post"])
        #expect((login["security"] as? [Any])?.isEmpty == true)
        let venues = try #require(paths["/api/v1/venues"]?["post"])
        #expect(venues["security"] == nil)
        let responses = try #require(venues["responses"] as? [String: Any])
        #expect(Set(responses.keys) == ["201", "400", "401", "403", "409", "422", "507"])
    }

    /// OpenAPI 3.0.3 ignores `nullable` in a schema without a `type`, so every null the document allows is said beside
    /// one; a sync change's field values (null for a cleared field) allow it.
    @Test func everyNullIsDeclaredBesideAType() throws {
        let document = try document()
        var nullables = 0
        func walk(_ value: Any, at place: String) {
            if let schema = value as? [String: Any] {
                if schema["nullable"] != nil {
                    nullables += 1
                    #expect(schema["type"] != nil, "\(place) says nullable without a type")
                }
                for (key, inner) in schema { walk(inner, at: place + "/" + key) }
            } else if let list = value as? [Any] {
                for (index, inner) in list.enumerated() { walk(inner, at: place + "/\(index)") }
            }
        }
        walk(document, at: "#")
        #expect(nullables > 0)
        let schemas = try #require((document["components"] as? [String: Any])?["schemas"] as? [String: [String: Any]])
        let fields = try #require((schemas["SyncOperation"]?["properties"] as? [String: [String: Any]])?["fields"])
        let choices = try #require((fields["additionalProperties"] as? [String: Any])?["anyOf"] as? [[String: Any]])
        #expect(choices.contains { $0["nullable"] as? Bool == true && ($0["enum"] as? [Any])?.first is NSNull })
    }
}

extension OpenAPIDocumentTests {
    /// The analytics answer 503 with Retry-After while a large community's figures are first counted; clients and
    /// schemathesis must find that answer in the document.
    @Test func analyticsDocumentTheirPreparingAnswer() throws {
        let paths = try #require(try document()["paths"] as? [String: [String: [String: Any]]])
        for path in ["/api/v1/analytics/engagement", "/api/v1/analytics/growth"] {
            let responses = try #require(paths[path]?["get"]?["responses"] as? [String: [String: Any]], "\(path)")
            let preparing = try #require(responses["503"], "\(path)")
            #expect((preparing["headers"] as? [String: Any])?["Retry-After"] != nil, "\(path)")
        }
    }
}

extension OpenAPIDocumentTests {
    /// A query parameter the server cannot do without is required in the document, with the lengths its rule allows;
    /// the others stay optional.
    @Test func queryParametersStateWhetherTheyAreRequiredAndTheirLengths() throws {
        let paths = try #require(try document()["paths"] as? [String: [String: [String: Any]]])
        let search = try #require(paths["/api/v1/search"]?["get"]?["parameters"] as? [[String: Any]])
        let words = try #require(search.first { $0["name"] as? String == "q" })
        #expect(words["in"] as? String == "query" && words["required"] as? Bool == true)
        let schema = try #require(words["schema"] as? [String: Any])
        #expect(schema["minLength"] as? Int == SearchTerms.shortest && schema["maxLength"] as? Int == SearchTerms.longest)
        let format = try #require((paths["/api/v1/participants/export"]?["get"]?["parameters"] as? [[String: Any]])?.first { $0["name"] as? String == "format" })
        #expect(format["required"] as? Bool == false)
    }
}
