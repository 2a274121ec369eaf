import Domain
import Foundation
import HTTPServer
import Records
import Storage
import Surface
import Translations

/// The pages of a kind declared only in Records (`DeclaredKind`), made from its declaration: a list with search and
/// paging, the record's page, its forms and its delete confirmation. The kind's templates
/// (`<table>/list`, `detail`, `form`, `delete`) lay them out; each typed field is `field_<column>` on the form and in
/// `fields` on the record's page, a field the viewer may not see (its privacy class) marked `hidden` without its value.
enum DeclaredPages<Record: DeclaredKind>: FormRecordPages {
    /// `/notes` for the kind whose table is `notes`.
    static var routes: RecordRoutes { RecordRoutes(Record.kind.path(under: Paths.home)) }
    /// A stale edit's message sits at the first field the form shows.
    static var forms: RecordForm<Record> {
        RecordForm(routes: routes, noun: kind.label.one.capitalizedFirst, staleField: kind.fields.first { $0.rule != nil }?.column ?? "name")
    }
    private static var kind: RecordKind { Record.kind }
    private static var title: String { kind.label.many.capitalizedFirst }

    static func list(_ context: inout PageContext) throws -> Response {
        let hidden = try hiddenColumns(context)
        // Searching a field the viewer may not see would tell what it holds.
        let searchable = !kind.searchColumns.isEmpty && kind.searchColumns.allSatisfy { !hidden.contains($0) }
        let reader = LenientListReader(context.request)
        let text = searchable ? reader.text(.text) : ""
        let page = try context.database.records(Record.self, matching: text, page: reader.page())
        var filters = FormView()
        if searchable {
            let searched = kind.fields.filter { $0.flags.contains(.searched) }.map(\.label)
            filters.input(ListParameter.text.name, label: searchLabel(searched), value: text)
        }
        var rows: [UUID: TemplateView] = [:]
        for item in page.items { rows[item.id] = try recordView(item, hidden: hidden, context.database, listedOnly: true) }
        return context.listPage("\(kind.table)/list", title: title, section: nil, filters: filters, page: page,
                                noun: .declared(table: kind.table, label: kind.label), filtered: !text.isEmpty,
                                extra: addresses.merging(["searchable": searchable])) { item in
            let view = rows[item.id] ?? [:]
            return TemplateFields { view.value($0) }
        }
    }

    static func detail(_ context: inout PageContext) throws -> Response {
        let record = try stored(context)
        var view = addresses.merging(["record": try recordView(record, hidden: try hiddenColumns(context), context.database, listedOnly: false)])
        view.merge(try HistoryView.view(context.database, kind, id: record.id, updatedAt: updatedAt(of: record)))
        return context.page("\(kind.table)/detail", title: record.name, section: nil, view: view)
    }

    static func stored(_ context: PageContext) throws -> Record { try context.database.record(Record.self, id: context.request.uuidParameter()) }

    static func submitted(_ request: Request) -> FormSubmission<Record, FieldTexts<Record>> {
        FormSubmission(request, Record.declaration) { $0 }
    }

    static func insert(_ texts: FieldTexts<Record>, _ context: PageContext) throws -> Record { try context.database.create(texts, by: context.actor) }

    static func change(_ record: Record, _ texts: FieldTexts<Record>, expectedVersion: Int?, _ context: PageContext) throws -> Record {
        try context.database.update(Record.self, id: record.id, texts, expectedVersion: expectedVersion, by: context.actor)
    }

    static func remove(_ record: Record, _ context: PageContext) throws { try context.database.remove(Record.self, id: record.id, by: context.actor) }

    static func deletePage(_ context: inout PageContext, record: Record, status: HTTPStatus) throws -> Response {
        let view: TemplateView = ["record": try recordView(record, hidden: try hiddenColumns(context), context.database, listedOnly: true)]
        return context.page("\(kind.table)/delete", title: Message("Delete {name}", ["name": .text(record.name)]), section: nil, view: view, status: status)
    }

    /// A new record's form takes a referenced record from the address (`?participant_id=`), as a record's page offers it.
    static func form(_ context: inout PageContext, record: Record?, _ values: FormValues<Record, FieldTexts<Record>>, errors: ValidationError,
                     status: HTTPStatus) throws -> Response {
        let query = context.request.query
        let texts = values.texts(Record.declaration) { query[$0] ?? "" }
        var form = FormView(errors: errors)
        for field in kind.fields where field.rule != nil {
            let value = texts[column: field.column]
            let label = field.formLabel
            if let reference = field.reference {
                // Only a record already chosen is offered, to keep or to leave out: its page is where a record is chosen.
                guard !value.isEmpty else { continue }
                let name = try UUID(uuidString: value).flatMap { id in try RecordKind.named(reference.entity).flatMap { try context.database.name(of: $0, id: id) } }
                form.select(field.column, label: label, value: value, options: [("", Message("None"))] + (name.map { [(value, .verbatim($0))] } ?? []))
            } else {
                form.input(field.column, label: label, value: value, type: inputType(field))
            }
        }
        var view = form.view
        // The kind's label comes from its declaration, not marked for translation yet.
        let heading = record.map { Message("Edit {name}", ["name": .text($0.name)]) } ?? Message.verbatim("New \(kind.label.one)")
        view["heading"] = heading
        view["action"] = record.map { routes.edit($0.id) } ?? routes.new()
        view["back"] = record.map { routes.record($0.id) } ?? routes.list()
        if let record { view["version"] = record.version }
        return context.page("\(kind.table)/form", title: heading, section: nil, view: view, status: status,
                            hasErrors: form.hasErrors)
    }

    /// "Note contains", "Name or email contains": what the search box looks in.
    private static func searchLabel(_ searched: [Message]) -> Message {
        guard let first = searched.first else { return Message("Contains") }
        let fields = searched.dropFirst().reduce(first) { Message("{fields} or {field}", ["fields": .message($0), "field": .message($1)]) }
        return Message("{fields} contains", ["fields": .message(fields)])
    }

    private static func inputType(_ field: FieldDeclaration) -> String {
        if case .date = field.rule { return "date" }
        return "text"
    }

    /// When the record last changed, for its history's "by" (`distantPast` for a kind that keeps no edit time).
    private static func updatedAt(of record: Record) -> Date {
        let field = Record.declaration.fields.first { $0.column == "updated_at" }
        return field.flatMap { StoredInstant.date($0.value(of: record)) } ?? .distantPast
    }

    private static func hiddenColumns(_ context: PageContext) throws -> Set<String> {
        kind.hiddenColumns(seeing: try context.participantVisibility.seen)
    }

    /// The record's name, addresses, dates and typed fields (`listedOnly`: those its list shows), each by its column
    /// too; a reference shows the name of the record named, linked.
    private static func recordView(_ record: Record, hidden: Set<String>, _ database: AppDatabase, listedOnly: Bool) throws -> TemplateView {
        var view: TemplateView = ["name": record.name]
        view.merge(routes.links(record.id))
        var fields: [TemplateView] = []
        for field in Record.declaration.fields {
            let declared = field.declaration
            let value = field.value(of: record)
            if declared.isInstant {
                if let date = StoredInstant.date(value) { view[declared.column] = DateText.format(date) }
                continue
            }
            guard declared.rule != nil, !listedOnly || declared.flags.contains(.listed) || declared.reference != nil else { continue }
            var shown: TemplateView = ["label": declared.label, "column": declared.column]
            if hidden.contains(declared.column) {
                shown["hidden"] = true
            } else if let reference = declared.reference {
                guard let id = UUID(uuidString: value.text), let named = RecordKind.named(reference.entity),
                      let name = try database.name(of: named, id: id) else { continue }
                shown["value"] = name
                if let collection = RecordCollection.allCases.first(where: { $0.kind.entity == reference.entity }) {
                    shown["path"] = RecordRoutes(collection.path(under: Paths.home)).record(id)
                }
            } else if value != .null {
                shown["value"] = value.text
            }
            fields.append(shown)
            view[declared.column] = shown
        }
        view["fields"] = fields
        return view
    }

    /// The kind's list and new-record addresses, which every one of its pages links to.
    private static var addresses: TemplateView { ["list_path": routes.list(), "new_path": routes.new()] }
}

extension WebRouteTable {
    /// The pages of a kind declared only in Records, at its table's address.
    mutating func records<Record: DeclaredKind>(_ type: Record.Type) {
        records(DeclaredPages<Record>.routes, DeclaredPages<Record>.self)
    }
}
