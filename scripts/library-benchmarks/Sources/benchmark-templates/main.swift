import BenchmarkTiming
import Foundation
import Mustache

/// Fieldbook's template engine (Sources/WebUI/Support/Templates) against swift-mustache 2.1.1, the library it
/// replaced, rendering GET /participants as the server does: the list template with its partials, then the layout
/// around it, from the real templates/ folder.
let templatesFolder = CommandLine.arguments.dropFirst().first ?? "templates"

/// A row or option for swift-mustache: it asks `child(named:)` as Fieldbook's engine asks `TemplateFields.field`.
struct MustacheFields: MustacheParent {
    let field: (String) -> Any?
    func child(named name: String) -> Any? { field(name) }
}

func fieldbookTemplates() throws -> [String: [TemplateNode]] {
    let root = URL(fileURLWithPath: templatesFolder, isDirectory: true).standardizedFileURL
    var templates: [String: [TemplateNode]] = [:]
    for file in FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)?.compactMap({ $0 as? URL }) ?? []
    where file.pathExtension == "mustache" {
        let name = String(file.standardizedFileURL.path.dropFirst(root.path.count + 1).dropLast(".mustache".count))
        templates[name] = try TemplateParser.parse(String(contentsOf: file, encoding: .utf8), name: name)
    }
    return templates
}

let view = ParticipantsView()
let templates = try fieldbookTemplates()
let library = try await MustacheLibrary(directory: templatesFolder)

/// The benchmark's view, described once for both engines as dictionaries, in the typed values Fieldbook's engine reads.
/// Converted on every render, so Fieldbook's figure includes a pass the server (which builds typed views directly)
/// does not make: the comparison errs against Fieldbook.
func typed(_ value: Any?) -> TemplateValue {
    switch value {
    case nil: .nothing
    case let text as String: .text(text)
    case let number as Int: .number(number)
    case let flag as Bool: .flag(flag)
    case let html as RenderedHTML: .html(html)
    case let fields as TemplateFields: .fields(fields)
    case let dictionary as [String: String]: .view(TemplateView(dictionary.mapValues { .text($0) }))
    case let dictionary as [String: Any]: .view(TemplateView(dictionary.mapValues(typed)))
    case let texts as [String]: .list(texts.map { .text($0) })
    case let items as [Any]: .list(items.map(typed))
    case let optional as Any?: optional.map(typed) ?? .nothing
    }
}

/// A row's names, read only, on one thread at a time.
struct RowFields: @unchecked Sendable {
    let field: (String) -> Any?
}

func renderWithFieldbook() -> [UInt8] {
    var content = TemplateRendering(templates: templates, capacity: 16_384)
    let rows = view.content { field in
        let row = RowFields(field: field)
        // A name the row lacks is looked up further out, as the server's rows answer it.
        return TemplateFields { row.field($0).map(typed) }
    }
    content.render(templates["participants/list"]!, TemplateView(rows.mapValues(typed)))
    var page = TemplateRendering(templates: templates, capacity: 16_384)
    page.render(templates["layout"]!, TemplateView(view.layout(body: RenderedHTML(bytes: content.output)).mapValues(typed)))
    return page.output
}

func renderWithSwiftMustache() -> [UInt8] {
    let content = library.render(view.content { MustacheFields(field: $0) }, withTemplate: "participants/list") ?? ""
    return Array((library.render(view.layout(body: content), withTemplate: "layout") ?? "").utf8)
}

let page = renderWithFieldbook()
if let folder = ProcessInfo.processInfo.environment["TEMPLATE_BENCHMARK_PAGES"] {
    try Data(page).write(to: URL(fileURLWithPath: folder + "/fieldbook.html"))
    try Data(renderWithSwiftMustache()).write(to: URL(fileURLWithPath: folder + "/swift-mustache.html"))
}
requireSame(page, renderWithSwiftMustache(), "GET /participants")
print("GET /participants: \(page.count) bytes, \(view.rows.count) rows, the same from both engines")
try SideBySide("Render GET /participants (list template, partials and layout)", repetitions: 300).run(
    .init("Fieldbook's template engine") { _ = renderWithFieldbook() },
    .init("swift-mustache 2.1.1") { _ = renderWithSwiftMustache() })
