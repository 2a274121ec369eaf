import Domain
import Foundation

extension VisitList {
    public static let declaration = RecordDeclaration<VisitList>([
        RecordField(\.name, "name", .text, label: "Name", rule: .text(VisitListInput.Rules.name), .listed),
        RecordField(\.visitDate, "visit_date", .day, label: "Day", rule: .date(VisitListInput.Rules.visitDate), .listed),
        RecordField(\.purpose, "purpose", .text, label: "Purpose", rule: .text(VisitListInput.Rules.purpose)),
        RecordField(\.script, "script", .text, label: "Notes or script", rule: .text(VisitListInput.Rules.script)),
        RecordField(\.assigneeId, "assigned_user_id", .id, label: "Organizer", rule: .id(VisitListInput.Rules.assigneeId),
                    references: ("user", .restrict), .listed),
        RecordField(\.status, "status", .choice(.planned), label: "Status", rule: .choice(VisitListInput.Rules.status), .listed),
    ] + RecordField<VisitList>.timestamps(created: \.createdAt, updated: \.updatedAt)) { id, version in
        VisitList(id: id, name: "", visitDate: CalendarDate("2000-01-01")!, purpose: "", script: "", assigneeId: .zero, status: .planned,
                  version: version, createdAt: Date(), updatedAt: Date())
    }

    public static let kind = RecordKind(entity: "visit_list", table: "visit_lists", declaration, label: ("visit list", "visit lists"),
                                        listPath: "/visit-lists")
}
