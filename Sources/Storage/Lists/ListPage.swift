/// Which page of a list to read: 1-based, 50 rows by default.
public struct PageRequest: Sendable, Equatable {
    public static let defaultPerPage = 50
    public let page: Int
    public let perPage: Int
    /// Whether a total that is costly to count exactly may be estimated (`ListPage.totalIsEstimate` says when it was):
    /// pages may say "about"; the API's totals are exact.
    public let mayEstimateTotal: Bool

    /// Page numbers beyond this are treated as this one; it keeps `offset` far from overflowing.
    public static let maxPage = 1_000_000

    public init(page: Int = 1, perPage: Int = PageRequest.defaultPerPage, mayEstimateTotal: Bool = false) {
        self.page = min(max(1, page), Self.maxPage)
        self.perPage = min(max(1, perPage), 500)
        self.mayEstimateTotal = mayEstimateTotal
    }

    /// Rows to skip in SQL.
    public var offset: Int { (page - 1) * perPage }
}

/// One page of a list, with the number of rows the whole list has.
public struct ListPage<Item: Sendable>: Sendable {
    public let items: [Item]
    public let total: Int
    /// The total was estimated from a sample of the rows (`ListQuery.estimatedCount`).
    public let totalIsEstimate: Bool
    public let request: PageRequest

    public init(items: [Item], total: Int, request: PageRequest, totalIsEstimate: Bool = false) {
        self.items = items
        self.total = total
        self.request = request
        self.totalIsEstimate = totalIsEstimate
    }

    public var pageCount: Int { max(1, (total + request.perPage - 1) / request.perPage) }

    /// A page number past the last page: it has no rows although the list may have some.
    public var isPastTheEnd: Bool { request.page > pageCount }
}
