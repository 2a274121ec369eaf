import Domain
import Foundation
import HTTPServer
import Records
import Storage
import Surface
import Translations

/// What a kind's create or edit form shows in its fields.
enum FormValues<Record, Input: CheckableInput> {
    /// A new record's form as first shown.
    case blank
    /// The edit form of a stored record as first shown.
    case stored(Record)
    /// What was submitted, shown again (a refused value, a search, a form sent after its session ended).
    case submitted(FormSubmission<Record, Input>)
}

/// The pages of a kind people create, edit and delete with forms (areas, venues, participants, activities): the flow
/// every such kind shares (read the record and the submission once, save through `RecordForm`, show the form again on
/// a refusal, refuse a delete while something needs the record) is written here once. A kind gives what is its own:
/// how it reads and writes its records, its form, its delete page, and optionally a check before saving.
protocol FormRecordPages: RecordPages {
    associatedtype Record: FormRecord
    associatedtype Input: CheckableInput
    /// The kind's addresses and its noun in messages.
    static var forms: RecordForm<Record> { get }
    /// The record the request's address names.
    static func stored(_ context: PageContext) throws -> Record
    /// The submission of the kind's form, read from the request once.
    static func submitted(_ request: Request) -> FormSubmission<Record, Input>
    static func insert(_ input: Input, _ context: PageContext) throws -> Record
    static func change(_ record: Record, _ input: Input, expectedVersion: Int?, _ context: PageContext) throws -> Record
    static func remove(_ record: Record, _ context: PageContext) throws
    /// The create form (`record` nil) or the edit form of `record`, filled with `values`.
    static func form(_ context: inout PageContext, record: Record?, _ values: FormValues<Record, Input>, errors: ValidationError,
                     status: HTTPStatus) throws -> Response
    /// The delete confirmation, or the reasons the record cannot be deleted.
    static func deletePage(_ context: inout PageContext, record: Record, status: HTTPStatus) throws -> Response
    /// What to show instead of saving a submission the rules accept (a participant who may already be recorded); nil
    /// saves as usual.
    static func beforeSaving(_ context: inout PageContext, record: Record?, _ submission: FormSubmission<Record, Input>) throws -> Response?
    /// The message the list shows once the record is deleted.
    static func deleted(_ record: Record) -> Message
}

extension FormRecordPages {
    static func beforeSaving(_ context: inout PageContext, record: Record?, _ submission: FormSubmission<Record, Input>) throws -> Response? {
        nil
    }

    static func deleted(_ record: Record) -> Message { Message.verbatim("\(forms.noun) “\(record.name)” deleted.") }

    static func newForm(_ context: inout PageContext) throws -> Response {
        try form(&context, record: nil, .blank, errors: ValidationError(), status: .ok)
    }

    static func filledNewForm(_ context: inout PageContext) throws -> Response {
        try form(&context, record: nil, .submitted(submitted(context.request)), errors: ValidationError(), status: .ok)
    }

    static func create(_ context: inout PageContext) throws -> Response {
        let submission = submitted(context.request)
        if let answer = try beforeSaving(&context, record: nil, submission) { return answer }
        return try forms.create(context, submission) { try insert($0, context) }
            .response { try form(&context, record: $0, .submitted(submission), errors: $1, status: $2) }
    }

    static func editForm(_ context: inout PageContext) throws -> Response {
        let record = try stored(context)
        return try form(&context, record: record, .stored(record), errors: ValidationError(), status: .ok)
    }

    static func filledEditForm(_ context: inout PageContext) throws -> Response {
        let record = try stored(context)
        let submission = submitted(context.request)
        return try form(&context, record: record.at(submission.version), .submitted(submission), errors: ValidationError(), status: .ok)
    }

    static func update(_ context: inout PageContext) throws -> Response {
        let record = try stored(context)
        let submission = submitted(context.request)
        if let answer = try beforeSaving(&context, record: record, submission) { return answer }
        return try forms.update(context, record, submission) { try change(record, $0, expectedVersion: $1, context) }
            .response { try form(&context, record: $0, .submitted(submission), errors: $1, status: $2) }
    }

    static func deleteConfirmation(_ context: inout PageContext) throws -> Response {
        try deletePage(&context, record: try stored(context), status: .ok)
    }

    static func delete(_ context: inout PageContext) throws -> Response {
        let record = try stored(context)
        do {
            try remove(record, context)
            return context.redirect(to: forms.routes.list(), flash: deleted(record))
        } catch DomainError.stillReferenced {
            return try deletePage(&context, record: record, status: .conflict)
        }
    }
}

/// A kind's input made from what was typed for its declared fields alone (`AreaInput(_:)`).
protocol DeclaredInput: CheckableInput {
    associatedtype Record
    init(_ texts: FieldTexts<Record>)
}

extension AreaInput: DeclaredInput {}
extension VenueInput: DeclaredInput {}

extension FormRecordPages where Record: DeclaredRecord {
    static func stored(_ context: PageContext) throws -> Record { try context.database.record(Record.self, id: context.request.uuidParameter()) }
}

extension FormRecordPages where Record: DeclaredRecord, Input: DeclaredInput, Input.Record == Record {
    static func submitted(_ request: Request) -> FormSubmission<Record, Input> { FormSubmission(request, Record.declaration, input: Input.init) }
}

extension FormValues {
    /// The texts the form's declared fields show: `blank` for a new record's form.
    func texts(_ declaration: RecordDeclaration<Record>, blank: (String) -> String = { _ in "" }) -> FieldTexts<Record> {
        switch self {
        case .blank: FieldTexts(declaration, blank)
        case .stored(let record): FieldTexts(declaration, record: record)
        case .submitted(let submission): submission.texts
        }
    }
}
