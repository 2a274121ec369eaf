/// Which page of a list to read: 1-based, 50 rows by default.
public struct PageRequest: Sendable, Equatable {
    public static let defaultPerPage = 50
    public let page: Int
    public let perPage: Int

    /// Page numbers beyond this are treated as this one; it keeps `offset` far from overflowing.
    public static let maxPage = 1_000_000

    public init(page: Int = 1, perPage: Int = PageRequest.defaultPerPage) {
        self.page = min(max(1, page), Self.maxPage)
        self.perPage = min(max(1, perPage), 500)
    }

    /// Rows to skip in SQL.
    public var offset: Int { (page - 1) * perPage }
}

/// One page of a list, with the number of rows the whole list has.
public struct ListPage<Item: Sendable>: Sendable {
    public let items: [Item]
    public let total: Int
    public let request: PageRequest

    public init(items: [Item], total: Int, request: PageRequest) {
        self.items = items
        self.total = total
        self.request = request
    }

    public var pageCount: Int { max(1, (total + request.perPage - 1) / request.perPage) }

    /// A page number past the last page: it has no rows although the list may have some.
    public var isPastTheEnd: Bool { request.page > pageCount }
}
