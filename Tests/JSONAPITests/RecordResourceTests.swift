import Domain
import Foundation
import HTTPServer
@testable import JSONAPI
import Logging
import Records
import Storage
import Surface
import Testing

/// A kind with nothing of its own is one line of the route table (`RecordResource(_:at:)`): its list, read, create,
/// replace, update and delete, its schemas and operations, all from its declaration and the generic writer.
@Suite struct RecordResourceTests {
    @Test func aKindWithNothingOfItsOwnIsServedWholeFromItsDeclaration() throws {
        let given = try APIHarness()
        let token = try given.token(.editor)
        let resource = RecordResource(GeographicArea.self, at: .areas).api
        var table = APIRouteTable()
        table.records(resource)
        var router = Router()
        table.register(in: &router, authenticator: APIAuthenticator(database: given.database, signInThrottle: SignInThrottle()))
        func send(_ method: HTTPMethod, _ path: String, _ body: [String: Any]? = nil) -> APIHarness.Answer {
            let bytes = body.map { Array(try! JSONSerialization.data(withJSONObject: $0)) } ?? []
            let parts = path.split(separator: "?", maxSplits: 1)
            let request = Request(method: method, path: String(parts[0]), query: parts.count > 1 ? QueryString.decode(String(parts[1])) : Parameters(),
                                  headers: ["content-type": "application/json", "authorization": "Bearer \(token)"], cookies: [:], body: bytes)
            return APIHarness.Answer(response: APIErrors(logger: Logger(label: "test")).answer(request, router))
        }

        let world = send(.post, "/api/v1/areas", ["name": "World", "area_type": "WORLD"])
        #expect(world.status == 201)
        let city = send(.post, "/api/v1/areas", ["name": "Accra", "area_type": "CITY", "parent_id": world.string("id")])
        #expect(city.status == 201 && city.response.header("Location") == "/api/v1/areas/\(city.string("id"))")
        #expect(send(.post, "/api/v1/areas", ["name": "", "area_type": "CITY"]).errorFields == ["name"])
        let page = send(.get, "/api/v1/areas?per_page=1")
        #expect(page.items.map { $0["name"] as? String } == ["Accra"], "by the first listed field")
        #expect(page["total"] as? Int == 2)
        let renamed = send(.patch, "/api/v1/areas/\(city.string("id"))", ["name": "Kumasi", "version": 1])
        #expect(renamed.status == 200 && renamed.string("name") == "Kumasi" && renamed["version"] as? Int == 2)
        #expect(renamed["parent_id"] as? String == world.string("id"), "a field the body leaves out keeps its value")
        #expect(send(.put, "/api/v1/areas/\(city.string("id"))", ["name": "Tema", "area_type": "CITY", "version": 1]).status == 409)
        #expect(send(.get, "/api/v1/areas/\(city.string("id"))").string("name") == "Kumasi")
        #expect(send(.delete, "/api/v1/areas/\(world.string("id"))").status == 409, "refused while Kumasi lies in it")
        #expect(send(.delete, "/api/v1/areas/\(city.string("id"))").status == 204)
        #expect(send(.get, "/api/v1/areas/\(city.string("id"))").status == 404)

        let shape = APIRecordShape(GeographicArea.declaration, id: { $0.id }, version: { $0.version })
        #expect(resource.components["GeographicArea"]?.map(\.name) == shape.schema.map(\.name))
        #expect(resource.components["GeographicAreaWrite"]?.map(\.name) == ["name", "area_type", "parent_id", "version"])
        #expect(table.routes.map(\.operation.id) == ["listGeographicAreas", "createGeographicArea", "getGeographicArea", "replaceGeographicArea",
                                                      "updateGeographicArea", "deleteGeographicArea"])
    }
}
