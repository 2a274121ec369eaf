import Foundation

/// What an imported file holds: one kind of record per file.
public enum ImportTarget: String, CaseIterable, Sendable {
    case participants, venues, activities, areas, assignments

    /// The kind in words, singular and plural.
    public var noun: (one: String, many: String) {
        switch self {
        case .participants: ("participant", "participants")
        case .venues: ("venue", "venues")
        case .activities: ("activity", "activities")
        case .areas: ("area", "areas")
        case .assignments: ("assignment", "assignments")
        }
    }

    /// The kinds in the order a new Fieldbook is filled: each after the kinds its rows name.
    public static let dependencyOrder: [ImportTarget] = [.areas, .venues, .participants, .activities, .assignments]

    /// The fields a column may hold, in the order the review offers them.
    public var fields: [ImportField] {
        switch self {
        case .participants: [.id, .name, .firstName, .lastName, .email, .phone, .notes, .homeVenue, .homeVenueAddress, .homeVenueArea]
        case .venues: [.id, .name, .address, .area, .latitude, .longitude, .venueType]
        case .activities: [.id, .name, .description, .activityType, .startDate, .endDate, .status, .venues]
        case .areas: [.id, .name, .areaType, .parent]
        case .assignments: [.id, .activity, .participant, .role, .assignedAt]
        }
    }
}

/// What a column of an imported file may hold.
public enum ImportField: String, CaseIterable, Sendable, Hashable {
    case id, name, firstName = "first_name", lastName = "last_name", email, phone, notes, homeVenue = "home_venue"
    case homeVenueAddress = "home_venue_address", homeVenueArea = "home_venue_area"
    case address, area, latitude, longitude, venueType = "venue_type", areaType = "area_type", parent
    case activity, participant, role, assignedAt = "assigned_at"
    case description, activityType = "activity_type", startDate = "start_date", endDate = "end_date", status, venues

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
        case .homeVenueAddress: "Home venue's address (tells venues of one name apart)"
        case .homeVenueArea: "Home venue's area (its path: where a home venue the import creates is)"
        case .address: "Address"
        case .area: "Area (its path, name or Fieldbook id)"
        case .areaType: "Area type"
        case .parent: "Parent area (its path, such as “World / Kenya / Nairobi”, name or Fieldbook id)"
        case .activity: "Activity (its name or Fieldbook id)"
        case .participant: "Participant (their email, name or Fieldbook id)"
        case .role: "Role (its name or Fieldbook id)"
        case .assignedAt: "Assigned at"
        case .latitude: "Latitude"
        case .longitude: "Longitude"
        case .venueType: "Venue type"
        case .description: "Description"
        case .activityType: "Activity type (its name or Fieldbook id)"
        case .startDate: "Start date"
        case .endDate: "End date"
        case .status: "Status"
        case .venues: "Venues (names or Fieldbook ids, separated by semicolons)"
        }
    }

    /// The column's heading in the review's table.
    public var heading: String {
        switch self {
        case .homeVenue: "Home venue"
        case .homeVenueAddress: "Home venue's address"
        case .homeVenueArea: "Home venue's area"
        case .area: "Area"
        case .parent: "Parent area"
        case .activity: "Activity"
        case .participant: "Participant"
        case .role: "Role"
        case .activityType: "Type"
        case .venues: "Venues"
        default: label
        }
    }

    /// Headers that mean this field in a file of `target`, folded as `ImportMapping.key` folds a header: Fieldbook's
    /// own export names first.
    func headers(in target: ImportTarget) -> [String] {
        switch self {
        case .id: ["id", "uuid", "fieldbookid"]
        case .name:
            ["name", "nom", "nombre"] + (target == .participants ? ["fullname", "participant", "participantname", "person"]
                : target == .venues ? ["venue", "venuename", "place", "location"]
                : target == .areas ? ["area", "areaname"] : ["activity", "activityname", "title"])
        case .firstName: ["firstname", "givenname", "forename", "prenom"]
        case .lastName: ["lastname", "surname", "familyname", "nomdefamille", "apellido"]
        case .email: ["email", "emailaddress", "mail", "courriel", "correo"]
        case .phone: ["phone", "phonenumber", "telephone", "tel", "mobile", "cell", "cellphone", "telefono"]
        case .notes: ["notes", "note", "comments", "comment", "remarks"]
        case .homeVenue: ["homevenueid", "homevenue", "homevenuename", "venue", "home"]
        case .homeVenueAddress: ["homevenueaddress", "venueaddress", "homeaddress"]
        case .homeVenueArea: ["homevenuearea", "homevenueareapath", "venuearea"]
        case .address: ["address", "streetaddress", "adresse", "direccion"]
        case .area: ["geographicareaid", "area", "areaname", "geographicarea", "neighbourhood", "neighborhood", "district"]
        case .latitude: ["latitude", "lat"]
        case .longitude: ["longitude", "lon", "lng", "long"]
        case .venueType: ["venuetype", "type", "kind"]
        case .areaType: ["areatype", "type", "kind"]
        case .parent: ["parentid", "parent", "parentarea", "parentpath", "within", "insideof"]
        case .activity: ["activityid", "activity", "activityname"]
        case .participant: ["participantid", "participant", "participantemail", "participantname", "person"]
        case .role: ["roleid", "role", "rolename", "participantrole"]
        case .assignedAt: ["assignedat", "assigned", "since"]
        case .description: ["description", "details", "summary"]
        case .activityType: ["activitytypeid", "activitytype", "type", "category"]
        case .startDate: ["startdate", "start", "starts", "from", "begins"]
        case .endDate: ["enddate", "end", "ends", "until", "to"]
        case .status: ["status", "state"]
        case .venues: ["venues", "venue", "venueids", "places", "where"]
        }
    }
}

/// Which field each column of an imported file holds (nil: the column is left out), guessed from the header row and
/// corrected by the person importing.
public struct ImportMapping: Sendable, Equatable {
    public var fields: [ImportField?]

    public init(fields: [ImportField?]) { self.fields = fields }

    /// The field each header names in a file of `target`, when one does; a field is given to its first column only.
    public static func guessed(from headers: [String], for target: ImportTarget) -> ImportMapping {
        var taken = Set<ImportField>()
        return ImportMapping(fields: headers.map { header in
            let key = Self.key(header)
            guard let field = target.fields.first(where: { $0.headers(in: target).contains(key) }), !taken.contains(field) else { return nil }
            taken.insert(field)
            return field
        })
    }

    /// A header folded for matching: lower case, no accents, letters and digits only ("E-mail address" is "emailaddress").
    static func key(_ header: String) -> String {
        let folded = header.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
        return String(folded.unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) }.map(Character.init))
    }

    /// Problems that stop the rows being read: a field chosen for two columns, a field the kind does not have, no
    /// column with the name (unless a column holds Fieldbook ids: rows that name a stored record keep its name).
    public func problems(headers: [String], target: ImportTarget) -> ValidationError {
        var errors = ValidationError()
        func named(_ column: Int) -> String { "“\(headers.indices.contains(column) ? headers[column] : "column \(column + 1)")”" }
        for field in ImportField.allCases {
            let columns = fields.indices.filter { fields[$0] == field }
            if !columns.isEmpty, !target.fields.contains(field) {
                errors.add("column-\(columns[0])", "\(named(columns[0])) cannot hold the \(field.heading.lowercased()): \(target.noun.many) have none. Choose another field or leave the column out")
            } else if columns.count > 1 {
                errors.add("column-\(columns[1])", "\(field.label) is chosen for \(columns.map(named).joined(separator: " and ")): choose it for one column only")
            }
        }
        if target == .assignments {
            for field in [ImportField.activity, .participant, .role] where !fields.contains(field) {
                errors.add("column-0", "Choose the column that holds each assignment's \(field.heading.lowercased())")
            }
            return errors
        }
        let names: Set<ImportField> = target == .participants ? [.name, .firstName, .lastName] : [.name]
        if !fields.contains(where: { $0.map(names.contains) ?? false }), !fields.contains(.id) {
            let what = target == .participants ? "each participant's name (or first and last names)" : "each \(target.noun.one)'s name"
            errors.add("column-0", "Choose the column that holds \(what)")
        }
        return errors
    }

    /// The row's value for each mapped field, trimmed; cells past the row's end are empty.
    public func values(_ cells: [String]) -> ImportedRow {
        var values: [ImportField: String] = [:]
        for (index, field) in fields.enumerated() {
            guard let field else { continue }
            values[field] = index < cells.count ? cells[index].trimmingCharacters(in: .whitespacesAndNewlines) : ""
        }
        return ImportedRow(values)
    }
}

/// One row of an imported file, read through its mapping.
public struct ImportedRow: Sendable, Equatable {
    public let values: [ImportField: String]

    public init(_ values: [ImportField: String]) { self.values = values }

    public subscript(field: ImportField) -> String { values[field] ?? "" }

    /// The name column, or first and last names joined.
    public var name: String {
        let whole = self[.name]
        return whole.isEmpty ? [self[.firstName], self[.lastName]].filter { !$0.isEmpty }.joined(separator: " ") : whole
    }

    /// The row without the values of `fields` (the name's parts go with the name), so a merge keeps what is stored.
    public func keeping(_ fields: Set<ImportField>) -> ImportedRow {
        guard !fields.isEmpty else { return self }
        let blanked = fields.contains(.name) ? fields.union([.firstName, .lastName]) : fields
        return ImportedRow(values.filter { !blanked.contains($0.key) })
    }

    /// The cells of a list column (venues), split at semicolons.
    public func list(_ field: ImportField) -> [String] {
        self[field].split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
}

extension ImportedRow {
    /// The row's value for `field` as the kind's form would be sent it: the name (or first and last names joined), and
    /// a choice written as its label (“Public building”) as its code.
    public func formText(_ field: ImportField) -> String {
        switch field {
        case .name: name
        case .venueType: Self.code(self[field], VenueType.allCases.map { ($0.rawValue, $0.label) })
        case .areaType: Self.code(self[field], AreaType.allCases.map { ($0.rawValue, $0.label) })
        case .status: Self.code(self[field], ActivityStatus.allCases.map { ($0.rawValue, $0.label) })
        default: self[field]
        }
    }

    /// A choice written as its code or its label, case and spaces ignored, as its code; anything else as written (the
    /// rule then says what it may be).
    static func code(_ text: String, _ choices: [(code: String, label: String)]) -> String {
        let key = ImportMapping.key(text)
        return choices.first { ImportMapping.key($0.code) == key || ImportMapping.key($0.label) == key }?.code ?? text
    }
}
