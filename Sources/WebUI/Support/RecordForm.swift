import Domain
import Foundation
import HTTPServer
import Storage
import Surface

/// A record the pages create and edit with a form.
protocol FormRecord {
    var id: UUID { get }
    var name: String { get }
    var version: Int { get set }
}

extension FormRecord {
    /// The record as the submitted form was made from it: a form shown again (a refused value, a search) goes on from
    /// that version, so a later submit is still checked against it and a change someone saved meanwhile is refused
    /// (409) rather than overwritten.
    func atSubmittedVersion(_ request: Request) -> Self {
        var edited = self
        if let version = Int(request.field("version")) { edited.version = version }
        return edited
    }
}

extension GeographicArea: FormRecord {}
extension Venue: FormRecord {}
extension Participant: FormRecord {}
extension Activity: FormRecord {}
extension VisitList: FormRecord {}

/// Form input whose rules (Domain's `validated()`) can be asked without saving: the forms' checks as you type.
protocol CheckableInput {
    func problems() -> ValidationError
}

extension CheckableInput {
    static func problems(_ validate: () throws -> Any) -> ValidationError {
        do { _ = try validate() } catch let errors as ValidationError { return errors } catch {}
        return ValidationError()
    }
}

extension AreaInput: CheckableInput { func problems() -> ValidationError { Self.problems(validated) } }
extension VenueInput: CheckableInput { func problems() -> ValidationError { Self.problems(validated) } }
extension ParticipantInput: CheckableInput { func problems() -> ValidationError { Self.problems { try validated() } } }
extension ActivityInput: CheckableInput { func problems() -> ValidationError { Self.problems { try validated() } } }

/// How the create and edit forms of areas, venues, participants and activities answer a submission: save, then go to the
/// record's page with a message; values a rule refuses show the form again with them and their errors (422); an edit
/// based on a version someone else replaced shows the current record with the typed values kept (409). Forms with a
/// search picker show themselves again, saving nothing, when its Find button was pressed.
struct RecordForm<Record: FormRecord, Input: CheckableInput> {
    /// The form field that asks for the rules' verdict on the values so far, saving nothing (app.js, as you type).
    static var checkField: String { "check_only" }

    /// Shows the form for the record being edited (nil for a new one) with these values and errors.
    typealias Show = (inout PageContext, Record?, Input, ValidationError, HTTPStatus) throws -> Response

    let routes: RecordRoutes
    /// The record's kind as messages begin ("Venue “Kibera Hall” saved.").
    let noun: String
    let submitted: (Request) -> Input
    let show: Show
    /// The store's methods that read, create and change the record (`AppDatabase.venue(id:)`, ...).
    let load: (AppDatabase) -> (UUID) throws -> Record
    let insert: (AppDatabase) -> (Input, Actor) throws -> Record
    let change: (AppDatabase) -> (UUID, Input, _ expectedVersion: Int?, Actor) throws -> Record
    /// The search picker's Find button, when the form has one.
    var findButton: String?

    /// The new form with the submitted values, saving nothing.
    func filledNew(_ context: inout PageContext) throws -> Response {
        try show(&context, nil, submitted(context.request), ValidationError(), .ok)
    }

    /// The edit form with the submitted values, at the version they were typed on, saving nothing.
    func filledEdit(_ context: inout PageContext) throws -> Response {
        let record = try load(context.database)(context.request.uuidParameter())
        return try show(&context, record.atSubmittedVersion(context.request), submitted(context.request), ValidationError(), .ok)
    }

    func create(_ context: inout PageContext) throws -> Response {
        let input = submitted(context.request)
        if context.request.field(Self.checkField) == "1" { return Self.verdict(input) }
        if isFinding(context.request) { return try show(&context, nil, input, ValidationError(), .ok) }
        do {
            let record = try insert(context.database)(input, context.actor)
            return context.redirect(to: routes.record(record.id), flash: "\(noun) “\(record.name)” created.")
        } catch let errors as ValidationError {
            return try show(&context, nil, input, errors, .unprocessableContent)
        }
    }

    func update(_ context: inout PageContext) throws -> Response {
        let record = try load(context.database)(context.request.uuidParameter())
        let input = submitted(context.request)
        if context.request.field(Self.checkField) == "1" { return Self.verdict(input) }
        let edited = record.atSubmittedVersion(context.request)
        if isFinding(context.request) { return try show(&context, edited, input, ValidationError(), .ok) }
        do {
            let changed = try change(context.database)(record.id, input, Int(context.request.field("version")), context.actor)
            return context.redirect(to: routes.record(changed.id), flash: "\(noun) “\(changed.name)” saved.")
        } catch let errors as ValidationError {
            return try show(&context, edited, input, errors, .unprocessableContent)
        } catch DomainError.staleVersion {
            let current = try load(context.database)(record.id)
            return try show(&context, current, input, ValidationError.staleEdit(of: noun.lowercased()), .conflict)
        }
    }

    /// `{"errors": {"email": "Enter an email address like name@example.org"}}`: the same rules and words as on saving.
    /// Only the input's own rules: clashes with stored records (a name taken) are found when saving.
    static func verdict(_ input: Input) -> Response {
        let errors = Dictionary(input.problems().fieldErrors.map { ($0.field, $0.message) }) { first, _ in first }
        let body = (try? JSONSerialization.data(withJSONObject: ["errors": errors], options: [.sortedKeys])) ?? Data("{}".utf8)
        return Response(status: .ok, headers: [("Content-Type", "application/json"), ("Cache-Control", "no-store")], body: Array(body))
    }

    private func isFinding(_ request: Request) -> Bool { findButton.map { request.form[$0] != nil } ?? false }
}
