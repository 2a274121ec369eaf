import HTTPServer
import Storage
import Surface
import Translations

/// What a list counts, said in whole texts for its noun: a language inflects a noun by its count and puts it where its
/// grammar wants, so no noun is glued into a sentence.
struct ListNoun: Sendable {
    /// "1 participant", "12 participants".
    let count: @Sendable (Int) -> Message
    /// "About 12,000 participants", for a count estimated from a sample.
    let about: @Sendable (Int) -> Message
    /// The English nouns, for the list's download links (worded by ExportPages).
    let english: (singular: String, plural: String)

    static let participants = ListNoun(
        count: { Message("{count} participant", plural: "{count} participants", count: $0) },
        about: { Message("About {count} participant", plural: "About {count} participants", count: $0) },
        english: ("participant", "participants"))

    static let activities = ListNoun(
        count: { Message("{count} activity", plural: "{count} activities", count: $0) },
        about: { Message("About {count} activity", plural: "About {count} activities", count: $0) },
        english: ("activity", "activities"))

    static let venues = ListNoun(
        count: { Message("{count} venue", plural: "{count} venues", count: $0) },
        about: { Message("About {count} venue", plural: "About {count} venues", count: $0) },
        english: ("venue", "venues"))

    static let visitLists = ListNoun(
        count: { Message("{count} visit list", plural: "{count} visit lists", count: $0) },
        about: { Message("About {count} visit list", plural: "About {count} visit lists", count: $0) },
        english: ("visit list", "visit lists"))

    static let notifications = ListNoun(
        count: { Message("{count} notification", plural: "{count} notifications", count: $0) },
        about: { Message("About {count} notification", plural: "About {count} notifications", count: $0) },
        english: ("notification", "notifications"))

    static let importRows = ListNoun(
        count: { Message("{count} row", plural: "{count} rows", count: $0, context: "rows of an imported file") },
        about: { Message("About {count} row", plural: "About {count} rows", count: $0, context: "rows of an imported file") },
        english: ("row", "rows"))

    static let duplicateGroups = ListNoun(
        count: { Message("{count} group of possible duplicates", plural: "{count} groups of possible duplicates", count: $0) },
        about: { Message("About {count} group of possible duplicates", plural: "About {count} groups of possible duplicates", count: $0) },
        english: ("group of possible duplicates", "groups of possible duplicates"))

    static let notes = ListNoun(
        count: { Message("{count} note", plural: "{count} notes", count: $0) },
        about: { Message("About {count} note", plural: "About {count} notes", count: $0) },
        english: ("note", "notes"))

    /// A kind declared only in Records, by its table. A kind without its own texts here shows its declaration's English
    /// nouns until they are added.
    static func declared(table: String, label: (one: String, many: String)) -> ListNoun {
        if table == "notes" { return .notes }
        return ListNoun(count: { .verbatim("\($0) \($0 == 1 ? label.one : label.many)") },
                        about: { .verbatim("About \($0) \(label.many)") }, english: (label.one, label.many))
    }
}

/// The view of a list's page links; every link keeps the list's filters and sort from the query string.
enum Pagination {
    static func view<Item>(_ page: ListPage<Item>, request: Request, noun: ListNoun, formats: Formats) -> TemplateView {
        let current = page.request.page
        let first = page.total == 0 ? 0 : page.request.offset + 1
        let last = page.request.offset + page.items.count
        var view: TemplateView = [
            "total_text": page.totalIsEstimate ? estimate(noun.about(page.total)) : noun.count(page.total),
            "range_text": page.total == 0 ? nil : page.isPastTheEnd ? pastTheEnd(page) : showing(page, first: first, last: last),
            "has_pages": page.pageCount > 1 || page.isPastTheEnd,
            "pages": pageNumbers(current: current, count: page.pageCount).map { number -> TemplateView in
                guard let number else { return ["gap": true] }
                return ["number": formats.number(number),
                        "url": request.link(setting: ListParameter.page.name, to: number == 1 ? nil : "\(number)"),
                        "current": number == current]
            },
        ]
        let previous = min(current - 1, page.pageCount)
        if current > 1 { view["previous_url"] = request.link(setting: ListParameter.page.name, to: previous == 1 ? nil : "\(previous)") }
        if current < page.pageCount { view["next_url"] = request.link(setting: ListParameter.page.name, to: "\(current + 1)") }
        return view
    }

    private static func estimate(_ about: Message) -> Message {
        Message("{about} (an estimate from a sample: a search of one or two letters matches most of them; type more for an exact count)",
                ["about": .message(about)])
    }

    private static func showing<Item>(_ page: ListPage<Item>, first: Int, last: Int) -> Message {
        let values: [String: MessageArgument] = ["first": .number(first), "last": .number(last), "total": .number(page.total)]
        return page.totalIsEstimate ? Message("Showing {first} to {last} of about {total}", values)
            : Message("Showing {first} to {last} of {total}", values)
    }

    private static func pastTheEnd<Item>(_ page: ListPage<Item>) -> Message {
        let values: [String: MessageArgument] = ["page": .number(page.request.page), "last": .number(page.pageCount)]
        return page.totalIsEstimate ? Message("There is no page {page}: the last page is about {last}", values)
            : Message("There is no page {page}: the last page is {last}", values)
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
