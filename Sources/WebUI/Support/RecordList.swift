import HTTPServer
import Storage
import Surface
import Translations

extension PageContext {
    /// A filtered record list: the filter form, one page of rows, whether the filters narrow it, and the page links;
    /// `extra` holds what one list shows besides.
    func listPage<Item>(_ template: String, title: Message, section: Section?, filters: FormView, page: ListPage<Item>,
                        noun: ListNoun, filtered: Bool, extra: TemplateView = [:],
                        downloads: RecordRoutes? = nil, row: (Item) -> TemplateFields) -> Response {
        if let section { rememberListView(section) }
        var view = filters.view.merging(extra)
        view["rows"] = page.items.map(row)
        view["has_rows"] = !page.items.isEmpty
        // A page past the last one is not an empty list: its pagination says so and links back; the empty-state
        // sentences ("No participants yet") are only for a list with nothing in it.
        view["is_empty"] = page.total == 0
        view["filtered"] = filtered
        view["pagination"] = Pagination.view(page, request: request, noun: noun, formats: translator.formats)
        if let downloads, page.total > 0 {
            view["downloads"] = ExportPages.links(downloads, request: request, count: page.totalIsEstimate ? nil : page.total, noun: noun.english)
        }
        return self.page(template, title: title, section: section, view: view)
    }

    /// A list whose title is not marked for translation yet: shown as it is in every language.
    func listPage<Item>(_ template: String, title: String, section: Section?, filters: FormView, page: ListPage<Item>,
                        noun: ListNoun, filtered: Bool, extra: TemplateView = [:],
                        downloads: RecordRoutes? = nil, row: (Item) -> TemplateFields) -> Response {
        listPage(template, title: Message.verbatim(title), section: section, filters: filters, page: page, noun: noun,
                 filtered: filtered, extra: extra, downloads: downloads, row: row)
    }
}
