import Domain
import Foundation
import Translations

extension VisitList {
    public static let declaration = RecordDeclaration<VisitList>([
        RecordField(\.name, "name", .text, label: Message("Name"), rule: .text(VisitListInput.Rules.name), .listed),
        RecordField(\.visitDate, "visit_date", .day, label: Message("Day"), rule: .date(VisitListInput.Rules.visitDate), .listed),
        RecordField(\.purpose, "purpose", .text, label: Message("Purpose"), rule: .text(VisitListInput.Rules.purpose)),
        RecordField(\.script, "script", .text, label: Message("Notes or script"), rule: .text(VisitListInput.Rules.script)),
        RecordField(\.assigneeId, "assigned_user_id", .id, label: Message("Organizer"), rule: .id(VisitListInput.Rules.assigneeId),
                    references: ("user", .restrict), ifMissing: notAnOrganizer, .listed),
        RecordField(\.status, "status", .choice(.planned), label: Message("Status"), rule: .choice(VisitListInput.Rules.status), .listed),
    ] + RecordField<VisitList>.timestamps(created: \.createdAt, updated: \.updatedAt)) { id, version in
        VisitList.blank(id: id, version: version)
    }

    /// What a list given to someone who cannot log visits (or to no one) is told.
    public static let notAnOrganizer = Message("Choose an editor or administrator whose account is enabled; read-only users cannot log visits")

    public static let kind = RecordKind(entity: "visit_list", table: "visit_lists", declaration, label: ("visit list", "visit lists"))
}

extension VisitListInput: TypedInput {
    /// The input typed for a visit list's fields.
    public init(_ texts: FieldTexts<VisitList>) {
        self.init(name: texts[\.name], visitDate: texts[\.visitDate], purpose: texts[\.purpose], script: texts[\.script],
                  assigneeId: texts[\.assigneeId], status: texts[\.status])
    }
}
