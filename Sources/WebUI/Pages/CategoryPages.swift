import Domain
import Foundation
import HTTPServer
import Surface
import Translations

/// Activity types and roles (Requirements 2 and 3): one set of thin handlers serving both kinds.
struct CategoryPages: Sendable {
    let kind: CategoryKind

    private var paths: RecordRoutes { Paths.categories(kind) }
    var handlers: RecordPageHandlers {
        RecordPageHandlers(list: list, newForm: newForm, filledNewForm: filledNewForm, create: create, detail: detail,
                           editForm: editForm, filledEditForm: filledEditForm, update: update,
                           deleteConfirmation: deleteConfirmation, delete: delete)
    }

    private var section: Section { kind == .activityType ? .activityTypes : .roles }

    func list(_ context: inout PageContext) throws -> Response {
        let entries = try context.database.categories(kind)
        let rows = entries.map { entry -> TemplateView in
            (["name": entry.name, "predefined": entry.isPredefined] as TemplateView).merging(paths.links(entry.id))
        }
        return context.page("categories/list", title: kind.title, section: section, view: kindView().merging([
            "rows": rows, "custom_count": entries.filter { !$0.isPredefined }.count,
            "predefined_count": entries.filter(\.isPredefined).count,
        ]))
    }

    func detail(_ context: inout PageContext) throws -> Response {
        let entry = try context.database.category(kind, id: context.request.uuidParameter())
        let usage = try context.database.categoryReferences(kind, id: entry.id)
        var view = kindView().merging(["entry": entryView(entry), "usage_text": usageText(usage.total),
                                       "usage_names": usage.names, "has_usage": !usage.names.isEmpty])
        if usage.total > usage.names.count { view["usage_more"] = usage.total - usage.names.count }
        return context.page("categories/detail", title: entry.name, section: section, view: view)
    }

    func newForm(_ context: inout PageContext) throws -> Response {
        form(&context, title: "New \(kind.singular)", action: paths.new(), name: "", version: nil, errors: ValidationError())
    }

    func filledNewForm(_ context: inout PageContext) throws -> Response {
        form(&context, title: "New \(kind.singular)", action: paths.new(), name: context.request.field("name"), version: nil,
             errors: ValidationError())
    }

    func create(_ context: inout PageContext) throws -> Response {
        let name = context.request.field("name")
        do {
            let entry = try context.database.createCategory(kind, CategoryInput(name: name), by: context.actor)
            return context.redirect(to: paths.list(), flash: "\(kind.singularTitle) “\(entry.name)” created.")
        } catch let errors as ValidationError {
            return form(&context, title: "New \(kind.singular)", action: paths.new(), name: name, version: nil,
                        errors: errors, status: .unprocessableContent)
        }
    }

    func editForm(_ context: inout PageContext) throws -> Response {
        let entry = try context.database.category(kind, id: context.request.uuidParameter())
        if entry.isPredefined { return protectedPage(&context, entry) }
        return form(&context, title: "Edit \(kind.singular)", action: paths.edit(entry.id),
                    name: entry.name, version: entry.version, errors: ValidationError())
    }

    func filledEditForm(_ context: inout PageContext) throws -> Response {
        let entry = try context.database.category(kind, id: context.request.uuidParameter())
        if entry.isPredefined { return protectedPage(&context, entry) }
        return form(&context, title: "Edit \(kind.singular)", action: paths.edit(entry.id), name: context.request.field("name"),
                    version: Int(context.request.field("version")), errors: ValidationError())
    }

    func update(_ context: inout PageContext) throws -> Response {
        let id = try context.request.uuidParameter()
        let name = context.request.field("name")
        let version = Int(context.request.field("version"))
        do {
            let entry = try context.database.updateCategory(kind, id: id, CategoryInput(name: name), expectedVersion: version,
                                                            by: context.actor)
            return context.redirect(to: paths.record(entry.id), flash: "\(kind.singularTitle) “\(entry.name)” saved.")
        } catch let errors as ValidationError {
            return form(&context, title: "Edit \(kind.singular)", action: paths.edit(id), name: name,
                        version: version, errors: errors, status: .unprocessableContent)
        } catch DomainError.staleVersion {
            let current = try context.database.category(kind, id: id)
            var errors = ValidationError()
            errors.add("name", "Someone else renamed this \(kind.singular) to “\(current.name)” while you were editing. Submit again to replace it with your name")
            return form(&context, title: "Edit \(kind.singular)", action: paths.edit(id), name: name,
                        version: current.version, errors: errors, status: .conflict)
        }
    }

    func deleteConfirmation(_ context: inout PageContext) throws -> Response {
        let entry = try context.database.category(kind, id: context.request.uuidParameter())
        if entry.isPredefined { return protectedPage(&context, entry) }
        let usage = try context.database.categoryReferences(kind, id: entry.id)
        if usage.total > 0 {
            return refusalPage(&context, entry, message: kind.deletionRefusal(name: entry.name, usedBy: usage.total),
                               references: usage.names, total: usage.total, status: .ok)
        }
        return context.page("categories/delete", title: "Delete \(kind.singular) “\(entry.name)”", section: section,
                            view: kindView().merging(["entry": entryView(entry), "can_delete": true]))
    }

    func delete(_ context: inout PageContext) throws -> Response {
        let entry = try context.database.category(kind, id: context.request.uuidParameter())
        do {
            try context.database.deleteCategory(kind, id: entry.id, by: context.actor)
            return context.redirect(to: paths.list(), flash: "\(kind.singularTitle) “\(entry.name)” deleted.")
        } catch DomainError.stillReferenced(let message, let references) {
            let total = try context.database.categoryReferences(kind, id: entry.id).total
            return refusalPage(&context, entry, message: message, references: references, total: total, status: .conflict)
        } catch DomainError.protected {
            return protectedPage(&context, entry, status: .forbidden)
        }
    }

    private func form(_ context: inout PageContext, title: String, action: String, name: String, version: Int?,
                      errors: ValidationError, status: HTTPStatus = .ok) -> Response {
        var form = FormView(errors: errors)
        form.input("name", label: "Name", value: name, hint: "Up to \(CategoryInput.maxNameLength) characters; must differ from every other \(kind.singular)")
        var view = kindView().merging(form.view)
        view["heading"] = title
        view["action"] = action
        if let version { view["version"] = version }
        return context.page("categories/form", title: title, section: section, view: view, status: status, hasErrors: form.hasErrors)
    }

    private func refusalPage(_ context: inout PageContext, _ entry: Category, message: String, references: [String],
                             total: Int, status: HTTPStatus) -> Response {
        var view = kindView().merging(["entry": entryView(entry), "refusal": message, "references": references,
                                       "has_references": !references.isEmpty])
        if total > references.count { view["references_more"] = total - references.count }
        return context.page("categories/delete", title: Message("“{name}” cannot be deleted", ["name": .text(entry.name)]), section: section, view: view,
                            status: status)
    }

    private func protectedPage(_ context: inout PageContext, _ entry: Category, status: HTTPStatus = .ok) -> Response {
        context.page("categories/delete", title: Message("“{name}” is predefined", ["name": .text(entry.name)]), section: section, view: kindView().merging([
            "entry": entryView(entry), "refusal": kind.predefinedRefusal(name: entry.name), "predefined_refusal": true,
        ]), status: status)
    }

    private func usageText(_ total: Int) -> Message {
        switch (kind, total) {
        case (_, 0): Message("Nothing uses it yet")
        case (.activityType, _): Message("{count} activity", plural: "{count} activities", count: total)
        case (.participantRole, _): Message("{count} assignment", plural: "{count} assignments", count: total)
        }
    }

    private func kindView() -> TemplateView {
        ["kind_title": kind.title, "kind_singular": kind.singular, "kind_plural": kind.plural,
         "kind_singular_title": kind.singularTitle, "base_path": paths.list(), "new_path": paths.new()]
    }

    private func entryView(_ entry: Category) -> TemplateView {
        let view: TemplateView = ["name": entry.name, "predefined": entry.isPredefined,
                                  "created": DateText.format(entry.createdAt), "updated": DateText.format(entry.updatedAt)]
        return view.merging(paths.links(entry.id))
    }
}

extension UUID {
    /// Ids in addresses are lower-case, as stored.
    var lowercasedString: String { lowercaseText }
}

/// Dates as people read them on pages.
enum DateText {
    /// A moment in the reader's date style (DateStyle, from the request's Accept-Language).
    static func format(_ date: Date) -> String {
        DateStyle.current.text(date)
    }
}
