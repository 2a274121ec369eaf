import Domain
import Foundation
import Translations

extension Activity {
    public static let declaration = RecordDeclaration<Activity>([
        RecordField(\.name, "name", .text, label: Message("Name"), rule: .text(ActivityInput.Rules.name), [.searched, .listed]),
        RecordField(\.description, "description", .optionalText, label: Message("Description"), rule: .text(ActivityInput.Rules.description)),
        RecordField(\.typeId, "activity_type_id", .id, label: Message("Type"), rule: .id(ActivityInput.Rules.typeId),
                    references: ("activity_type", .restrict), ifMissing: Message("The chosen activity type no longer exists; choose another"), .listed),
        RecordField(\.startDate, "start_date", .day, label: Message("Start date"), rule: .date(ActivityInput.Rules.startDate), .listed),
        RecordField(\.endDate, "end_date", .optionalDay, label: Message("End date"), rule: .date(ActivityInput.Rules.endDate), .listed),
        RecordField(\.status, "status", .choice(.active), label: Message("Status"), rule: .choice(ActivityInput.Rules.status), .listed),
    ] + RecordField<Activity>.timestamps(created: \.createdAt, updated: \.updatedAt)) { id, version in
        Activity.blank(id: id, version: version)
    }

    public static let kind = RecordKind(entity: "activity", table: "activities", declaration, label: ("activity", "activities")) { _, _, fields, errors in
        PairedFieldRules.endAfterStart(start: CalendarDate.strict(fields.text("start_date")), end: CalendarDate.strict(fields.text("end_date")),
                                       into: &errors)
    }
}

extension ActivityInput {
    /// The input typed for an activity's fields, with what only its form and body carry: whether it is ongoing, its
    /// venues and from when changes to them apply.
    public init(_ texts: FieldTexts<Activity>, duration: String, venueIds: [String], venuesFrom: String = "") {
        self.init(name: texts[\.name], description: texts[\.description], typeId: texts[\.typeId], startDate: texts[\.startDate],
                  duration: duration, endDate: texts[\.endDate], status: texts[\.status], venueIds: venueIds, venuesFrom: venuesFrom)
    }
}
