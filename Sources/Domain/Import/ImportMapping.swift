import Foundation

/// What a column of an imported participant file may hold.
public enum ImportField: String, CaseIterable, Sendable, Hashable {
    case id, name, firstName = "first_name", lastName = "last_name", email, phone, notes, homeVenue = "home_venue"

    public var label: String {
        switch self {
        case .id: "Fieldbook id"
        case .name: "Name"
        case .firstName: "First name"
        case .lastName: "Last name"
        case .email: "Email address"
        case .phone: "Phone"
        case .notes: "Notes"
        case .homeVenue: "Home venue (its name or Fieldbook id)"
        }
    }

    /// Headers that mean this field, folded as `ImportMapping.key` folds a header: Fieldbook's own export names first.
    var headers: [String] {
        switch self {
        case .id: ["id", "uuid", "fieldbookid"]
        case .name: ["name", "fullname", "participant", "participantname", "person", "nom", "nombre"]
        case .firstName: ["firstname", "givenname", "forename", "prenom"]
        case .lastName: ["lastname", "surname", "familyname", "nomdefamille", "apellido"]
        case .email: ["email", "emailaddress", "mail", "courriel", "correo"]
        case .phone: ["phone", "phonenumber", "telephone", "tel", "mobile", "cell", "cellphone", "telefono"]
        case .notes: ["notes", "note", "comments", "comment", "remarks"]
        case .homeVenue: ["homevenueid", "homevenue", "venue", "home"]
        }
    }
}

/// Which field each column of an imported file holds (nil: the column is left out), guessed from the header row and
/// corrected by the person importing.
public struct ImportMapping: Sendable, Equatable {
    public var fields: [ImportField?]

    public init(fields: [ImportField?]) { self.fields = fields }

    /// The field each header names, when one does; a field is given to its first column only.
    public static func guessed(from headers: [String]) -> ImportMapping {
        var taken = Set<ImportField>()
        return ImportMapping(fields: headers.map { header in
            let key = Self.key(header)
            guard let field = ImportField.allCases.first(where: { $0.headers.contains(key) }), !taken.contains(field) else { return nil }
            taken.insert(field)
            return field
        })
    }

    /// A header folded for matching: lower case, no accents, letters and digits only ("E-mail address" is "emailaddress").
    static func key(_ header: String) -> String {
        let folded = header.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
        return String(folded.unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) }.map(Character.init))
    }

    /// Problems that stop the rows being read: a field chosen for two columns, no column with the name.
    public func problems(headers: [String]) -> ValidationError {
        var errors = ValidationError()
        for field in ImportField.allCases {
            let columns = fields.indices.filter { fields[$0] == field }
            if columns.count > 1 {
                let names = columns.map { "“\(headers.indices.contains($0) ? headers[$0] : "column \($0 + 1)")”" }
                errors.add("column-\(columns[1])", "\(field.label) is chosen for \(names.joined(separator: " and ")): choose it for one column only")
            }
        }
        if !fields.contains(.name), !fields.contains(.firstName), !fields.contains(.lastName) {
            errors.add("column-0", "Choose the column that holds each participant's name (or first and last names)")
        }
        return errors
    }

    /// The row's value for each mapped field, trimmed; cells past the row's end are empty.
    public func values(_ cells: [String]) -> ImportedParticipant {
        var values: [ImportField: String] = [:]
        for (index, field) in fields.enumerated() {
            guard let field else { continue }
            values[field] = index < cells.count ? cells[index].trimmingCharacters(in: .whitespacesAndNewlines) : ""
        }
        return ImportedParticipant(values)
    }
}

/// One row of a participant file, read through its mapping.
public struct ImportedParticipant: Sendable, Hashable {
    public let values: [ImportField: String]

    public init(_ values: [ImportField: String]) { self.values = values }

    public subscript(field: ImportField) -> String { values[field] ?? "" }

    /// The name column, or first and last names joined.
    public var name: String {
        let whole = self[.name]
        return whole.isEmpty ? [self[.firstName], self[.lastName]].filter { !$0.isEmpty }.joined(separator: " ") : whole
    }

    /// What the participant form would be sent, the home venue given as `homeVenueId` (resolved beforehand from a name).
    public func input(homeVenueId: String) -> ParticipantInput {
        ParticipantInput(name: name, email: self[.email], phone: self[.phone], notes: self[.notes], homeVenueId: homeVenueId)
    }

    /// The row's values merged over a stored participant's: each value the file gives replaces the stored one, an empty
    /// cell keeps what is stored.
    public func input(over stored: ParticipantInput, homeVenueId: String) -> ParticipantInput {
        func chosen(_ file: String, _ kept: String) -> String { file.isEmpty ? kept : file }
        return ParticipantInput(name: chosen(name, stored.name), email: chosen(self[.email], stored.email), phone: chosen(self[.phone], stored.phone),
                                notes: chosen(self[.notes], stored.notes), homeVenueId: chosen(homeVenueId, stored.homeVenueId))
    }
}
