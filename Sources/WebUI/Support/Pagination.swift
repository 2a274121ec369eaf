import HTTPServer
import Storage
import Surface

/// The view of a list's page links; every link keeps the list's filters and sort from the query string.
enum Pagination {
    static func view<Item>(_ page: ListPage<Item>, request: Request, noun: (singular: String, plural: String)) -> TemplateView {
        let current = page.request.page
        let first = page.total == 0 ? 0 : page.request.offset + 1
        let last = page.request.offset + page.items.count
        let about = page.totalIsEstimate ? "about " : ""
        var view: TemplateView = [
            "total_text": page.totalIsEstimate
                ? "About \(page.total) \(noun.plural) (an estimate from a sample: a search of one or two letters matches most of them; type more for an exact count)"
                : page.total == 1 ? "1 \(noun.singular)" : "\(page.total) \(noun.plural)",
            "range_text": page.total == 0 ? "" : page.isPastTheEnd
                ? "There is no page \(current): the last page is \(about)\(page.pageCount)" : "Showing \(first) to \(last) of \(about)\(page.total)",
            "has_pages": page.pageCount > 1 || page.isPastTheEnd,
            "pages": pageNumbers(current: current, count: page.pageCount).map { number -> TemplateView in
                guard let number else { return ["gap": true] }
                return ["number": number, "url": request.link(setting: ListParameter.page.name, to: number == 1 ? nil : "\(number)"),
                        "current": number == current]
            },
        ]
        let previous = min(current - 1, page.pageCount)
        if current > 1 { view["previous_url"] = request.link(setting: ListParameter.page.name, to: previous == 1 ? nil : "\(previous)") }
        if current < page.pageCount { view["next_url"] = request.link(setting: ListParameter.page.name, to: "\(current + 1)") }
        return view
    }

    /// 1 … 4 5 [6] 7 8 … 20: nil marks a gap.
    static func pageNumbers(current requested: Int, count: Int) -> [Int?] {
        guard count > 1 else { return [] }
        let current = min(max(1, requested), count)
        let window = Set([1, count] + Array(max(1, current - 2)...min(count, current + 2)))
        var result: [Int?] = []
        for number in window.sorted() {
            if let last = result.last ?? nil, number > last + 1 { result.append(nil) }
            result.append(number)
        }
        return result
    }
}

extension Request {
    /// This page's address with one query parameter set (nil removes it); all other parameters are kept.
    func link(setting name: String, to value: String?) -> String {
        var kept = Parameters(query.pairs.filter { $0.name != name })
        if let value { kept.append(name, value) }
        return kept.isEmpty ? path : path + "?" + QueryString.encode(kept)
    }
}
