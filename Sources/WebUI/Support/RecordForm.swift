import Domain
import Foundation
import HTTPServer
import Records
import Storage
import Surface

/// A record the pages create and edit with a form.
typealias FormRecord = NamedRecord

extension FormRecord {
    /// The record as the submitted form was made from it: a form shown again (a refused value, a search) goes on from
    /// that version, so a later submit is still checked against it and a change someone saved meanwhile is refused
    /// (409) rather than overwritten.
    func at(_ version: Int?) -> Self {
        var edited = self
        if let version { edited.version = version }
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

/// The typed texts of a kind declared only in Records are its input: its declared rules judge them.
extension FieldTexts: CheckableInput where Record: DeclaredKind {
    func problems() -> ValidationError { Self.problems { try Record.kind.check(NoRecords(), UUID(), Record.declaration.values(self)) } }
}

/// A store holding no records: the rules' verdict as you type reads none (clashes are found when saving).
private struct NoRecords: RecordLookup {
    func liveFields(of kind: RecordKind, id: UUID) throws -> [String: JSONValue]? { nil }
}

/// The form field that asks for the rules' verdict on the values so far, saving nothing (app.js, as you type).
let checkOnlyField = "check_only"

/// One submission of a record's create or edit form, read from the request once.
struct FormSubmission<Record, Input: CheckableInput> {
    /// What was typed for the record's declared fields, as the form shows them again.
    let texts: FieldTexts<Record>
    /// The input the texts and the form's own fields make, as the store saves it.
    let input: Input
    /// The version of the record the edit form was made from; nil on a new record's form.
    let version: Int?
    let intent: Intent

    enum Intent {
        case save
        /// Only the rules' verdict on the values, saving nothing.
        case check
        /// The search picker's Find button was pressed: the form again with the values, saving nothing.
        case find
    }

    /// `input`: the input the typed texts make; `findButton`: the search picker's Find button, when the form has one.
    init(_ request: Request, _ declaration: RecordDeclaration<Record>, findButton: String? = nil, input: (FieldTexts<Record>) -> Input) {
        texts = FieldTexts(declaration, request.field)
        self.input = input(texts)
        version = Int(request.field("version"))
        intent = request.field(checkOnlyField) == "1" ? .check : findButton.map { request.form[$0] != nil } == true ? .find : .save
    }

    /// `{"errors": {"email": "Enter an email address like name@example.org"}}`: the same rules and words as on saving.
    /// Only the input's own rules: clashes with stored records (a name taken) are found when saving.
    var verdict: Response {
        let errors = Dictionary(input.problems().fieldErrors.map { ($0.field, $0.message) }) { first, _ in first }
        let body = (try? JSONSerialization.data(withJSONObject: ["errors": errors], options: [.sortedKeys])) ?? Data("{}".utf8)
        return Response(status: .ok, headers: [("Content-Type", "application/json"), ("Cache-Control", "no-store")], body: Array(body))
    }
}

/// How the create and edit forms of areas, venues, participants and activities answer a submission: save, then go to the
/// record's page with a message; values a rule refuses show the form again with them and their errors (422); an edit
/// based on a version someone else replaced shows the current record with the typed values kept (409). A check or a
/// search picker's Find saves nothing. The page reads the record and the submission once and hands both here, with the
/// store's write to make; what comes back is sent as it is or shown as the page's form.
struct RecordForm<Record: FormRecord> {
    let routes: RecordRoutes
    /// The record's kind as messages begin ("Venue “Kibera Hall” saved.").
    let noun: String
    /// The field a stale edit's message is about: the form's first.
    var staleField = "name"

    enum Answer {
        case response(Response)
        /// The form again with the typed values, for the record as edited (nil for a new one), with these errors.
        case form(Record?, ValidationError, HTTPStatus)

        /// The answer as sent: `form` shows the page's form.
        func response(_ form: (Record?, ValidationError, HTTPStatus) throws -> Response) rethrows -> Response {
            switch self {
            case .response(let response): response
            case .form(let record, let errors, let status): try form(record, errors, status)
            }
        }
    }

    func create<Input>(_ context: PageContext, _ submission: FormSubmission<Record, Input>, insert: (Input) throws -> Record) throws -> Answer {
        switch submission.intent {
        case .check: return .response(submission.verdict)
        case .find: return .form(nil, ValidationError(), .ok)
        case .save: break
        }
        do {
            let record = try insert(submission.input)
            return .response(context.redirect(to: routes.record(record.id), flash: "\(noun) “\(record.name)” created."))
        } catch let errors as ValidationError {
            return .form(nil, errors, .unprocessableContent)
        }
    }

    /// `record`: as read for this request. On a stale version the form shows it: it is the current record, which the
    /// typed values were not based on.
    func update<Input>(_ context: PageContext, _ record: Record, _ submission: FormSubmission<Record, Input>,
                       change: (Input, _ expectedVersion: Int?) throws -> Record) throws -> Answer {
        let edited = record.at(submission.version)
        switch submission.intent {
        case .check: return .response(submission.verdict)
        case .find: return .form(edited, ValidationError(), .ok)
        case .save: break
        }
        do {
            let changed = try change(submission.input, submission.version)
            return .response(context.redirect(to: routes.record(changed.id), flash: "\(noun) “\(changed.name)” saved."))
        } catch let errors as ValidationError {
            return .form(edited, errors, .unprocessableContent)
        } catch DomainError.staleVersion {
            return .form(record, ValidationError.staleEdit(of: noun.lowercased(), field: staleField), .conflict)
        }
    }
}
