import Foundation
import HTTPServer
import Storage

/// Encodes nil as JSON null; synthesized Codable would leave the key out, and the document promises every key.
typealias Null<Value: Encodable & Sendable> = NullEncoded<Value>

/// One page of a list: `{"items": [...], "page", "per_page", "total"}`.
struct ListEnvelope<Item: Encodable & Sendable>: Encodable, Sendable {
    let items: [Item]
    let page: Int
    let perPage: Int
    let total: Int

    init<Source>(_ list: ListPage<Source>, _ transform: (Source) throws -> Item) rethrows {
        items = try list.items.map(transform)
        page = list.request.page
        perPage = list.request.perPage
        total = list.total
    }

    init(items: [Item], page request: PageRequest, total: Int) {
        self.items = items
        page = request.page
        perPage = request.perPage
        self.total = total
    }

    /// Pages through a list the store returns whole (short lists: categories, users, areas).
    init(all: [Item], page request: PageRequest) {
        self.init(items: Array(all.dropFirst(min(request.offset, all.count)).prefix(request.perPage)), page: request, total: all.count)
    }
}

/// The API's responses: snake_case keys, ISO 8601 dates, lower-case ids.
enum APIResponse {
    static func ok(_ value: some Encodable) -> Response { JSONResponse.make(value) }

    /// 201 with the new record and where to read it.
    static func created(_ value: some Encodable, at location: String) -> Response {
        JSONResponse.make(value, status: .created).settingHeader("Location", location)
    }

    static var noContent: Response { Response(status: .noContent) }
}

extension UUID {
    /// Ids as the API shows them: lower-case.
    var text: String { uuidString.lowercased() }
}
