import Domain
import Foundation

extension Venue {
    public static let declaration = RecordDeclaration<Venue>([
        RecordField(\.name, "name", .text, label: "Name", rule: .text(VenueInput.Rules.name), [.searched, .listed]),
        RecordField(\.address, "address", .text, label: "Address", rule: .text(VenueInput.Rules.address), [.searched, .listed]),
        RecordField(\.areaId, "geographic_area_id", .id, label: "Area", rule: .id(VenueInput.Rules.areaId),
                    references: ("geographic_area", .restrict)),
        RecordField(\.latitude, "latitude", .optionalReal, label: "Latitude", rule: .number(VenueInput.Rules.latitude), example: "51.5072"),
        RecordField(\.longitude, "longitude", .optionalReal, label: "Longitude", rule: .number(VenueInput.Rules.longitude), example: "-0.1276"),
        RecordField(\.venueType, "venue_type", .optionalChoice(VenueType.self), label: "Type", rule: .choice(VenueInput.Rules.venueType)),
    ] + RecordField<Venue>.timestamps(created: \.createdAt, updated: \.updatedAt)) { id, version in
        Venue(id: id, name: "", address: "", areaId: .zero, latitude: nil, longitude: nil, venueType: nil, version: version,
              createdAt: Date(), updatedAt: Date())
    }

    public static let kind = RecordKind(entity: "venue", table: "venues", declaration, label: ("venue", "venues"),
                                        listPath: "/venues") { _, _, fields, errors in
        CoordinatePair.check(fields, message: "Enter both latitude and longitude, or leave both empty", into: &errors)
    }
}

/// A location is both coordinates or neither.
enum CoordinatePair {
    /// Adds `message` at the missing coordinate when only one is given and neither is wrong on its own.
    static func check(_ fields: [String: JSONValue], message: String, into errors: inout ValidationError) {
        let latitude = fields.text("latitude").trimmingCharacters(in: .whitespaces), longitude = fields.text("longitude").trimmingCharacters(in: .whitespaces)
        guard errors.message(for: "latitude") == nil, errors.message(for: "longitude") == nil, latitude.isEmpty != longitude.isEmpty else { return }
        errors.add(latitude.isEmpty ? "latitude" : "longitude", message)
    }
}
