import Domain
import Foundation
import HTTPServer
import Storage

/// Reads a record list's parameters (`ListParameter`) from a request. The JSON API reads strictly and refuses a value
/// its document does not allow (400); pages read leniently and ignore such a value, so a hand-edited address still
/// shows the list. Each list's query is built from a reader in one place (below), whichever surface asks.
public protocol ListParameterReader {
    func text(_ parameter: ListParameter) -> String
    func uuid(_ parameter: ListParameter) throws -> UUID?
    func choice<Value: RawRepresentable & CaseIterable>(_ parameter: ListParameter, as type: Value.Type) throws -> Value?
        where Value.RawValue == String
    /// Which page, and how long pages are.
    func page() throws -> PageRequest
    /// A day written 2025-03-12.
    func date(_ parameter: ListParameter) throws -> CalendarDate?
}

/// The `order` list parameter.
public enum SortOrder: String, CaseIterable, Sendable { case asc, desc }

extension ListParameterReader {
    /// `order=asc|desc`, or the list's default.
    func descending(default value: Bool) throws -> Bool {
        try choice(.order, as: SortOrder.self).map { $0 == .desc } ?? value
    }
}

/// The pages' reader: a value that is not allowed counts as absent; pages are always the default length.
public struct LenientListReader: ListParameterReader {
    let request: Request

    public init(_ request: Request) { self.request = request }

    public func text(_ parameter: ListParameter) -> String { request.query(parameter) ?? "" }
    public func uuid(_ parameter: ListParameter) -> UUID? { request.query(parameter).flatMap(UUID.init(uuidString:)) }
    public func choice<Value: RawRepresentable & CaseIterable>(_ parameter: ListParameter, as type: Value.Type) -> Value?
        where Value.RawValue == String {
        request.query(parameter).flatMap(Value.init(rawValue:))
    }
    /// A page says when its total is an estimate, so it may show one.
    public func page() -> PageRequest { PageRequest(page: request.query(.page).flatMap(Int.init) ?? 1, mayEstimateTotal: true) }
    public func date(_ parameter: ListParameter) -> CalendarDate? { request.query(parameter).flatMap(CalendarDate.init) }
}

extension VenueQuery {
    public init(reading list: some ListParameterReader) throws {
        self = .unfiltered
        (text, areaId) = (list.text(.text), try list.uuid(.areaId))
        venueType = try list.choice(.venueType, as: VenueType.self)
        sort = try list.choice(.sort, as: Sort.self) ?? .name
        page = try list.page()
    }
}

extension ParticipantQuery {
    public init(reading list: some ListParameterReader) throws {
        self = .unfiltered
        (text, areaId) = (list.text(.text), try list.uuid(.areaId))
        home = try list.choice(.home, as: HomeFilter.self) ?? .any
        sort = try list.choice(.sort, as: Sort.self) ?? .name
        (descending, page) = (try list.descending(default: false), try list.page())
    }
}

extension ActivityQuery {
    public init(reading list: some ListParameterReader) throws {
        self = .unfiltered
        (text, typeId) = (list.text(.text), try list.uuid(.activityTypeId))
        status = try list.choice(.status, as: ActivityStatus.self)
        (areaId, venueId) = (try list.uuid(.areaId), try list.uuid(.venueId))
        (from, to) = (try list.date(.from), try list.date(.to))
        sort = try list.choice(.sort, as: Sort.self) ?? .start
        (descending, page) = (try list.descending(default: true), try list.page())
    }
}

extension MapQuery {
    public init(reading list: some ListParameterReader) throws {
        self.init(typeId: try list.uuid(.activityTypeId), status: try list.choice(.status, as: ActivityStatus.self),
                  from: try list.date(.from), to: try list.date(.to), areaId: try list.uuid(.areaId),
                  visitListId: try list.uuid(.visitListId))
    }
}
