import Domain
import Foundation
import Translations

extension Venue {
    public static let declaration = RecordDeclaration<Venue>([
        RecordField(\.name, "name", .text, label: Message("Name"), rule: .text(VenueInput.Rules.name), [.searched, .listed]),
        RecordField(\.address, "address", .text, label: Message("Address"), rule: .text(VenueInput.Rules.address), [.searched, .listed]),
        RecordField(\.areaId, "geographic_area_id", .id, label: Message("Area"), rule: .id(VenueInput.Rules.areaId),
                    references: ("geographic_area", .restrict),
                    ifMissing: Message("The chosen area no longer exists; choose another")),
        RecordField(\.latitude, "latitude", .optionalReal, label: Message("Latitude"), rule: .number(VenueInput.Rules.latitude), example: "51.5072"),
        RecordField(\.longitude, "longitude", .optionalReal, label: Message("Longitude"), rule: .number(VenueInput.Rules.longitude), example: "-0.1276"),
        RecordField(\.venueType, "venue_type", .optionalChoice(VenueType.self), label: Message("Type"), rule: .choice(VenueInput.Rules.venueType)),
    ] + RecordField<Venue>.timestamps(created: \.createdAt, updated: \.updatedAt)) { id, version in
        Venue.blank(id: id, version: version)
    }

    /// What a write naming a venue that no longer exists is told: venues are found by searching for them.
    public static let missing = Message("The chosen venue no longer exists; search for another")

    public static let kind = RecordKind(entity: "venue", table: "venues", declaration, label: ("venue", "venues")) { _, _, fields, errors in
        CoordinatePair.check(fields, message: VenueInput.bothCoordinates, into: &errors)
    }
}

/// A stored location's coordinates, given or not, for `PairedFieldRules.bothCoordinatesOrNeither`.
enum CoordinatePair {
    static func check(_ fields: [String: JSONValue], message: Message, into errors: inout ValidationError) {
        func given(_ column: String) -> Bool { !fields.text(column).trimmingCharacters(in: .whitespaces).isEmpty }
        PairedFieldRules.bothCoordinatesOrNeither(latitudeGiven: given("latitude"), longitudeGiven: given("longitude"), message: message,
                                                  into: &errors)
    }
}

extension VenueInput: TypedInput {
    /// The input typed for a venue's fields.
    public init(_ texts: FieldTexts<Venue>) {
        self.init(name: texts[\.name], address: texts[\.address], areaId: texts[\.areaId], latitude: texts[\.latitude],
                  longitude: texts[\.longitude], venueType: texts[\.venueType])
    }
}
