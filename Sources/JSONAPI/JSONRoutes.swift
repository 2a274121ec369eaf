import Foundation
import HTTPServer
import Storage

/// The JSON API's route table.
enum JSONRoutes {
    static func register(in router: inout Router, database: AppDatabase, version: String) {
        router.get("/api/v1/health") { _ in HealthEndpoint.check(database: database, version: version) }
        router.get("/api/v1/openapi.json") { _ in Response.json(OpenAPIDocument.json(version: version)) }
    }
}

/// Liveness for monitors and for nodes probing their hub.
enum HealthEndpoint {
    struct Body: Encodable {
        let status: String
        let version: String
        let database: String
    }

    static func check(database: AppDatabase, version: String) -> Response {
        let healthy = database.isHealthy()
        return JSONResponse.make(Body(status: healthy ? "ok" : "degraded", version: version, database: healthy ? "ok" : "unavailable"),
                                 status: healthy ? .ok : .serviceUnavailable)
    }
}
