import Foundation

/// The OpenAPI 3 description of exactly what /api/v1 serves.
enum OpenAPIDocument {
    static func json(version: String) -> Data {
        let document: [String: Any] = [
            "openapi": "3.0.3",
            "info": ["title": "Fieldbook API", "version": version,
                     "description": "JSON API of a Fieldbook node. Errors use one envelope: {\"error\": {\"code\", \"message\", \"fields\"}}."],
            "paths": [
                "/api/v1/health": ["get": [
                    "operationId": "getHealth",
                    "summary": "Liveness and database check",
                    "responses": [
                        "200": ["description": "Healthy", "content": ["application/json": ["schema": ["$ref": "#/components/schemas/Health"]]]],
                        "503": ["description": "Database unavailable", "content": ["application/json": ["schema": ["$ref": "#/components/schemas/Health"]]]],
                    ],
                ]],
                "/api/v1/openapi.json": ["get": [
                    "operationId": "getOpenAPIDocument",
                    "summary": "This document",
                    "responses": ["200": ["description": "The OpenAPI document", "content": ["application/json": ["schema": ["type": "object"]]]]],
                ]],
            ],
            "components": ["schemas": [
                "Health": [
                    "type": "object", "required": ["status", "version", "database"], "additionalProperties": false,
                    "properties": [
                        "status": ["type": "string", "enum": ["ok", "degraded"]],
                        "version": ["type": "string"],
                        "database": ["type": "string", "enum": ["ok", "unavailable"]],
                    ],
                ],
            ]],
        ]
        return (try? JSONSerialization.data(withJSONObject: document, options: [.sortedKeys])) ?? Data("{}".utf8)
    }
}
