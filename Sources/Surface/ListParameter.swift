import HTTPServer

/// The query parameters of record lists, named once: the pages' filter forms and the API's list operations read the same
/// names (the API's published ones), so a page address and an API address filter alike.
public enum ListParameter: String, Sendable, CaseIterable {
    /// Words the name (and address or email) contains.
    case text = "q"
    case areaId = "area_id"
    /// Activities held at this venue now.
    case venueId = "venue_id"
    case venueType = "venue_type"
    case activityTypeId = "activity_type_id"
    case status
    /// With or without a home venue.
    case home
    case sort
    case order
    case page
    case perPage = "per_page"
    /// A date range's first and last day (activities, on the list and the map, whose dates overlap it).
    case from
    case to
    /// The stops of one visit list (the map shows where they are).
    case visitListId = "visit_list_id"

    public var name: String { rawValue }
}

extension Request {
    /// A list parameter's value from the query string, nil when absent.
    public func query(_ parameter: ListParameter) -> String? { query[parameter.name] }
}

extension RoutePattern {
    /// A list's address narrowed by one parameter, e.g. `/venues?area_id=…`.
    public func filtered(by parameter: ListParameter, _ value: String) -> String {
        self() + "?" + QueryString.encode(Parameters([(name: parameter.name, value: value)]))
    }
}
