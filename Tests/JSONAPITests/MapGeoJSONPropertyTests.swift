import Domain
import Foundation
import HTTPServer
import PropertyBased
import Storage
import Testing

/// Properties 33 and 36 (seeds/000) over random communities and filters, checked against `/api/v1/map/venues` as a
/// client reads it. The expected answer is worked out here from what the test created, not from the store's queries.
@Suite struct MapGeoJSONPropertyTests {
    /// A venue the test made: its area index, and coordinates or none.
    struct MadeVenue {
        let id: UUID
        let area: Int
        let coordinates: (latitude: Double, longitude: Double)?
    }

    /// An activity the test made, held at one venue.
    struct MadeActivity {
        let type: UUID
        let status: ActivityStatus
        let start: CalendarDate
        let end: CalendarDate?
        let venue: Int
    }

    /// Areas: 0 is a city, 1 a neighbourhood inside it, 2 another city.
    struct Community {
        let harness: APIHarness
        let token: String
        let areas: [UUID]
        let types: [UUID]
        var venues: [MadeVenue] = []
        var activities: [MadeActivity] = []

        init() throws {
            harness = try APIHarness()
            token = try harness.token(.readOnly)
            let actor = Actor.system("test")
            let city = try harness.database.createArea(AreaInput(name: "City", areaType: "CITY", parentId: ""), by: actor)
            let inside = try harness.database.createArea(AreaInput(name: "Quarter", areaType: "NEIGHBOURHOOD", parentId: city.id.uuidString),
                                                         by: actor)
            let other = try harness.database.createArea(AreaInput(name: "Elsewhere", areaType: "CITY", parentId: ""), by: actor)
            areas = [city.id, inside.id, other.id]
            types = Array(try harness.database.categories(.activityType).prefix(3).map(\.id))
        }

        /// `picks` describe one venue each: area, whether it has coordinates, and where.
        mutating func addVenues(_ picks: [Int]) throws {
            for (index, pick) in picks.enumerated() {
                let hasCoordinates = pick % 4 != 0
                let latitude = Double(pick % 170) - 85 + 0.25, longitude = Double((pick * 7) % 358) - 179 + 0.5
                let venue = try harness.database.createVenue(VenueInput(
                    name: "Venue \(index)", address: "\(index) Road", areaId: areas[pick % 3].uuidString,
                    latitude: hasCoordinates ? "\(latitude)" : "", longitude: hasCoordinates ? "\(longitude)" : ""), by: .system("test"))
                venues.append(MadeVenue(id: venue.id, area: pick % 3, coordinates: hasCoordinates ? (latitude, longitude) : nil))
            }
        }

        /// `picks` describe one activity each: type, status, start month, length (0 = ongoing) and venue.
        mutating func addActivities(_ picks: [Int]) throws {
            guard !venues.isEmpty else { return }
            for (index, pick) in picks.enumerated() {
                let start = CalendarDate("2024-\(String(format: "%02d", pick % 12 + 1))-01")!
                let months = (pick / 12) % 5
                let end = months == 0 ? nil : CalendarDate("\(2024 + (pick % 12 + months) / 12)-\(String(format: "%02d", (pick % 12 + months) % 12 + 1))-01")
                let made = MadeActivity(type: types[pick % types.count], status: ActivityStatus.allCases[(pick / 5) % 4], start: start,
                                        end: end, venue: (pick / 3) % venues.count)
                try harness.database.createActivity(ActivityInput(
                    name: "Activity \(index)", typeId: made.type.uuidString, startDate: start.description,
                    duration: end == nil ? "ongoing" : "finite", endDate: end?.description ?? "", status: made.status.rawValue,
                    venueIds: [venues[made.venue].id.uuidString]), by: .system("test"))
                activities.append(made)
            }
        }

        /// The features of `/api/v1/map/venues` with `query`, by venue id.
        func features(_ query: String = "") -> [String: [String: Any]] {
            let answer = harness.send(.get, "/api/v1/map/venues" + query, token: token)
            #expect(answer.status == 200, "\(query): \(answer.status) \(answer.errorMessage)")
            #expect(answer.response.header("Content-Type") == "application/geo+json")
            let features = answer.json["features"] as? [[String: Any]] ?? []
            return Dictionary(features.map { ($0["id"] as? String ?? "", $0) }) { first, _ in first }
        }
    }

    // Feature: fieldbook, Property 33: Map Annotation Display
    @Test func property33_everyVenueWithCoordinatesIsOnTheMapWhereItIs() async throws {
        await propertyCheck(count: 15, input: Gen.int(in: 0...400).array(of: 0...14), Gen.int(in: 0...400).array(of: 0...10)) { venuePicks, activityPicks in
            var community = try Community()
            try community.addVenues(venuePicks)
            try community.addActivities(activityPicks)
            let features = community.features()
            let located = community.venues.filter { $0.coordinates != nil }
            #expect(Set(features.keys) == Set(located.map { $0.id.uuidString.lowercased() }))
            for venue in located {
                let geometry = features[venue.id.uuidString.lowercased()]?["geometry"] as? [String: Any]
                let position = geometry?["coordinates"] as? [Double] ?? []
                #expect(geometry?["type"] as? String == "Point")
                #expect(position == [venue.coordinates!.longitude, venue.coordinates!.latitude])
            }
        }
    }

    // Feature: fieldbook, Property 36: Map Filter Application
    @Test func property36_onlyVenuesWithMatchingActivitiesAreShown() async throws {
        await propertyCheck(count: 25, input: Gen.int(in: 0...400).array(of: 1...12), Gen.int(in: 0...400).array(of: 0...16),
                            Gen.int(in: 0...1000).array(of: 5)) { venuePicks, activityPicks, filterPicks in
            var community = try Community()
            try community.addVenues(venuePicks)
            try community.addActivities(activityPicks)
            // Each filter is present about half the time.
            let type = filterPicks[0] % 2 == 0 ? community.types[filterPicks[0] / 2 % community.types.count] : nil
            let status = filterPicks[1] % 2 == 0 ? ActivityStatus.allCases[filterPicks[1] / 2 % 4] : nil
            let from = filterPicks[2] % 2 == 0 ? CalendarDate("2024-\(String(format: "%02d", filterPicks[2] / 2 % 12 + 1))-15") : nil
            let to = filterPicks[3] % 2 == 0 ? CalendarDate("2025-\(String(format: "%02d", filterPicks[3] / 2 % 12 + 1))-10") : nil
            let area = filterPicks[4] % 2 == 0 ? filterPicks[4] / 2 % 3 : nil
            var parameters: [(String, String)] = []
            if let type { parameters.append(("activity_type_id", type.uuidString.lowercased())) }
            if let status { parameters.append(("status", status.rawValue)) }
            if let from { parameters.append(("from", from.description)) }
            if let to { parameters.append(("to", to.description)) }
            if let area { parameters.append(("area_id", community.areas[area].uuidString.lowercased())) }
            let query = parameters.isEmpty ? "" : "?" + parameters.map { "\($0.0)=\($0.1)" }.joined(separator: "&")

            func matches(_ activity: MadeActivity) -> Bool {
                (type == nil || activity.type == type) && (status == nil || activity.status == status)
                    && (to == nil || activity.start <= to!) && (from == nil || activity.end == nil || activity.end! >= from!)
            }
            // Area 0 contains area 1.
            func inArea(_ venue: MadeVenue) -> Bool { area == nil || venue.area == area || (area == 0 && venue.area == 1) }
            let filtersActivities = type != nil || status != nil || from != nil || to != nil
            let expected = community.venues.enumerated().filter { index, venue in
                venue.coordinates != nil && inArea(venue)
                    && (!filtersActivities || community.activities.contains { $0.venue == index && matches($0) })
            }.map { $0.element.id.uuidString.lowercased() }

            let features = community.features(query)
            #expect(Set(features.keys) == Set(expected), "filters \(query)")
            for feature in features.values {
                let activities = (feature["properties"] as? [String: Any])?["activities"] as? [[String: Any]] ?? []
                if filtersActivities { #expect(!activities.isEmpty) }
                for activity in activities {
                    if let type { #expect(activity["activity_type_id"] as? String == type.uuidString.lowercased()) }
                    if let status { #expect(activity["status"] as? String == status.rawValue) }
                    if let to { #expect((activity["start_date"] as? String ?? "") <= to.description) }
                    if let from, let end = activity["end_date"] as? String { #expect(end >= from.description) }
                }
            }
        }
    }

    // A date the document does not allow is refused with the parameter's name, not ignored.
    @Test func aMalformedDateIsRefused() throws {
        let community = try Community()
        let answer = community.harness.send(.get, "/api/v1/map/venues?from=2025-13-40", token: community.token)
        #expect(answer.status == 400)
        #expect(answer.errorMessage.contains("from"))
    }
}
